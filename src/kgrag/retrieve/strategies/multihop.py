"""Multi-hop strategies without LLM calls: `trigraph` (entity-sentence-passage PPR with a bridge round)
and `fused` (weighted reciprocal rank fusion of ket, hybrid and trigraph passage rankings).

The question is embedded once per call; every channel reuses that vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from kgrag.ingest.sentences import split_sentences
from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import chunk_items, embed_query, sparse_search
from kgrag.retrieve.fusion import alpha_fuse, rrf
from kgrag.retrieve.multihop import MultiHopParams, best_sentences, rank_passages
from kgrag.retrieve.packing import pack
from kgrag.retrieve.strategies.basic import candidate_count
from kgrag.retrieve.strategies.ket import keyword_search, local_search
from kgrag.retrieve.trigraph_index import TriGraph, trigraph_arrays
from kgrag.tokens import count_tokens
from kgrag.types import Context, ContextItem

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

FUSED_CHANNELS = ("ket", "hybrid", "trigraph")
FUSED_WEIGHTS = (1.0, 1.0, 2.0)  # (ket, hybrid, trigraph): best of a {0, .5, 1, 2}^3 grid on the 150 MuSiQue dev questions
RRF_K = 60.0
KEEP_SENTENCES = 3  # `fused` packs each passage's 3 sentences nearest the question (0: whole passages)


def multihop_params(options: dict[str, Any]) -> MultiHopParams:
    """MultiHopParams with any field overridden by a same-named retrieval option."""
    names = {f.name for f in fields(MultiHopParams)}
    given = {k: type(getattr(MultiHopParams, k))(v) for k, v in options.items() if k in names}
    return replace(MultiHopParams(), **given)


def trigraph_ranking(index: Workspace, question: str, qvec: np.ndarray, budget: int, options: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """Chunk ids best first by the tri-graph (empty when the `trigraph` stage has not run)."""
    graph = trigraph_arrays(index)
    if not graph.passages.ids or not graph.sent_vectors.size:
        return [], {"trigraph": "missing: run `kgrag index --stage trigraph`"}
    rows, info = rank_passages(graph, question, qvec, budget, multihop_params(options),
                               bridge=bool(options.get("bridge", True)))
    return [graph.passages.ids[r] for r in rows], info


def ket_ranking(index: Workspace, question: str, qvec: np.ndarray, budget: int, theta: float) -> list[str]:
    """Chunk ids in the order the `ket` context first cites them (skeleton units, then keyword sub-chunks)."""
    g_items, g_used, _, _ = local_search(index, question, qvec, int(theta * budget), skeleton=True)
    seen = {it.item_id for it in g_items if it.kind == "subchunk" and it.item_id}
    k_items, _, _ = keyword_search(index, qvec, budget - g_used, exclude=seen)
    return list(dict.fromkeys(it.chunk_id for it in g_items + k_items if it.chunk_id))


def hybrid_ranking(index: Workspace, question: str, qvec: np.ndarray, budget: int, alpha: float) -> list[str]:
    """Chunk ids by min-max α-fusion of dense (given vector) and BM25 candidates, as `hybrid` ranks them."""
    k = candidate_count(budget, index.settings.retrieval.top_k)
    dense = index.store.search_vectors("chunk", qvec, k)
    return [cid for cid, _ in alpha_fuse(dense, sparse_search(index, question, k), alpha)]


def fuse(rankings: Sequence[Sequence[str]], weights: Sequence[float]) -> list[tuple[str, float]]:
    """The fused chunk ranking (weighted RRF, k = 60) of the channel rankings."""
    return rrf(rankings, weights, RRF_K)


def compress(items: list[ContextItem], graph: TriGraph, qvec: np.ndarray, keep: int) -> list[ContextItem]:
    """Each passage cut to its `keep` sentences nearest the question (text order), so more passages fit λ."""
    if keep <= 0 or not graph.sent_vectors.size:
        return items
    sims = graph.sent_vectors @ qvec
    for item in items:
        row = graph.passages.position.get(item.chunk_id or "")
        chosen = best_sentences(graph, row, sims, keep) if row is not None else None
        sents = split_sentences(item.text) if chosen is not None else []
        if chosen and max(chosen) < len(sents):
            item.text = " ".join(sents[i] for i in chosen)
            item.tokens = count_tokens(item.text)
            item.source = dict(item.source, sentences=chosen)
    return items


def _pack_chunks(index: Workspace, question: str, name: str, budget: int, ranked: list[tuple[str, float]],
                 shrink: Any = None, **extra: Any) -> Context:
    items = chunk_items(index, ranked)
    items, used = pack(shrink(items) if shrink else items, budget)
    return Context(question=question, strategy=name, items=items, tokens=used, budget=budget, **extra)


def _candidates(index: Workspace, budget: int) -> int:
    """How many ranked chunks to fetch: enough to fill the budget with short passages."""
    return 2 * candidate_count(budget, index.settings.retrieval.top_k)


@register
class TriGraphRetriever(Retriever):
    name = "trigraph"
    description = "Tri-graph (entities-sentences-passages): PPR seeded by question/bridged entities + dense passages, bridge round."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        qvec = embed_query(self.index, question)
        ids, info = trigraph_ranking(self.index, question, qvec, budget, options)
        ranked = [(cid, 1.0 / (n + 1)) for n, cid in enumerate(ids[:_candidates(self.index, budget)])]
        return _pack_chunks(self.index, question, self.name, budget, ranked, info=info)


@register
class FusedRetriever(Retriever):
    name = "fused"
    description = "Weighted reciprocal rank fusion of ket, hybrid and trigraph passage rankings (one question embedding)."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        index = self.index
        qvec = embed_query(index, question)
        weights = [float(w) for w in options.get("weights", FUSED_WEIGHTS)]
        settings = index.settings.retrieval
        n = _candidates(index, budget)
        channels: list[list[str]] = []
        info: dict[str, Any] = {"weights": weights}
        for name, w in zip(FUSED_CHANNELS, weights, strict=True):
            if w <= 0:
                channels.append([])
            elif name == "ket":
                channels.append(ket_ranking(index, question, qvec, budget, float(options.get("theta", settings.theta))))
            elif name == "hybrid":
                channels.append(hybrid_ranking(index, question, qvec, budget, float(options.get("alpha", settings.alpha))))
            else:
                ids, info["trigraph"] = trigraph_ranking(index, question, qvec, budget, options)
                channels.append(ids[:n])
        ranked = fuse(channels, weights)[:n]
        keep = int(options.get("keep_sentences", KEEP_SENTENCES))
        graph = trigraph_arrays(index)
        return _pack_chunks(index, question, self.name, budget, ranked, shrink=lambda items: compress(items, graph, qvec, keep),
                            info=info)
