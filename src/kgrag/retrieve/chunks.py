"""Chunk-level candidate search shared by strategies: dense, BM25, hybrid, as ranked (chunk_id, score)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kgrag.retrieve.fusion import alpha_fuse
from kgrag.retrieve.named_documents import NAMED_PASSAGES, interleaved, named_documents
from kgrag.retrieve.packing import chunk_item
from kgrag.types import ContextItem

if TYPE_CHECKING:
    from kgrag.workspace import Workspace


def embed_query(index: Workspace, text: str) -> np.ndarray:
    return index.embedder.embed([text])[0]


def allowed_chunks(index: Workspace, version: str | None) -> set[str] | None:
    """Chunk ids of documents with this `version` metadata, or None for no filter."""
    return set(index.version_chunks(version)) if version else None


def dense_search(index: Workspace, query: str, k: int, version: str | None = None) -> list[tuple[str, float]]:
    return index.store.search_vectors("chunk", embed_query(index, query), k, allowed_chunks(index, version))


def sparse_search(index: Workspace, query: str, k: int, version: str | None = None) -> list[tuple[str, float]]:
    allowed = allowed_chunks(index, version)
    return index.store.search_text(query, k, None if allowed is None else sorted(allowed))


def hybrid_search(
    index: Workspace, query: str, k: int, alpha: float, version: str | None = None, sparse_query: str | None = None
) -> list[tuple[str, float]]:
    """Min-max α-fusion of dense and BM25 candidates (k each), union by chunk id; the passages of the documents the
    question names go first in turn (`named_passages_first`)."""
    vector = embed_query(index, query)
    allowed = allowed_chunks(index, version)
    dense = index.store.search_vectors("chunk", vector, k, allowed)
    sparse = sparse_search(index, sparse_query or query, k, version)
    ranked = alpha_fuse(dense, sparse, alpha, k)
    return named_passages_first(index, query, vector, ranked, alpha, allowed, sparse_query)[:k]


def named_passages_first(
    index: Workspace, query: str, vector: np.ndarray, ranked: Sequence[tuple[str, float]], alpha: float,
    allowed: set[str] | frozenset[str] | None, sparse_query: str | None = None,
) -> list[tuple[str, float]]:
    """`ranked` with the best passages of the documents the question names ("according to the training deck",
    retrieve/named_documents.py), searched among their own chunks, in every other place from the top."""
    named = set().union(*(index.document_chunks(d) for d in named_documents(index.documents(), query)))
    named = named & allowed if allowed is not None else named
    if not named:
        return list(ranked)
    inside = alpha_fuse(index.store.search_vectors("chunk", vector, NAMED_PASSAGES, named),
                        index.store.search_text(sparse_query or query, NAMED_PASSAGES, sorted(named)), alpha, NAMED_PASSAGES)
    return interleaved(inside[:NAMED_PASSAGES], ranked)


def chunk_items(index: Workspace, ranked: Sequence[tuple[str, float]]) -> list[ContextItem]:
    """Context items for ranked chunk ids, in rank order."""
    scores = dict(ranked)
    docs = index.documents()
    return [
        chunk_item(c, docs.get(c.doc_id), scores[c.chunk_id]) for c in index.store.get_chunks([i for i, _ in ranked])
    ]
