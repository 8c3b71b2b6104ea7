"""Graph views for the page: the subgraph behind an answer, and an entity's k-hop neighbourhood."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from kgrag.answer import build_blocks
from kgrag.graph.adjacency import GraphAdjacency, get_adjacency
from kgrag.graph.algorithms import induced_relations, k_hop
from kgrag.store.base import Store
from kgrag.types import Context

MAX_CONTEXT_NODES = 50
MAX_NEIGHBOURHOOD_NODES = 150


def _graph(store: Store, adj: GraphAdjacency, nodes: Iterable[int]) -> dict[str, Any]:
    """Nodes {id, name, type} and the relations joining two of them, each with its supporting chunk ids."""
    nodes = list(nodes)
    rels = induced_relations(adj, nodes)
    support = store.relation_support([adj.rel_ids[r] for r in rels]) if rels else {}
    edges = []
    for r in rels:
        edge = adj.edge(r)
        edge["id"] = edge["relation_id"]
        edge["chunks"] = support.get(edge["relation_id"], [])
        edges.append(edge)
    return {"nodes": [adj.node(i) for i in nodes], "edges": edges}


def context_subgraph(store: Store, context: Context) -> dict[str, Any]:
    """The retriever's own subgraph if it has one, else the graph of the entities the context chunks mention.

    `provenance` maps chunk ids to the numbered source blocks [n] of the answer, so the page can link
    nodes and edges back to the passages.
    """
    provenance = {b.chunk_id: b.n for b in build_blocks(context) if b.chunk_id}
    sub = context.subgraph
    if sub.nodes:
        nodes = [{"type": "", **n} for n in sub.nodes]
        edges = [
            {"id": e.get("id") or f"{e['source']}|{e.get('type', '')}|{e['target']}", "chunks": [], **e}
            for e in sub.edges
        ]
        return {"origin": "retriever", "nodes": nodes, "edges": edges, "provenance": provenance}
    chunk_ids = context.chunk_ids()
    mentions = store.entities_of_chunks(chunk_ids) if chunk_ids else {}
    if not mentions:
        return {"origin": "mentions", "nodes": [], "edges": [], "provenance": provenance}
    adj = get_adjacency(store)
    counts = Counter(e for ids in mentions.values() for e in ids if e in adj.index_of)
    graph = _graph(store, adj, (adj.index_of[e] for e, _ in counts.most_common(MAX_CONTEXT_NODES)))
    linked = {e["source"] for e in graph["edges"]} | {e["target"] for e in graph["edges"]}
    if linked:  # entities without a relation inside the context only clutter the picture
        graph["nodes"] = [n for n in graph["nodes"] if n["id"] in linked]
    for node in graph["nodes"]:
        node["chunks"] = [c for c, ids in mentions.items() if node["id"] in ids]
    return {"origin": "mentions", **graph, "provenance": provenance}


def find_entities(store: Store, name: str) -> list[int]:
    """Adjacency indices of the entities named `name` (same resolution key, aliases included) or with that id."""
    adj = get_adjacency(store)
    return adj.lookup(name) or ([adj.index_of[name]] if name in adj.index_of else [])


def neighbourhood(
    store: Store, seeds: Sequence[int], hops: int, max_nodes: int = MAX_NEIGHBOURHOOD_NODES
) -> dict[str, Any]:
    """Entities within `hops` relations of `seeds` (both directions; heaviest relations kept past `max_nodes`)."""
    adj = get_adjacency(store)
    distance = k_hop(adj, seeds, hops, max_nodes=max_nodes)
    graph = _graph(store, adj, distance)
    for node in graph["nodes"]:
        node["hop"] = distance[adj.index_of[node["id"]]]
    return {"center": [adj.ids[i] for i in seeds], "hops": hops, "truncated": len(distance) >= max_nodes, **graph}
