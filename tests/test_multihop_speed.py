"""The latency work behind `fused` keeps behaviour: projected keyword scores, the vectorised Keyword-RAG gather,
shared per-question scores, sentence cuts from cached texts, and the block PPR."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from scipy import sparse
from tests.test_multihop import tri_index  # noqa: F401  (fixture)

from kgrag.index import Index
from kgrag.retrieve.multihop import (
    MultiHopParams,
    SentenceScores,
    entity_activation,
    personalized_pagerank,
    query_scores,
    rank_passages,
)
from kgrag.retrieve.projection import project, scores
from kgrag.retrieve.strategies.ket import gather_keyword_units
from kgrag.retrieve.strategies.multihop import cut_passage, packed_prefix, passage_items
from kgrag.retrieve.trigraph_index import passage_texts, trigraph_arrays
from kgrag.tokens import count_tokens


def test_projection_rescores_the_best_rows_exactly():
    rng = np.random.default_rng(0)
    m = rng.normal(size=(3000, 8)) @ rng.normal(size=(8, 64)) + 0.3 * rng.normal(size=(3000, 64))  # like embeddings:
    m = (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32)  # most variance in a few directions
    p = project(m, dims=16, min_rows=100)
    assert p.basis is not None and p.rows is not None and p.rows.shape == (3000, 16)
    q = m[7] + 0.1 * m[8]
    exact = m @ q
    got = scores(p, q, exact=300)
    best = np.argsort(-exact)[:20]
    assert np.allclose(got[best], exact[best], atol=1e-5)  # the true top rows are among the rescored ones
    assert int(np.argmax(got)) == 7
    small = project(m[:50], dims=16, min_rows=100)
    assert small.basis is None and np.allclose(scores(small, q, 10), m[:50] @ q)


def _reference_gather(to_units: sparse.csr_matrix, tokens: np.ndarray, kw_order: list[int], sims: np.ndarray,
                      target: int, picked: np.ndarray) -> int:
    """The loop KET-RAG's code runs (and ket.py ran before it was vectorised)."""
    gathered, n_kw = 0, 0
    for kw in kw_order:
        cols = to_units.indices[to_units.indptr[kw]:to_units.indptr[kw + 1]]
        n_kw += 1
        for col in cols[np.argsort(-sims[cols], kind="stable")].tolist():
            if gathered + int(tokens[col]) > target:
                return n_kw
            if picked[col]:
                continue
            picked[col] = True
            gathered += int(tokens[col])
    return n_kw


def test_vectorised_keyword_gather_matches_the_loop():
    rng = np.random.default_rng(1)
    n_kw, n_units = 400, 120
    dense = (rng.random((n_kw, n_units)) < 0.05).astype(np.float32)
    to_units = sparse.csr_matrix(dense)
    tokens = rng.integers(20, 160, n_units).astype(np.int32)
    k = SimpleNamespace(to_units=to_units, units=SimpleNamespace(tokens=tokens))
    for seed in range(20):
        r = np.random.default_rng(seed)
        kw_scores, sims = r.normal(size=n_kw), r.normal(size=n_units)
        target = int(r.integers(100, 6000))
        pre = r.random(n_units) < 0.1  # excluded sub-chunks count as picked
        mine, ref = pre.copy(), pre.copy()
        order = sorted(range(n_kw), key=lambda i: (-kw_scores[i], i))
        n_ref = _reference_gather(to_units, tokens, order, sims, target, ref)
        assert gather_keyword_units(k, kw_scores, sims, target, mine) == n_ref
        assert np.array_equal(mine, ref)


def test_packed_prefix_follows_pack():
    assert packed_prefix([100, 100, 100], 250) == 3  # the third is cut to 50 tokens (>= 40)
    assert packed_prefix([100, 100, 100], 230) == 2  # 30 tokens left: not worth a cut
    assert packed_prefix([10, 20], 1000) == 2
    assert packed_prefix([], 10) == 0


def test_block_ppr_equals_the_two_sided_walk():
    b = sparse.csr_matrix(np.array([[1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]], dtype=np.float32))
    reset_e, reset_p = np.array([0.6, 0.0, 0.0]), np.array([0.0, 0.0, 0.0, 0.4])
    x_e, x_p = personalized_pagerank(b, reset_e, reset_p, damping=0.5, steps=40)
    deg_e, deg_p = np.asarray(b.sum(1)).ravel(), np.asarray(b.sum(0)).ravel()
    we, wp = (b.multiply(1 / deg_e[:, None])).T.toarray(), (b.multiply(1 / deg_p[None, :])).toarray()
    ye, yp = reset_e.copy(), reset_p.copy()
    for _ in range(40):
        ye, yp = 0.5 * reset_e + 0.5 * wp @ yp, 0.5 * reset_p + 0.5 * we @ ye
    assert np.allclose(x_e, ye, atol=1e-6) and np.allclose(x_p, yp, atol=1e-6)


