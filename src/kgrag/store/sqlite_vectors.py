"""Embedded store, part 3: vectors as compact blobs in one table, searched exactly in memory."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kgrag.store.vector_cache import CachedVectorMatrices
from kgrag.store.vectors import from_blobs, to_blobs


class SqliteVectors(CachedVectorMatrices):
    """`put/delete/get/search_vectors`; relies on the core's `execute`/`executemany` and generation counters."""

    def put_vectors(self, kind: str, ids: Sequence[str], matrix: np.ndarray) -> None:
        if len(ids) != len(matrix):
            raise ValueError("ids and matrix rows differ")
        self.executemany(
            "INSERT OR REPLACE INTO vectors(kind, item_id, vec) VALUES (?,?,?)",
            list(zip((kind for _ in ids), ids, to_blobs(matrix, self.compact_vectors), strict=True)),
        )
        self.bump_generation(f"vectors:{kind}")

    def delete_vectors(self, kind: str, ids: Sequence[str] | None = None) -> None:
        if ids is None:
            self.execute("DELETE FROM vectors WHERE kind = ?", (kind,))
        else:
            self.executemany("DELETE FROM vectors WHERE kind = ? AND item_id = ?", [(kind, i) for i in ids])
        self.bump_generation(f"vectors:{kind}")

    def get_vectors(self, kind: str, ids: Sequence[str]) -> np.ndarray:
        """Rows for `ids` in order; zero rows where an id has no vector."""
        matrix = self.vector_matrix(kind)
        out = np.zeros((len(ids), matrix.matrix.shape[1] if matrix.ids else 0), dtype=np.float32)
        for row, item_id in enumerate(ids):
            pos = matrix.position.get(item_id)
            if pos is not None:
                out[row] = matrix.matrix[pos]
        return out

    def _load_vector_kind(self, kind: str) -> tuple[list[str], np.ndarray]:
        rows = self.execute("SELECT item_id, vec FROM vectors WHERE kind = ? ORDER BY item_id", (kind,)).fetchall()
        return [r[0] for r in rows], from_blobs([r[1] for r in rows], compact=self.compact_vectors)

    def search_vectors(
        self, kind: str, query: np.ndarray, k: int, allowed_ids: set[str] | None = None
    ) -> list[tuple[str, float]]:
        return self.vector_matrix(kind).search(query, k, allowed_ids)

