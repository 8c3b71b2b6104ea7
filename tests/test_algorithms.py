"""Graph primitives: k-hop BFS dedup, simple paths, Personalized PageRank, filtering, the adjacency cache."""

from __future__ import annotations

import numpy as np
import pytest

from kgrag.graph.adjacency import build_adjacency, get_adjacency
from kgrag.graph.algorithms import (
    filter_subgraph,
    induced_relations,
    k_hop,
    paths_between,
    personalized_pagerank,
    simple_paths,
    subgraph_from,
)
from kgrag.types import Entity, Relation


def _graph(store, edges, types=None):
    names = sorted({n for s, t, *_ in edges for n in (s, t)} | set(types or {}))
    store.upsert_entities([Entity(n, n, (types or {}).get(n, "Thing")) for n in names])
    rels = [Relation(f"{s}-{t}-{i}", s, t, rest[0] if rest else "LINKS", weight=rest[1] if len(rest) > 1 else 1.0)
            for i, (s, t, *rest) in enumerate(edges)]
    store.upsert_relations(rels)
    return build_adjacency(store)


@pytest.fixture
def acde(empty_index):
    """A–C, A–D, D–C, D–E, E–C: C is one hop from A (also reachable in 2 and 3)."""
    return _graph(empty_index.store, [("A", "C"), ("A", "D"), ("D", "C"), ("D", "E"), ("E", "C")])


def test_bfs_reports_each_node_once_at_its_shortest_distance(acde):
    idx = acde.index_of
    dist = {acde.ids[n]: d for n, d in k_hop(acde, [idx["A"]], 3).items()}
    assert dist == {"A": 0, "C": 1, "D": 1, "E": 2}
    assert {acde.ids[n] for n in k_hop(acde, [idx["A"]], 1)} == {"A", "C", "D"}


def test_bfs_bounds(acde):
    with pytest.raises(ValueError):
        k_hop(acde, [0], 4)
    capped = k_hop(acde, [acde.index_of["A"]], 3, max_nodes=2)
    assert len(capped) == 2 and max(capped.values()) == 1


def test_simple_paths_have_no_repeats_and_respect_bounds(acde):
    a, c = acde.index_of["A"], acde.index_of["C"]
    paths = simple_paths(acde, a, c, max_len=3, max_paths=10)
    as_names = [[acde.ids[n] for n in p.nodes] for p in paths]
    assert as_names[0] == ["A", "C"]
    assert ["A", "D", "C"] in as_names and ["A", "D", "E", "C"] in as_names
    for p in paths:
        assert len(set(p.nodes)) == len(p.nodes) and len(p.edges) == len(p.nodes) - 1 <= 3
    assert all(len(p) <= 2 for p in simple_paths(acde, a, c, max_len=2))
    assert len(simple_paths(acde, a, c, max_len=3, max_paths=1)) == 1
    assert [len(p) for p in paths] == sorted(len(p) for p in paths)


def test_paths_rank_better_supported_first(empty_index):
    adj = _graph(empty_index.store, [("S", "X", "R", 1.0), ("X", "T", "R", 1.0), ("S", "Y", "R", 5.0), ("Y", "T", "R", 4.0)])
    best = paths_between(adj, [adj.index_of["S"], adj.index_of["T"]], max_len=3)[0]
    assert [adj.ids[n] for n in best.nodes] == ["S", "Y", "T"] and best.support == 4.0


def test_personalized_pagerank_favours_the_seed(acde, empty_index):
    scores = personalized_pagerank(acde, {acde.index_of["A"]: 1.0})
    assert scores.argmax() == acde.index_of["A"]
    assert np.isclose(scores.sum(), 1.0)


def test_filter_by_types_relevance_duplicates_and_size(empty_index):
    store = empty_index.store
    store.upsert_entities([Entity("x1", "Router", "Device"), Entity("x2", "router", "Device"),
                           Entity("x3", "Internet", "Service"), Entity("x4", "Garden", "Place"),
                           Entity("x5", "Modem", "Device")])
    store.upsert_relations([Relation("e1", "x1", "x3", "PROVIDES"), Relation("e2", "x2", "x3", "PROVIDES"),
                            Relation("e3", "x1", "x4", "NEAR"), Relation("e4", "x1", "x5", "CONNECTS_TO")])
    adj = build_adjacency(store)
    nodes = dict.fromkeys(range(adj.n_nodes), 0.5)
    sub = subgraph_from(adj, nodes, induced_relations(adj, nodes), seeds=[adj.index_of["x1"]])
    sub.edges["e1"]["chunks"], sub.edges["e2"]["chunks"] = ["c1"], ["c2"]
    merged = filter_subgraph(sub)
    assert "x2" not in merged.nodes  # same name key as the seed x1
    provides = [e for e in merged.edges.values() if e["type"] == "PROVIDES"]
    assert len(provides) == 1 and sorted(provides[0]["chunks"]) == ["c1", "c2"]
    assert {e["type"] for e in filter_subgraph(sub, exclude_relation_types=["near"]).edges.values()} == {"PROVIDES", "CONNECTS_TO"}
    assert {e["type"] for e in filter_subgraph(sub, relation_types=["provides"]).edges.values()} == {"PROVIDES"}
    typed = filter_subgraph(sub, entity_types=["service"])
    assert set(typed.nodes) == {"x1", "x3"}  # the seed survives the type filter
    relevant = filter_subgraph(sub, relevance={"x3": 0.9, "x5": 0.8, "x4": 0.1}, min_relevance=0.5)
    assert "x4" not in relevant.nodes and "x3" in relevant.nodes
    small = filter_subgraph(sub, relevance={"x3": 0.9, "x5": 0.1, "x4": 0.2}, max_nodes=2, max_edges=1)
    assert set(small.nodes) == {"x1", "x3"} and len(small.edges) == 1
    boosted = filter_subgraph(sub, relevance={"x3": 0.9, "x5": 0.1}, max_edges=1, relation_boost={"CONNECTS_TO": 2.0})
    assert [e["type"] for e in boosted.edges.values()] == ["CONNECTS_TO"]
    shown = small.to_subgraph()
    assert shown.edges[0].keys() == {"source", "target", "type", "chunks"}
    assert shown.nodes[0].keys() == {"id", "name", "type"}


def test_adjacency_is_cached_per_generation(empty_index):
    store = empty_index.store
    _graph(store, [("A", "B")])
    first = get_adjacency(store)
    assert get_adjacency(store) is first
    store.upsert_relations([Relation("n", "A", "B", "NEW")])
    second = get_adjacency(store)
    assert second is not first and second.n_edges == first.n_edges + 1
    assert second.lookup("a") == [second.index_of["A"]]
