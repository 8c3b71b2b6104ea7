"""Entity communities: a similarity + relation graph clustered by seeded, hierarchical Leiden (igraph).

Hierarchy rule (the same as GraphRAG's `hierarchical_leiden`, done with igraph's fast
`community_leiden`): level 0 is the Leiden partition of the whole graph (the coarsest level);
every community of level L with more than `max_cluster_size` members is clustered again by
Leiden on its own subgraph to form its children at level L+1, and a community that is small
enough (or that Leiden does not split) is carried down unchanged as its own single child, so
every level is a complete partition and "level 1" always exists when `levels >= 2`.
Entities without any edge are left out (a singleton is not a community).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import igraph
import numpy as np


@dataclass
class CommunityParams:
    """Knobs of the community graph and the clustering (defaults as in the thesis)."""

    top_k: int = 15  # similar entities linked per entity
    min_similarity: float = 0.80  # cosine cutoff for a similarity edge
    similarity_weight: float = 1.0  # edge weight = similarity_weight · cosine
    relation_weight: float = 1.0  # edge weight per extracted relation between the two entities
    levels: int = 2  # hierarchy depth: level 0 (coarsest) .. levels-1
    max_cluster_size: int = 10  # larger communities are split again at the next level
    resolution: float = 1.0  # modularity resolution of every Leiden run
    seed: int = 42
    block_rows: int = 1024  # rows per matmul block of the similarity search

    def key(self) -> str:
        """A short fingerprint of the parameters (part of the stage's up-to-date check)."""
        return hashlib.sha1(repr(sorted(vars(self).items())).encode()).hexdigest()[:12]


@dataclass
class CommunityNode:
    """One community of the hierarchy: its level, members (entity ids) and parent."""

    community_id: str
    level: int
    members: list[str]
    parent_id: str | None = None
    children: list[str] = field(default_factory=list)


MAX_BLOCK_ELEMENTS = 8_000_000  # similarity rows x entities per block (32 MB of float32, 64 MB of argpartition indices)


def similarity_edges(
    vectors: np.ndarray, top_k: int, min_similarity: float, block_rows: int = 1024
) -> list[tuple[int, int, float]]:
    """(i, j, cosine) with i < j: each row linked to its top-k most similar rows above the cutoff.

    Rows are assumed unit length. Work is done in blocks of rows (one matmul + argpartition per
    block), so memory is block_rows × N (capped at MAX_BLOCK_ELEMENTS) and there is no Python loop over pairs.
    """
    n = vectors.shape[0]
    if n < 2 or top_k <= 0:
        return []
    x = np.asarray(vectors, dtype=np.float32)
    k = min(top_k, n - 1)
    block_rows = max(1, min(block_rows, MAX_BLOCK_ELEMENTS // n))  # 52k entities: ~150 rows, not 850 MB a block
    src_parts, dst_parts, sim_parts = [], [], []
    for start in range(0, n, block_rows):
        stop = min(n, start + block_rows)
        neg = x[start:stop] @ x.T
        np.negative(neg, out=neg)  # in place: argpartition wants the smallest first
        rows = np.arange(stop - start)
        neg[rows, rows + start] = np.inf  # no self loops
        idx = np.argpartition(neg, k - 1, axis=1)[:, :k]
        top = -np.take_along_axis(neg, idx, axis=1)
        keep = top >= min_similarity
        src_parts.append(np.repeat(rows + start, k).reshape(-1, k)[keep])
        dst_parts.append(idx[keep])
        sim_parts.append(top[keep])
    src = np.concatenate(src_parts)
    dst = np.concatenate(dst_parts)
    sim = np.concatenate(sim_parts)
    lo, hi = np.minimum(src, dst), np.maximum(src, dst)
    order = np.lexsort((hi, lo))
    lo, hi, sim = lo[order], hi[order], sim[order]
    first = np.ones(len(lo), dtype=bool)
    first[1:] = (lo[1:] != lo[:-1]) | (hi[1:] != hi[:-1])
    return [(int(a), int(b), float(s)) for a, b, s in zip(lo[first], hi[first], sim[first], strict=True)]


def build_graph(
    n_nodes: int,
    sim_edges: Sequence[tuple[int, int, float]],
    rel_edges: Sequence[tuple[int, int]],
    params: CommunityParams,
) -> igraph.Graph:
    """An undirected weighted igraph: similarity edges plus relations, parallel edges summed."""
    edges = [(a, b) for a, b, _ in sim_edges] + [(a, b) for a, b in rel_edges if a != b]
    weights = [params.similarity_weight * s for _, _, s in sim_edges] + [
        params.relation_weight for a, b in rel_edges if a != b
    ]
    graph = igraph.Graph(n=n_nodes, edges=edges, directed=False)
    graph.es["weight"] = weights
    graph.simplify(multiple=True, loops=True, combine_edges={"weight": "sum"})
    return graph


def _leiden(graph: igraph.Graph, params: CommunityParams, seed: int) -> list[int]:
    """Membership of one seeded modularity-Leiden run (igraph's RNG swapped for a seeded one)."""
    if graph.ecount() == 0:
        return list(range(graph.vcount()))
    igraph.set_random_number_generator(random.Random(seed))
    try:
        part = graph.community_leiden(
            objective_function="modularity",
            weights="weight",
            resolution=params.resolution,
            n_iterations=-1,
        )
    finally:
        igraph.set_random_number_generator(random)
    return list(part.membership)


def _community_id(level: int, members: Sequence[str]) -> str:
    """A stable id from the level and the sorted member ids (unchanged membership keeps its id)."""
    digest = hashlib.sha1("\n".join(sorted(members)).encode()).hexdigest()[:12]
    return f"com{level}-{digest}"


def _groups(membership: Sequence[int], nodes: Sequence[int]) -> list[list[int]]:
    """Node groups by membership label, largest first then by smallest node (deterministic order)."""
    by_label: dict[int, list[int]] = {}
    for node, label in zip(nodes, membership, strict=True):
        by_label.setdefault(label, []).append(node)
    return sorted(by_label.values(), key=lambda g: (-len(g), min(g)))


def hierarchical_leiden(graph: igraph.Graph, ids: Sequence[str], params: CommunityParams) -> list[CommunityNode]:
    """Communities of all levels (level 0 = coarsest), following the hierarchy rule in the module doc."""
    connected = [v for v in range(graph.vcount()) if graph.degree(v) > 0]
    top = graph.subgraph(connected)
    groups = [g for g in _groups(_leiden(top, params, params.seed), connected) if len(g) > 1]
    nodes: list[CommunityNode] = []
    frontier: list[tuple[CommunityNode, list[int]]] = []
    for g in groups:
        node = CommunityNode(_community_id(0, [ids[v] for v in g]), 0, sorted(ids[v] for v in g))
        nodes.append(node)
        frontier.append((node, g))
    for level in range(1, max(1, params.levels)):
        next_frontier: list[tuple[CommunityNode, list[int]]] = []
        for parent, members in frontier:
            parts = [members]
            if len(members) > params.max_cluster_size:
                sub = graph.subgraph(members)
                split = [g for g in _groups(_leiden(sub, params, params.seed + level), range(len(members)))]
                if len(split) > 1:
                    parts = [[members[i] for i in g] for g in split]
            for part in parts:
                child_members = sorted(ids[v] for v in part)
                child = CommunityNode(_community_id(level, child_members), level, child_members, parent.community_id)
                parent.children.append(child.community_id)
                nodes.append(child)
                next_frontier.append((child, part))
        frontier = next_frontier
    return nodes
