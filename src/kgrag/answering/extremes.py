"""Which column of a table holds the larger or the largest value of the asked quantity ("Which P200 model has the
higher back pressure?" over "Parameter | P200-6 | P200-12" / "Maximum back pressure | 10 bar | 7 bar"): the row is
quoted and the column named. The question names no side to compare, so `compare.py` does not apply, and a small
model reading such a row picks the wrong column about as often as the right one."""

from __future__ import annotations

import re

from kgrag.answering.asks import COMPARATIVES, GREATER
from kgrag.answering.compare import phrase_after, single_value
from kgrag.answering.extract import answer_text
from kgrag.answering.select import Scored, attribute_share
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.units import Unit
from kgrag.answering.values import QUANTITY_NOUNS
from kgrag.answering.words import content_terms

MOST = frozenset({"highest", "largest", "biggest", "greatest", "longest", "fastest", "heaviest", "widest", "most"})
LEAST = frozenset({"lowest", "smallest", "shortest", "slowest", "lightest", "narrowest", "least", "fewest"})
_ASKS_WHICH = re.compile(r"^\s*which\b", re.IGNORECASE)
_EXTREME = phrase_after(COMPARATIVES | MOST | LEAST)
# columns that state one product's limits or the table's bookkeeping, not products or variants set side by side
_NOT_SIDES = frozenset({"min", "minimum", "typ", "typical", "max", "maximum", "nom", "nominal", "unit", "units",
                        "symbol", "condition", "conditions", "note", "notes", "value", "values", "description",
                        "parameter", "details", "characteristics", "test conditions", "comments"})
CANDIDATES = 6  # best-ranked units read for the row
MIN_SHARE = 0.5  # of the compared quantity's words the row must carry


def asked_extreme(question: str) -> tuple[str, set[str]] | None:
    """The comparative or superlative of a "which …" question naming no sides, and the words of the quantity it
    compares ("higher", {"back", "pressure"}); None for other questions."""
    if not _ASKS_WHICH.match(question):
        return None
    m = _EXTREME.search(question)
    if m is not None:
        quantity = content_terms(m.group(2))
        return (m.group(1).lower(), quantity) if quantity else None
    for word in re.findall(r"[a-z]+", question.lower()):  # "Which model is lighter?": the quantity the adjective asks
        base = re.sub(r"i(?:er|est)$", "y", re.sub(r"(?<!i)(?:er|est)$", "", word))
        if (word in COMPARATIVES or word in MOST or word in LEAST) and base in QUANTITY_NOUNS:
            return word, content_terms(QUANTITY_NOUNS[base])
    return None


def column_values(unit: Unit) -> list[tuple[str, float, str]] | None:
    """(column header, number, value as written) for each cell after the row's label, when every such column is a
    side (not Min / Typ / Max / Unit …) and states one value in one shared unit; None otherwise."""
    if unit.kind != "row" or not unit.header:
        return None
    heads = [h.strip() for h in unit.header.split("|")]
    cells = [c.strip() for c in unit.text.split("|")]
    if len(heads) != len(cells) or len(cells) < 3:
        return None
    out: list[tuple[str, float, str]] = []
    units: set[str] = set()
    for head, cell in zip(heads[1:], cells[1:], strict=True):
        value = single_value(cell, set()) if head and head.lower() not in _NOT_SIDES else None
        if value is None:
            return None
        number, unit_name, written = value
        units.add(unit_name)
        out.append((head, number, written))
    return out if len(units) == 1 else None


def try_extreme(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """The row that sets the sides' values of the asked quantity side by side, quoted with its marker, then the
    side holding the larger (smaller) value; None when no best-ranked row does or two sides tie."""
    if q.compares:
        return None
    asked = asked_extreme(q.text)
    if asked is None:
        return None
    word, quantity = asked
    greater = word in GREATER or word in MOST
    for s in ranked[:CANDIDATES]:
        columns = column_values(s.unit)
        if not columns or attribute_share(quantity, quantity, s.unit) < MIN_SHARE:
            continue
        ordered = sorted(columns, key=lambda c: c[1], reverse=greater)
        if ordered[0][1] == ordered[1][1]:
            return None
        (side, _, value), rest = ordered[0], ordered[1:]
        if word in COMPARATIVES:  # "higher than P200-12 (7 bar)"; "the highest (P200-6: 6 l/h)"
            verdict = f"{word} than {', '.join(f'{head} ({written})' for head, _, written in rest)}"
        else:
            verdict = f"the {word} ({', '.join(f'{head}: {written}' for head, _, written in rest)})"
        return f"{answer_text(q, s.unit, titles.get(s.unit.block, ''))} [{s.unit.cited()}]. {side}: {value}, {verdict}."
    return None
