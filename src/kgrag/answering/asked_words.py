"""The asked words as a datasheet labels them: "How wide is …?" asks the width; "need" or "require" beside a quantity
says how the value is asked for, not what is asked."""

from __future__ import annotations

import re

from kgrag.answering.sizes import SHAPE_NOUNS
from kgrag.answering.values import asked_dimensions

_HOW_NOUNS = {**SHAPE_NOUNS, "far": "distance"}  # "How far can it detect?" asks a distance ("400 cm detection")
_HOW_SHAPED = re.compile(rf"\bhow\s+({'|'.join(_HOW_NOUNS)})\b", re.IGNORECASE)


def _shape_asked(question: str, attributes: set[str]) -> set[str]:
    """The asked words with "How wide / tall / deep / thick / far …?" written as the noun a datasheet labels it with
    ("width", "distance"), which asks a length; the adjective elsewhere ("wide supply range", "deep sleep") asks none."""
    adjectives = {word.lower() for word in _HOW_SHAPED.findall(question)}
    return {_HOW_NOUNS[a] if a in adjectives else a for a in attributes}


_NEEDING = frozenset({"need", "needed", "require", "required"})  # folded


def as_labelled(question: str, attributes: set[str]) -> set[str]:
    """The asked (folded) words as a datasheet labels what they ask: "How wide" as "width"; "need" or "require" left out
    beside a quantity ("What supply voltage does it need?" asks a voltage: a passage saying "when you need …" is not
    more on topic)."""
    attributes = _shape_asked(question, attributes)
    rest = attributes - _NEEDING
    return rest if rest and asked_dimensions(rest) else attributes
