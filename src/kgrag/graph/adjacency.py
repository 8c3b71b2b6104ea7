"""In-memory entity graph (CSR adjacency + name keys) built once per store generation, never per query."""

from __future__ import annotations

import re
import threading
import weakref
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kgrag.store.base import Store

_NON_WORD = re.compile(r"[^\w.+\-/]+", re.UNICODE)


def name_key(name: str) -> str:
    """The entity-resolution key of a name (graph/keys.py when present, else a case/space/punctuation fold)."""
    try:
        from kgrag.graph.keys import entity_key
    except ImportError:
        return " ".join(_NON_WORD.sub(" ", name.lower()).split())
    return str(entity_key(name))


@dataclass
class GraphAdjacency:
    """Entities and relations as arrays: undirected CSR for traversal, relation columns for edges."""

    ids: list[str]
    names: list[str]
    types: list[str]
    aliases: list[list[str]]
    rel_ids: list[str]
    rel_src: np.ndarray  # int32 node index per relation
    rel_dst: np.ndarray
    rel_types: list[str]
    rel_desc: list[str]
    rel_weight: np.ndarray  # float64, number of supporting chunks
    indptr: np.ndarray  # CSR over nodes: neighbours of node i are indices[indptr[i]:indptr[i+1]]
    indices: np.ndarray  # neighbour node index
    edge_of: np.ndarray  # relation index of each CSR entry
    generation: str = ""
    index_of: dict[str, int] = field(default_factory=dict)
    keys: dict[str, list[int]] = field(default_factory=dict)  # name/alias key -> node indices
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def n_nodes(self) -> int:
        return len(self.ids)

    @property
    def n_edges(self) -> int:
        return len(self.rel_ids)

    def neighbours(self, node: int) -> np.ndarray:
        """Neighbour node indices of `node` (both directions, may repeat for parallel relations)."""
        return self.indices[self.indptr[node] : self.indptr[node + 1]]

    def incident(self, node: int) -> np.ndarray:
        """Relation indices touching `node`, aligned with `neighbours(node)`."""
        return self.edge_of[self.indptr[node] : self.indptr[node + 1]]

    def degree(self) -> np.ndarray:
        return np.diff(self.indptr)

    def lookup(self, name: str) -> list[int]:
        """Node indices whose name or alias has the same resolution key as `name`."""
        return self.keys.get(name_key(name), [])

    def edge(self, r: int) -> dict[str, Any]:
        """One relation as a plain dict (ids, names, type, weight)."""
        s, t = int(self.rel_src[r]), int(self.rel_dst[r])
        return {
            "relation_id": self.rel_ids[r],
            "source": self.ids[s],
            "target": self.ids[t],
            "source_name": self.names[s],
            "target_name": self.names[t],
            "type": self.rel_types[r],
            "description": self.rel_desc[r],
            "weight": float(self.rel_weight[r]),
        }

    def node(self, i: int) -> dict[str, Any]:
        return {"id": self.ids[i], "name": self.names[i], "type": self.types[i]}


def build_adjacency(store: Store) -> GraphAdjacency:
    """Read all entities and relations once and lay them out as arrays (dangling relations dropped)."""
    generation = store.generation("graph")
    ids: list[str] = []
    names: list[str] = []
    types: list[str] = []
    aliases: list[list[str]] = []
    for e in store.iter_entities():
        ids.append(e.entity_id)
        names.append(e.name)
        types.append(e.type)
        aliases.append(list(e.aliases))
    index_of = {eid: i for i, eid in enumerate(ids)}
    rel_ids: list[str] = []
    src: list[int] = []
    dst: list[int] = []
    rtypes: list[str] = []
    rdesc: list[str] = []
    weights: list[float] = []
    for r in store.iter_relations():
        s, t = index_of.get(r.source_id), index_of.get(r.target_id)
        if s is None or t is None:
            continue
        rel_ids.append(r.relation_id)
        src.append(s)
        dst.append(t)
        rtypes.append(r.type)
        rdesc.append(r.description)
        weights.append(float(r.weight or 1.0))
    n = len(ids)
    rel_src = np.asarray(src, dtype=np.int32)
    rel_dst = np.asarray(dst, dtype=np.int32)
    loops = rel_src != rel_dst
    ends = np.concatenate([rel_src[loops], rel_dst[loops]])
    others = np.concatenate([rel_dst[loops], rel_src[loops]])
    edge_idx = np.flatnonzero(loops).astype(np.int32)
    edge_of = np.concatenate([edge_idx, edge_idx])
    order = np.lexsort((others, ends)) if len(ends) else np.zeros(0, dtype=np.int64)
    counts = np.bincount(ends, minlength=n) if len(ends) else np.zeros(n, dtype=np.int64)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    keys: dict[str, list[int]] = defaultdict(list)
    for i, (name, alias_list) in enumerate(zip(names, aliases, strict=True)):
        for key in {name_key(x) for x in [name, *alias_list] if x}:
            if key:
                keys[key].append(i)
    return GraphAdjacency(
        ids=ids,
        names=names,
        types=types,
        aliases=aliases,
        rel_ids=rel_ids,
        rel_src=rel_src,
        rel_dst=rel_dst,
        rel_types=rtypes,
        rel_desc=rdesc,
        rel_weight=np.asarray(weights, dtype=np.float64),
        indptr=indptr,
        indices=others[order].astype(np.int32) if len(ends) else np.zeros(0, dtype=np.int32),
        edge_of=edge_of[order].astype(np.int32) if len(ends) else np.zeros(0, dtype=np.int32),
        generation=generation,
        index_of=index_of,
        keys=dict(keys),
    )


_CACHE: weakref.WeakKeyDictionary[Any, GraphAdjacency] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def get_adjacency(store: Store) -> GraphAdjacency:
    """The cached adjacency of `store`, rebuilt only when `store.generation("graph")` changed."""
    generation = store.generation("graph")
    with _LOCK:
        cached = _CACHE.get(store)
        if cached is not None and cached.generation == generation:
            return cached
    adjacency = build_adjacency(store)
    with _LOCK:
        _CACHE[store] = adjacency
    return adjacency
