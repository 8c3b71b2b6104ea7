"""In-memory arrays behind the KET-RAG strategies, built once per store generation (never per query).

- `keyword_arrays`: keyword vectors and the keyword -> sub-chunk CSR, sub-chunk vectors and tokens.
- `knn_arrays`: the KNN chunk graph as CSR.
- `graph_arrays`: the entity graph (`graph.adjacency`), entity vectors, entity/relation -> text-unit
  CSRs (sub-chunks when the skeleton was rewired, else chunks) and the skeleton (core) masks.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from scipy import sparse

from kgrag.graph.adjacency import GraphAdjacency, get_adjacency
from kgrag.graph.core import load_core
from kgrag.graph.keyword_graph import EDGE_KIND as KW_SUB
from kgrag.graph.keyword_graph import SUM_KIND as KW_SUMS
from kgrag.graph.keyword_graph import keyword_vectors
from kgrag.graph.knn import EDGE_KIND as KNN
from kgrag.graph.subchunks import ENTITY_EDGES, RELATION_EDGES
from kgrag.tokens import count_tokens

if TYPE_CHECKING:
    from kgrag.store.base import Store
    from kgrag.workspace import Workspace

T = TypeVar("T")
_CACHE: weakref.WeakKeyDictionary[Any, dict[str, tuple[tuple[str, ...], Any]]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def cached(store: Store, name: str, generations: Sequence[str], build: Callable[[], T]) -> T:
    """`build()` memoised per store and name until one of the named store generations changes."""
    key = tuple(store.generation(g) for g in generations)
    with _LOCK:
        hit = _CACHE.setdefault(store, {}).get(name)
    if hit is not None and hit[0] == key:
        return hit[1]
    value = build()
    with _LOCK:
        _CACHE.setdefault(store, {})[name] = (key, value)
    return value


def bipartite(pairs: Sequence[tuple[str, str, float]], rows: dict[str, int], cols: dict[str, int]) -> sparse.csr_matrix:
    """A binary rows x cols CSR from (row id, col id, _) pairs; unknown ids are dropped."""
    r, c = [], []
    for a, b, _ in pairs:
        i, j = rows.get(a), cols.get(b)
        if i is not None and j is not None:
            r.append(i)
            c.append(j)
    data = np.ones(len(r), dtype=np.float32)
    out = sparse.csr_matrix((data, (r, c)), shape=(len(rows), len(cols)))
    out.sum_duplicates()
    out.data[:] = 1.0
    return out


@dataclass
class UnitArrays:
    """Text units (sub-chunks or chunks) as rows aligned with their vector matrix."""

    ids: list[str]
    vectors: np.ndarray
    tokens: np.ndarray  # int32 tokens per unit
    parent: list[str]  # chunk id of each unit
    position: dict[str, int]


def _units(index: Workspace, kind: str) -> UnitArrays:
    store = index.store
    vm = store.vector_matrix(kind)
    if kind == "subchunk":
        info = {s.subchunk_id: (s.tokens or count_tokens(s.text), s.chunk_id) for s in store.iter_subchunks()}
    else:
        info = {c.chunk_id: (c.tokens or count_tokens(c.text), c.chunk_id) for c in store.iter_chunks()}
    ids = [i for i in vm.ids if i in info]
    rows = [vm.position[i] for i in ids]
    return UnitArrays(
        ids=ids,
        vectors=vm.matrix[rows] if rows else np.zeros((0, vm.matrix.shape[1] if vm.ids else 0), np.float32),
        tokens=np.asarray([info[i][0] for i in ids], dtype=np.int32),
        parent=[info[i][1] for i in ids],
        position={i: p for p, i in enumerate(ids)},
    )


def unit_arrays(index: Workspace, kind: str) -> UnitArrays:
    """Cached sub-chunk ('subchunk') or chunk ('chunk') units."""
    return cached(index.store, f"units:{kind}", ("edges", f"vectors:{kind}"), lambda: _units(index, kind))


@dataclass
class KeywordArrays:
    ids: list[str]
    vectors: np.ndarray
    to_units: sparse.csr_matrix  # keyword x sub-chunk
    units: UnitArrays


def _keywords(index: Workspace) -> KeywordArrays:
    store = index.store
    units = unit_arrays(index, "subchunk")
    ids, vectors = keyword_vectors(store)
    matrix = bipartite(store.edges(KW_SUB), {k: i for i, k in enumerate(ids)}, units.position)
    return KeywordArrays(ids, vectors, matrix, units)


def keyword_arrays(index: Workspace) -> KeywordArrays:
    gens = ("edges", "vectors:keyword", f"vectors:{KW_SUMS}", "vectors:subchunk")
    return cached(index.store, "keywords", gens, lambda: _keywords(index))


@dataclass
class KnnArrays:
    ids: list[str]
    position: dict[str, int]
    adjacency: sparse.csr_matrix


def _knn(index: Workspace) -> KnnArrays:
    ids = index.store.chunk_ids()
    pos = {c: i for i, c in enumerate(ids)}
    n = len(ids)
    r, c, w = [], [], []
    for a, b, weight in index.store.edges(KNN):
        if a in pos and b in pos:
            r.append(pos[a])
            c.append(pos[b])
            w.append(weight)
    return KnnArrays(ids, pos, sparse.csr_matrix((np.asarray(w, np.float32), (r, c)), shape=(n, n)))


def knn_arrays(index: Workspace) -> KnnArrays:
    return cached(index.store, "knn", ("edges", "vectors:chunk"), lambda: _knn(index))


@dataclass
class GraphArrays:
    adj: GraphAdjacency
    vectors: np.ndarray  # entity vectors aligned with adj.ids (zero rows where missing)
    entity_units: sparse.csr_matrix  # entity x unit
    relation_units: sparse.csr_matrix  # relation x unit
    units: UnitArrays
    core_entities: np.ndarray | None  # bool mask: entity mentioned in a core chunk (None: no core saved)
    core_relations: np.ndarray | None


def _graph(index: Workspace) -> GraphArrays:
    store = index.store
    adj = get_adjacency(store)
    vectors = store.get_vectors("entity", adj.ids) if adj.ids else np.zeros((0, 0), np.float32)
    ent_pos = adj.index_of
    rel_pos = {rid: i for i, rid in enumerate(adj.rel_ids)}
    mentions = store.chunks_of_entities(adj.ids) if adj.ids else {}
    support = store.relation_support(adj.rel_ids) if adj.rel_ids else {}
    ent_sub = store.edges(ENTITY_EDGES)
    if ent_sub:
        units = unit_arrays(index, "subchunk")
        e2u = bipartite(ent_sub, ent_pos, units.position)
        r2u = bipartite(store.edges(RELATION_EDGES), rel_pos, units.position)
    else:
        units = unit_arrays(index, "chunk")
        e2u = bipartite([(e, c, 1.0) for e, cs in mentions.items() for c in cs], ent_pos, units.position)
        r2u = bipartite([(r, c, 1.0) for r, cs in support.items() for c in cs], rel_pos, units.position)
    core = load_core(index)
    core_e = core_r = None
    if core is not None:
        core_e = np.zeros(len(adj.ids), dtype=bool)
        for eid, chunk_ids in mentions.items():
            core_e[ent_pos[eid]] = any(c in core for c in chunk_ids)
        core_r = np.zeros(len(adj.rel_ids), dtype=bool)
        for rid, chunk_ids in support.items():
            if rid in rel_pos:
                core_r[rel_pos[rid]] = any(c in core for c in chunk_ids)
        core_e[adj.rel_src[core_r]] = True
        core_e[adj.rel_dst[core_r]] = True
    return GraphArrays(adj, vectors, e2u, r2u, units, core_e, core_r)


def graph_arrays(index: Workspace) -> GraphArrays:
    gens = ("graph", "edges", "vectors:entity", "vectors:subchunk", "vectors:chunk", "ket:core")
    return cached(index.store, "graph", gens, lambda: _graph(index))
