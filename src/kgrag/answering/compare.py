"""Comparisons of two named products on one quantity ("Which has more flash, the Nano Every or the Nano?"): the
asked value quoted for each product, side by side, and which is larger when each quote states one value of the
asked quantity in the same unit. Quoting only one product's value (what a single extractive quote does) answers
half the question, and a small model picks the wrong side as often as the right one."""

from __future__ import annotations

import re
from dataclasses import replace

from kgrag.answering.about import unit_about
from kgrag.answering.asks import COMPARATIVES, GREATER
from kgrag.answering.columns import side_by_side
from kgrag.answering.extract import Extraction, answer_text, try_extract
from kgrag.answering.numbers import STANDALONE_NUMBER, number_value
from kgrag.answering.ratings import value_span
from kgrag.answering.select import Scored, attribute_share, name_score, variant_of
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.values import NUMBER_UNIT, dimension_of_unit
from kgrag.answering.words import content_terms, words_found

_COMPARE_WORDS = frozenset({"compare", "compared", "comparison"})  # the request, not what is compared
MIN_LABEL_SHARE = 0.6  # of the asked words (the compared quantity's) a side-by-side row's label must write


def phrase_after(words: frozenset[str]) -> re.Pattern[str]:
    """Matches one of `words` (group 1) and the phrase it qualifies, up to the clause's end or a "the" (group 2)."""
    return re.compile(rf"\b({'|'.join(sorted(words))})\b\s+([^,:;?()]+?)\s*(?:[,:;?(]|\bthe\b|$)", re.IGNORECASE)


_COMPARED = phrase_after(COMPARATIVES)


def compared_quantity(question: str) -> set[str]:
    """The words naming what is compared, after the comparative ("the lower *operating temperature*, the A or the
    B?", "more *program flash*: the A or the B?"); empty when the comparative ends its clause ("keeps time longer:")."""
    m = _COMPARED.search(question)
    return content_terms(m.group(2)) if m else set()


def _one_side(q: QuestionTerms, phrase: list[str], other: list[str], quantity: set[str], ranked: list[Scored],
              titles: dict[int, str]) -> Extraction | None:
    """The asked value of one compared product: the question narrowed to that name (and to the compared quantity,
    when the question names it), over the units about it."""
    attributes = quantity or q.attributes - COMPARATIVES - _COMPARE_WORDS  # "Compare the clock speed …": clock, speed
    one = replace(q, names=list(phrase), phrases=[phrase], parts=[w for w in phrase if w in q.parts],
                  attributes=attributes, compares=[], wants_name=False, wants_value=True)  # "which" picks a side;
    # each side's value is asked, however the comparison is worded ("Compare …", "… compared with the B")
    mine = []
    for s in ranked:
        if unit_about(phrase, s, titles) and not unit_about(other, s, titles):
            far = titles.get(s.unit.block, "")
            share = attribute_share(attributes, attributes, s.unit) if attributes != q.attributes else s.attributes
            mine.append(replace(s, names=name_score([phrase], s.unit.scoped(), far), attributes=share,
                                variant=variant_of(one, f"{s.unit.scoped()}\n{far}")))
    return try_extract(one, mine, titles)


def single_value(text: str, dims: set[str]) -> tuple[float, str, str] | None:
    """(number, unit, as written) when `text` states exactly one number, with a unit of the `dims` (any unit when
    empty); a range ("-20 to +70 °C") has two ends."""
    values = [m for m in NUMBER_UNIT.finditer(text) if not dims or dimension_of_unit(m.group(2)) & dims]
    if len(values) != 1 or len(STANDALONE_NUMBER.findall(text)) != 1:
        return None
    number = number_value(values[0].group(1))
    return None if number is None else (number, values[0].group(2), values[0].group(0).strip())


WIDTHS = frozenset({"wider", "narrower"})  # "rated for the wider temperature range": the ranges' spans are compared


def _single_value(q: QuestionTerms, found: Extraction) -> tuple[float, str, str] | None:
    """(size, unit, as written) when the quote states exactly one value of the asked quantity."""
    value = single_value(found.unit.value_text(), q.dimensions)
    return None if value is None else (abs(value[0]), *value[1:])


def try_compare(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """Both products' quotes with their markers, then the larger or smaller one as asked, or the row of a table that
    sets both side by side; None unless both sides are quoted."""
    if len(q.compares) != 2:
        return None
    a, b = q.compares
    quantity = compared_quantity(q.text)
    sides = [(a, _one_side(q, a, b, quantity, ranked, titles)), (b, _one_side(q, b, a, quantity, ranked, titles))]
    if any(found is None for _, found in sides):
        return _side_by_side_row(q, quantity, ranked, titles)
    text = " ".join(f"{found.text} [{found.unit.cited()}]." for _, found in sides if found)
    values = [_single_value(q, found) for _, found in sides if found]
    word = next((w for w in q.text.lower().split() if w.strip("?,.") in COMPARATIVES), "").strip("?,.")
    spans = [value_span(found.unit.value_text(), q.dimensions) for _, found in sides if found] if word in WIDTHS else []
    if spans and all(spans) and spans[0][2] == spans[1][2]:  # type: ignore[index]
        (la, ha, unit), (lb, hb, _) = spans  # type: ignore[misc]
        if ha - la != hb - lb:
            first = (ha - la > hb - lb) == (word == "wider")
            (wn, (wl, wh)), (ln, (ll, lh)) = ((a, (la, ha)), (b, (lb, hb))) if first else ((b, (lb, hb)), (a, (la, ha)))
            return f"{text} {' '.join(wn)}: {wl:g} to {wh:g} {unit}, {word} than {' '.join(ln)} ({ll:g} to {lh:g} {unit})."
    if word and all(values) and values[0][1] == values[1][1] and values[0][0] != values[1][0]:  # type: ignore[index]
        (va, _, wa), (vb, _, wb) = values  # type: ignore[misc]
        first = (va > vb) == (word in GREATER)
        (wn, ww), (ln, lw) = ((a, wa), (b, wb)) if first else ((b, wb), (a, wa))
        text += f" {' '.join(wn)}: {ww}, {word} than {' '.join(ln)} ({lw})."
    return text


def _side_by_side_row(q: QuestionTerms, quantity: set[str], ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """The best-ranked row of a table setting both compared things side by side ("Parameter | RC-340 | RC-360") whose
    label writes the compared quantity ("Power consumption (max.) | 4.5 W | 6.0 W"), quoted whole: each side's
    cell is about both, so neither side's own quote is found. None when no such row is ranked."""
    asked = quantity or q.attributes - COMPARATIVES - {"compare", "compared", "comparison"}
    for s in ranked:
        label = s.unit.text.split("|")[0]
        if (asked and side_by_side(q.compares, s.unit)
                and len(words_found(asked, content_terms(label))) >= MIN_LABEL_SHARE * len(asked)):
            return f"{answer_text(q, s.unit, titles.get(s.unit.block, ''))} [{s.unit.cited()}]."
    return None
