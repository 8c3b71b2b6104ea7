"""What an answer's text is: its inline citation markers ("[3]", "[1, 4]"), and whether it says the documents hold no
answer (an empty reply, citation markers only, or a refusal in words)."""

from __future__ import annotations

import re

NO_ANSWER = "The documents do not contain the answer."
CITE = re.compile(r"\s*\[(\d+(?:\s*[,;]\s*\d+)*)\]")  # an inline citation marker: [3], [1, 4]
_REFUSAL = re.compile(
    r"(do(es)? not contain|not (found|mentioned|provided|available) in|no information|cannot (be )?answer|"
    r"can't answer|unable to answer|not enough information|do(es)? not (say|state|specify|mention|describe))",
    re.IGNORECASE,
)


def markers_only(text: str) -> bool:
    """No word left once the citation markers are removed ("", "[1] [2].", a marker split off its sentence)."""
    return not re.sub(r"[\W_]", "", CITE.sub("", text))


def is_refusal(text: str) -> bool:
    """An empty answer (or nothing but citation markers, which small models sometimes emit), or one that says
    the documents do not hold the answer."""
    return markers_only(text) or bool(_REFUSAL.search(text))
