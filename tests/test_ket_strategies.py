"""KET-RAG strategies on a hand-made corpus and graph: budget respect, theta split, skeleton restriction."""

from __future__ import annotations

import pytest
from tests.conftest import add_text_chunks

from kgrag.graph.build import embed_entities
from kgrag.graph.core import save_core
from kgrag.graph.keyword_graph import ensure_keyword_graph
from kgrag.graph.knn import ensure_knn_graph
from kgrag.graph.subchunks import rewire_skeleton
from kgrag.index import Index
from kgrag.tokens import count_tokens
from kgrag.types import Chunk, Document, Entity, Relation

TEXTS = [
    "Paris is the capital of France. The Eiffel Tower stands in Paris and was built by Gustave Eiffel.",
    "France borders Spain. Spain has a long coast on the Mediterranean Sea and the Atlantic Ocean.",
    "Madrid is the capital of Spain. Real Madrid plays football in Madrid at the Bernabeu stadium.",
    "Football is popular in Spain and France. Many clubs play in the national leagues every year.",
    "Quantum physics studies particles and waves. Niels Bohr worked on the structure of the atom.",
    "Gustave Eiffel was a French engineer. He also designed the internal frame of the Statue of Liberty.",
] * 3
ENTITIES = [
    ("paris", "Paris", "city", 0),
    ("france", "France", "country", 0),
    ("eiffel", "Gustave Eiffel", "person", 5),
    ("spain", "Spain", "country", 1),
    ("madrid", "Madrid", "city", 2),
    ("bohr", "Niels Bohr", "person", 4),
]
RELATIONS = [("paris", "capital_of", "france", 0), ("madrid", "capital_of", "spain", 2), ("france", "borders", "spain", 1)]
STRATEGIES = ["local", "skeleton", "keyword", "ket", "text", "knng", "hybrid-rag"]


@pytest.fixture
def ket_index(empty_index: Index) -> Index:
    add_text_chunks(empty_index, TEXTS)
    store = empty_index.store
    empty_index.settings.chunking.subchunk_tokens = 10
    ensure_knn_graph(empty_index)
    ensure_keyword_graph(empty_index)
    store.upsert_entities([Entity(f"e:{k}", name, t, f"{name} is a {t}.") for k, name, t, _ in ENTITIES])
    store.add_mentions([(f"c{c}", f"e:{k}") for k, _, _, c in ENTITIES])
    store.upsert_relations([Relation(f"r:{a}-{b}", f"e:{a}", f"e:{b}", t, f"{a} {t} {b}") for a, t, b, _ in RELATIONS])
    store.add_relation_support([(f"r:{a}-{b}", f"c{c}") for a, _, b, c in RELATIONS])
    embed_entities(empty_index)
    rewire_skeleton(empty_index)
    return empty_index


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("budget", [60, 200, 1000])
def test_budget_respected(ket_index: Index, strategy: str, budget: int):
    ctx = ket_index.search("What is the capital of France?", strategy=strategy, budget=budget)
    assert ctx.items, strategy
    assert ctx.tokens <= budget
    assert sum(count_tokens(it.text) for it in ctx.items) <= budget


def test_local_fills_graph_half_then_units(ket_index: Index):
    ctx = ket_index.search("Which city is the capital of France?", strategy="local", budget=400)
    graph = [it for it in ctx.items if it.kind in ("entity", "relation")]
    units = [it for it in ctx.items if it.kind == "subchunk"]
    assert graph and units and ctx.items[: len(graph)] == graph
    assert sum(it.tokens for it in graph) <= 200
    assert any(e["type"] == "capital_of" for e in ctx.subgraph.edges) and ctx.subgraph.nodes
    assert all(it.chunk_id for it in units)


def test_relations_between_seeds_come_first(ket_index: Index):
    ctx = ket_index.search("Paris France Spain Madrid", strategy="local", budget=2000)
    rels = [it.item_id for it in ctx.items if it.kind == "relation"]
    assert set(rels) == {"r:paris-france", "r:madrid-spain", "r:france-spain"}


def test_ket_theta_split(ket_index: Index):
    save_core(ket_index, ["c0", "c1", "c2"], 0.5, "pagerank")
    ctx = ket_index.search("What is the capital of France?", strategy="ket", budget=500, theta=0.4)
    assert ctx.info["theta"] == 0.4
    assert 0 < ctx.info["skeleton_tokens"] <= 200
    assert ctx.info["keyword_tokens"] <= 500 - ctx.info["skeleton_tokens"]
    assert ctx.tokens == ctx.info["skeleton_tokens"] + ctx.info["keyword_tokens"] <= 500
    none = ket_index.search("What is the capital of France?", strategy="ket", budget=500, theta=0.0)
    assert none.info["skeleton_tokens"] == 0 and all(it.kind == "subchunk" for it in none.items)


def test_skeleton_only_uses_core_entities(ket_index: Index):
    save_core(ket_index, ["c4"], 0.1, "pagerank")  # only Niels Bohr's chunk is core
    ctx = ket_index.search("capital of France", strategy="skeleton", budget=500)
    assert {it.item_id for it in ctx.items if it.kind == "entity"} == {"e:bohr"}
    save_core(ket_index, [], 0.0, "pagerank")  # beta = 0: no skeleton at all, ket = keyword
    ket = ket_index.search("capital of France", strategy="ket", budget=300)
    assert ket.info["skeleton_tokens"] == 0 and ket.items


def test_keyword_candidates_hold_twice_the_budget(ket_index: Index):
    ctx = ket_index.search("Eiffel Tower engineer", strategy="keyword", budget=100)
    assert ctx.info["keywords"] >= 1 and ctx.info["candidates"] >= len(ctx.items)
    assert "eiffel" in ctx.text().lower()


def test_knng_adds_neighbours(ket_index: Index):
    text = ket_index.search("Eiffel Tower", strategy="text", budget=100)
    knng = ket_index.search("Eiffel Tower", strategy="knng", budget=100)
    assert text.items[0].chunk_id == knng.items[0].chunk_id


def test_stages_end_to_end_with_rules_skeleton(empty_index: Index):
    from kgrag.graph.core import load_core
    from kgrag.progress import NullProgress
    from kgrag.stages import all_stages

    store = empty_index.store
    store.upsert_document(Document("d", "d.txt", "D", "h"))
    ids = [f"c{i}" for i in range(6)]
    store.add_chunks([Chunk(c, "d", t, ord=i, tokens=count_tokens(t)) for i, (c, t) in enumerate(zip(ids, TEXTS, strict=False))])
    store.put_vectors("chunk", ids, empty_index.embedder.embed(TEXTS[:6]))
    empty_index.settings.graph.beta = 0.5
    empty_index.settings.graph.extractor = "rules"
    ket = {"keywords", "knn", "core", "subchunks", "keyword-graph", "skeleton"}
    for stage in all_stages():
        if stage.name in ket:
            stage.run(empty_index, NullProgress())
    assert len(load_core(empty_index)) == 3
    done = {k.split(":", 1)[1] for k in store.done_keys("graph")}
    assert done == load_core(empty_index)  # extraction ran on core chunks only
    ctx = empty_index.search("capital of France", strategy="ket", budget=300)
    assert ctx.items and ctx.tokens <= 300
