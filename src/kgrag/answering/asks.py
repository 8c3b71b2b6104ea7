"""Wordings that say what shape of question this is: where a second question starts ("…, and what …"), and whether
it asks how two things differ. Kept apart from `terms` so retrieval and answering read them the same way."""

from __future__ import annotations

import re

# Where a second question starts: "…, and what …", "…; which …", "… and how …" (the one pattern behind `second_question`).
_SECOND_QUESTION = re.compile(r"(?:(?P<comma>[,;])\s*(?:(?P<conj>and|or)\s+)?|\s+(?P<bare>and)\s+)"
                              r"(?P<word>what|which|how|where|when|why|who)\b", re.IGNORECASE)
ASK_WORDS = frozenset({"what", "which", "how", "where", "when", "why", "who"})


def second_question(question: str, *, bare_and: bool = False, conjunctions: frozenset[str] = frozenset({"", "and", "or"}),
                    words: frozenset[str] = ASK_WORDS) -> re.Match[str] | None:
    """The first place a second question starts: after a comma (with one of `conjunctions`: "" for none) or, with
    `bare_and`, after a plain "and"; its question word one of `words` (the match's "word" group)."""
    for m in _SECOND_QUESTION.finditer(question):
        if m["bare"] and not bare_and or not m["bare"] and (m["conj"] or "").lower() not in conjunctions:
            continue
        if m["word"].lower() in words:
            return m
    return None


# "What is the difference between the A and the B?", "Do the A and the B have the same sensors?", "Is the A just a
# renamed B, or did its components change?"
_DIFFERENCE = re.compile(r"\b(?:differ\w*|difference|same(?!\s+time)|renamed|changed|equivalent|identical|versus|vs\.?)\b"
                         r"|\b(?:did|has|have)\b[^?,]{0,30}\bchange\b", re.IGNORECASE)  # "did its parts change"; not "what do I change"


def asks_difference(question: str) -> bool:
    """The question asks how two things differ, or whether they are the same."""
    return bool(_DIFFERENCE.search(question))


# "Summarize the sensing capabilities of the A", "Give an overview of …", "Describe the …", "Outline …"
# Words asking for an overview ("Summarize the power tree …"): an instruction, not what the question is about
OVERVIEW_WORDS = frozenset({"summarize", "summarise", "summary", "overview", "describe", "outline"})


# "What are the main features of the A?", "its key specifications": the whole list asked, not one fact
_MAIN_FEATURES = re.compile(r"\b(?:main|key|major)\s+(?:hardware\s+)?(?:features|specs|specifications|capabilities|"
                            r"characteristics)\b", re.IGNORECASE)


def asks_overview(question: str) -> bool:
    """The question asks for an overview of something rather than one fact."""
    words = re.findall(r"[a-z]+", question.lower())
    return any(w in OVERVIEW_WORDS or w.startswith("summar") for w in words) or bool(_MAIN_FEATURES.search(question))
