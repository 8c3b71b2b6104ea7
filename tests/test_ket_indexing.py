"""KET-RAG indexing on hand-made corpora: keywords, KNN edges, PageRank, beta selection, sub-chunks, keyword graph."""

from __future__ import annotations

import numpy as np
import pytest

from kgrag.graph.core import core_count, pagerank, rank_chunks, save_core, select_core_chunks
from kgrag.graph.keyword_graph import ensure_keyword_graph, keyword_vectors
from kgrag.graph.keywords import content_words, ensure_keywords, extract_keywords, keyword_id, terms_in
from kgrag.graph.knn import ensure_knn_graph, keyword_matrix, knn_edges, lexical_neighbours, semantic_neighbours
from kgrag.graph.subchunks import ensure_subchunks, rewire_skeleton, split_depth, split_text
from kgrag.index import Index
from kgrag.ingest.sentences import split_sentences
from kgrag.tokens import count_tokens
from kgrag.types import Chunk, Document, Entity, Relation

CORPUS = [
    "Paris is the capital of France. The Eiffel Tower stands in Paris.",
    "France borders Spain. Spain has a long coast.",
    "Madrid is the capital of Spain. Real Madrid plays football in Madrid.",
    "Football is popular in Spain and France.",
    "Quantum physics studies particles and waves.",
]


def add_corpus(index: Index, texts: list[str] = CORPUS) -> list[str]:
    """One document with one chunk per text, embedded with the index's (hash) embedder."""
    store = index.store
    ids = [f"c{i}" for i in range(len(texts))]
    store.upsert_document(Document("d", "d.txt", "D", "h"))
    store.add_chunks([Chunk(cid, "d", t, ord=i, tokens=count_tokens(t)) for i, (cid, t) in enumerate(zip(ids, texts, strict=True))])
    store.put_vectors("chunk", ids, index.embedder.embed(texts))
    return ids


def test_keywords_drop_stop_words_and_modes():
    assert content_words("The capital of France is Paris") == ["capital", "france", "paris"]
    tfidf = extract_keywords(["paris paris france", "france spain", "france madrid"], "tfidf", top_n=1)
    assert [list(c) for c in tfidf] == [["paris"], ["spain"], ["madrid"]]
    assert terms_in("Real Madrid plays football", ["real madrid", "football", "paris"]) == ["real madrid", "football"]


def test_keywords_stage_is_resumable(empty_index: Index):
    add_corpus(empty_index)
    assert ensure_keywords(empty_index) == len(CORPUS)
    assert ensure_keywords(empty_index) == 0
    edges = {(k, c) for k, c, _ in empty_index.store.edges("kw_chunk")}
    assert (keyword_id("paris"), "c0") in edges and (keyword_id("the"), "c0") not in edges


def test_lexical_neighbours_count_shared_keywords():
    sets = [["a", "b", "c"], ["a", "b", "x"], ["c", "y"], ["z"]]
    x, _ = keyword_matrix(sets)
    rows, cols, vals = lexical_neighbours(x, 1)
    top = dict(zip(rows.tolist(), cols.tolist(), strict=True))
    assert top == {0: 1, 1: 0, 2: 0}  # chunk 3 shares nothing: no lexical edge
    assert vals[rows.tolist().index(0)] == pytest.approx(2, abs=0.5)


def test_semantic_neighbours_exclude_self():
    v = np.eye(3, dtype=np.float32)
    v[2] = [0.8, 0.6, 0]
    rows, cols, _ = semantic_neighbours(v, 1, block=2)
    assert dict(zip(rows.tolist(), cols.tolist(), strict=True)) == {0: 2, 1: 2, 2: 0}


