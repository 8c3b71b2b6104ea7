"""`kg-facts`: hybrid's candidates, re-ranked by product scoping, plus a compact spec-fact table from the graph.

1. Hybrid candidates (dense + BM25, α-fusion) as in `hybrid`.
2. The question's products/components are linked (retrieve/scoping.py, longest name wins, numeric-safe);
   the linked products' own chunks and the chunks naming a linked component join the candidates (dense
   order within them) and get a bonus; chunks of other products are damped when a product was named.
3. Facts around the linked entities (retrieve/fact_table.py) go first as `attribute | value [n]` lines within
   FACT_SHARE of the budget; the re-ranked chunks fill the rest. With no link the result is hybrid's.
Weights were chosen on the Arduino dev questions only (docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from kgrag.graph.adjacency import GraphAdjacency, get_adjacency
from kgrag.graph.algorithms import subgraph_from
from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import allowed_chunks, chunk_items, sparse_search
from kgrag.retrieve.compact import compact_items
from kgrag.retrieve.fact_table import collect_facts, fact_lines
from kgrag.retrieve.fusion import alpha_fuse, minmax
from kgrag.retrieve.packing import item_tokens, pack
from kgrag.retrieve.query_linking import question_vector
from kgrag.retrieve.scoping import Link, chunk_products, link_question
from kgrag.retrieve.strategies.basic import candidate_count
from kgrag.types import Context, ContextItem

FACT_SHARE = 0.15  # at most this share of the budget for the fact table
SCOPE_BONUS = 0.6  # added (times the chunk's dense rank score within the scope) to a linked product's chunks
COMPONENT_BONUS = 0.35  # same for chunks naming a linked component
OTHER_PRODUCT = 0.6  # multiplier of chunks that belong only to products the question did not name
SCOPED_K = 12  # chunks taken from each scope by dense similarity
MMR_LAMBDA = 1.0  # 1 = plain relevance order; lower trades relevance for diversity
MMR_POOL = 80
MAX_CANDIDATES = 80  # ranked chunks considered for packing (4k tokens hold ~25 datasheet chunks)
MAX_COPY_NOTES = 1  # a passage copied in more products than this is boilerplate: no "also in" notes
MAX_OVERLAP = 0.6  # a chunk whose words are this much inside one already kept chunk is a near-copy


def novel_items(items: Iterable[ContextItem], max_overlap: float, budget: int, note: bool = True) -> list[ContextItem]:
    """Items in order, skipping one whose words are mostly (> max_overlap) in a single item kept before it.

    Datasheets of sibling products repeat whole sections (certifications, recovery, power notes); a copy
    adds no fact but takes budget that a different passage could use.
    """
    kept: list[ContextItem] = []
    seen: list[set[str]] = []
    used = 0
    for item in items:
        words = set(item.text.lower().split())
        limit = max_overlap * len(words)
        copy_of = next((i for i, other in enumerate(seen) if words and len(words & other) > limit), None)
        if copy_of is not None:
            if note:
                _note_copy(kept[copy_of], item)
            continue
        kept.append(item)
        seen.append(words)
        used += item_tokens(item)
        if used > 2 * budget:
            break  # enough to fill the budget even if some do not fit
    return kept


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
        kept.text = "\n".join(line for line in kept.text.split("\n") if not line.startswith("(also in "))
    elif len(also) <= MAX_COPY_NOTES:
        where = f", {copy.source['section'].split(' > ')[-1]}" if copy.source.get("section") else ""
        kept.text += f"\n(also in {product}{where})"
    kept.tokens = 0  # recounted when packed (one short item, rarely)


def _scoped(index: Any, qvec: np.ndarray, chunk_ids: Sequence[str], k: int) -> dict[str, float]:
    """The k chunks of a scope closest to the question, min-max scored."""
    if not chunk_ids:
        return {}
    vectors = index.store.get_vectors("chunk", list(chunk_ids))
    sims = vectors @ qvec
    top = np.argsort(-sims)[:k]
    return minmax([(chunk_ids[i], float(sims[i])) for i in top])


def rank_chunks(index: Any, adj: GraphAdjacency, question: str, qvec: np.ndarray, links: list[Link], k: int,
                alpha: float, version: str | None, opts: dict[str, Any]) -> tuple[list[tuple[str, float]], dict[str, Any]]:
    """Hybrid candidates plus scoped ones, scored hybrid + scope bonuses, other products damped."""
    allowed = allowed_chunks(index, version)
    dense = index.store.search_vectors("chunk", qvec, k, allowed)
    scores = dict(alpha_fuse(dense, sparse_search(index, question, k, version), alpha))
    products = {lk.node for lk in links if lk.type == "Product"}
    components = [lk.node for lk in links if lk.type not in ("Product", "ProductFamily", "Interface")]
    info: dict[str, Any] = {"scoped_products": [adj.names[n] for n in products]}
    bonus: dict[str, float] = {}
    groups = [(sorted(products), float(opts.get("scope_bonus", SCOPE_BONUS))),
              (components, float(opts.get("component_bonus", COMPONENT_BONUS)))]
    for nodes, weight in groups:
        if not nodes:
            continue
        holders = index.store.chunks_of_entities([adj.ids[n] for n in nodes])
        for node in nodes:
            ids = [c for c in holders.get(adj.ids[node], []) if allowed is None or c in allowed]
            for cid, s in _scoped(index, qvec, ids, SCOPED_K).items():
                bonus[cid] = bonus.get(cid, 0.0) + weight * (0.5 + 0.5 * s)
    for cid in bonus:
        scores.setdefault(cid, 0.0)
    if products:
        owners = chunk_products(index, adj, list(scores))
        for cid, own in owners.items():
            if own and not own & products:
                scores[cid] *= float(opts.get("other_product", OTHER_PRODUCT))
    ranked = sorted(((c, s + bonus.get(c, 0.0)) for c, s in scores.items()), key=lambda kv: (-kv[1], kv[0]))
    lam = float(opts.get("mmr", MMR_LAMBDA))
    if lam < 1.0:
        ranked = mmr(index, ranked[:MMR_POOL], lam) + ranked[MMR_POOL:]
    return ranked, info


def mmr(index: Any, ranked: list[tuple[str, float]], lam: float) -> list[tuple[str, float]]:
    """Maximal marginal relevance over chunk vectors: relevance minus similarity to what is already chosen."""
    if len(ranked) < 3:
        return ranked
    ids = [c for c, _ in ranked]
    vecs = index.store.get_vectors("chunk", ids)
    rel = np.array([s for _, s in ranked], dtype=np.float64)
    rel = (rel - rel.min()) / (rel.max() - rel.min() + 1e-9)
    sims = vecs @ vecs.T
    chosen: list[int] = []
    best_sim = np.full(len(ids), -1.0)
    left = set(range(len(ids)))
    while left:
        cand = sorted(left)
        gain = lam * rel[cand] - (1 - lam) * np.maximum(best_sim[cand], 0.0)
        pick = cand[int(np.argmax(gain))]
        chosen.append(pick)
        left.discard(pick)
        best_sim = np.maximum(best_sim, sims[pick])
    return [(ids[i], float(len(ids) - r)) for r, i in enumerate(chosen)]


@register
class FactsRetriever(Retriever):
    name = "kg-facts"
    description = ("Hybrid candidates re-ranked by product scoping (linked products/components first, similar "
                   "names damped) plus a compact spec-fact table from the datasheet graph.")

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        index = self.index
        adj = get_adjacency(index.store)
        qvec = question_vector(index, question)
        links = link_question(index, question, adj, qvec) if adj.n_nodes else []
        k = candidate_count(budget, index.settings.retrieval.top_k)
        alpha = float(options.get("alpha", index.settings.retrieval.alpha))
        ranked, info = rank_chunks(index, adj, question, qvec, links, k, alpha, options.get("version"), options)
        info["linked"] = [{"name": lk.name, "type": lk.type, "match": lk.match} for lk in links]
        share = float(options.get("fact_share", FACT_SHARE))
        facts = collect_facts(adj, [lk.node for lk in links], question) if links and share > 0 else []
        if facts:
            support = index.store.relation_support([adj.rel_ids[f.rel] for f in facts])
            for f in facts:
                f.chunks = support.get(adj.rel_ids[f.rel], [])
        draft = [ContextItem(kind="relation", text=text) for _, text, _ in fact_lines(adj, facts, {})]
        _, fact_tokens = pack(draft, int(budget * share), truncate_last=False)
        reserve = fact_tokens + 4 * len(facts) if facts else 0  # room for the "[n]" source numbers
        raw = chunk_items(index, ranked[:MAX_CANDIDATES])
        if options.get("compact", True):
            raw = compact_items(raw, question)
        candidates = novel_items(raw, float(options.get("max_overlap", MAX_OVERLAP)), budget,
                                 bool(options.get("note_copies", True)))
        chunks, used_chunks = pack(candidates, budget - reserve)
        block_of = {c.chunk_id: n + 2 for n, c in enumerate(chunks) if c.chunk_id}
        by_chunk = {c.chunk_id: c for c in chunks if c.chunk_id}
        items = [self._fact_item(adj, subject, text, rels, facts, by_chunk)
                 for subject, text, rels in fact_lines(adj, facts, block_of)]
        packed_facts, used_facts = pack(items, max(0, budget - used_chunks), truncate_last=False)
        packed_ids = {r for item in packed_facts for r in item.source["relations"]}
        shown = [f.rel for f in facts if adj.rel_ids[f.rel] in packed_ids]
        sub = subgraph_from(adj, {lk.node: lk.score for lk in links}, shown, seeds=[lk.node for lk in links])
        info.update(facts=sum(len(i.text.splitlines()) - 1 for i in packed_facts), chunks=len(chunks))
        return Context(question=question, strategy=self.name, items=packed_facts + chunks,
                       tokens=used_facts + used_chunks, budget=budget, subgraph=sub.to_subgraph(), info=info)

    def _fact_item(self, adj: GraphAdjacency, subject: int, text: str, rels: list[int], facts: list[Any],
                   packed: dict[str, ContextItem]) -> ContextItem:
        """One subject's facts as an item; its source is the first supporting chunk that is also in the context."""
        by_rel = {f.rel: f for f in facts}
        chunks = list(dict.fromkeys(c for r in rels for c in by_rel[r].chunks))
        ref = next((packed[c] for c in chunks if c in packed), None)
        source = {**(ref.source if ref else {}), "chunks": chunks[:10], "relations": [adj.rel_ids[r] for r in rels]}
        return ContextItem(kind="relation", text=text, score=1.0, chunk_id=None, doc_id=ref.doc_id if ref else None,
                           item_id=f"facts:{adj.ids[subject]}", source=source)
