"""The thesis's KG-enhanced retrievers: seed chunks expanded through the entities they mention.

Per seed chunk: up to 20 entities it mentions, the top 10 related chunks ranked by how many of those
entities they share, up to 30 neighbour entities and the 1–2-hop entity–entity relations among them
(never through chunk links), serialized with the chunk texts. `kg-hybrid-rerank` builds this for m·k
candidate seeds and keeps the k whose whole context a reranker scores highest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from kgrag.graph.adjacency import GraphAdjacency, get_adjacency
from kgrag.graph.algorithms import RetrievedSubgraph, filter_subgraph, induced_relations, k_hop, subgraph_from
from kgrag.models.rerankers import make_reranker, rerank
from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import chunk_items
from kgrag.retrieve.packing import pack
from kgrag.retrieve.query_linking import entity_relevance, question_vector
from kgrag.retrieve.strategies.graph import (
    GRAPH_SHARE,
    TURTLE_PREFIXES,
    fact_items,
    fact_sentence,
    search_seed_chunks,
    serialization,
)
from kgrag.types import Context, ContextItem

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

ENTITIES_PER_SEED = 20
RELATED_PER_SEED = 10
NEIGHBOURS_PER_SEED = 30
FACTS_PER_SEED = 15
TOKENS_PER_SEED = 1000  # one seed per this many budget tokens (at least 3, at most 10)
RERANK_M = 3  # kg-hybrid-rerank scores m·k candidate seeds


@dataclass
class SeedContext:
    """One seed chunk with its entities, related chunks and filtered entity subgraph."""

    chunk_id: str
    score: float
    entities: list[str] = field(default_factory=list)
    related: list[tuple[str, int]] = field(default_factory=list)  # (chunk_id, shared entities)
    sub: RetrievedSubgraph = field(default_factory=RetrievedSubgraph)


def seed_count(budget: int, options: dict[str, Any]) -> int:
    return int(options.get("seeds") or max(3, min(10, budget // TOKENS_PER_SEED)))


def build_seed_contexts(
    index: Workspace, question: str, seeds: Sequence[tuple[str, float]], qvec: np.ndarray, adj: GraphAdjacency
) -> list[SeedContext]:
    """The graph context of each seed chunk, with a constant number of store queries for all seeds."""
    mentions = index.store.entities_of_chunks([c for c, _ in seeds])
    all_entities = list(dict.fromkeys(e for ids in mentions.values() for e in ids if e in adj.index_of))
    relevance = entity_relevance(index, question, all_entities, [adj.names[adj.index_of[e]] for e in all_entities], qvec)
    degree = adj.degree()
    contexts = []
    for chunk_id, score in seeds:
        ids = [e for e in mentions.get(chunk_id, []) if e in adj.index_of]
        ids.sort(key=lambda e: (-relevance.get(e, 0.0), -int(degree[adj.index_of[e]]), e))
        contexts.append(SeedContext(chunk_id, score, ids[:ENTITIES_PER_SEED]))
    chosen = list(dict.fromkeys(e for c in contexts for e in c.entities))
    holders = index.store.chunks_of_entities(chosen)
    for ctx in contexts:
        shared: Counter[str] = Counter()
        for e in ctx.entities:
            shared.update(c for c in holders.get(e, []) if c != ctx.chunk_id)
        ctx.related = sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))[:RELATED_PER_SEED]
        nodes = [adj.index_of[e] for e in ctx.entities]
        hops = k_hop(adj, nodes, 2, max_nodes=len(nodes) + NEIGHBOURS_PER_SEED)
        scores = {n: 1.0 / (1 + h) for n, h in hops.items()}
        sub = subgraph_from(adj, scores, induced_relations(adj, hops), hops=hops, seeds=nodes)
        ctx.sub = filter_subgraph(sub, relevance={adj.ids[n]: s for n, s in scores.items()}, max_edges=FACTS_PER_SEED)
    support = index.store.relation_support(list({r for c in contexts for r in c.sub.edges}))  # one query for all
    for ctx in contexts:
        for rid, edge in ctx.sub.edges.items():
            edge["chunks"] = list(dict.fromkeys([*edge.get("chunks", []), *support.get(rid, [])]))
    return contexts


def candidate_text(ctx: SeedContext, text: str) -> str:
    """What a reranker judges for one candidate: the seed chunk and its graph facts."""
    facts = " ".join(fact_sentence(e) for e in ctx.sub.edges.values())
    return f"{text}\n{facts}".strip()


def assemble_kg(index: Workspace, name: str, question: str, budget: int, contexts: list[SeedContext],
                options: dict[str, Any], info: dict[str, Any]) -> Context:
    """Seed chunks each followed by its facts, then related chunks by shared entities, packed into the budget."""
    form = serialization(index, options)
    seed_items = {i.chunk_id: i for i in chunk_items(index, [(c.chunk_id, c.score) for c in contexts])}
    fact_budget = int(budget * GRAPH_SHARE / max(1, len(contexts)))
    ordered: list[ContextItem] = []
    turtle: list[ContextItem] = []
    shown = RetrievedSubgraph()
    for ctx in contexts:
        if ctx.chunk_id in seed_items:
            ordered.append(seed_items[ctx.chunk_id])
        facts = [f for f in fact_items(index, ctx.sub, form) if f.item_id != "turtle:prefixes"]
        packed, _ = pack(facts, fact_budget, truncate_last=False)
        (turtle if form == "turtle" else ordered).extend(packed)
        kept = {r for f in packed for r in f.source.get("relations", [])}
        shown.nodes.update(ctx.sub.nodes)
        shown.edges.update({rid: e for rid, e in ctx.sub.edges.items() if rid in kept})
    if turtle:
        ordered.append(ContextItem(kind="rdf", text=TURTLE_PREFIXES, item_id="turtle:prefixes", score=1.0))
        ordered.extend(turtle)
    related: Counter[str] = Counter()
    seed_ids = {c.chunk_id for c in contexts}
    for rank, ctx in enumerate(contexts):
        for chunk_id, shared in ctx.related:
            if chunk_id not in seed_ids:
                related[chunk_id] += shared / (1 + rank)
    ordered.extend(chunk_items(index, sorted(related.items(), key=lambda kv: (-kv[1], kv[0]))))
    items, used = pack(ordered, budget)
    info.update(seeds=len(contexts), facts=sum(i.kind in ("relation", "rdf") for i in items),
                chunks=sum(i.kind == "chunk" for i in items))
    return Context(question=question, strategy=name, items=items, tokens=used, budget=budget,
                   subgraph=shown.to_subgraph(), info=info)


class _KGRetriever(Retriever):
    seed_mode = "hybrid"

    def seeds(self, question: str, budget: int, options: dict[str, Any]) -> tuple[list[tuple[str, float]], dict[str, Any]]:
        return search_seed_chunks(self.index, question, seed_count(budget, options), self.seed_mode, options), {}

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        adj = get_adjacency(self.index.store)
        qvec = question_vector(self.index, question)
        seeds, info = self.seeds(question, budget, options)
        contexts = build_seed_contexts(self.index, question, seeds, qvec, adj)
        contexts, info = self.select(question, contexts, budget, options, info)
        return assemble_kg(self.index, self.name, question, budget, contexts, options, info)

    def select(self, question: str, contexts: list[SeedContext], budget: int, options: dict[str, Any],
               info: dict[str, Any]) -> tuple[list[SeedContext], dict[str, Any]]:
        return contexts, info


@register
class KGDenseRetriever(_KGRetriever):
    name = "kg-dense"
    description = "Dense seed chunks, each with its entities, 1–2-hop relations and the chunks sharing most entities (thesis KG-RAG)."
    seed_mode = "dense"


@register
class KGHybridRetriever(_KGRetriever):
    name = "kg-hybrid"
    description = "Hybrid (dense+BM25) seed chunks, each with its entities, 1–2-hop relations and related chunks (thesis KG-RAG)."


@register
class KGHybridRerankRetriever(_KGRetriever):
    name = "kg-hybrid-rerank"
    description = "kg-hybrid over m·k candidate seeds, each candidate's graph context scored by a reranker, top k kept."
    needs_llm = True

    def seeds(self, question: str, budget: int, options: dict[str, Any]) -> tuple[list[tuple[str, float]], dict[str, Any]]:
        m = int(options.get("rerank_m", RERANK_M))
        return search_seed_chunks(self.index, question, m * seed_count(budget, options), "hybrid", options), {}

    def select(self, question: str, contexts: list[SeedContext], budget: int, options: dict[str, Any],
               info: dict[str, Any]) -> tuple[list[SeedContext], dict[str, Any]]:
        if not contexts:
            return contexts, info
        texts = {c.chunk_id: c.text for c in self.index.store.get_chunks([x.chunk_id for x in contexts])}
        passages = [candidate_text(c, texts.get(c.chunk_id, "")) for c in contexts]
        reranker = make_reranker(str(options.get("reranker", "auto")), lambda: self.index.llm,
                                 scripted_llm=self.index.settings.llm.provider == "fake")
        scores, used = rerank(reranker, question, passages)
        order = sorted(range(len(contexts)), key=lambda i: (-scores[i], i))[: seed_count(budget, options)]
        info.update(reranker=used, candidates=len(contexts))
        return [SeedContext(contexts[i].chunk_id, float(scores[i]), contexts[i].entities, contexts[i].related,
                            contexts[i].sub) for i in order], info
