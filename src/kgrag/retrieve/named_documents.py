"""Documents a question names by their title or their kind ("according to the partner training deck", "in the support
ticket export", "the Blackmoor e-mail thread"): the question reads that document, but its passages can be outscored by
other documents' passages that share more of the question's words (a chunk's text holds no title). The named
documents' chunks are searched on their own too, and their best passages take every other place at the top."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence

from kgrag.answering.words import content_terms
from kgrag.ingest.text import DOCUMENT_KIND, MORE_DOCUMENT_KINDS
from kgrag.types import Document

# what users call a document of a format ("the deck", "the spreadsheet", "the e-mail thread", "the export")
KIND_WORDS: dict[str, frozenset[str]] = {
    "pptx": frozenset({"deck", "slide", "presentation"}),
    "eml": frozenset({"email", "e-mail", "mail", "thread"}),
    "xlsx": frozenset({"workbook", "spreadsheet", "sheet"}),
    "csv": frozenset({"export", "csv"}),
}
MIN_NAMING = 2  # title words of its own, a kind word counting as one, that name a document
NAMED_PASSAGES = 3  # a named document's best passages put at the top
SEEN = 10  # places at the top of a ranking where a named passage already counts as found


def named_documents(documents: Mapping[str, Document], question: str) -> list[str]:
    """The doc_ids the question names: it writes a kind of document the document is ("the training deck", "the
    changelog", "the e-mail thread") and, with it, MIN_NAMING words of its title that few other titles have
    ("partner" and "training" of "Sentinel GX-400 - Channel partner training"; "Sentinel" is every title's), a word
    for its format counting as one. Nothing when the question names no kind, or would name most of the documents."""
    asked_kinds = kind_terms(question)
    if not asked_kinds:
        return []
    asked = content_terms(question)
    titles = {doc_id: _title_terms(doc.title) for doc_id, doc in documents.items()}
    shared = Counter(w for words in titles.values() for w in words)
    common = max(2.0, len(titles) / 2)
    named = []
    for doc_id, words in titles.items():
        kind = KIND_WORDS.get(str(documents[doc_id].meta.get("format", "")), frozenset())
        found = sum(1 for w in words & asked if shared[w] < common) + bool(kind & asked)
        if found >= MIN_NAMING and asked_kinds & (kind | _title_kinds(documents[doc_id].title)):
            named.append(doc_id)
    return named if len(named) < common else []


@functools.lru_cache(maxsize=65536)
def _title_terms(title: str) -> frozenset[str]:
    """A title's content words, read once per title (every search of a question naming a kind reads every title)."""
    return frozenset(content_terms(title))


@functools.lru_cache(maxsize=65536)
def _title_kinds(title: str) -> frozenset[str]:
    return frozenset(kind_terms(title))


def kind_terms(text: str) -> set[str]:
    """The words of the kinds of document `text` writes ("release notes", "deck", "e-mail")."""
    spans = [m.group(0) for pattern in (DOCUMENT_KIND, MORE_DOCUMENT_KINDS) for m in pattern.finditer(text)]
    return content_terms(" ".join(spans))


def interleaved(named: Sequence[tuple[str, float]], ranked: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """`ranked` with the `named` passages it does not have among its first SEEN places put in every other place from
    the top (a named passage ranked there already keeps its place: moving it only reorders what a small model reads);
    a placed passage takes the score of the one it precedes, so the scores still fall down the list."""
    seen = {c for c, _ in ranked[:SEEN]}
    missing = [c for c, _ in named if c not in seen]
    rest = [c for c, _ in ranked if c not in missing]
    merged: list[str] = []
    for i in range(max(len(missing), len(rest))):
        merged += ([missing[i]] if i < len(missing) else []) + ([rest[i]] if i < len(rest) else [])
    scores, placed, own = dict(ranked), set(missing), dict(named)
    out: list[tuple[str, float]] = []
    best: float | None = None  # the highest score of the ranked passages from here down, read bottom up
    for chunk_id in reversed(merged):
        if chunk_id not in placed:
            best = scores[chunk_id] if best is None else max(best, scores[chunk_id])
        out.append((chunk_id, best if best is not None else own.get(chunk_id, 0.0)))
    return out[::-1]
