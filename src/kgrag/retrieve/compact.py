"""Context hygiene: drop lines and near-copies that cost budget but carry nothing new for the question.

Within one context: a line already shown by an earlier item (chunk overlaps, repeated headings and
metadata prefixes; not a table's header row, which its rows need), table-of-contents lines, and lines in another
script than the question (the Chinese or French copy of a certification notice) are removed; an item left with
almost nothing is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from functools import lru_cache

from kgrag.retrieve.packing import item_tokens
from kgrag.types import ContextItem

MIN_ITEM_CHARS = 40
MAX_OVERLAP = 0.6  # a chunk whose words are this much inside one already kept chunk is a near-copy
COPY_NOTE = "(also in "  # opens the line a near-copy from another product leaves: "(also in Nicla Voice, 5 Board …)"
MAX_COPY_NOTES = 1  # a passage copied in more products than this is boilerplate: no "also in" notes
_LETTER = re.compile(r"[^\W\d_]")
_NON_LATIN = re.compile(r"[^\W\d_\u0000-\u024F]")
_TOC_ENTRY = re.compile(r"\d+(?:\.\d+)*\.?\s+[^,=.\n]{2,80}?(?:,\s*\d+\s*=\s*\d+|\s*\.{4,}\s*\d+)")
_BLANK_RUN = re.compile(r"\n{3,}")
# A number written as a value ("45", "5.08", "0.2–2.5"), not one inside a code or a name ("KX-220L", "ABX00069", "v2")
_VALUE_NUMBER = re.compile(r"(?<![\w.\-])\d+(?:[.,]\d+)*(?![\d])")


def foreign_script(line: str) -> bool:
    """A line mostly in a non-Latin script (more than 30 % of its letters beyond Latin-1/Latin Extended)."""
    if line.isascii() or not _NON_LATIN.search(line):
        return False
    letters = len(_LETTER.findall(line))
    return letters > 0 and len(_NON_LATIN.findall(line)) > 0.3 * letters


def is_toc_line(line: str) -> bool:
    """A table-of-contents line: several `N.N Title … page` entries."""
    if " = " not in line and "...." not in line:
        return False
    return len(_TOC_ENTRY.findall(line)) >= 2


@lru_cache(maxsize=16384)
def _lines(text: str) -> tuple[tuple[str, str, bool, bool], ...]:
    """(line, normalised key, is a TOC line, is foreign script) per line of a chunk text; cached because the
    same chunks come back question after question."""
    return tuple((line, " ".join(line.split()).lower(), is_toc_line(line), foreign_script(line))
                 for line in text.split("\n"))


@lru_cache(maxsize=16384)
def _words(text: str) -> frozenset[str]:
    return frozenset(text.lower().split())


@lru_cache(maxsize=16384)
def _values(text: str) -> frozenset[str]:
    """The numbers a text states as values (see `_VALUE_NUMBER`)."""
    return frozenset(_VALUE_NUMBER.findall(text))


def compact_items(items: Iterable[ContextItem], question: str) -> Iterator[ContextItem]:
    """The items with repeated, table-of-contents and foreign-script lines removed (in order, lazily)."""
    latin_question = not foreign_script(question)
    seen: set[str] = set()
    for item in items:
        kept: list[str] = []
        lines = _lines(item.text)
        for i, (line, key, toc, foreign) in enumerate(lines):
            if key and (toc or (latin_question and foreign) or (key in seen and not _table_header(lines, i, seen))):
                continue
            kept.append(line)
            if key:
                seen.add(key)
        text = _BLANK_RUN.sub("\n\n", "\n".join(kept)).strip()
        if len(text) < MIN_ITEM_CHARS:
            continue
        if text == item.text.strip():
            yield item
            continue
        tokens = max(1, round(item.tokens * len(text) / max(1, len(item.text)))) if item.tokens else 0  # no re-tokenizing
        yield ContextItem(kind=item.kind, text=text, score=item.score, chunk_id=item.chunk_id, doc_id=item.doc_id,
                          source={**item.source, "compacted": True}, item_id=item.item_id, tokens=tokens)


def _table_header(lines: tuple[tuple[str, str, bool, bool], ...], i: int, seen: set[str]) -> bool:
    """Line `i` opens a table (the first of a run of " | " rows) some row of which is new: "Symbol | Description | Min |
    Typ | Max | Unit" is repeated by every datasheet, but without it the rows kept below lose their columns' meaning."""
    def row(j: int) -> bool:
        return 0 <= j < len(lines) and " | " in lines[j][0]
    if not row(i) or row(i - 1):
        return False
    j = i + 1
    while row(j):
        if lines[j][1] not in seen:
            return True
        j += 1
    return False


