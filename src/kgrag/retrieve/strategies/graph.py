"""Graph-primitive retrievers (`khop`, `paths`) and the helpers every graph strategy shares.

Context layout: serialized graph facts first (at most `GRAPH_SHARE` of the budget, as sentences or RDF
Turtle, each fact carrying the chunks that support it), then the chunks behind those facts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import numpy as np

from kgrag.errors import ConfigError
from kgrag.graph.adjacency import GraphAdjacency, get_adjacency
from kgrag.graph.algorithms import (
    GraphPath,
    RetrievedSubgraph,
    filter_subgraph,
    induced_relations,
    k_hop,
    paths_between,
    personalized_pagerank,
    subgraph_from,
)
from kgrag.graph.keys import relation_key
from kgrag.graph.serialize import BASE_IRI, ENTITY_NS, RELATION_NS, entity_iris, iri_local_name, triple_sentence
from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import allowed_chunks, chunk_items, dense_search, hybrid_search
from kgrag.retrieve.packing import chunk_source, pack
from kgrag.retrieve.query import hyde_vector
from kgrag.retrieve.query_linking import LinkedEntity, entity_relevance, link_entities, map_relations, question_vector
from kgrag.types import Context, ContextItem, Entity

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

GRAPH_SHARE = 0.35  # at most this share of the budget goes to serialized facts; chunks get the rest
SEED_CHUNKS = 5  # chunks used to find seed entities when the question links to none
MAX_SUBGRAPH_NODES = 60
MAX_SUBGRAPH_EDGES = 80


@dataclass
class GraphQuery:
    """What every graph strategy computes first: the question vector, linked entities and seed chunks."""

    question: str
    qvec: np.ndarray
    adj: GraphAdjacency
    linked: list[LinkedEntity]
    seeds: list[int]  # adjacency node indices
    seed_chunks: list[tuple[str, float]] = field(default_factory=list)
    info: dict[str, Any] = field(default_factory=dict)


def search_seed_chunks(index: Workspace, question: str, k: int, mode: str, options: dict[str, Any]) -> list[tuple[str, float]]:
    """Seed chunks: dense or hybrid search; `hyde=True` searches with the HyDE vector instead of the question."""
    version = options.get("version")
    if options.get("hyde"):
        vec = hyde_vector(index, question, index.llm)
        return index.store.search_vectors("chunk", vec, k, allowed_chunks(index, version))
    if mode == "dense":
        return dense_search(index, question, k, version)
    alpha = float(options.get("alpha", index.settings.retrieval.alpha))
    return hybrid_search(index, question, k, alpha, version)


def graph_query(index: Workspace, question: str, options: dict[str, Any], *, n_seed_chunks: int = SEED_CHUNKS) -> GraphQuery:
    """Link the question to entities; with no link, take the entities its top chunks mention (ranked by PPR)."""
    adj = get_adjacency(index.store)
    qvec = question_vector(index, question)
    linked = link_entities(index, question, qvec=qvec, adj=adj, k=int(options.get("max_seeds", 6)))
    seed_chunks = search_seed_chunks(index, question, n_seed_chunks, options.get("seed_mode", "hybrid"), options)
    seeds = [e.node for e in linked]
    info: dict[str, Any] = {"linked": [{"name": e.name, "score": round(e.score, 3), "match": e.match} for e in linked]}
    if not seeds and seed_chunks and adj.n_nodes:
        mentioned = index.store.entities_of_chunks([c for c, _ in seed_chunks])
        nodes = [adj.index_of[e] for ids in mentioned.values() for e in ids if e in adj.index_of]
        if nodes:
            ppr = personalized_pagerank(adj, dict(Counter(nodes)))
            seeds = sorted(set(nodes), key=lambda n: (-ppr[n], n))[: int(options.get("max_seeds", 6))]
            info["seeds_from"] = "chunks"
    return GraphQuery(question, qvec, adj, linked, seeds, seed_chunks, info)


def attach_support(index: Workspace, sub: RetrievedSubgraph) -> None:
    """Fill each edge's `chunks` with the chunks that support its relation (one indexed store query)."""
    support = index.store.relation_support(list(sub.edges))
    for rid, edge in sub.edges.items():
        edge["chunks"] = list(dict.fromkeys([*edge.get("chunks", []), *support.get(rid, [])]))


