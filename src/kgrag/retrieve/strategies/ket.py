"""KET-RAG strategies (KDD 2025) and its baselines, each filling a context budget lambda in tokens.

- `local`: GraphRAG local search (the paper's Algorithm 2) over the whole entity graph.
- `skeleton`: `local` restricted to the skeleton (entities/relations from core chunks).
- `keyword`: Keyword-RAG over the keyword <-> sub-chunk bipartite graph.
- `ket`: `skeleton` with theta*lambda, then `keyword` with the rest (theta per query: `theta=`).
- `text` (Text-RAG), `knng` (text seeds + KNN neighbours), `hybrid-rag` (half `text`, half `local`).
All work on cached arrays (`retrieve/ket_index.py`); per query only id lookups reach the store.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from kgrag.graph.algorithms import subgraph_from
from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import chunk_items, embed_query
from kgrag.retrieve.ket_index import UnitArrays, cached, graph_arrays, keyword_arrays, knn_arrays
from kgrag.retrieve.packing import chunk_item, pack
from kgrag.retrieve.projection import Projection, project
from kgrag.retrieve.projection import scores as projected_scores
from kgrag.retrieve.strategies.basic import DenseRetriever, candidate_count
from kgrag.types import Context, ContextItem, Subgraph

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

SEED_ENTITIES = 10
KEYWORD_CANDIDATE_FACTOR = 2  # Keyword-RAG gathers sub-chunks holding 2 * lambda tokens
KEYWORD_SCAN = 4096  # keywords sorted per step while gathering candidates
KEYWORD_EXACT = 4096  # keywords scored exactly after the projected scan (λ = 12k scans at most ~650 on MuSiQue)


def top_indices(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the k largest finite scores, best first (ties: lower index)."""
    k = min(k, int(np.isfinite(scores).sum()))
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    idx = np.argpartition(-scores, k - 1)[:k]
    return idx[np.lexsort((idx, -scores[idx]))]


def unit_items(index: Workspace, units: UnitArrays, ranked: Sequence[tuple[int, float]], budget: int) -> list[ContextItem]:
    """Context items for ranked unit rows, fetched only while they could still fit in `budget` tokens."""
    take: list[tuple[int, float]] = []
    total = 0
    for row, score in ranked:
        take.append((row, score))
        total += int(units.tokens[row])
        if total >= budget:
            break
    if not take:
        return []
    ids = [units.ids[r] for r, _ in take]
    parents = {c.chunk_id: c for c in index.store.get_chunks([units.parent[r] for r, _ in take])}
    docs = index.documents()
    if ids[0] in parents:  # units are whole chunks
        return [chunk_item(parents[i], docs.get(parents[i].doc_id), s) for i, (_, s) in zip(ids, take, strict=True) if i in parents]
    subs = {s.subchunk_id: s for s in index.store.get_subchunks(ids)}
    items = []
    for sid, (row, score) in zip(ids, take, strict=True):
        sub, chunk = subs.get(sid), parents.get(units.parent[row])
        if sub is None or chunk is None:
            continue
        item = chunk_item(chunk, docs.get(chunk.doc_id), score, kind="subchunk")
        item.text, item.tokens, item.item_id = sub.text, int(units.tokens[row]), sid
        items.append(item)
    return items


