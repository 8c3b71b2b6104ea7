"""KET-RAG core chunks: the top ceil(beta*N) chunks by PageRank over the KNN graph (KET-RAG-P), or a
uniform random sample (KET-RAG-U). Only core chunks get (LLM) triple extraction; beta = 0 means none.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kgrag.errors import ConfigError

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

METHODS = ("pagerank", "uniform")
DAMPING = 0.85  # teleport probability 0.15
META_KEY = "ket:core"


def pagerank(n: int, edges: Sequence[tuple[int, int, float]], damping: float = DAMPING) -> np.ndarray:
    """PageRank scores of a directed weighted graph on nodes 0..n-1 (python-igraph)."""
    if n == 0:
        return np.zeros(0)
    import igraph

    graph = igraph.Graph(n=n, edges=[(s, d) for s, d, _ in edges], directed=True)
    weights = [w for _, _, w in edges] if edges else None
    return np.asarray(graph.pagerank(damping=damping, weights=weights, directed=True))


def core_count(n: int, beta: float) -> int:
    """ceil(beta * n), with beta clamped to [0, 1]."""
    if not 0.0 <= beta <= 1.0:
        raise ConfigError(f"graph.beta must be between 0 and 1, got {beta}")
    return min(n, math.ceil(round(beta * n, 9)))


def rank_chunks(index: Workspace) -> list[tuple[str, float]]:
    """All chunks with their PageRank score over the KNN graph (built if missing), best first."""
    from kgrag.graph.knn import EDGE_KIND, ensure_knn_graph

    ensure_knn_graph(index)
    ids = index.store.chunk_ids()
    pos = {cid: i for i, cid in enumerate(ids)}
    edges = [(pos[s], pos[d], w) for s, d, w in index.store.edges(EDGE_KIND) if s in pos and d in pos]
    scores = pagerank(len(ids), edges)
    order = np.lexsort((np.arange(len(ids)), -scores))
    return [(ids[i], float(scores[i])) for i in order]


def select_core_chunks(index: Workspace, beta: float, method: str = "pagerank", seed: int = 42) -> list[str]:
    """The ids of the ceil(beta*N) core chunks, most central first (pagerank) or in sample order (uniform)."""
    if method not in METHODS:
        raise ConfigError(f"unknown core selection {method!r}; choose one of {', '.join(METHODS)}")
    ids = index.store.chunk_ids()
    n_core = core_count(len(ids), beta)
    if n_core == 0:
        return []
    if method == "uniform":
        return random.Random(seed).sample(ids, n_core)
    return [cid for cid, _ in rank_chunks(index)[:n_core]]


def save_core(index: Workspace, chunk_ids: Sequence[str], beta: float, method: str) -> None:
    """Remember the current core chunk set (read by the `skeleton` and `ket` strategies)."""
    store = index.store
    store.set_meta(META_KEY, json.dumps({"beta": beta, "method": method, "ids": list(chunk_ids)}))
    store.bump_generation("ket:core")


def load_core(index: Workspace) -> set[str] | None:
    """The saved core chunk ids, or None when no core selection was made."""
    raw = index.store.get_meta(META_KEY)
    return set(json.loads(raw)["ids"]) if raw else None
