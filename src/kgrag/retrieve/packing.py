"""Fit ranked context items into a token budget, keeping their provenance."""

from __future__ import annotations

from collections.abc import Iterable

from kgrag.graph.keys import name_tokens
from kgrag.tokens import count_tokens, truncate_tokens
from kgrag.types import Chunk, ContextItem, Document

MIN_TRUNCATED_TOKENS = 40  # a cut item shorter than this is not worth its slot


def item_tokens(item: ContextItem) -> int:
    if not item.tokens:
        item.tokens = count_tokens(item.text)
    return item.tokens


def pack(items: Iterable[ContextItem], budget: int, *, truncate_last: bool = True) -> tuple[list[ContextItem], int]:
    """Items in order while they fit; an item too large is skipped, or cut to fill the rest of the budget.

    Duplicate items (same kind and item id/chunk id and text) are kept once.
    """
    packed: list[ContextItem] = []
    used = 0
    seen: set[tuple[str, str]] = set()
    for item in items:
        key = (item.kind, item.item_id or item.chunk_id or item.text)
        if key in seen:
            continue
        n = item_tokens(item)
        if used + n <= budget:
            packed.append(item)
            seen.add(key)
            used += n
            continue
        remaining = budget - used
        if truncate_last and remaining >= MIN_TRUNCATED_TOKENS:
            text = truncate_tokens(item.text, remaining)
            cut = ContextItem(**{**item.to_dict(), "text": text, "tokens": count_tokens(text)})
            cut.source = dict(item.source, truncated=True)
            packed.append(cut)
            used += cut.tokens
        if budget - used < MIN_TRUNCATED_TOKENS:
            break
    return packed, used


def source_title(chunk: Chunk, doc: Document | None) -> str:
    """The title a chunk is shown and cited under: its document's, or the chunk's own product when the document's
    title does not name it (a JSONL export of a product family: "Nano ESP32" or "Nicla Sense ME", not the file's
    "Nano_Family", even when the file holds that one product only)."""
    if doc is None or (chunk.product and not _names(doc.title, chunk.product)):
        return chunk.product or ""
    return doc.title


def _names(title: str, product: str) -> bool:
    """The title writes the product's name ("Arduino Nano 33 BLE Sense Rev2" names "Nano 33 BLE Sense Rev2")."""
    return f" {' '.join(name_tokens(product))} " in f" {' '.join(name_tokens(title))} "


def chunk_source(chunk: Chunk, doc: Document | None) -> dict[str, object]:
    """The provenance fields of a chunk for citations and display."""
    return {
        "path": doc.path if doc else "",
        "title": source_title(chunk, doc),
        "version": doc.version if doc else "",
        "page_start": chunk.page_start,
        "page_end": chunk.page_end,
        "section": chunk.section,
        "product": chunk.product,
        "category": chunk.category,
    }


def chunk_item(chunk: Chunk, doc: Document | None, score: float, kind: str = "chunk") -> ContextItem:
    """A ContextItem for a whole chunk."""
    return ContextItem(
        kind=kind,
        text=chunk.text,
        score=score,
        chunk_id=chunk.chunk_id,
        doc_id=chunk.doc_id,
        source=chunk_source(chunk, doc),
        tokens=chunk.tokens,
        item_id=chunk.chunk_id,
    )
