"""Tri-graph retrieval on hand-made fixtures: entity spans, PPR seeding, bridge expansion, fusion, the stage."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from tests.conftest import add_text_chunks

from kgrag.graph.keyword_graph import ensure_keyword_graph
from kgrag.graph.trigraph import EDGE_KIND, chunk_sentences, ensure_trigraph, entity_mentions
from kgrag.index import Index
from kgrag.retrieve.fusion import rrf
from kgrag.retrieve.ket_index import UnitArrays
from kgrag.retrieve.multihop import MultiHopParams, personalized_pagerank, question_entities, rank_passages, second_hop
from kgrag.retrieve.trigraph_index import build_trigraph


def test_entity_mentions_are_capitalised_spans():
    assert entity_mentions("The Beatles were formed in Liverpool, England by John Lennon.") == [
        "beatles", "liverpool", "england", "john lennon"]
    assert entity_mentions("He studied at the University of Texas at Austin.") == ["university of texas", "austin"]
    assert entity_mentions("North Korea's army crossed into South Korea.") == ["north korea", "south korea"]
    assert entity_mentions("no names here at all, in 1950.") == []


def test_chunk_sentences_link_entities_to_sentence_ids():
    ids, texts, edges = chunk_sentences("c7", "Ada Lovelace met Charles Babbage. She wrote notes.")
    assert ids == ["c7#t0", "c7#t1"] and len(texts) == 2
    assert {(e, s) for e, s, _ in edges} == {("ada lovelace", "c7#t0"), ("charles babbage", "c7#t0")}


def _graph(passage_entities: list[list[str]], passage_vecs: np.ndarray, sentence_vecs: np.ndarray | None = None):
    """A tri-graph with one sentence per passage mentioning the given entities."""
    n = len(passage_entities)
    ids = [f"p{i}" for i in range(n)]
    units = UnitArrays(ids, passage_vecs.astype(np.float32), np.full(n, 100, np.int32), ids, {c: i for i, c in enumerate(ids)})
    sids = [f"p{i}#t0" for i in range(n)]
    edges = [(e, f"p{i}#t0", 1.0) for i, ents in enumerate(passage_entities) for e in ents]
    return build_trigraph(units, sids, passage_vecs if sentence_vecs is None else sentence_vecs, edges)


def test_ppr_mass_flows_from_seed_entity_to_its_passages():
    # entities x passages: e0-p0, e0-p1, e1-p1, e1-p2, e2-p3
    b = sparse.csr_matrix(np.array([[1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 1]], dtype=np.float32))
    reset_e = np.array([1.0, 0.0, 0.0])
    x_e, x_p = personalized_pagerank(b, reset_e, np.zeros(4), damping=0.5, steps=30)
    assert x_p[0] > 0 and x_p[1] > x_p[2] > 0  # p1 is reached directly and via e1; p2 only via e1
    assert x_p[3] == 0 and x_e[2] == 0  # disconnected component gets nothing
    assert x_e.sum() + x_p.sum() <= 1.0 + 1e-9
    _, only_passage = personalized_pagerank(b, np.zeros(3), np.array([0, 0, 0, 1.0]), damping=0.5, steps=30)
    assert int(np.argmax(only_passage)) == 3  # a passage seed keeps most of its own mass


def test_question_entities_match_ngrams_case_insensitively():
    g = _graph([["alpha corp", "bob smith"], ["zedtown"]], np.eye(2, 4))
    rows = question_entities(g, "Where was the founder of ALPHA corp born, near Zedtown?")
    assert [g.names[r] for r in rows] == ["alpha corp", "zedtown"]


def test_seeds_rank_entity_passages_and_dense_passages():
    vecs = np.eye(4, 4)
    g = _graph([["alpha"], ["beta"], ["gamma"], ["delta"]], vecs)
    q = np.array([0, 0, 0, 1.0])  # dense says p3; the question names beta
    rows, info = rank_passages(g, "tell me about Beta", q, budget=10_000, params=MultiHopParams(sentences=0, passage_seeds=1),
                               bridge=False)
    assert set(rows[:2]) == {1, 3} and info["question_entities"] == ["beta"]
    rows, _ = rank_passages(g, "tell me about Beta", q, 10_000, MultiHopParams(sentences=0, passage_seeds=1, passage_weight=0.9),
                            bridge=False)
    assert rows[0] == 3  # more reset mass on the dense passage puts it first


def test_given_seed_passages_replace_the_dense_seeds():
    """`fused` restarts the walk on its hybrid channel's top passages: given seed rows take the dense top's place."""
    vecs = np.eye(4, 4) * 0.5 + 0.1
    g = _graph([["alpha"], ["beta"], ["gamma"], ["delta"]], vecs)
    q = vecs[3] / np.linalg.norm(vecs[3])  # dense ranks p3 first
    params = MultiHopParams(sentences=0, passage_seeds=1, passage_weight=0.9)
    dense_seeded, _ = rank_passages(g, "which one?", q, 10_000, params, bridge=False)
    given, _ = rank_passages(g, "which one?", q, 10_000, params, bridge=False, seed_rows=[1, 3])
    assert dense_seeded[0] == 3 and given[0] == 1  # only the first `passage_seeds` given rows are seeds
    assert rank_passages(g, "which one?", q, 10_000, params, bridge=False, seed_rows=[])[0] == dense_seeded


def test_bridge_round_reaches_the_second_hop():
    # p0: the question's entity + the bridge entity; p1: bridge entity only (holds the answer);
    # p2..p5: distractors sharing the question's entity.
    ents = [["alpha corp", "bob smith"], ["bob smith", "zedtown"]] + [["alpha corp", f"other{i}"] for i in range(4)]
    vecs = np.zeros((6, 6))
    vecs[0, 0] = 1.0
    vecs[1, 1] = 1.0
    for i in range(2, 6):
        vecs[i, 0], vecs[i, i] = 0.6, 0.8
    q = np.zeros(6)
    q[0] = 1.0
    params = MultiHopParams(sentences=1, passage_seeds=2, bridge_passages=1, first_share=0.5, bridge_weight=1.5)
    plain, _ = rank_passages(g := _graph(ents, vecs), "Where was the founder of Alpha Corp born?", q, 600, params, bridge=False)
    bridged, info = rank_passages(g, "Where was the founder of Alpha Corp born?", q, 600, params, bridge=True)
    assert bridged[0] == 0 and bridged[1] == 1  # round 1 keeps p0, round 2 follows bob smith to p1
    assert plain.index(1) > bridged.index(1)
    assert "bob smith" in info["bridge_entities"] and "alpha corp" not in info["bridge_entities"]
    assert sorted(bridged) == list(range(6))  # every passage ranked once


def test_second_hop_follows_specific_entities_of_the_seeds():
    # p0 (seed) names the question's entity, a bridge (3 passages) and a hub (4); p1/p2 share the bridge,
    # p3/p4/p6 only the hub, p5 shares nothing. Dense likes p2 over p1 and the hub passages most of all.
    ents = [["alpha corp", "bob smith", "hubland"], ["bob smith"], ["bob smith", "carol"], ["hubland"], ["hubland"],
            ["zed"], ["hubland"]]
    g = _graph(ents, np.eye(7, 7))
    dense = np.array([0.9, 0.2, 0.3, 0.8, 0.8, 0.95, 0.1])
    q_ents = question_entities(g, "Where was the founder of Alpha Corp born?")
    rows = second_hop(g, [0], dense, q_ents, max_df=3)
    assert rows == [2, 1]  # bridge passages only, by similarity; no seed, no hub-only or unrelated passage
    assert second_hop(g, [0], dense, q_ents, max_df=4)[:2] == [3, 4]  # hubland (4 passages) counts as a bridge now
    assert second_hop(g, [5], dense, q_ents + [g.name_pos["zed"]]) == []  # nothing left to follow
    assert second_hop(g, [], dense, q_ents) == []


def test_second_hop_prefers_the_rarer_bridge_when_asked():
    ents = [["bob smith", "zed"], ["bob smith"], ["zed"], ["bob smith"], ["bob smith"]]
    g = _graph(ents, np.eye(5, 5))
    dense = np.array([0.0, 0.5, 0.45, 0.1, 0.1])
    assert second_hop(g, [0], dense, [], specificity=0.0)[0] == 1  # cosine only
    assert second_hop(g, [0], dense, [], specificity=0.5)[0] == 2  # zed (2 passages) is rarer than bob smith (4)


def test_rrf_fuses_by_rank_with_weights():
    fused = rrf([["a", "b", "c"], ["b", "d"]], [1.0, 1.0], k=60)
    assert [i for i, _ in fused][:1] == ["b"]  # in both lists
    assert {i for i, _ in fused} == {"a", "b", "c", "d"}
    only_first = rrf([["a", "b"], ["b", "a"]], [1.0, 0.0])
    assert [i for i, _ in only_first] == ["a", "b"]
    tie = rrf([["x"], ["y"]])
    assert [i for i, _ in tie] == ["x", "y"]  # ties keep first appearance
    with pytest.raises(ValueError):
        rrf([["a"]], [1.0, 2.0])


TEXTS = [
    "Alpha Corp was founded by Bob Smith in Oldtown. The company makes widgets.",
    "Bob Smith was born in Zedtown. He studied engineering at Northfield College.",
    "Zedtown lies on the Gray River. It has a small harbour.",
    "Widgets are small mechanical parts. Many factories make them.",
    "Northfield College was founded in Oldtown. It teaches engineering.",
]


@pytest.fixture
def tri_index(empty_index: Index) -> Index:
    add_text_chunks(empty_index, TEXTS)
    ensure_keyword_graph(empty_index)
    assert ensure_trigraph(empty_index) == len(TEXTS)
    return empty_index


def test_stage_is_resumable_and_stores_sentences(tri_index: Index):
    assert ensure_trigraph(tri_index) == 0
    edges = tri_index.store.edges(EDGE_KIND)
    assert ("bob smith", "c1#t0", 1.0) in edges
    assert tri_index.store.vector_matrix("sentence").matrix.shape[0] == 10


@pytest.mark.parametrize("strategy", ["trigraph", "fused"])
@pytest.mark.parametrize("budget", [40, 120, 1000])
def test_strategies_respect_budget(tri_index: Index, strategy: str, budget: int):
    ctx = tri_index.search("Where was the founder of Alpha Corp born?", strategy=strategy, budget=budget)
    assert ctx.items and ctx.tokens <= budget
    assert len({it.chunk_id for it in ctx.items}) == len(ctx.items)


def test_trigraph_follows_the_bridge_entity(tri_index: Index):
    ctx = tri_index.search("Where was the founder of Alpha Corp born?", strategy="trigraph", budget=1000)
    order = [it.chunk_id for it in ctx.items]
    assert order.index("c1") < order.index("c3")  # Bob Smith's passage before the unrelated one
    assert ctx.info["question_entities"] == ["alpha corp"]


def test_fused_keeps_the_sentences_nearest_the_question(tri_index: Index):
    whole = tri_index.search("Where was Bob Smith born?", strategy="fused", budget=1000, keep_sentences=0)
    cut = tri_index.search("Where was Bob Smith born?", strategy="fused", budget=1000, keep_sentences=1)
    assert [it.chunk_id for it in cut.items] == [it.chunk_id for it in whole.items]
    assert all(len(it.source["sentences"]) == 1 for it in cut.items)  # every fixture passage has 2 sentences
    assert cut.tokens < whole.tokens
    assert all(it.text in w.text for it, w in zip(cut.items, whole.items, strict=True))


def test_fused_cuts_lower_ranked_passages_shorter_under_a_tight_budget(tri_index: Index):
    """Under a tight budget the passages after the first few keep fewer sentences, so more passages fit."""
    question = "Where was Bob Smith born?"
    graded = tri_index.search(question, strategy="fused", budget=2000, keep_sentences=2, tail_after=1, tail_sentences=1)
    kept = [len(it.source.get("sentences", [0, 1])) for it in graded.items]  # no positions: the passage is whole
    assert kept[0] == 2 and all(n == 1 for n in kept[1:]) and len(kept) == len(TEXTS)
    loose = tri_index.search(question, strategy="fused", budget=2000, keep_sentences=2, tail_after=1, tail_sentences=1,
                             tail_max_budget=1500)  # a budget above tail_max_budget: every passage keeps its two sentences
    assert [it.chunk_id for it in loose.items] == [it.chunk_id for it in graded.items]
    assert all(len(it.source.get("sentences", [0, 1])) == 2 for it in loose.items) and loose.tokens > graded.tokens
    tiny = tri_index.search(question, strategy="fused", budget=1000, keep_sentences=2, tail_after=1, tail_sentences=1)
    assert tiny.tokens == loose.tokens  # below the band's lower end (2k by default) the passages stay as they are


def test_fused_weights_select_channels(tri_index: Index):
    only_tri = tri_index.search("Where was the founder of Alpha Corp born?", strategy="fused", budget=1000,
                                weights=(0.0, 0.0, 1.0), keep_sentences=0, hop2_weight=0)
    tri = tri_index.search("Where was the founder of Alpha Corp born?", strategy="trigraph", budget=1000)
    assert [it.chunk_id for it in only_tri.items] == [it.chunk_id for it in tri.items]


def test_fused_second_hop_lifts_the_bridge_passage(tri_index: Index):
    question = "Which river flows past the birthplace of the founder of Alpha Corp?"
    plain = tri_index.search(question, strategy="fused", budget=1000, keep_sentences=0, hop2_weight=0)
    hop = tri_index.search(question, strategy="fused", budget=1000, keep_sentences=0)
    assert hop.info["second_hop"] > 0 and "second_hop" not in plain.info
    assert {it.chunk_id for it in hop.items} == {it.chunk_id for it in plain.items}  # re-ordered, nothing lost
    before, after = [it.chunk_id for it in plain.items], [it.chunk_id for it in hop.items]
    assert before.index("c1") > before.index("c3")  # without it the unrelated widget passage outranks Bob Smith's
    assert after.index("c1") < after.index("c3")  # c0 names Bob Smith: his passage (the next hop) moves up
    long = tri_index.search(question, strategy="fused", budget=1000, keep_sentences=0, hop2_max_words=5)
    assert long.info["second_hop"].startswith("off") and [it.chunk_id for it in long.items] == before


def test_removing_a_document_drops_its_sentences(tri_index: Index):
    tri_index.remove("d")
    assert tri_index.store.edges(EDGE_KIND) == []
    assert not tri_index.store.vector_matrix("sentence").ids
