"""Embedders: hashing properties, real MiniLM vectors, the SQLite cache and the factory."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kgrag.config import EmbedderSettings
from kgrag.errors import ConfigError
from kgrag.models import CachedEmbedder, Embedder, HashEmbedder, MiniLMEmbedder, make_embedder


def test_hash_embedder_is_deterministic_normalised_and_lexical() -> None:
    emb = HashEmbedder()
    texts = ["BMI270 accelerometer output data rate", "accelerometer output data rate of the BMI270",
             "bake bread at 200 degrees", ""]
    a, b = emb.embed(texts), HashEmbedder().embed(texts)
    assert a.shape == (4, 384) and a.dtype == np.float32
    assert np.array_equal(a, b)
    assert np.allclose(np.linalg.norm(a[:3], axis=1), 1.0, atol=1e-5)
    assert not a[3].any()
    assert a[0] @ a[1] > 0.5 > a[0] @ a[2]
    assert isinstance(emb, Embedder)


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder(batch_size=4)


def test_minilm_vectors_have_the_right_shape_norm_and_meaning(minilm: MiniLMEmbedder) -> None:
    texts = ["How do I reset the sensor to factory settings?",
             "Restoring the device's default configuration",
             "The recipe needs two cups of flour and an egg.",
             "   "]
    vecs = minilm.embed(texts)
    assert vecs.shape == (4, 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs[:3], axis=1), 1.0, atol=1e-4)
    assert not vecs[3].any()
    assert vecs[0] @ vecs[1] > vecs[0] @ vecs[2] + 0.2


def test_minilm_batching_and_sorting_keep_input_order(minilm: MiniLMEmbedder) -> None:
    texts = [("word " * n).strip() + f" item {n}" for n in (40, 1, 25, 3, 60, 2, 9)]
    together = minilm.embed(texts)
    one_by_one = np.vstack([minilm.embed([t]) for t in texts])
    assert np.allclose(together, one_by_one, atol=1e-4)


def test_minilm_truncates_long_texts(minilm: MiniLMEmbedder) -> None:
    long_text = "register " * 2000
    vec = minilm.embed([long_text])
    assert vec.shape == (1, 384) and abs(float(np.linalg.norm(vec)) - 1.0) < 1e-4


def test_cached_embedder_reuses_vectors(tmp_path: Path) -> None:
    calls: list[int] = []

    class Counting(HashEmbedder):
        def embed(self, texts):  # type: ignore[no-untyped-def]
            calls.append(len(texts))
            return super().embed(texts)

    path = tmp_path / "emb.sqlite"
    cached = CachedEmbedder(Counting(), path)
    first = cached.embed(["alpha beta", "gamma", "alpha beta"])
    assert calls == [2] and cached.misses == 2
    again = cached.embed(["gamma", "alpha beta", "delta"])
    assert calls == [2, 1]
    assert np.allclose(again[0], first[1]) and np.allclose(again[1], first[0])
    cached.close()
    reopened = CachedEmbedder(Counting(), path)  # survives a new process/connection
    reopened.embed(["alpha beta", "gamma", "delta"])
    assert calls == [2, 1] and reopened.hits == 3
    assert reopened.dim == 384 and reopened.model_name == "hash-384"


def test_embedding_cache_is_bounded_and_compact(tmp_path: Path) -> None:
    path = tmp_path / "emb.sqlite"
    cached = CachedEmbedder(HashEmbedder(), path, max_rows=50)
    vectors = cached.embed([f"text number {i}" for i in range(200)])
    rows = cached._db.execute("SELECT count(*), max(length(vec)) FROM embedding_cache").fetchone()
    assert rows[0] <= 55 and rows[1] == 2 * 384  # bounded; float16
    np.testing.assert_allclose(vectors, HashEmbedder().embed([f"text number {i}" for i in range(200)]), atol=1e-3)
    assert np.array_equal(cached.embed(["text number 199"])[0], vectors[199])  # a hit returns what the miss did
    cached.close()


def test_make_embedder_providers(tmp_path: Path) -> None:
    assert isinstance(make_embedder(EmbedderSettings(provider="hash")), HashEmbedder)
    emb = make_embedder(EmbedderSettings(provider="minilm", batch_size=8), cache_path=tmp_path / "c.sqlite")
    assert isinstance(emb, CachedEmbedder) and isinstance(emb.inner, MiniLMEmbedder)
    assert emb.inner.batch_size == 8 and emb.dim == 384
    with pytest.raises(ConfigError, match="provider"):
        make_embedder(EmbedderSettings(provider="nope"))
