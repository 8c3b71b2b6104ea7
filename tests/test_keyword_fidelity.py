"""Keyword-RAG as in the KET-RAG code: unnormalised mean keyword vectors and the 2λ gathering rule."""

from __future__ import annotations

import numpy as np

from kgrag.graph.keyword_graph import SUM_KIND, VECTOR_KIND, keyword_vectors
from kgrag.index import Index


def test_keyword_vectors_are_plain_means_of_sentence_vectors(empty_index: Index):
    store = empty_index.store
    # "film": two sentences pointing different ways; "zed": one sentence. Sums | count.
    store.put_vectors(SUM_KIND, ["kw:film", "kw:zed"], np.array([[1.0, 1.0, 2.0], [0.0, 1.0, 1.0]], np.float32))
    ids, vectors = keyword_vectors(store)
    assert ids == ["kw:film", "kw:zed"]
    assert np.allclose(vectors, [[0.5, 0.5], [0.0, 1.0]])
    q = np.array([0.6, 0.8])
    assert ids[int(np.argmax(vectors @ q))] == "kw:zed"  # the specific keyword outranks the diffuse one


def test_keyword_vectors_fall_back_to_unit_vectors(empty_index: Index):
    store = empty_index.store
    store.put_vectors(VECTOR_KIND, ["kw:a"], np.array([[1.0, 0.0]], np.float32))
    ids, vectors = keyword_vectors(store)
    assert ids == ["kw:a"] and vectors.shape == (1, 2)
