"""The thesis's baselines: `naive` RAG and Algorithm 1 "advanced RAG" (rewrite + keywords, 30+30 candidates,
min-max α-fusion, LLM selection of the best k of the top 25 with a deterministic fallback to the fused order)."""

from __future__ import annotations

from typing import Any

from kgrag.errors import KgragError
from kgrag.models.usage import llm_stage
from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import chunk_items, dense_search, sparse_search
from kgrag.retrieve.fusion import alpha_fuse, minmax
from kgrag.retrieve.packing import pack
from kgrag.retrieve.query import QueryRewrite, rewrite_query
from kgrag.tokens import truncate_tokens
from kgrag.types import Context

NAIVE_K = 10
CANDIDATES = 30  # per retriever (Algorithm 1)
RERANK_POOL = 25  # the LLM selects from the fused top 25
PASSAGE_TOKENS = 80  # what the LLM sees of each candidate (25 × 80 tokens fit a 4k context)
SELECT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"selected": {"type": "array", "items": {"type": "integer"}, "maxItems": RERANK_POOL}},
    "required": ["selected"],
}


@register
class NaiveRetriever(Retriever):
    name = "naive"
    description = "Naive RAG baseline: the dense top-k chunks (k=10, option k), concatenated verbatim."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        ranked = dense_search(self.index, question, int(options.get("k", NAIVE_K)), options.get("version"))
        items, used = pack(chunk_items(self.index, ranked), budget)
        return Context(question=question, strategy=self.name, items=items, tokens=used, budget=budget)


def select_k(llm: Any, question: str, passages: list[str], k: int) -> list[int] | None:
    """The LLM's choice of the `k` most useful passages (0-based, best first), or None when unusable."""
    from kgrag.models.json_output import complete_json

    listing = "\n".join(f"[{i + 1}] {truncate_tokens(' '.join(p.split()), PASSAGE_TOKENS)}" for i, p in enumerate(passages))
    messages = [
        {"role": "system", "content": f"Select the {k} passages most useful to answer the question, best first. "
         'Reply as JSON: {"selected": [passage numbers]}.'},
        {"role": "user", "content": f"Question: {question}\n\nPassages:\n{listing}"},
    ]
    try:
        with llm_stage("rerank"):
            data = complete_json(llm, messages, SELECT_SCHEMA, max_tokens=80)
    except KgragError:
        return None
    chosen = list(dict.fromkeys(n - 1 for n in data.get("selected", []) if isinstance(n, int) and 1 <= n <= len(passages)))
    return chosen[:k] or None


class _AdvancedRetriever(Retriever):
    needs_llm = True
    use_dense = True
    use_sparse = True

    def candidates(self, rewrite: QueryRewrite, options: dict[str, Any]) -> list[tuple[str, float]]:
        version = options.get("version")
        dense = dense_search(self.index, rewrite.text, CANDIDATES, version) if self.use_dense else []
        sparse = sparse_search(self.index, rewrite.sparse_query(), CANDIDATES, version) if self.use_sparse else []
        if self.use_dense and self.use_sparse:
            return alpha_fuse(dense, sparse, float(options.get("alpha", self.index.settings.retrieval.alpha)),
                              CANDIDATES)
        normed = minmax(dense or sparse)
        return sorted(normed.items(), key=lambda kv: (-kv[1], kv[0]))

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        llm = self.index.llm if options.get("use_llm", True) else None
        rewrite = rewrite_query(question, llm)
        fused = self.candidates(rewrite, options)
        pool = fused[:RERANK_POOL]
        items = chunk_items(self.index, pool)
        k = int(options.get("k") or max(1, min(len(items), budget // 250)))
        chosen = select_k(llm, question, [i.text for i in items], k) if llm is not None and items else None
        if chosen is not None:
            order = chosen + [i for i in range(len(items)) if i not in chosen]  # selected first, the rest fills
            items = [items[i] for i in order]
        rest = chunk_items(self.index, fused[RERANK_POOL:])
        packed, used = pack(items + rest, budget)
        info = {"rewrite": rewrite.text, "keywords": rewrite.keywords, "rewrite_source": rewrite.source,
                "rerank": "llm" if chosen is not None else "fallback (fused order)", "k": k}
        return Context(question=question, strategy=self.name, items=packed, tokens=used, budget=budget, info=info)


@register
class AdvancedSparseRetriever(_AdvancedRetriever):
    name = "advanced-sparse"
    description = "Thesis Algorithm 1 with BM25 only: LLM rewrite + keywords, 30 candidates, LLM picks the best k of 25."
    use_dense = False


@register
class AdvancedDenseRetriever(_AdvancedRetriever):
    name = "advanced-dense"
    description = "Thesis Algorithm 1 with dense only: LLM rewrite, 30 candidates, LLM picks the best k of 25."
    use_sparse = False


@register
class AdvancedHybridRetriever(_AdvancedRetriever):
    name = "advanced-hybrid"
    description = "Thesis Algorithm 1: rewrite + keywords, dense+BM25 (30 each), min-max α=0.6 fusion, LLM picks best k of 25."