def local_search(
    index: Workspace, question: str, qvec: np.ndarray, budget: int, *, skeleton: bool = False
) -> tuple[list[ContextItem], int, Subgraph, dict[str, Any]]:
    """GraphRAG local search: seed entities, adjacent relations (to budget/2), then adjacent text units."""
    g = graph_arrays(index)
    adj = g.adj
    info: dict[str, Any] = {"entities": 0, "relations": 0, "units": 0}
    if not adj.n_nodes or budget <= 0 or g.vectors.shape[1] == 0:
        return [], 0, Subgraph(), info
    entity_mask = g.core_entities if skeleton else None
    relation_mask = g.core_relations if skeleton else None
    scores = g.vectors @ qvec
    scores[~np.any(g.vectors, axis=1)] = -np.inf
    if entity_mask is not None:
        scores = np.where(entity_mask, scores, -np.inf)
    seeds = top_indices(scores, SEED_ENTITIES)
    if not len(seeds):
        return [], 0, Subgraph(), info
    seed_set = set(seeds.tolist())
    entities = {e.entity_id: e for e in index.store.get_entities([adj.ids[i] for i in seeds])}
    ent_items = []
    for i in seeds:
        e = entities.get(adj.ids[i])
        text = f"{adj.names[i]}" + (f" ({adj.types[i]})" if adj.types[i] else "") + (f": {e.description}" if e and e.description else "")
        ent_items.append(ContextItem("entity", text, float(scores[i]), item_id=adj.ids[i]))
    rel_order = rank_relations(g, seeds, relation_mask)
    rel_items = [
        ContextItem(
            "relation",
            f"{adj.names[adj.rel_src[r]]} -[{adj.rel_types[r]}]-> {adj.names[adj.rel_dst[r]]}"
            + (f": {adj.rel_desc[r]}" if adj.rel_desc[r] else ""),
            float(adj.rel_weight[r]),
            item_id=adj.rel_ids[r],
        )
        for r in rel_order
    ]
    graph_part, used = pack(ent_items + rel_items, budget // 2, truncate_last=False)
    chosen_e = [adj.index_of[it.item_id] for it in graph_part if it.kind == "entity"]
    packed_r = {it.item_id for it in graph_part if it.kind == "relation"}
    chosen_r = [r for r in rel_order if adj.rel_ids[r] in packed_r]
    weight = np.asarray(g.entity_units[chosen_e].sum(axis=0)).ravel() if chosen_e else np.zeros(g.entity_units.shape[1])
    if chosen_r:
        weight = weight + np.asarray(g.relation_units[chosen_r].sum(axis=0)).ravel()
    rows = np.flatnonzero(weight)
    sims = g.units.vectors[rows] @ qvec if len(rows) else np.zeros(0)
    order = rows[np.lexsort((-sims, -weight[rows]))] if len(rows) else rows
    rank = {int(r): float(weight[r]) for r in order}
    text_units = unit_items(index, g.units, [(int(r), rank[int(r)]) for r in order], budget - used)
    unit_part, unit_used = pack(text_units, budget - used)
    for it in unit_part:
        it.source = dict(it.source, via="local")
    sub = subgraph_from(adj, {i: float(scores[i]) for i in chosen_e}, chosen_r, seeds=seed_set & set(chosen_e))
    info.update(entities=len(chosen_e), relations=len(chosen_r), units=len(unit_part), seeds=[adj.names[i] for i in seeds])
    return graph_part + unit_part, used + unit_used, sub.to_subgraph(), info


def rank_relations(g: Any, seeds: np.ndarray, mask: np.ndarray | None) -> list[int]:
    """Relations touching the seeds: between two seeds first, then by how many seeds the other end touches."""
    adj = g.adj
    seed_set = set(seeds.tolist())
    candidates: dict[int, None] = {}
    links: dict[int, set[int]] = {}
    for s in seeds.tolist():
        for r, other in zip(adj.incident(s).tolist(), adj.neighbours(s).tolist(), strict=True):
            if mask is not None and not mask[r]:
                continue
            candidates.setdefault(r, None)
            links.setdefault(other, set()).add(s)
    order = {s: k for k, s in enumerate(seeds.tolist())}

    def key(r: int) -> tuple[int, int, float, int, int]:
        a, b = int(adj.rel_src[r]), int(adj.rel_dst[r])
        inside = (a in seed_set) + (b in seed_set)
        other = b if a in seed_set else a
        best = min(order.get(a, len(order)), order.get(b, len(order)))
        return (-inside, -len(links.get(other, ())), -float(adj.rel_weight[r]), best, r)

    return sorted(candidates, key=key)


def keywords_by_score(scores: np.ndarray) -> Iterator[int]:
    """Keyword rows best first: the top KEYWORD_SCAN by partial sort, then the rest only if needed."""
    head = top_indices(scores, KEYWORD_SCAN)
    yield from head.tolist()
    if len(head) < len(scores):
        rest = np.ones(len(scores), dtype=bool)
        rest[head] = False
        idx = np.flatnonzero(rest)
        yield from idx[np.lexsort((idx, -scores[idx]))].tolist()


def gather_keyword_units(k: Any, scores: np.ndarray, sims: np.ndarray, target: int, picked: np.ndarray) -> int:
    """Mark in `picked` the sub-chunks Keyword-RAG gathers: keywords best first, each keyword's sub-chunks by
    cosine, until the next one (taken or not) would pass `target` tokens. Vectorised per block of keywords;
    returns how many keywords were scanned."""
    tokens = k.units.tokens
    order = np.fromiter(keywords_by_score(scores), dtype=np.int64, count=len(scores)) if len(scores) <= KEYWORD_SCAN \
        else None
    head = order if order is not None else top_indices(scores, KEYWORD_SCAN)
    gathered, scanned, start, block = 0, 0, 0, 64
    while True:
        if start >= len(head):
            if order is not None or len(head) >= len(scores):
                return scanned
            head = np.fromiter(keywords_by_score(scores), dtype=np.int64, count=len(scores))
            order = head
            continue
        rows = head[start:start + block]
        sub = k.to_units[rows]
        cols = sub.indices
        row_of = np.repeat(np.arange(len(rows)), np.diff(sub.indptr))
        seq = np.lexsort((-sims[cols], row_of))
        cols, row_of = cols[seq], row_of[seq]
        new = np.zeros(len(cols), dtype=bool)
        new[np.unique(cols, return_index=True)[1]] = True
        new &= ~picked[cols]
        tok = tokens[cols].astype(np.int64)
        added = np.where(new, tok, 0)
        before = gathered + np.cumsum(added) - added
        over = np.flatnonzero(before + tok > target)
        if len(over):
            stop = int(over[0])
            picked[cols[:stop][new[:stop]]] = True
            return scanned + int(row_of[stop]) + 1
        picked[cols[new]] = True
        gathered += int(added.sum())
        scanned += len(rows)
        start += len(rows)
        block *= 4


def keyword_projection(index: Workspace) -> Projection:
    """The keyword vectors with their principal-direction projection, built once per store generation."""
    gens = ("edges", "vectors:keyword", "vectors:kwsum", "vectors:subchunk")
    return cached(index.store, "keywords:projected", gens, lambda: project(keyword_arrays(index).vectors))


def keyword_ranking(
    index: Workspace, qvec: np.ndarray, budget: int, exclude: set[str] | None = None
) -> tuple[list[tuple[int, float]], dict[str, Any]]:
    """Keyword-RAG as the KET-RAG code does it: keywords by inner product with the question (exact for
    the best KEYWORD_EXACT of a projected scan); each keyword's sub-chunks by cosine, taken until the next
    one would pass 2*budget tokens; then all taken sub-chunks by cosine. Returns (sub-chunk row, cosine)
    best first and counts."""
    k = keyword_arrays(index)
    units = k.units
    info: dict[str, Any] = {"keywords": 0, "candidates": 0}
    if budget <= 0 or not k.ids or not units.ids:
        return [], info
    scores = projected_scores(keyword_projection(index), qvec, KEYWORD_EXACT)
    sims = units.vectors @ qvec
    picked = np.zeros(len(units.ids), dtype=bool)
    for sid in exclude or ():
        if sid in units.position:
            picked[units.position[sid]] = True
    excluded = picked.copy()
    n_kw = gather_keyword_units(k, scores, sims, KEYWORD_CANDIDATE_FACTOR * budget, picked)
    candidates = np.flatnonzero(picked & ~excluded)
    cand_sims = sims[candidates]
    order = np.lexsort((candidates, -cand_sims))
    info.update(keywords=n_kw, candidates=len(candidates))
    return list(zip(candidates[order].tolist(), cand_sims[order].tolist(), strict=True)), info


def keyword_search(
    index: Workspace, qvec: np.ndarray, budget: int, exclude: set[str] | None = None
) -> tuple[list[ContextItem], int, dict[str, Any]]:
    """Keyword-RAG (`keyword_ranking`) with its sub-chunks packed into `budget` tokens."""
    ranked, info = keyword_ranking(index, qvec, budget, exclude)
    if not ranked:
        return [], 0, info
    items, used = pack(unit_items(index, keyword_arrays(index).units, ranked, budget), budget)
    for it in items:
        it.source = dict(it.source, via="keyword")
    info.update(units=len(items))
    return items, used, info


class _KetRetriever(Retriever):
    """Shared plumbing: embed the question once, build the Context."""

    def context(self, question: str, budget: int, items: list[ContextItem], used: int, **extra: Any) -> Context:
        return Context(question=question, strategy=self.name, items=items, tokens=used, budget=budget, **extra)


@register
class LocalRetriever(_KetRetriever):
    name = "local"
    description = "GraphRAG local search: 10 nearest entities, their relations (to λ/2), then their text units."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        items, used, sub, info = local_search(self.index, question, embed_query(self.index, question), budget)
        return self.context(question, budget, items, used, subgraph=sub, info=info)


@register
class SkeletonRetriever(_KetRetriever):
    name = "skeleton"
    description = "KET-RAG SkeletonRAG: local search on the KG skeleton extracted from PageRank core chunks."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        qvec = embed_query(self.index, question)
        items, used, sub, info = local_search(self.index, question, qvec, budget, skeleton=True)
        return self.context(question, budget, items, used, subgraph=sub, info=info)


@register
class KeywordRetriever(_KetRetriever):
    name = "keyword"
    description = "KET-RAG KeywordRAG: keywords nearest the question, then their most similar sub-chunks."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        items, used, info = keyword_search(self.index, embed_query(self.index, question), budget)
        return self.context(question, budget, items, used, info=info)


@register
class KetRetriever(_KetRetriever):
    name = "ket"
    description = "KET-RAG: skeleton local search with θ·λ (default θ=0.4), keyword search with the rest."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        theta = float(options.get("theta", self.index.settings.retrieval.theta))
        qvec = embed_query(self.index, question)
        g_items, g_used, sub, g_info = local_search(self.index, question, qvec, int(theta * budget), skeleton=True)
        seen = {it.item_id for it in g_items if it.kind == "subchunk" and it.item_id}
        k_items, k_used, k_info = keyword_search(self.index, qvec, budget - g_used, exclude=seen)
        info = {"theta": theta, "skeleton_tokens": g_used, "keyword_tokens": k_used, "skeleton": g_info, "keyword": k_info}
        return self.context(question, budget, g_items + k_items, g_used + k_used, subgraph=sub, info=info)


@register
class TextRetriever(DenseRetriever):
    name = "text"
    description = "Text-RAG baseline of KET-RAG: top chunks by embedding cosine (same as `dense`)."


@register
class KnngRetriever(_KetRetriever):
    name = "knng"
    description = "KNNG-RAG baseline: dense seed chunks, each followed by its KNN-graph neighbours."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        knn = knn_arrays(self.index)
        qvec = embed_query(self.index, question)
        seeds = self.index.store.search_vectors("chunk", qvec, candidate_count(budget, self.index.settings.retrieval.top_k))
        ranked: dict[str, float] = {}
        for cid, score in seeds:
            ranked.setdefault(cid, score)
            pos = knn.position.get(cid)
            if pos is None:
                continue
            row = knn.adjacency[pos]
            for j in row.indices[np.argsort(-row.data, kind="stable")].tolist():
                ranked.setdefault(knn.ids[j], score)
        items, used = pack(chunk_items(self.index, list(ranked.items())), budget)
        return self.context(question, budget, items, used)


@register
class HybridRagRetriever(_KetRetriever):
    name = "hybrid-rag"
    description = "Hybrid-RAG baseline: half the budget Text-RAG chunks, the rest GraphRAG local search."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        text = TextRetriever(self.index).retrieve(question, budget // 2, **options)
        qvec = embed_query(self.index, question)
        items, used, sub, info = local_search(self.index, question, qvec, budget - text.tokens)
        seen = set(text.chunk_ids())
        items = [it for it in items if not (it.kind == "chunk" and it.chunk_id in seen)]
        used = sum(it.tokens for it in items)
        return self.context(question, budget, text.items + items, text.tokens + used, subgraph=sub, info=info)