def novel_items(items: Iterable[ContextItem], max_overlap: float, budget: int, note: bool = True,
                distinct: Collection[str] = (), question: str = "") -> list[ContextItem]:
    """Items in order, skipping one whose words are mostly (> max_overlap) in a single item kept before it.

    Datasheets of sibling products repeat whole sections (certifications, recovery, power notes); a copy
    adds no fact but takes budget that a different passage could use. Not so between two `distinct` products (those
    a question names together): their shared template is where they differ ("… is 5V compatible" in one, "… NOT 5V
    tolerant" in the other), so each keeps its own version. A copy stating other numbers ("Mechanical Data" with
    "45 × 100 × 115 mm" after the sibling's "22.5 × 100 × 115 mm") holds that product's own facts: it is kept when
    the `question` names its model code, and otherwise skipped without an "(also in …)" note, which would lend it the
    kept one's values.
    """
    kept: list[ContextItem] = []
    seen: list[frozenset[str]] = []
    codes = _model_codes(question)
    used = 0
    for item in items:
        words = _words(item.text)
        limit = max_overlap * len(words)
        copy_of = next((i for i, other in enumerate(seen) if words and len(words & other) > limit
                        and not _distinct(item, kept[i], distinct)), None)
        if copy_of is not None:
            same_values = _values(item.text) <= _values(kept[copy_of].text)
            if not same_values and _names_code(item, codes):  # "How wide is the KX-220?": its own figures
                copy_of = None
        if copy_of is not None:
            if note and same_values:
                _note_copy(kept[copy_of], item)
            continue
        kept.append(item)
        seen.append(words)
        used += item_tokens(item)
        if used > 1.5 * budget:
            break  # enough to fill the budget even if some do not fit
    return kept


# A model code a question writes: letters and digits, not a revision ("KX-220", "GW-500", "ABX00069"; not "Rev2")
_MODEL_CODE = re.compile(r"(?<![\w-])(?=[\w-]*[A-Za-z])(?=[\w-]*\d)(?![Rr]ev\d)[A-Za-z0-9][\w-]{2,}(?![\w-])")


def _model_codes(question: str) -> list[re.Pattern[str]]:
    """Patterns of the model codes the question writes, each as a whole word."""
    return [re.compile(rf"(?<![\w-]){re.escape(c.lower())}(?![\w-])") for c in _MODEL_CODE.findall(question)]


def _names_code(item: ContextItem, codes: list[re.Pattern[str]]) -> bool:
    """The item's document title or product writes one of the question's model `codes`."""
    label = f"{item.source.get('title') or ''} {item.source.get('product') or ''}".lower()
    return any(c.search(label) for c in codes)


def _distinct(item: ContextItem, other: ContextItem, products: Collection[str]) -> bool:
    """True when the two items are the documents of two different products among `products`."""
    one, two = item.source.get("product"), other.source.get("product")
    return bool(one and two and one != two and one in products and two in products)


def _note_copy(kept: ContextItem, copy: ContextItem) -> None:
    """A near-copy from one other product leaves a line on the kept item, so "which boards …" keeps its answer.

    Text shared by three or more products is boilerplate (certifications, recovery steps): its notes go again.
    """
    product = copy.source.get("product") or copy.source.get("title") or ""
    also = kept.source.setdefault("also_in", [])
    if not product or product == kept.source.get("product") or product in also:
        return
    also.append(product)
    if len(also) > MAX_COPY_NOTES:
        kept.text = "\n".join(line for line in kept.text.split("\n") if not line.startswith(COPY_NOTE))
    else:
        where = f", {copy.source['section'].split(' > ')[-1]}" if copy.source.get("section") else ""
        kept.text += f"\n{COPY_NOTE}{product}{where})"
    kept.tokens = 0  # recounted when packed (one short item, rarely)
