"""Graph retrieval primitives over the in-memory adjacency: k-hop BFS, simple paths, Personalized PageRank, filtering."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from kgrag.graph.adjacency import GraphAdjacency, name_key
from kgrag.types import Subgraph


# -- k-hop neighbourhood ------------------------------------------------------------------------------
def k_hop(
    adj: GraphAdjacency, seeds: Iterable[int], k: int = 2, *, max_nodes: int | None = None
) -> dict[int, int]:
    """Node -> shortest hop distance from any seed (seeds at 0), each node once, up to `k` hops.

    With `max_nodes`, a layer that would overflow keeps the neighbours reached by the heaviest relations.
    """
    if not 0 <= k <= 3:
        raise ValueError(f"k must be between 0 and 3, got {k}")
    distance: dict[int, int] = {}
    for s in seeds:
        distance.setdefault(int(s), 0)
    frontier = list(distance)
    for hop in range(1, k + 1):
        reached: dict[int, float] = {}
        for u in frontier:
            for v, r in zip(adj.neighbours(u).tolist(), adj.incident(u).tolist(), strict=True):
                if v in distance:
                    continue
                w = float(adj.rel_weight[r])
                if w > reached.get(v, -1.0):
                    reached[v] = w
        if not reached:
            break
        order = sorted(reached, key=lambda v: (-reached[v], v))
        if max_nodes is not None:
            order = order[: max(0, max_nodes - len(distance))]
        for v in order:
            distance[v] = hop
        frontier = order
        if max_nodes is not None and len(distance) >= max_nodes:
            break
    return distance


def induced_relations(adj: GraphAdjacency, nodes: Iterable[int]) -> list[int]:
    """Relation indices with both ends inside `nodes` (each once, by index)."""
    inside = set(nodes)
    found: set[int] = set()
    for u in inside:
        for v, r in zip(adj.neighbours(u).tolist(), adj.incident(u).tolist(), strict=True):
            if v in inside:
                found.add(r)
    return sorted(found)


# -- simple paths -------------------------------------------------------------------------------------
@dataclass
class GraphPath:
    """A simple path: node indices and the relation index of each step (len(edges) == len(nodes) - 1)."""

    nodes: list[int]
    edges: list[int]
    support: float = 0.0  # weakest step's weight (chunks supporting it)

    def __len__(self) -> int:
        return len(self.edges)


def _distances_to(adj: GraphAdjacency, target: int, limit: int) -> dict[int, int]:
    dist = {target: 0}
    frontier = [target]
    for hop in range(1, limit + 1):
        nxt = []
        for u in frontier:
            for v in adj.neighbours(u).tolist():
                if v not in dist:
                    dist[v] = hop
                    nxt.append(v)
        frontier = nxt
    return dist


def _best_steps(adj: GraphAdjacency, u: int) -> dict[int, int]:
    """Neighbour -> its heaviest connecting relation (parallel relations collapse into one step)."""
    steps: dict[int, int] = {}
    for v, r in zip(adj.neighbours(u).tolist(), adj.incident(u).tolist(), strict=True):
        if v not in steps or adj.rel_weight[r] > adj.rel_weight[steps[v]]:
            steps[v] = r
    return steps


def simple_paths(
    adj: GraphAdjacency, source: int, target: int, *, max_len: int = 3, max_paths: int = 10, max_steps: int = 200_000
) -> list[GraphPath]:
    """Simple paths source → target of at most `max_len` relations, shortest then best-supported first.

    Iterative deepening with distance-to-target pruning keeps the search bounded on hub-heavy graphs.
    """
    if source == target or max_len < 1 or max_paths < 1:
        return []
    dist = _distances_to(adj, target, max_len)
    if source not in dist:
        return []
    found: list[GraphPath] = []
    steps_left = [max_steps]
    for length in range(dist[source], max_len + 1):
        layer: list[GraphPath] = []
        _extend(adj, [source], [], target, length, dist, layer, steps_left, limit=max_paths * 20)
        layer.sort(key=lambda p: (-p.support, -sum(float(adj.rel_weight[r]) for r in p.edges), p.nodes))
        found.extend(layer)
        if len(found) >= max_paths or steps_left[0] <= 0:
            break
    return found[:max_paths]


def _extend(
    adj: GraphAdjacency,
    nodes: list[int],
    edges: list[int],
    target: int,
    length: int,
    dist: Mapping[int, int],
    out: list[GraphPath],
    steps_left: list[int],
    limit: int,
) -> None:
    """DFS helper: extend `nodes` until exactly `length` relations end at `target`."""
    u = nodes[-1]
    remaining = length - len(edges)
    if u == target:
        if remaining == 0:
            out.append(GraphPath(list(nodes), list(edges), min(float(adj.rel_weight[r]) for r in edges)))
        return
    if remaining <= 0 or len(out) >= limit or steps_left[0] <= 0:
        return
    on_path = set(nodes)
    for v, r in sorted(_best_steps(adj, u).items()):
        steps_left[0] -= 1
        if v in on_path or dist.get(v, length + 1) > remaining - 1:
            continue
        if v == target and remaining - 1 != 0:
            continue
        nodes.append(v)
        edges.append(r)
        _extend(adj, nodes, edges, target, length, dist, out, steps_left, limit)
        nodes.pop()
        edges.pop()
        if len(out) >= limit:
            return


def paths_between(
    adj: GraphAdjacency, seeds: Iterable[int], *, max_len: int = 3, max_paths: int = 10, max_pairs: int = 28
) -> list[GraphPath]:
    """Simple paths between every pair of seed nodes (at most `max_pairs` pairs), ranked globally."""
    ordered = list(dict.fromkeys(int(s) for s in seeds))
    paths: list[GraphPath] = []
    pairs = [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]][:max_pairs]
    for a, b in pairs:
        paths.extend(simple_paths(adj, a, b, max_len=max_len, max_paths=max_paths))
    paths.sort(key=lambda p: (len(p), -p.support, p.nodes))
    return paths[:max_paths]


# -- Personalized PageRank ----------------------------------------------------------------------------
def _transition(adj: GraphAdjacency) -> tuple[sparse.csr_matrix, np.ndarray]:
    """Row-normalised weighted adjacency (cached on the adjacency) and the dangling-node mask."""
    cached = adj._cache.get("ppr")
    if cached is None:
        n = adj.n_nodes
        weights = adj.rel_weight[adj.edge_of] if len(adj.edge_of) else np.zeros(0)
        matrix = sparse.csr_matrix((weights, adj.indices, adj.indptr), shape=(n, n))
        out_w = np.asarray(matrix.sum(axis=1)).ravel()
        inv = np.divide(1.0, out_w, out=np.zeros_like(out_w), where=out_w > 0)
        cached = (sparse.diags(inv) @ matrix).tocsr(), out_w == 0
        adj._cache["ppr"] = cached
    return cached


def personalized_pagerank(
    adj: GraphAdjacency, seeds: Mapping[int, float], *, damping: float = 0.85, iterations: int = 50, tol: float = 1e-9
) -> np.ndarray:
    """PageRank scores (sum 1) restarting at `seeds` (node -> weight), the HippoRAG ranking signal."""
    n = adj.n_nodes
    if n == 0:
        return np.zeros(0)
    restart = np.zeros(n)
    for node, w in seeds.items():
        restart[int(node)] += max(float(w), 0.0)
    if restart.sum() <= 0:
        restart[:] = 1.0
    restart /= restart.sum()
    matrix, dangling = _transition(adj)
    transposed = matrix.T.tocsr()
    p = restart.copy()
    for _ in range(iterations):
        nxt = damping * (transposed @ p + p[dangling].sum() * restart) + (1 - damping) * restart
        if np.abs(nxt - p).sum() < tol:
            p = nxt
            break
        p = nxt
    return p


# -- subgraphs and filtering --------------------------------------------------------------------------
@dataclass
class RetrievedSubgraph:
    """Scored nodes and edges of a retrieval result; edges carry the chunks that support them."""

    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)  # id -> {id, name, type, score, hop}
    edges: dict[str, dict[str, Any]] = field(default_factory=dict)  # relation_id -> edge dict + chunks
    seeds: set[str] = field(default_factory=set)

    def to_subgraph(self) -> Subgraph:
        """The display form on `Context.subgraph`: nodes {id,name,type}, edges {source,target,type,chunks}."""
        return Subgraph(
            nodes=[{"id": n["id"], "name": n["name"], "type": n["type"]} for n in self.nodes.values()],
            edges=[
                {"source": e["source"], "target": e["target"], "type": e["type"], "chunks": list(e.get("chunks", []))}
                for e in self.edges.values()
            ],
        )


def subgraph_from(
    adj: GraphAdjacency,
    nodes: Mapping[int, float | int],
    relations: Iterable[int],
    *,
    hops: Mapping[int, int] | None = None,
    seeds: Iterable[int] = (),
) -> RetrievedSubgraph:
    """A RetrievedSubgraph of node indices (-> score) and relation indices (their ends are added)."""
    sub = RetrievedSubgraph(seeds={adj.ids[s] for s in seeds})
    hops = hops or {}

    def add(i: int, score: float) -> None:
        node = sub.nodes.setdefault(adj.ids[i], {**adj.node(i), "score": score, "hop": hops.get(i)})
        node["score"] = max(node["score"], score)

    for i, score in nodes.items():
        add(int(i), float(score))
    for r in relations:
        edge = adj.edge(int(r))
        add(int(adj.rel_src[r]), 0.0)
        add(int(adj.rel_dst[r]), 0.0)
        sub.edges[edge["relation_id"]] = {**edge, "chunks": []}
    return sub


def filter_subgraph(
    sub: RetrievedSubgraph,
    *,
    relation_types: Iterable[str] | None = None,
    exclude_relation_types: Iterable[str] = (),
    entity_types: Iterable[str] | None = None,
    relevance: Mapping[str, float] | None = None,
    min_relevance: float | None = None,
    max_nodes: int | None = None,
    max_edges: int | None = None,
    relation_boost: Mapping[str, float] | None = None,
) -> RetrievedSubgraph:
    """Drop edges/nodes by relation type, entity type, question relevance and duplicates, to a size limit.

    Edges rank by their ends' relevance plus `relation_boost[type]` (relation types the question asks about).

    Seed nodes survive type and relevance filters. Duplicate nodes (same name key) and duplicate edges
    (same ends and type, either direction) are merged, keeping the union of supporting chunks.
    """
    keep_rel = {t.lower() for t in relation_types} if relation_types is not None else None
    drop_rel = {t.lower() for t in exclude_relation_types}
    keep_ent = {t.lower() for t in entity_types} if entity_types is not None else None
    rel = dict(relevance or {})
    nodes: dict[str, dict[str, Any]] = {}
    for nid, node in sub.nodes.items():
        seed = nid in sub.seeds
        if not seed and keep_ent is not None and node["type"].lower() not in keep_ent:
            continue
        if not seed and min_relevance is not None and rel.get(nid, 0.0) < min_relevance:
            continue
        nodes[nid] = dict(node, relevance=rel.get(nid, node.get("score", 0.0)))
    # duplicate nodes: one representative per name key (a seed if any, else the most relevant)
    alias: dict[str, str] = {}
    by_key: dict[str, str] = {}
    for nid in sorted(nodes, key=lambda i: (i not in sub.seeds, -nodes[i]["relevance"], i)):
        key = name_key(nodes[nid]["name"]) or nid
        alias[nid] = by_key.setdefault(key, nid)
    nodes = {nid: n for nid, n in nodes.items() if alias[nid] == nid}
    if max_nodes is not None and len(nodes) > max_nodes:
        ranked = sorted(nodes, key=lambda i: (i not in sub.seeds, -nodes[i]["relevance"], nodes[i].get("hop") or 0, i))
        nodes = {i: nodes[i] for i in ranked[:max_nodes]}
    edges: dict[tuple[str, str, str], dict[str, Any]] = {}
    for edge in sub.edges.values():
        etype = edge["type"].lower()
        if (keep_rel is not None and etype not in keep_rel) or etype in drop_rel:
            continue
        s, t = alias.get(edge["source"]), alias.get(edge["target"])
        if s is None or t is None or s not in nodes or t not in nodes or s == t:
            continue
        key = (min(s, t), max(s, t), etype)
        if key in edges:
            kept = edges[key]
            kept["chunks"] = list(dict.fromkeys([*kept["chunks"], *edge.get("chunks", [])]))
            kept["weight"] = max(kept["weight"], edge["weight"])
            continue
        edges[key] = dict(edge, source=s, target=t, chunks=list(edge.get("chunks", [])))
    boost = relation_boost or {}

    def edge_rank(e: dict[str, Any]) -> tuple[float, float, str]:
        ends = nodes[e["source"]]["relevance"] + nodes[e["target"]]["relevance"]
        return -(ends + boost.get(e["type"], 0.0)), -e["weight"], e["relation_id"]

    ranked_edges = sorted(edges.values(), key=edge_rank)
    if max_edges is not None:
        ranked_edges = ranked_edges[:max_edges]
    return RetrievedSubgraph(
        nodes=nodes, edges={e["relation_id"]: e for e in ranked_edges}, seeds={s for s in sub.seeds if s in nodes}
    )