def test_shared_scores_give_the_same_ranking(tri_index: Index):  # noqa: F811
    graph = trigraph_arrays(tri_index)
    qvec = tri_index.embedder.embed(["Where was the founder of Alpha Corp born?"])[0]
    q = "Where was the founder of Alpha Corp born?"
    own, _ = rank_passages(graph, q, qvec, 1000)
    shared, _ = rank_passages(graph, q, qvec, 1000, scores=query_scores(graph, qvec))
    assert own == shared


def test_sentence_scores_are_computed_once_per_row_on_demand():
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((50, 8)).astype(np.float32)
    q = rng.standard_normal(8).astype(np.float32)
    lazy = SentenceScores(vectors, q)
    assert len(lazy) == 50 and np.isnan(lazy._values).all()  # nothing computed up front
    assert np.allclose(lazy[[3, 7, 3]], (vectors @ q)[[3, 7, 3]])
    assert int((~np.isnan(lazy._values)).sum()) == 2  # only the rows asked for
    assert np.allclose(lazy[np.arange(50)], vectors @ q)


def test_semantic_bridging_pool_limits_the_sentences_searched(tri_index: Index):  # noqa: F811
    graph = trigraph_arrays(tri_index)
    qvec = tri_index.embedder.embed(["Which river runs through Zedtown?"])[0]
    s = query_scores(graph, qvec)
    everywhere = entity_activation(graph, [], s.sentences, 1)
    best = int(np.argmax(graph.sent_vectors @ qvec))
    pool = np.array([r for r in range(graph.sent_vectors.shape[0]) if r != best])
    elsewhere = entity_activation(graph, [], s.sentences, 1, pool)
    best_entities = graph.sent_ent.indices[graph.sent_ent.indptr[best]:graph.sent_ent.indptr[best + 1]]
    assert len(best_entities) and everywhere[best_entities].max() == 1.0  # "Zedtown lies on the Gray River."
    assert not np.array_equal(everywhere, elsewhere)  # without that sentence in the pool, other entities lead
    # a pool of every passage (here 5) searches every sentence: the same ranking as the exhaustive search
    full, _ = rank_passages(graph, "Which river runs through Zedtown?", qvec, 1000, MultiHopParams(sentence_pool=0))
    pooled, _ = rank_passages(graph, "Which river runs through Zedtown?", qvec, 1000, MultiHopParams(sentence_pool=5))
    assert full == pooled


def test_cut_passages_count_at_least_their_tokens(tri_index: Index):  # noqa: F811
    graph = trigraph_arrays(tri_index)
    texts = passage_texts(tri_index)
    assert set(texts) == {f"c{i}" for i in range(5)}
    s = query_scores(graph, tri_index.embedder.embed(["Where was Bob Smith born?"])[0])
    for text in texts.values():
        cut, tokens, chosen = cut_passage(graph, text, s.sentences, 1)
        assert chosen is not None and len(chosen) == 1 and cut == text.sentences[chosen[0]]
        assert count_tokens(cut) <= tokens <= count_tokens(cut) + 1
        whole, whole_tokens, none = cut_passage(graph, text, s.sentences, 0)
        assert none is None and whole == text.chunk.text and whole_tokens == count_tokens(whole)
    ranked = [(f"c{i}", 1.0) for i in range(5)]
    items = passage_items(tri_index, graph, ranked, s, 1, budget=30)
    assert 1 <= len(items) < 5 and sum(it.tokens for it in items[:-1]) < 30  # built only until the budget is filled


def test_lead_sentence_is_kept_first(tri_index: Index):  # noqa: F811
    graph = trigraph_arrays(tri_index)
    row = graph.passages.position["c1"]
    sims = np.zeros(graph.sent_vectors.shape[0], np.float32)
    sents = graph.pass_sent.indices[graph.pass_sent.indptr[row]:graph.pass_sent.indptr[row + 1]]
    sims[sents[graph.sent_pos[sents] == 1]] = 1.0  # the second sentence is the nearest
    from kgrag.retrieve.multihop import best_sentences

    assert best_sentences(graph, row, sims, 1) == [1]
    assert best_sentences(graph, row, sims, 1, lead=True) == [0]
    assert best_sentences(graph, row, sims, 2, lead=True) is None  # two sentences: used whole
