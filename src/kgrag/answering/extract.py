"""Extractive answers: when one row or sentence states the asked value for the asked product, quote it.

The rules are about the shape of the evidence, never its content: the question asks for a value (not
why/compare/summarise, not yes/no), the best unit names the question's part numbers or names (in its
text, heading, table header or block title), carries most of its attribute words, and states a value
(number with a unit, a range, a tolerance, or a part number the question does not already name) whose
unit measures the quantity asked, when the question names one.
"""

from __future__ import annotations

from dataclasses import dataclass

from kgrag.answering.select import Scored
from kgrag.answering.terms import QuestionTerms, name_found
from kgrag.answering.units import Unit
from kgrag.answering.values import asked_dimensions, has_value, part_numbers, value_dimensions

MIN_ATTRIBUTES = 0.4  # share of the question's attribute words the unit must carry (a value in the asked unit
# counts for the words that ask for it)
MIN_NAMES = 0.35  # share of the question's names found near the unit (block title/section counts half)
MIN_WORDS = 3  # a quote shorter than this is a label, not an answer


@dataclass
class Extraction:
    """The quoted unit and the answer text built from it (without its citation marker)."""

    unit: Unit
    text: str
    score: float


def states_value(q: QuestionTerms, unit: Unit) -> bool:
    """The unit states a value: number+unit, range, tolerance, or a part number not named in the question."""
    if has_value(unit.text):
        return True
    asked = {p.lower() for p in q.parts}
    return any(p.lower() not in asked for p in part_numbers(unit.text))


def unit_fits(q: QuestionTerms, unit: Unit) -> bool:
    """When the question names a quantity (voltage, temperature, ...), the unit's values must measure it."""
    dims = asked_dimensions(q.attributes)
    found = value_dimensions(unit.text)
    return not dims or not found or bool(dims & found)


def answer_text(q: QuestionTerms, unit: Unit, scope: str) -> str:
    """The quote, prefixed by its heading (or block title) when the quote itself does not name the product."""
    quote = unit.display().rstrip(" .;")
    low = quote.lower()
    if q.names and not any(name_found(n, low) for n in q.names):
        prefix = unit.heading or scope
        if prefix and prefix.lower() not in low:
            return f"{prefix}: {quote}"
    return quote


def try_extract(q: QuestionTerms, ranked: list[Scored], scopes: dict[int, str]) -> Extraction | None:
    """The extractive answer from the best-ranked unit, or None when the evidence is not explicit enough."""
    if not q.wants_value or not ranked:
        return None
    for s in ranked[:3]:  # the best few: the top unit may be a heading or a prose sentence
        u = s.unit
        if u.kind == "heading" or len(u.text.split()) < MIN_WORDS and u.kind != "row":
            continue
        if not states_value(q, u) or not unit_fits(q, u):
            continue
        if q.attributes and s.attributes < MIN_ATTRIBUTES:
            continue
        if q.names and s.names < MIN_NAMES:
            continue
        return Extraction(u, answer_text(q, u, scopes.get(u.block, "")), s.score)
    return None
