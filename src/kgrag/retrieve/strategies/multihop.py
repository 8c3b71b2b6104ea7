"""Multi-hop strategies without LLM calls: `trigraph` (entity-sentence-passage PPR with a bridge round)
and `fused` (weighted reciprocal rank fusion of ket, hybrid and trigraph passage rankings, then of a
second-hop channel grown from that first fusion's top passages).

The question is embedded once per call; every channel reuses that vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import embed_query, sparse_search
from kgrag.retrieve.fusion import alpha_fuse, rrf
from kgrag.retrieve.ket_index import keyword_arrays
from kgrag.retrieve.multihop import (
    SECOND_HOP_MAX_DF,
    SECOND_HOP_SPECIFICITY,
    MultiHopParams,
    QueryScores,
    SentenceScores,
    best_sentences,
    query_scores,
    question_entities,
    rank_passages,
    second_hop,
)
from kgrag.retrieve.packing import MIN_TRUNCATED_TOKENS, chunk_item, pack
from kgrag.retrieve.strategies.basic import candidate_count
from kgrag.retrieve.strategies.ket import keyword_ranking, local_search, top_indices
from kgrag.retrieve.trigraph_index import PassageText, TriGraph, passage_texts, trigraph_arrays
from kgrag.types import Context, ContextItem

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

FUSED_CHANNELS = ("ket", "hybrid", "trigraph")
FUSED_WEIGHTS = (0.0, 1.0, 1.0)  # (ket, hybrid, trigraph): best mean of a {0, .5, 1, 2}^3 grid on the 150 MuSiQue dev
# questions (flat: the top 8 within 0.007); ket at weight 0 also saves ~10 ms per question (weights=(0.5, 1, 2) adds it)
RRF_K = 60.0
HOP2_WEIGHT = 1.0  # RRF weight of the second-hop channel (0 turns it off); with its seeds, max_df and specificity
HOP2_SEEDS = 2  # chosen on the 150 MuSiQue dev questions (flat: every point of the grid beat no channel, docs/multihop.md)
HOP2_MAX_WORDS = 26  # a longer question (3-4 hops) names more of its chain itself: no second hop, whose two-step chains
# from the top two passages took the budget its directly retrieved passages needed (dev 4-hop at 1k / 4k 0.364 / 0.545 ->
# 0.455 / 0.636; 0 = every question gets it; docs/benchmarks.md, issue 13 round 7)
TRIGRAPH_SEEDS = "hybrid"  # the tri-graph's walk restarts on the hybrid channel's top passages, not the dense top: BM25's
# exact names find the first hop more often (MuSiQue dev 12k 0.907 -> 0.920, 3- / 4-hop 0.923 / 0.727 -> 0.942 / 0.773,
# 4k 0.840 -> 0.833; "dense": as before; docs/benchmarks.md, issue 13 round 15)
KEEP_SENTENCES = 4  # `fused` packs each passage's first sentence and its 3 nearest the question (0: whole passages)
LEAD_SENTENCE = True  # the first sentence (the passage's subject) is always kept
TAIL_AFTER, TAIL_SENTENCES = 5, 2  # within TAIL_BUDGETS the passages after the first TAIL_AFTER keep TAIL_SENTENCES (0:
# off), so more passages fit where a lower-ranked answer sits (MuSiQue dev at 4k 0.813 -> 0.840, blind 0.856 -> 0.867)
TAIL_BUDGETS = (2000, 6000)  # at 12k it cost 0.02; at 1k it moved one dev question from 3- to 4-hop, leaving 3-hop one
# question below `trigraph` (docs/benchmarks.md, issue 13 round 9)


def multihop_params(options: dict[str, Any]) -> MultiHopParams:
    """MultiHopParams with any field overridden by a same-named retrieval option."""
    names = {f.name for f in fields(MultiHopParams)}
    given = {k: type(getattr(MultiHopParams, k))(v) for k, v in options.items() if k in names}
    return replace(MultiHopParams(), **given)


def trigraph_ranking(index: Workspace, question: str, scores: QueryScores, budget: int, options: dict[str, Any],
                     seeds: list[str] | None = None) -> tuple[list[str], dict[str, Any]]:
    """Chunk ids best first by the tri-graph (empty when the `trigraph` stage has not run); `seeds` (chunk ids, best
    first) are the passages its walk restarts on, the dense top passages when None."""
    graph = trigraph_arrays(index)
    if not graph.passages.ids or not graph.sent_vectors.size:
        return [], {"trigraph": "missing: run `kgrag index --stage trigraph`"}
    seed_rows = [graph.passages.position[c] for c in seeds if c in graph.passages.position] if seeds else None
    rows, info = rank_passages(graph, question, scores.qvec, budget, multihop_params(options),
                               bridge=bool(options.get("bridge", True)), scores=scores, seed_rows=seed_rows)
    return [graph.passages.ids[r] for r in rows], info


def packed_prefix(tokens: Sequence[int], budget: int) -> int:
    """How many of the ranked items `pack` would cite: those that fit, up to the first one cut or left out."""
    used = 0
    for n, t in enumerate(tokens):
        if used + t > budget:
            return n + 1 if budget - used >= MIN_TRUNCATED_TOKENS else n
        used += t
    return len(tokens)


def ket_ranking(index: Workspace, question: str, qvec: np.ndarray, budget: int, theta: float) -> list[str]:
    """Chunk ids in the order the `ket` context first cites them (skeleton units, then keyword sub-chunks)."""
    g_items, g_used, _, _ = local_search(index, question, qvec, int(theta * budget), skeleton=True)
    seen = {it.item_id for it in g_items if it.kind == "subchunk" and it.item_id}
    ranked, _ = keyword_ranking(index, qvec, budget - g_used, exclude=seen)
    units = keyword_arrays(index).units
    rows = [r for r, _ in ranked]
    rows = rows[:packed_prefix(units.tokens[rows].tolist(), budget - g_used)]
    return list(dict.fromkeys([it.chunk_id for it in g_items if it.chunk_id] + [units.parent[r] for r in rows]))


def hybrid_ranking(index: Workspace, question: str, scores: QueryScores, budget: int, alpha: float) -> list[str]:
    """Chunk ids by min-max α-fusion of dense (the shared passage scores) and BM25 candidates, as `hybrid` ranks them."""
    k = candidate_count(budget, index.settings.retrieval.top_k)
    ids = trigraph_arrays(index).passages.ids
    dense = [(ids[r], float(scores.dense[r])) for r in top_indices(scores.dense, k).tolist()]
    return [cid for cid, _ in alpha_fuse(dense, sparse_search(index, question, k), alpha, k)]


def fuse(rankings: Sequence[Sequence[str]], weights: Sequence[float]) -> list[tuple[str, float]]:
    """The fused chunk ranking (weighted RRF, k = 60) of the channel rankings."""
    return rrf(rankings, weights, RRF_K)


def second_hop_ranking(graph: TriGraph, question: str, scores: QueryScores, first: Sequence[str],
                       options: dict[str, Any], limit: int) -> list[str]:
    """The second-hop channel: the top `hop2_seeds` chunks of the first fusion, then the chunks that share a
    specific entity with them, by similarity to the question (`multihop.second_hop`)."""
    seeds = [graph.passages.position[c] for c in first[:int(options.get("hop2_seeds", HOP2_SEEDS))]
             if c in graph.passages.position]
    rows = second_hop(graph, seeds, scores.dense, question_entities(graph, question), limit=limit,
                      max_df=int(options.get("hop2_max_df", SECOND_HOP_MAX_DF)),
                      specificity=float(options.get("hop2_specificity", SECOND_HOP_SPECIFICITY)))
    return [graph.passages.ids[r] for r in seeds + rows]


def cut_passage(graph: TriGraph, text: PassageText, sent_sims: SentenceScores | np.ndarray, keep: int,
                lead: bool = LEAD_SENTENCE) -> tuple[str, int, list[int] | None]:
    """A passage cut to `keep` sentences (`best_sentences`, text order): (text, tokens, positions);
    positions None when the passage is used whole."""
    row = graph.passages.position.get(text.chunk.chunk_id)
    chosen = best_sentences(graph, row, sent_sims, keep, lead) if row is not None and keep > 0 else None
    if not chosen or max(chosen) >= len(text.sentences):
        return text.chunk.text, int(text.chunk.tokens or sum(text.tokens)), None
    return " ".join(text.sentences[i] for i in chosen), sum(text.tokens[i] for i in chosen), chosen


def passage_items(index: Workspace, graph: TriGraph, ranked: list[tuple[str, float]], scores: QueryScores, keep: int,
                  budget: int, lead: bool = LEAD_SENTENCE, tail: tuple[int, int] = (0, 0)) -> list[ContextItem]:
    """Context items for ranked chunk ids, each cut to `keep` sentences (after the first `tail[0]` passages to at most
    `tail[1]` when that is set), built only until `budget` is filled."""
    texts = passage_texts(index)
    docs = index.documents()
    items, used = [], 0
    for cid, score in ranked:
        text = texts.get(cid)
        if text is None:
            continue
        item = chunk_item(text.chunk, docs.get(text.chunk.doc_id), score)
        sentences = min(keep, tail[1]) if keep and tail[1] and len(items) >= tail[0] else keep
        item.text, item.tokens, chosen = cut_passage(graph, text, scores.sentences, sentences, lead)
        if chosen is not None:
            item.source = dict(item.source, sentences=chosen)
        items.append(item)
        used += item.tokens
        if used >= budget:
            break
    return items


def _candidates(index: Workspace, budget: int) -> int:
    """How many ranked chunks to fetch: enough to fill the budget with short passages."""
    return 2 * candidate_count(budget, index.settings.retrieval.top_k)


def _context(question: str, name: str, budget: int, items: list[ContextItem], **extra: Any) -> Context:
    items, used = pack(items, budget)
    return Context(question=question, strategy=name, items=items, tokens=used, budget=budget, **extra)


@register
class TriGraphRetriever(Retriever):
    name = "trigraph"
    description = "Tri-graph (entities-sentences-passages): PPR seeded by question/bridged entities + dense passages, bridge round."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        graph = trigraph_arrays(self.index)
        scores = query_scores(graph, embed_query(self.index, question))
        ids, info = trigraph_ranking(self.index, question, scores, budget, options)
        ranked = [(cid, 1.0 / (n + 1)) for n, cid in enumerate(ids[:_candidates(self.index, budget)])]
        return _context(question, self.name, budget, passage_items(self.index, graph, ranked, scores, 0, budget), info=info)


@register
class FusedRetriever(Retriever):
    name = "fused"
    description = ("Weighted reciprocal rank fusion of ket, hybrid and trigraph passage rankings plus a second-hop channel "
                   "(one question embedding).")

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        index = self.index
        graph = trigraph_arrays(index)
        scores = query_scores(graph, embed_query(index, question))
        weights = [float(w) for w in options.get("weights", FUSED_WEIGHTS)]
        settings = index.settings.retrieval
        n = _candidates(index, budget)
        channels: list[list[str]] = []
        info: dict[str, Any] = {"weights": weights}
        for name, w in zip(FUSED_CHANNELS, weights, strict=True):
            if w <= 0:
                channels.append([])
            elif name == "ket":
                channels.append(ket_ranking(index, question, scores.qvec, budget, float(options.get("theta", settings.theta))))
            elif name == "hybrid":
                channels.append(hybrid_ranking(index, question, scores, budget, float(options.get("alpha", settings.alpha))))
            else:
                hybrid = channels[FUSED_CHANNELS.index("hybrid")]  # ranked before: the channels run in FUSED_CHANNELS order
                seeds = hybrid if options.get("trigraph_seeds", TRIGRAPH_SEEDS) == "hybrid" else None
                ids, info["trigraph"] = trigraph_ranking(index, question, scores, budget, options, seeds)
                channels.append(ids[:n])
        ranked = fuse(channels, weights)
        hop_weight = float(options.get("hop2_weight", HOP2_WEIGHT))
        max_words = int(options.get("hop2_max_words", HOP2_MAX_WORDS))
        if max_words and len(question.split()) > max_words:
            hop_weight, info["second_hop"] = 0.0, f"off: a question of more than {max_words} words"
        if hop_weight > 0 and graph.passages.ids:
            hop = second_hop_ranking(graph, question, scores, [c for c, _ in ranked], options, n)
            ranked = fuse([*channels, hop], [*weights, hop_weight])
            info["second_hop"] = len(hop)
        ranked = ranked[:n]
        keep = int(options.get("keep_sentences", KEEP_SENTENCES))
        lead = bool(options.get("lead_sentence", LEAD_SENTENCE))
        tail = (int(options.get("tail_after", TAIL_AFTER)), int(options.get("tail_sentences", TAIL_SENTENCES)))
        low, high = (int(options.get(k, v)) for k, v in zip(("tail_min_budget", "tail_max_budget"), TAIL_BUDGETS, strict=True))
        if not low <= budget <= high:
            tail = (0, 0)
        items = passage_items(index, graph, ranked, scores, keep, budget, lead, tail)
        return _context(question, self.name, budget, items, info=info)
