"""The per-process cache of vector matrices, written once for both backends.

Each vector kind's rows are loaded into one in-memory matrix on first use and reloaded only when the
kind's generation counter changed (another process wrote to it); a finished indexing stage drops the
cache to free its memory. A backend supplies `_load_vector_kind`.
"""

from __future__ import annotations

import threading

import numpy as np

from kgrag.store.vectors import VectorMatrix


class CachedVectorMatrices:
    """`vector_matrix(kind)` and `drop_vector_cache()` over a backend's `_load_vector_kind(kind)`."""

    _vector_cache: dict[str, VectorMatrix]
    _cache_lock: threading.Lock

    def _load_vector_kind(self, kind: str) -> tuple[list[str], np.ndarray]:
        """Every (id, row) of one kind, ordered by id, as (ids, float32 matrix)."""
        raise NotImplementedError

    def drop_vector_cache(self) -> None:
        """Forget the in-memory matrices (reloaded on next use): a finished indexing stage frees its memory."""
        with self._cache_lock:
            self._vector_cache.clear()

    def vector_matrix(self, kind: str) -> VectorMatrix:
        """The cached in-memory matrix of one vector kind, reloaded when its generation changed."""
        gen = self.generation(f"vectors:{kind}")  # type: ignore[attr-defined]  (GenerationCounters)
        with self._cache_lock:
            cached = self._vector_cache.get(kind)
            if cached is not None and cached.generation == gen:
                return cached
            ids, matrix = self._load_vector_kind(kind)
            self._vector_cache[kind] = VectorMatrix(ids, matrix, gen)
            return self._vector_cache[kind]
