"""Exact top-k vector search over an in-memory float32 matrix (fast to ~1M x 384 on one core)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def to_blob(vec: np.ndarray) -> bytes:
    """float32 bytes of one vector."""
    return np.asarray(vec, dtype=np.float32).tobytes()


def from_blobs(blobs: Sequence[bytes], dim: int | None = None) -> np.ndarray:
    """Stack float32 blobs into a (n, dim) matrix."""
    if not blobs:
        return np.zeros((0, dim or 0), dtype=np.float32)
    return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), -1).copy()


def top_k(matrix: np.ndarray, query: np.ndarray, k: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
    """Row indices and cosine scores of the k rows most similar to `query` (rows assumed unit length).

    `allowed` is an optional boolean mask restricting the candidates (e.g. a version filter).
    """
    if matrix.shape[0] == 0 or k <= 0:
        return []
    scores = matrix @ np.asarray(query, dtype=np.float32).reshape(-1)
    if allowed is not None:
        scores = np.where(allowed, scores, -np.inf)
    k = min(k, scores.shape[0])
    idx = np.argpartition(-scores, k - 1)[:k]
    idx = idx[np.argsort(-scores[idx], kind="stable")]
    return [(int(i), float(scores[i])) for i in idx if np.isfinite(scores[i])]


class VectorMatrix:
    """Ids plus a row-aligned matrix, rebuilt from the store when its generation changes."""

    def __init__(self, ids: list[str], matrix: np.ndarray, generation: str) -> None:
        self.ids = ids
        self.matrix = matrix
        self.generation = generation
        self.position = {item_id: i for i, item_id in enumerate(ids)}

    def search(self, query: np.ndarray, k: int, allowed_ids: set[str] | None = None) -> list[tuple[str, float]]:
        mask = None
        if allowed_ids is not None:
            mask = np.zeros(len(self.ids), dtype=bool)
            for item_id in allowed_ids:
                pos = self.position.get(item_id)
                if pos is not None:
                    mask[pos] = True
        return [(self.ids[i], s) for i, s in top_k(self.matrix, query, k, mask)]
