"""Units that repeat what is quoted already: the same sentence from another document, a graph fact restating the row
it was read from, a table row that says what a sibling row says for other pins. The focus and the quotes pass them over."""

from __future__ import annotations

import re
from functools import lru_cache

from kgrag.answering.refusal import CITE
from kgrag.answering.units import Unit
from kgrag.answering.values import has_value
from kgrag.answering.words import term_list

NEAR_COPY, NEAR_COPY_WORDS = 0.7, 8  # a unit of 8+ words sharing 70 % of its words with one chosen repeats it
_DIGITS = re.compile(r"\d+")


def near_copy(text: str, seen: list[str]) -> bool:
    """A unit of NEAR_COPY_WORDS or more words repeats one `seen` before: the same numbers and most of the same words
    ("4 | 24V OUT | … A single PTC protects pins 1, 4, 7" after the "1 | 24V OUT" row). A row with other numbers
    states another value, and short rows sharing most words ("in product | Nano 33 BLE" / "… Sense") other facts."""
    words, numbers = _signature(text)
    if len(words) < NEAR_COPY_WORDS:
        return False
    for other in seen:
        theirs, their_numbers = _signature(other)
        if (len(theirs) >= NEAR_COPY_WORDS and their_numbers == numbers
                and len(words & theirs) >= NEAR_COPY * len(words | theirs)):
            return True
    return False


def restates(unit: Unit, quoted: list[Unit]) -> bool:
    """The unit states a value of its source again: a unit quoted before cites the same block with the same numbers
    and most of the shorter one's words ("max output power eirp | 14.7 dBm", the graph's fact, after the row
    "Feature: Max Output Power (EIRP); Description: 14.7 dBm" it was read from)."""
    words, numbers = _signature(unit.display())
    if not numbers:
        return False
    for other in quoted:
        theirs, their_numbers = _signature(other.display())
        if other.cited() == unit.cited() and their_numbers == numbers and \
                len(words & theirs) >= NEAR_COPY * min(len(words), len(theirs)):
            return True
    return False


def sibling_row(unit: Unit, quoted: list[Unit]) -> bool:
    """A table row saying what a row quoted before from the same table says, for other numbers only (pins 6, 8 and 9,
    each "Digital programmable Input/Output"): one of them stands for the others. Numbers with a unit are values, so
    a row stating one ("Max Output Power (EIRP) | 14.1 dBm @ CH9" beside "… | 14.7 dBm") is another fact."""
    if unit.kind != "row" or has_value(unit.text):
        return False
    words = _wording(unit.text)
    return any(u.kind == "row" and u.block == unit.block and _wording(u.text) == words for u in quoted)


def _wording(text: str) -> frozenset[str]:
    """A unit's words (its cached `_signature`) without the ones holding a digit."""
    return frozenset(w for w in _signature(text)[0] if not _DIGITS.search(w))


@lru_cache(maxsize=4096)
def numbers_in(text: str) -> frozenset[str]:
    """The digit runs a text writes, without a document's own reference marks ("Project Hub [4]" states no value)."""
    return frozenset(_DIGITS.findall(CITE.sub(" ", text)))


@lru_cache(maxsize=4096)
def _signature(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """A unit's words and numbers, compared by near_copy against every unit chosen before it."""
    return frozenset(term_list(CITE.sub(" ", text))), numbers_in(text)
