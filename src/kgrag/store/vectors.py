"""Vector blobs (float32, or compact: int8 with a per-vector scale / float16) and exact top-k search over an
in-memory float32 matrix (fast to ~1M x 384 on one core).

Compact blobs start with one format byte: INT8 (unit-length or zero rows: embeddings; a float32 scale, then
one int8 per dimension, 4 + d bytes), INT8_TAIL (any other row, e.g. keyword running sums | count: int8 with
a scale for all but the last value, which is kept exactly as float32; 8 + d bytes), FLOAT16 (written by
earlier versions; still read) or FLOAT32 when a value is not finite. Cosine scores change by ~1e-3; the
ranking barely moves.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

INT8, FLOAT16, FLOAT32, INT8_TAIL = 1, 2, 3, 4
VECTOR_FORMAT_KEY = "vector_format"  # store meta: COMPACT_FORMAT for stores created with compact vectors
COMPACT_FORMAT = "compact1"
UNIT_TOLERANCE = 2e-2  # int8 rounding moves a unit vector's norm by well under this


def to_blob(vec: np.ndarray, compact: bool = False) -> bytes:
    """The bytes of one vector: plain float32, or the compact form (see the module doc)."""
    vec = np.asarray(vec, dtype=np.float32).reshape(-1)
    if not compact:
        return vec.tobytes()
    peak = float(np.max(np.abs(vec))) if vec.size else 0.0
    norm = float(np.linalg.norm(vec))
    if norm == 0.0 or abs(norm - 1.0) <= UNIT_TOLERANCE:
        scale = np.float32(peak / 127.0)
        q = np.rint(vec / scale).astype(np.int8) if scale > 0 else np.zeros(vec.shape, np.int8)
        return bytes([INT8]) + scale.tobytes() + q.tobytes()
    if np.all(np.isfinite(vec)) and vec.size > 1:
        head_peak = float(np.max(np.abs(vec[:-1])))
        scale = np.float32(head_peak / 127.0)
        q = np.rint(vec[:-1] / scale).astype(np.int8) if scale > 0 else np.zeros(vec.size - 1, np.int8)
        return bytes([INT8_TAIL]) + scale.tobytes() + q.tobytes() + vec[-1:].tobytes()
    return bytes([FLOAT32]) + vec.tobytes()


def to_blobs(matrix: np.ndarray, compact: bool = False) -> list[bytes]:
    """`to_blob` of every row, vectorised for the common case (all rows unit length or zero)."""
    matrix = np.asarray(matrix, dtype=np.float32)
    if matrix.ndim != 2 or not compact or not len(matrix):
        return [to_blob(v, compact) for v in matrix]
    norms = np.linalg.norm(matrix, axis=1)
    if not np.all((norms == 0) | (np.abs(norms - 1.0) <= UNIT_TOLERANCE)):
        return [to_blob(v, compact) for v in matrix]
    scale = (np.max(np.abs(matrix), axis=1) / 127.0).astype(np.float32)
    safe = np.where(scale > 0, scale, 1.0).reshape(-1, 1)
    out = np.empty((len(matrix), 5 + matrix.shape[1]), dtype=np.uint8)
    out[:, 0] = INT8
    out[:, 1:5] = scale.reshape(-1, 1).view(np.uint8)
    out[:, 5:] = np.rint(matrix / safe).astype(np.int8).view(np.uint8)
    return [row.tobytes() for row in out]


def _decode_group(blobs: Sequence[bytes]) -> np.ndarray:
    """Rows of compact blobs that share format byte and length, decoded together."""
    raw = np.frombuffer(b"".join(blobs), dtype=np.uint8).reshape(len(blobs), -1)
    kind = int(raw[0, 0])
    if kind == INT8:
        scale = np.ascontiguousarray(raw[:, 1:5]).view(np.float32)
        return np.ascontiguousarray(raw[:, 5:]).view(np.int8).astype(np.float32) * scale
    if kind == INT8_TAIL:
        scale = np.ascontiguousarray(raw[:, 1:5]).view(np.float32)
        head = np.ascontiguousarray(raw[:, 5:-4]).view(np.int8).astype(np.float32) * scale
        return np.hstack([head, np.ascontiguousarray(raw[:, -4:]).view(np.float32)])
    dtype = np.float16 if kind == FLOAT16 else np.float32
    return np.ascontiguousarray(raw[:, 1:]).view(dtype).astype(np.float32)


def from_blobs(blobs: Sequence[bytes], dim: int | None = None, compact: bool = False) -> np.ndarray:
    """Stack blobs (all float32, or all compact) into a float32 (n, dim) matrix."""
    if not blobs:
        return np.zeros((0, dim or 0), dtype=np.float32)
    if not compact:
        return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), -1).copy()
    groups: dict[tuple[int, int], list[int]] = {}
    for i, blob in enumerate(blobs):
        groups.setdefault((blob[0], len(blob)), []).append(i)
    if len(groups) == 1:
        return _decode_group(blobs)
    parts = {key: _decode_group([blobs[i] for i in rows]) for key, rows in groups.items()}
    width = max(p.shape[1] for p in parts.values())
    out = np.zeros((len(blobs), width), dtype=np.float32)
    for key, rows in groups.items():
        out[rows, : parts[key].shape[1]] = parts[key]
    return out


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
