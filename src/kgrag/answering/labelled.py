"""Labelled lines of a record: an erratum's "Workaround: …", a ticket's "Resolution: …", a fault's "Cause: …".
"What is the workaround for the ADC offset erratum?" is answered by the "Workaround:" line (and "Why did the TLS
connection fail for Cerro Mining?" by the "Cause:" line) of the record whose
paragraph (or title line above it) writes the question's other words. Every record has such a line and they read
alike, so a small model, or a quote chosen by the asked words alone, took another record's or the summary table's."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kgrag.answering.select import Scored
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.units import Unit
from kgrag.answering.words import content_terms, term_list, words_found

LABELS = frozenset({"workaround", "cause", "resolution", "solution", "remedy", "fix", "action"})
_ASKS = re.compile(r"^\s*what\s+(?:is|was|are|were)\s+the\s+((?:root\s+)?(\w+))\b", re.IGNORECASE)
_WHY = re.compile(r"^\s*(why)\s+((?:did|does|do|is|was|were|are|has|had)\b)", re.IGNORECASE)
# "Workaround: Limit the SPI clock …", at a unit's start or after a sentence the splitter did not cut ("… below 1.8 V.
# Workaround: Check the supply …")
_LABEL = re.compile(r"(?:^|(?<=[.!?])\s+)([A-Z][\w ]{0,20}?)\s*:\s+(?=\S)")
MIN_SHARE = 0.5  # of the question's other words that the record must write ("erratum E4": the E4 record writes "E4")
MAX_TITLE_WORDS = 12


def _segments(unit: Unit) -> list[tuple[str, str]]:
    """(label, text from the label on) of each labelled segment of a sentence unit."""
    found = list(_LABEL.finditer(unit.text)) if unit.kind == "sentence" else []
    ends = [m.start() for m in found[1:]] + [len(unit.text)] if found else []
    return [(m.group(1).lower(), unit.text[m.start():end].strip()) for m, end in zip(found, ends, strict=True)]


def _asked_segment(unit: Unit, asked: str) -> str:
    return next((text for label, text in _segments(unit) if label.split()[-1] == asked), "")


def _record_title(unit: Unit, by_place: Mapping[tuple[int, int], Unit]) -> str:
    """The one-line paragraph before the labelled line's paragraph ("E1 - ADC offset below -20 °C"), else ""."""
    before = [u for (b, _), u in by_place.items() if b == unit.block and u.paragraph == unit.paragraph - 1]
    return before[0].text if len(before) == 1 and len(before[0].text.split()) <= MAX_TITLE_WORDS else ""


def _record_text(unit: Unit, by_place: Mapping[tuple[int, int], Unit]) -> str:
    """The labelled line's record: its title line, its heading and its paragraph."""
    own = [u.text for (b, _), u in by_place.items() if b == unit.block and u.paragraph == unit.paragraph]
    return " ".join([_record_title(unit, by_place), unit.heading, *own])


def try_labelled(q: QuestionTerms, ranked: list[Scored], titles: Mapping[int, str]) -> str | None:
    """The labelled line ("Workaround: …", with the sentences after it up to the next label) of the one record that
    writes most of the question's other words, at least MIN_SHARE of them; None when the question asks no label,
    no line carries it, or two records tie."""
    m = _ASKS.match(q.text) or _WHY.match(q.text)
    if m is None or m.group(2).lower() not in LABELS and m.re is _ASKS:
        return None
    asked = "cause" if m.re is _WHY else m.group(2).lower()  # "Why did the TLS connection fail …?": its Cause line
    by_place = {(s.unit.block, s.unit.pos): s.unit for s in ranked}
    lines = [u for u in by_place.values() if _asked_segment(u, asked)]
    rest = content_terms(q.text[m.end():])
    written = {w for u in by_place.values() for w in term_list(u.scoped())}
    attested = words_found(rest, written)
    if not lines or not attested:
        return None
    named = words_found({w for n in [*q.names, *q.parts] for w in term_list(n)}, written)  # "E4", "ADC": written
    records = {id(u): set(term_list(_record_text(u, by_place))) for u in lines}  # whole or not at all
    lines = [u for u in lines if words_found(named, records[id(u)]) == named]
    shares = sorted(((len(words_found(attested, records[id(u)])) / len(attested), u.block, u.pos, u) for u in lines),
                    key=lambda t: (-t[0], t[1], t[2]))
    if not shares:
        return None
    share, _, _, best = shares[0]
    if share < MIN_SHARE or len(shares) > 1 and shares[1][0] == share:
        return None
    said = [_asked_segment(best, asked)]
    for pos in range(best.pos + 1, best.pos + 4):  # the sentences after it, up to the next label
        nxt = by_place.get((best.block, pos))
        if nxt is None or nxt.paragraph != best.paragraph or _segments(nxt):
            break
        said.append(nxt.text)
    lead = " – ".join(dict.fromkeys(x for x in (titles.get(best.block, ""), _record_title(best, by_place)) if x))
    text = f"{' '.join(said).rstrip(' .')} [{best.cited()}]."
    return f"{lead}: {text}" if lead else text
