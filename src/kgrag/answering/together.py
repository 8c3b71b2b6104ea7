"""Yes/no questions asking to use two functions at once ("keep a GPS fix running while uploading over LTE-M at the
same time?"): datasheets state such limits as notes ("GNSS and cellular services cannot be used simultaneously"),
and the note decides "No." whatever the functions are called in the question."""

from __future__ import annotations

import re

from kgrag.answering.select import Scored

# The question asks for two things at once
_AT_ONCE = re.compile(r"\b(?:at the same time|simultaneous(?:ly)?|concurrent(?:ly)?|at once|in parallel)\b", re.IGNORECASE)
# A passage saying two things cannot run at once: "cannot be used simultaneously", "are not available at the same
# time", "are mutually exclusive"
_NOT_AT_ONCE = re.compile(r"\b(?:cannot|can't|can not|not|never)\b(?:\s+[\w-]+){0,3}?\s+(?:simultaneous(?:ly)?|"
                          r"at the same time|concurrent(?:ly)?|in parallel|at once)\b|\bmutually exclusive\b",
                          re.IGNORECASE)


def asks_at_once(question: str) -> bool:
    """The question asks to do two things at the same time."""
    return _AT_ONCE.search(question) is not None


def not_at_once(question: str, about: list[Scored]) -> Scored | None:
    """The product's unit (`about`: its units close to the question, best first) saying two of its functions cannot run at once, when the
    question asks for two at once; else None."""
    if not asks_at_once(question):
        return None
    return next((s for s in about if s.unit.kind != "heading" and _NOT_AT_ONCE.search(s.unit.text)), None)
