"""Context hygiene: drop lines that cost budget but carry nothing new for the question.

Within one context: a line already shown by an earlier item (chunk overlaps, repeated headings and
metadata prefixes), table-of-contents lines, and lines in another script than the question (the Chinese or
French copy of a certification notice) are removed; an item left with almost nothing is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from kgrag.types import ContextItem

MIN_ITEM_CHARS = 40
_LETTER = re.compile(r"[^\W\d_]")
_NON_LATIN = re.compile(r"[^\W\d_\u0000-\u024F]")
_TOC_ENTRY = re.compile(r"\d+(?:\.\d+)*\.?\s+[^,=.\n]{2,80}?(?:,\s*\d+\s*=\s*\d+|\s*\.{4,}\s*\d+)")


def foreign_script(line: str) -> bool:
    """A line mostly in a non-Latin script (more than 30 % of its letters beyond Latin-1/Latin Extended)."""
    if line.isascii():
        return False
    letters = len(_LETTER.findall(line))
    return letters > 0 and len(_NON_LATIN.findall(line)) > 0.3 * letters


def is_toc_line(line: str) -> bool:
    """A table-of-contents line: several `N.N Title … page` entries."""
    return len(_TOC_ENTRY.findall(line)) >= 2


def compact_items(items: Iterable[ContextItem], question: str) -> Iterator[ContextItem]:
    """The items with repeated, table-of-contents and foreign-script lines removed (in order, lazily)."""
    latin_question = not foreign_script(question)
    seen: set[str] = set()
    for item in items:
        kept: list[str] = []
        for line in item.text.split("\n"):
            key = " ".join(line.split()).lower()
            if key and (key in seen or is_toc_line(line) or (latin_question and foreign_script(line))):
                continue
            kept.append(line)
            if key:
                seen.add(key)
        text = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()
        if len(text) < MIN_ITEM_CHARS:
            continue
        if text == item.text.strip():
            yield item
            continue
        tokens = max(1, round(item.tokens * len(text) / max(1, len(item.text)))) if item.tokens else 0  # no re-tokenizing
        yield ContextItem(kind=item.kind, text=text, score=item.score, chunk_id=item.chunk_id, doc_id=item.doc_id,
                          source={**item.source, "compacted": True}, item_id=item.item_id, tokens=tokens)