def test_knn_edges_union_lexical_and_semantic():
    x, _ = keyword_matrix([["a", "b"], ["a", "b"], ["c"]])
    v = np.asarray([[1, 0], [0, 1], [1, 0.01]], dtype=np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    edges = {(s, d): w for s, d, w in knn_edges(["p", "q", "r"], x, v, k=2)}
    assert edges[("p", "q")] == 1 and edges[("p", "r")] == 1  # lexical q, semantic r
    assert edges[("r", "p")] == 1 and ("r", "q") not in edges  # r shares no keyword


def test_knn_graph_stored_and_cached(empty_index: Index):
    add_corpus(empty_index)
    assert ensure_knn_graph(empty_index) > 0
    assert ensure_knn_graph(empty_index) == 0  # unchanged: not rebuilt
    out = {}
    for s, d, _ in empty_index.store.edges("knn"):
        out.setdefault(s, set()).add(d)
    assert "c2" in out["c0"]  # ties on one shared keyword broken by idf: 'capital' is rarer than 'france'
    assert len(out["c4"]) == 1  # shares no keyword: only its semantic neighbour


def test_pagerank_orders_hub_first():
    star = [(i, 0, 1.0) for i in range(1, 5)] + [(0, 1, 1.0)]
    scores = pagerank(5, star)
    assert int(np.argmax(scores)) == 0 and scores[1] > scores[2]
    assert scores.sum() == pytest.approx(1.0)


def test_beta_selection_pagerank_and_uniform(empty_index: Index):
    ids = add_corpus(empty_index)
    assert core_count(5, 0.4) == 2 and core_count(5, 0.41) == 3 and core_count(5, 0) == 0
    ranked = [cid for cid, _ in rank_chunks(empty_index)]
    assert select_core_chunks(empty_index, 0.4) == ranked[:2]
    assert select_core_chunks(empty_index, 0.0) == []
    uniform = select_core_chunks(empty_index, 0.6, "uniform", seed=1)
    assert len(uniform) == 3 and set(uniform) <= set(ids)
    assert uniform == select_core_chunks(empty_index, 0.6, "uniform", seed=1)
    assert select_core_chunks(empty_index, 1.0) and len(select_core_chunks(empty_index, 1.0)) == 5


def test_split_depth_and_equal_halves():
    assert split_depth(100, 150) == 0 and split_depth(300, 150) == 1 and split_depth(1200, 150) == 3
    text = " ".join(f"word{i}" for i in range(400))
    parts = split_text(text, 2)
    assert len(parts) == 4
    sizes = [count_tokens(p) for p in parts]
    assert max(sizes) - min(sizes) <= 12
    assert " ".join(parts).split() == text.split()  # no word lost or cut


def test_subchunks_and_rewiring(empty_index: Index):
    empty_index.settings.chunking.subchunk_tokens = 20
    long = "Alice founded Acme in Berlin. " * 4 + "Bob later moved to Paris and opened a bakery there. " * 4
    add_corpus(empty_index, [long, "Short chunk about Paris."])
    assert ensure_subchunks(empty_index) == 2
    subs = list(empty_index.store.iter_subchunks())
    assert len([s for s in subs if s.chunk_id == "c0"]) == 2 ** split_depth(count_tokens(long), 20)
    only = [s for s in subs if s.chunk_id == "c1"]
    assert len(only) == 1
    np.testing.assert_allclose(
        empty_index.store.get_vectors("subchunk", [only[0].subchunk_id]), empty_index.store.get_vectors("chunk", ["c1"])
    )
    store = empty_index.store
    store.upsert_entities([Entity("e:bob", "Bob", "person"), Entity("e:paris", "Paris", "city")])
    store.upsert_relations([Relation("r1", "e:bob", "e:paris", "moved_to")])
    store.add_mentions([("c0", "e:bob"), ("c0", "e:paris")])
    store.add_relation_support([("r1", "c0")])
    rewire_skeleton(empty_index)
    bob_units = {d for s, d, _ in store.edges("ent_sub") if s == "e:bob"}
    texts = {s.subchunk_id: s.text for s in subs}
    assert bob_units and all("Bob" in texts[u] for u in bob_units)
    assert all(u.startswith("c0#") for u in bob_units)
    assert {d for s, d, _ in store.edges("rel_sub") if s == "r1"} <= bob_units


class CountingEmbedder:
    """Wraps the hash embedder and records every text embedded."""

    def __init__(self, inner) -> None:
        self.inner, self.seen = inner, []
        self.dim, self.model_name = inner.dim, inner.model_name

    def embed(self, texts):
        self.seen.extend(texts)
        return self.inner.embed(texts)


def test_keyword_embeddings_are_sentence_means(empty_index: Index):
    add_corpus(empty_index)
    ensure_subchunks(empty_index)
    counting = CountingEmbedder(empty_index.embedder)
    empty_index.__dict__["embedder"] = counting
    ensure_keyword_graph(empty_index)
    sentences = [s for t in CORPUS for s in split_sentences(t)]
    assert sorted(counting.seen) == sorted(set(sentences))  # each sentence once
    with_paris = [s for s in sentences if "paris" in s.lower()]
    mean = counting.inner.embed(with_paris).mean(axis=0)  # the plain mean, as KET-RAG defines it
    ids, vectors = keyword_vectors(empty_index.store)  # derived from the stored running sums
    got = vectors[ids.index(keyword_id("paris"))]
    np.testing.assert_allclose(got, mean, atol=2e-3)  # sums are stored as float16 (compact vectors)
    kw = empty_index.store.get_keywords([keyword_id("paris")])[0]
    assert kw.description.split("\n") == with_paris
    edges = {(k, s) for k, s, _ in empty_index.store.edges("kw_sub")}
    assert (keyword_id("madrid"), "c2#s0") in edges and (keyword_id("madrid"), "c0#s0") not in edges
    assert ensure_keyword_graph(empty_index) == 0


def test_keyword_graph_rebuilds_after_removal(empty_index: Index):
    add_corpus(empty_index)
    ensure_keyword_graph(empty_index)
    empty_index.store.delete_chunks(["c0"])
    assert ensure_keyword_graph(empty_index) == len(CORPUS) - 1
    edges = {s for _, s, _ in empty_index.store.edges("kw_sub")}
    assert not any(s.startswith("c0#") for s in edges)


def test_save_core_roundtrip(empty_index: Index):
    from kgrag.graph.core import load_core

    assert load_core(empty_index) is None
    save_core(empty_index, ["c1"], 0.2, "pagerank")
    assert load_core(empty_index) == {"c1"}
