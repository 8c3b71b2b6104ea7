"""Compact vectors (int8 + per-vector scale; other rows keep their last value exact): exact enough, searches barely change."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kgrag.store.sqlite import SqliteStore
from kgrag.store.vectors import (
    FLOAT16,
    FLOAT32,
    INT8,
    INT8_TAIL,
    VECTOR_FORMAT_KEY,
    from_blobs,
    to_blob,
    to_blobs,
    top_k,
)


def _clustered(n: int, dim: int = 384, seed: int = 0) -> np.ndarray:
    """Unit vectors in 40 loose clusters, like sentence embeddings of a corpus (many near neighbours)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(40, dim))
    x = centres[rng.integers(0, 40, n)] + 0.9 * rng.normal(size=(n, dim))
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def test_blob_formats_round_trip() -> None:
    unit = _clustered(5)
    sums = np.hstack([unit * 7.5, np.full((5, 1), 12.0, np.float32)])
    huge = np.array([1e6, -3e5, 2.0, 7e6], np.float32)
    assert to_blob(unit[0], compact=True)[0] == INT8 and len(to_blob(unit[0], compact=True)) == 1 + 4 + 384
    assert to_blob(sums[0], compact=True)[0] == INT8_TAIL and len(to_blob(sums[0], compact=True)) == 1 + 4 + 384 + 4
    back = from_blobs([to_blob(huge, compact=True)], compact=True)[0]
    assert back[-1] == 7e6 and abs(back[0] - 1e6) < 1e6 / 200  # large values fit too (no float16 overflow)
    assert to_blob(np.array([np.nan, 1.0], np.float32), compact=True)[0] == FLOAT32
    old_sums = bytes([FLOAT16]) + sums[0].astype(np.float16).tobytes()  # written by earlier versions
    np.testing.assert_allclose(from_blobs([old_sums], compact=True)[0], sums[0], rtol=1e-3)
    assert np.abs(from_blobs(to_blobs(unit, compact=True), compact=True) - unit).max() < 2e-3
    assert to_blobs(unit, compact=True) == [to_blob(v, compact=True) for v in unit]  # vectorised == per row
    decoded = from_blobs(to_blobs(sums, compact=True), compact=True)
    np.testing.assert_allclose(decoded, sums, atol=np.abs(sums[:, :-1]).max() / 200)  # half an int8 step
    assert decoded[0, -1] == 12.0  # counts in the sums survive exactly
    zero = from_blobs([to_blob(np.zeros(8, np.float32), compact=True)], compact=True)
    assert zero.shape == (1, 8) and not zero.any()
    mixed = from_blobs([to_blob(unit[0], compact=True), to_blob(unit[1] * 3, compact=True)], compact=True)
    np.testing.assert_allclose(mixed[1], unit[1] * 3, atol=np.abs(unit[1] * 3).max() / 200)
    assert from_blobs([to_blob(unit[0])]).tobytes() == unit[0].tobytes()  # float32 stays exact


def test_search_results_barely_change_with_compact_vectors(tmp_path: Path) -> None:
    vectors = _clustered(2000)
    queries = _clustered(30, seed=1)
    store = SqliteStore(tmp_path / "index.sqlite")
    assert store.compact_vectors
    ids = [f"c{i:05d}" for i in range(len(vectors))]
    store.put_vectors("chunk", ids, vectors)
    overlap, worst = [], 0.0
    for q in queries:
        exact = [(ids[i], s) for i, s in top_k(vectors, q, 10)]
        got = store.search_vectors("chunk", q, 10)
        overlap.append(len({i for i, _ in exact} & {i for i, _ in got}) / 10)
        scores = vectors @ q
        worst = max(worst, max(abs(float(scores[int(i[1:])]) - s) for i, s in got))
        assert got[0][0] == exact[0][0] or abs(got[0][1] - exact[0][1]) < 3e-3
    assert np.mean(overlap) >= 0.95
    assert worst < 3e-3
    size = sum(len(b) for (b,) in store.execute("SELECT vec FROM vectors").fetchall())
    assert size < 0.27 * vectors.nbytes  # int8 + scale: ~1/4 of float32


def test_stores_created_before_keep_float32(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    store = SqliteStore(path)
    store.execute("DELETE FROM meta WHERE key = ?", (VECTOR_FORMAT_KEY,))
    store.close()
    old = SqliteStore(path)  # an index from before compact vectors: same format as it always had
    assert not old.compact_vectors
    vec = _clustered(3)
    old.put_vectors("chunk", ["a", "b", "c"], vec)
    assert old.get_vectors("chunk", ["b"]).tobytes() == vec[1:2].tobytes()
