"""Chunk retrieval baselines: dense, sparse (BM25) and hybrid (min-max α-fusion)."""

from __future__ import annotations

from typing import Any

from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import chunk_items, dense_search, hybrid_search, sparse_search
from kgrag.retrieve.packing import pack
from kgrag.types import Context

# Candidates fetched per strategy: enough to fill large budgets (12k tokens ≈ 40+ chunks of 300 tokens).
MIN_CANDIDATES = 30
TOKENS_PER_CANDIDATE = 100


def candidate_count(budget: int, top_k: int) -> int:
    return max(top_k, MIN_CANDIDATES, budget // TOKENS_PER_CANDIDATE)


class _ChunkRetriever(Retriever):
    def search(self, question: str, k: int, **options: Any) -> list[tuple[str, float]]:
        raise NotImplementedError

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        k = candidate_count(budget, self.index.settings.retrieval.top_k)
        ranked = self.search(question, k, **options)
        items, used = pack(chunk_items(self.index, ranked), budget)
        return Context(question=question, strategy=self.name, items=items, tokens=used, budget=budget)


@register
class DenseRetriever(_ChunkRetriever):
    name = "dense"
    description = "Top chunks by embedding cosine similarity (exact vector search)."

    def search(self, question: str, k: int, **options: Any) -> list[tuple[str, float]]:
        return dense_search(self.index, question, k, options.get("version"))


@register
class SparseRetriever(_ChunkRetriever):
    name = "sparse"
    description = "Top chunks by BM25 full-text score (SQLite FTS5)."

    def search(self, question: str, k: int, **options: Any) -> list[tuple[str, float]]:
        return sparse_search(self.index, question, k, options.get("version"))


@register
class HybridRetriever(_ChunkRetriever):
    name = "hybrid"
    description = "Dense + BM25, min-max normalised, fused with alpha (default 0.6 on the dense side)."

    def search(self, question: str, k: int, **options: Any) -> list[tuple[str, float]]:
        alpha = float(options.get("alpha", self.index.settings.retrieval.alpha))
        return hybrid_search(self.index, question, k, alpha, options.get("version"))
