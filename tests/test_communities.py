"""Communities: similarity edges, seeded hierarchical Leiden, profiles/summaries, and both community retrievers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kgrag.graph.communities import CommunityParams, build_graph, hierarchical_leiden, similarity_edges
from kgrag.graph.community_build import build_communities
from kgrag.graph.community_profiles import SUMMARY_SCHEMA, canonical_json
from kgrag.index import Index
from kgrag.models.fake import FakeLLM
from kgrag.retrieve.base import make_retriever
from kgrag.types import Chunk, Document, Entity, Relation

SENSORS = [("BMP390", "pressure sensor"), ("LPS22HB", "pressure sensor"), ("HS3003", "humidity sensor"),
           ("BME688", "gas sensor"), ("BMI270", "motion sensor")]
RADIOS = [("nRF52840", "bluetooth chip"), ("ANNA-B112", "bluetooth module"), ("NINA-W102", "wifi module"),
          ("u-blox", "radio vendor")]


def _graph(index: Index) -> None:
    """Two topical clusters of entities, each mentioned in its own chunks, relations within each cluster."""
    store = index.store
    doc = Document("d1", "board.md", "Board", "h1", product="Nicla Sense ME", category="sensors")
    chunks = []
    for n, (name, desc) in enumerate(SENSORS + RADIOS):
        product = "Nicla Sense ME" if (name, desc) in SENSORS else "Nano 33 BLE"
        chunks.append(Chunk(f"c{n}", "d1", f"The {name} is a {desc} on the {product} board.", ord=n,
                            product=product, category="sensors" if product.startswith("Nicla") else "radio"))
    store.upsert_document(doc)
    store.add_chunks(chunks)
    store.put_vectors("chunk", [c.chunk_id for c in chunks], index.embedder.embed([c.text for c in chunks]))
    entities = [Entity(f"e-{name}", name, "component", desc) for name, desc in SENSORS + RADIOS]
    store.upsert_entities(entities)
    store.add_mentions([(f"c{n}", e.entity_id) for n, e in enumerate(entities)])
    rels = []
    for group in (SENSORS, RADIOS):
        for (a, _), (b, _) in zip(group, group[1:], strict=False):
            rels.append(Relation(f"r-{a}-{b}", f"e-{a}", f"e-{b}", "related_to"))
        rels.append(Relation(f"r-{group[0][0]}-{group[-1][0]}", f"e-{group[0][0]}", f"e-{group[-1][0]}", "related_to"))
    store.upsert_relations(rels)


def test_similarity_edges_blockwise_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(50, 8)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    edges = similarity_edges(x, top_k=3, min_similarity=0.2, block_rows=7)
    sims = x @ x.T
    np.fill_diagonal(sims, -np.inf)
    expected = set()
    for i in range(50):
        for j in np.argsort(-sims[i])[:3]:
            if sims[i, j] >= 0.2:
                expected.add((min(i, int(j)), max(i, int(j))))
    assert {(a, b) for a, b, _ in edges} == expected
    assert all(a < b for a, b, _ in edges)


def test_leiden_is_reproducible_with_a_seed() -> None:
    rng = np.random.default_rng(1)
    edges = [(int(a), int(b), 1.0) for a, b in rng.integers(0, 60, size=(200, 2)) if a != b]
    ids = [f"e{i:02d}" for i in range(60)]
    params = CommunityParams(seed=7, max_cluster_size=8, levels=3)
    runs = [hierarchical_leiden(build_graph(60, edges, [], params), ids, params) for _ in range(3)]
    shapes = [[(n.community_id, n.level, n.parent_id, tuple(n.members)) for n in run] for run in runs]
    assert shapes[0] == shapes[1] == shapes[2]
    levels = {n.level for n in runs[0]}
    assert levels == {0, 1, 2}
    for level in levels:  # every level is a complete partition of the connected entities
        members = [m for n in runs[0] if n.level == level for m in n.members]
        assert len(members) == len(set(members))
        assert set(members) == {m for n in runs[0] if n.level == 0 for m in n.members}


def test_build_communities_profiles_and_deterministic_summaries(empty_index: Index) -> None:
    _graph(empty_index)
    report = build_communities(empty_index, CommunityParams(levels=2), summaries=False)
    assert report.entities == 9 and not report.skipped
    level0 = list(empty_index.store.iter_communities(0))
    level1 = list(empty_index.store.iter_communities(1))
    assert len(level0) == 2 and len(level1) >= 2
    members = empty_index.store.community_members([c.community_id for c in level0])
    groups = sorted(sorted(m) for m in members.values())
    assert groups == sorted([sorted(f"e-{n}" for n, _ in RADIOS), sorted(f"e-{n}" for n, _ in SENSORS)])
    sensors = next(c for c in level0 if "e-BMP390" in members[c.community_id])
    profile = sensors.full_content
    assert profile["products"][0] == ["Nicla Sense ME", 5]
    assert 1 <= len(profile["snippets"]) <= 3 and all(len(s["text"]) <= 300 for s in profile["snippets"])
    assert "BMP390" in sensors.summary and sensors.title
    assert all(c.parent_id in {p.community_id for p in level0} for c in level1)
    assert empty_index.store.get_vectors("community", [sensors.community_id]).any()
    again = build_communities(empty_index, CommunityParams(levels=2), summaries=False)
    assert again.skipped


def test_llm_summaries_are_cached_by_profile_hash_and_raw_text_kept(empty_index: Index) -> None:
    _graph(empty_index)
    reply = json.dumps({"topic_label": "Environmental sensors", "summary": "Pressure and gas sensors.",
                        "key_terms": ["pressure"]})
    llm = FakeLLM(respond=lambda messages, schema: reply if "BMP390" in messages[-1]["content"] else "not json")
    empty_index.__dict__["llm"] = llm
    first = build_communities(empty_index, CommunityParams(levels=1), summaries=True)
    assert first.llm_calls == 2 and llm.requests[0]["schema"] == SUMMARY_SCHEMA
    by_title = {c.title: c for c in empty_index.store.iter_communities(0)}
    assert by_title["Environmental sensors"].summary == "Pressure and gas sensors."
    raw = next(c for c in by_title.values() if c.title != "Environmental sensors")
    assert raw.summary == "not json" and raw.full_content["summary_source"] == "raw"
    second = build_communities(empty_index, CommunityParams(levels=1), summaries=True, force=True)
    assert second.llm_calls == 0 and second.reused == 2 and llm.calls == 2


def test_canonical_json_is_order_independent() -> None:
    assert canonical_json({"b": 1, "a": [1, 2]}) == canonical_json({"a": [1, 2], "b": 1}) == '{"a":[1,2],"b":1}'


@pytest.mark.parametrize("strategy", ["community", "community-hybrid"])
def test_community_retrievers_return_summaries_chunks_and_members(empty_index: Index, strategy: str) -> None:
    _graph(empty_index)
    build_communities(empty_index, CommunityParams(levels=2), summaries=False)
    empty_index.__dict__["llm"] = FakeLLM(replies=["The BMP390 pressure sensor cluster of the Nicla Sense ME."])
    context = make_retriever(strategy, empty_index).retrieve("Which pressure sensor has the BMP390 board?", 1000,
                                                             hyde=True)
    kinds = {i.kind for i in context.items}
    assert {"community", "chunk"} <= kinds
    assert 0 < context.tokens <= 1000
    assert context.subgraph.nodes and all({"id", "name", "type"} <= set(n) for n in context.subgraph.nodes)
    assert any("BMP390" in i.text for i in context.items if i.kind == "chunk")
    if strategy == "community":
        assert context.info["hyde"] is True and context.info["level"] == 1