def filtered(index: Workspace, gq: GraphQuery, sub: RetrievedSubgraph, options: dict[str, Any]) -> RetrievedSubgraph:
    """Per-query filtering: relation/entity types from options, question relevance, duplicates, size limits."""
    names = [n["name"] for n in sub.nodes.values()]
    relevance = entity_relevance(index, gq.question, list(sub.nodes), names, gq.qvec)
    for nid, node in sub.nodes.items():  # graph proximity counts too: PPR/hop scores are in node["score"]
        relevance[nid] = relevance.get(nid, 0.0) + node.get("score", 0.0)
    sub = filter_subgraph(
        sub,
        relation_types=options.get("relation_types"),
        exclude_relation_types=options.get("exclude_relation_types", ()),
        entity_types=options.get("entity_types"),
        relevance=relevance,
        min_relevance=options.get("min_relevance"),
        max_nodes=int(options.get("max_nodes", MAX_SUBGRAPH_NODES)),
        max_edges=int(options.get("max_edges", MAX_SUBGRAPH_EDGES)),
        relation_boost=dict(map_relations(index, gq.question, qvec=gq.qvec, adj=gq.adj)),
    )
    attach_support(index, sub)
    return sub


def supported_chunks(sub: RetrievedSubgraph, seed_chunks: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """Chunks ranked by how many retrieved facts they support, seed chunks breaking ties (and coming first when equal)."""
    count: Counter[str] = Counter()
    for edge in sub.edges.values():
        count.update(edge["chunks"])
    seed_score = dict(seed_chunks)
    ids = set(count) | set(seed_score)
    ranked = sorted(ids, key=lambda c: (-(count[c] + seed_score.get(c, 0.0)), c))
    return [(c, float(count[c] + seed_score.get(c, 0.0))) for c in ranked]


def assemble(
    index: Workspace,
    name: str,
    question: str,
    budget: int,
    facts: list[ContextItem],
    chunks: Sequence[tuple[str, float]],
    sub: RetrievedSubgraph,
    info: dict[str, Any],
) -> Context:
    """Facts within GRAPH_SHARE of the budget, then chunks in the rest; the subgraph shown is what was packed."""
    fact_budget = int(budget * GRAPH_SHARE) if chunks else budget
    packed_facts, used = pack(facts, fact_budget, truncate_last=False)
    packed_chunks, used_chunks = pack(chunk_items(index, list(chunks)[:200]), budget - used)
    packed_ids = {r for i in packed_facts for r in i.source.get("relations", [])}
    shown = RetrievedSubgraph(
        nodes=sub.nodes,
        edges={rid: e for rid, e in sub.edges.items() if rid in packed_ids or not packed_ids},
        seeds=sub.seeds,
    )
    context = Context(question=question, strategy=name, items=packed_facts + packed_chunks, tokens=used + used_chunks,
                      budget=budget, subgraph=shown.to_subgraph(), info=info)
    context.info.update(facts=len(packed_facts), chunks=len(packed_chunks))
    return context


def serialization(index: Workspace, options: dict[str, Any]) -> str:
    """The per-query `serialization` option (text | turtle), else settings.retrieval.serialization."""
    value = str(options.get("serialization") or index.settings.retrieval.serialization)
    if value not in ("text", "turtle"):
        raise ConfigError(f"serialization must be text or turtle, got {value!r}")
    return value


# -- serialization of facts (sentences or RDF Turtle), each fact keeping its supporting chunks -----------
# Sentences and IRI names come from graph/serialize.py (shared with `kgrag graph export`); what is added here is
# per-fact Turtle that can be cut to a token budget and the provenance (prov:wasDerivedFrom on reified facts).
TURTLE_PREFIXES = (
    f"@prefix ent: <{ENTITY_NS}> .\n@prefix rel: <{RELATION_NS}> .\n@prefix chunk: <{BASE_IRI}chunk/> .\n"
    f"@prefix fact: <{BASE_IRI}fact/> .\n@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
    "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix prov: <http://www.w3.org/ns/prov#> ."
)
_SAFE_LOCAL = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def fact_sentence(edge: dict[str, Any]) -> str:
    """A relation as a plain sentence: "Router provides Internet."."""
    return triple_sentence(edge["source_name"], relation_key(edge["type"]), edge["target_name"])


def _iri(prefix: str, local: str) -> str:
    """A prefixed name when `local` is safe, else the full IRI with `local` percent-encoded."""
    if _SAFE_LOCAL.match(local):
        return f"{prefix}:{local}"
    return f"<{BASE_IRI}{prefix}/{quote(local, safe='')}>"


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r") + '"'


def fact_turtle(edge: dict[str, Any], locals_: dict[str, str], labelled: set[str]) -> str:
    """Turtle for one relation: labels of new ends, the triple, and its reified statement with prov:wasDerivedFrom."""
    s, o = _iri("ent", locals_[edge["source"]]), _iri("ent", locals_[edge["target"]])
    p = _iri("rel", iri_local_name("_".join(relation_key(edge["type"]).split()), "related_to"))
    lines = []
    for node_id, iri, name in ((edge["source"], s, edge["source_name"]), (edge["target"], o, edge["target_name"])):
        if node_id not in labelled:
            labelled.add(node_id)
            lines.append(f"{iri} rdfs:label {_literal(name)} .")
    lines.append(f"{s} {p} {o} .")
    stmt = f"{_iri('fact', edge['relation_id'])} a rdf:Statement ; rdf:subject {s} ; rdf:predicate {p} ; rdf:object {o}"
    chunks = ", ".join(_iri("chunk", c) for c in edge.get("chunks", [])[:3])
    lines.append(stmt + (f" ; prov:wasDerivedFrom {chunks} ." if chunks else " ."))
    return "\n".join(lines)


def _provenance(index: Workspace, edges: Sequence[dict[str, Any]]) -> dict[str, ContextItem]:
    """chunk_id -> a chunk ContextItem (source fields) for the first supporting chunk of each edge."""
    first = list(dict.fromkeys(e["chunks"][0] for e in edges if e.get("chunks")))
    docs = index.documents()
    return {
        c.chunk_id: ContextItem(kind="chunk", text="", chunk_id=c.chunk_id, doc_id=c.doc_id,
                                source=chunk_source(c, docs.get(c.doc_id)))
        for c in index.store.get_chunks(first)
    }


def fact_items(index: Workspace, sub: RetrievedSubgraph, form: str) -> list[ContextItem]:
    """One item per fact (kind "relation"; Turtle: kind "rdf" after a prefix header) with its first supporting chunk."""
    edges = list(sub.edges.values())
    prov = _provenance(index, edges)
    items: list[ContextItem] = []
    labelled: set[str] = set()
    locals_ = entity_iris([Entity(n["id"], n["name"], n["type"]) for n in sub.nodes.values()])
    if form == "turtle" and edges:
        items.append(ContextItem(kind="rdf", text=TURTLE_PREFIXES, item_id="turtle:prefixes", score=1.0))
    for rank, edge in enumerate(edges):
        text = fact_turtle(edge, locals_, labelled) if form == "turtle" else fact_sentence(edge)
        ref = prov.get(edge["chunks"][0]) if edge.get("chunks") else None
        items.append(ContextItem(
            kind="rdf" if form == "turtle" else "relation", text=text, score=1.0 / (1 + rank),
            chunk_id=ref.chunk_id if ref else None, doc_id=ref.doc_id if ref else None,
            source={**(ref.source if ref else {}), "chunks": edge["chunks"], "relations": [edge["relation_id"]]},
            item_id=edge["relation_id"],
        ))
    return items


def path_item(index: Workspace, adj: GraphAdjacency, path: GraphPath, sub: RetrievedSubgraph, rank: int) -> ContextItem:
    """A path as one item: its facts as sentences joined by "; ", with the chunks supporting any step."""
    edges = [sub.edges[adj.rel_ids[r]] for r in path.edges]
    chunks = list(dict.fromkeys(c for e in edges for c in e.get("chunks", [])))
    prov = _provenance(index, [{"chunks": chunks}]) if chunks else {}
    ref = prov.get(chunks[0]) if chunks else None
    text = "; ".join(fact_sentence(e).rstrip(".") for e in edges) + "."
    return ContextItem(
        kind="path", text=text, score=1.0 / (1 + rank), chunk_id=ref.chunk_id if ref else None,
        doc_id=ref.doc_id if ref else None, item_id="path:" + "-".join(adj.rel_ids[r] for r in path.edges),
        source={**(ref.source if ref else {}), "chunks": chunks, "relations": [adj.rel_ids[r] for r in path.edges]},
    )


@register
class KHopRetriever(Retriever):
    name = "khop"
    description = "Entities linked in the question, their k-hop neighbourhood (BFS, k=2), filtered and serialized, with supporting chunks."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        gq = graph_query(self.index, question, options)
        k = int(options.get("k", 2))
        hops = k_hop(gq.adj, gq.seeds, k, max_nodes=int(options.get("max_bfs_nodes", 400)))
        ppr = personalized_pagerank(gq.adj, dict.fromkeys(gq.seeds, 1.0)) if gq.seeds else np.zeros(0)
        top = ppr.max() if len(ppr) and ppr.max() > 0 else 1.0
        scores = {n: float(ppr[n] / top) for n in hops}
        sub = subgraph_from(gq.adj, scores, induced_relations(gq.adj, hops), hops=hops, seeds=gq.seeds)
        sub = filtered(self.index, gq, sub, options)
        facts = fact_items(self.index, sub, serialization(self.index, options))
        gq.info["hops"] = dict(Counter(hops.values()))
        return assemble(self.index, self.name, question, budget, facts, supported_chunks(sub, gq.seed_chunks), sub, gq.info)


@register
class PathsRetriever(Retriever):
    name = "paths"
    description = "Simple paths (≤3 relations) between entities linked in the question, shortest and best-supported first, with supporting chunks."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        gq = graph_query(self.index, question, options)
        paths = paths_between(
            gq.adj, gq.seeds, max_len=int(options.get("max_len", 3)), max_paths=int(options.get("max_paths", 15))
        )
        relations = list(dict.fromkeys(r for p in paths for r in p.edges))
        sub = subgraph_from(gq.adj, dict.fromkeys(gq.seeds, 1.0), relations, seeds=gq.seeds)
        attach_support(self.index, sub)
        if serialization(self.index, options) == "turtle":
            items = fact_items(self.index, sub, "turtle")
        else:
            items = [path_item(self.index, gq.adj, p, sub, rank) for rank, p in enumerate(paths)]
        if not paths:  # no connecting path: fall back to the seeds' direct relations
            hops = k_hop(gq.adj, gq.seeds, 1, max_nodes=MAX_SUBGRAPH_NODES)
            sub = filtered(self.index, gq, subgraph_from(gq.adj, dict.fromkeys(hops, 0.0), induced_relations(gq.adj, hops),
                                                         hops=hops, seeds=gq.seeds), options)
            items = fact_items(self.index, sub, serialization(self.index, options))
            gq.info["paths_fallback"] = "1-hop"
        gq.info["paths"] = len(paths)
        return assemble(self.index, self.name, question, budget, items, supported_chunks(sub, gq.seed_chunks), sub, gq.info)
