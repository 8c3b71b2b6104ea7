"""Server store, part 2: vectors in pgvector, with a partial HNSW index (inner product) per large vector kind.

Vectors are stored as `halfvec` (float16, half the space of `vector`); a schema created before keeps its
`vector` column and is read and written as such.

Scores are inner products, as in the embedded store (rows are unit length, so = cosine). A kind is searched
exactly (same results as the embedded store) until it holds `hnsw_min` vectors (URL option, default 50,000);
then its HNSW index is built once in bulk and later inserts update it. Searches with an `allowed_ids` filter of
up to EXACT_FILTER_MAX ids, or k above EXACT_K_MAX, stay exact; the others walk the HNSW graph (approximate).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np
from pgvector import HalfVector
from psycopg import sql

from kgrag.store.postgres_core import BATCH
from kgrag.store.sql_base import batches
from kgrag.store.vector_cache import CachedVectorMatrices

EXACT_FILTER_MAX = 20_000
EXACT_K_MAX = 500


def _hnsw_name(kind: str) -> sql.Identifier:
    tag = "".join(ch for ch in kind.lower() if ch.isalnum())[:20]
    return sql.Identifier(f"vectors_hnsw_{tag}_{hashlib.sha1(kind.encode()).hexdigest()[:6]}")


class PgVectors(CachedVectorMatrices):
    """pgvector storage and search; relies on the core's `_all`/`_run`/`_upsert`/`transaction`."""

    @cached_property
    def vec_type(self) -> str:
        """The SQL type of the `vec` column: 'halfvec' (this version's schema) or 'vector' (older schemas)."""
        rows = self._all("SELECT format_type(atttypid, NULL) FROM pg_attribute "
                         "WHERE attrelid = 'vectors'::regclass AND attname = 'vec'")
        return "halfvec" if rows and "halfvec" in rows[0][0] else "vector"

    def _param(self, vec: np.ndarray) -> Any:
        """A query or row vector in the column's type."""
        return HalfVector(vec) if self.vec_type == "halfvec" else vec

    def _vec_dim(self, kind: str) -> int | None:
        rows = self._all("SELECT vector_dims(vec) FROM vectors WHERE kind = %s LIMIT 1", (kind,))
        return int(rows[0][0]) if rows else None

    def _index_dim(self, kind: str) -> int | None:
        value = self.get_meta(f"hnsw:{kind}")
        return int(value) if value else None

    def drop_vector_index(self, kind: str) -> None:
        """Drop the HNSW index of `kind` (searches become exact scans)."""
        with self.transaction():
            self._run(sql.SQL("DROP INDEX IF EXISTS {}").format(_hnsw_name(kind)))
            self._run("DELETE FROM meta WHERE key = %s", (f"hnsw:{kind}",))

    def build_vector_index(self, kind: str) -> bool:
        """Build the HNSW index of `kind` over its current vectors (bulk; much faster than row-by-row inserts)."""
        dim = self._vec_dim(kind)
        if dim is None:
            return False
        with self.transaction():
            self._all("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"{self.schema}:hnsw:{kind}",))
            if self._index_dim(kind) == dim:
                return False
            self.drop_vector_index(kind)
            self._run(
                sql.SQL(
                    "CREATE INDEX {} ON vectors USING hnsw ((vec::public.{}({})) public.{}) WHERE kind = {}"
                ).format(_hnsw_name(kind), sql.Identifier(self.vec_type), sql.Literal(dim),
                         sql.Identifier(f"{self.vec_type}_ip_ops"), sql.Literal(kind))
            )
            self.set_meta(f"hnsw:{kind}", str(dim))
        return True

    def put_vectors(self, kind: str, ids: Sequence[str], matrix: np.ndarray) -> None:
        if len(ids) != len(matrix):
            raise ValueError("ids and matrix rows differ")
        if not len(ids):
            return
        matrix = np.asarray(matrix, dtype=np.float32)
        with self.transaction():
            indexed = self._index_dim(kind)
            if indexed is not None and indexed != matrix.shape[1]:
                self.drop_vector_index(kind)  # a new embedder: the old index cannot hold these rows
                indexed = None
            rows = ((kind, i, self._param(v)) for i, v in zip(ids, matrix, strict=True))
            self._upsert("vectors", ("kind", "item_id", "vec"), rows, key=("kind", "item_id"),
                         types=("text", "text", self.vec_type))  # fmt: skip
            self.bump_generation(f"vectors:{kind}")
        minimum = self.target.hnsw_min
        if indexed is None and minimum >= 0 and self._count_kind(kind, minimum) >= minimum:
            self.build_vector_index(kind)

    def _count_kind(self, kind: str, cap: int) -> int:
        rows = self._all("SELECT count(*) FROM (SELECT 1 FROM vectors WHERE kind = %s LIMIT %s) x", (kind, cap))
        return int(rows[0][0])

    def delete_vectors(self, kind: str, ids: Sequence[str] | None = None) -> None:
        with self.transaction():
            if ids is None:
                self._run("DELETE FROM vectors WHERE kind = %s", (kind,))
            else:
                for part in batches(ids, BATCH):
                    self._run("DELETE FROM vectors WHERE kind = %s AND item_id = ANY(%s)", (kind, part))
            self.bump_generation(f"vectors:{kind}")

    def _vec_rows(self, kind: str, ids: list[str] | None) -> list[tuple[str, np.ndarray]]:
        query = "SELECT item_id, vec FROM vectors WHERE kind = %s" + (
            " AND item_id = ANY(%s)" if ids is not None else ""
        )
        with self._cursor(binary=True) as cur:
            cur.execute(query + " ORDER BY item_id", (kind, ids) if ids is not None else (kind,))
            return [(r[0], np.asarray(r[1].to_numpy(), dtype=np.float32)) for r in cur]

    def get_vectors(self, kind: str, ids: Sequence[str]) -> np.ndarray:
        """Rows for `ids` in order; zero rows where an id has no vector."""
        found: dict[str, np.ndarray] = {}
        for part in batches(ids, BATCH):
            found.update(self._vec_rows(kind, part))
        dim = next(iter(found.values())).shape[0] if found else (self._vec_dim(kind) or 0)
        out = np.zeros((len(ids), dim), dtype=np.float32)
        for row, item_id in enumerate(ids):
            vec = found.get(item_id)
            if vec is not None:
                out[row] = vec
        return out

    def _load_vector_kind(self, kind: str) -> tuple[list[str], np.ndarray]:
        rows = self._vec_rows(kind, None)
        matrix = np.stack([r[1] for r in rows]).astype(np.float32) if rows else np.zeros((0, 0), np.float32)
        return [r[0] for r in rows], matrix

    def search_vectors(
        self, kind: str, query: np.ndarray, k: int, allowed_ids: set[str] | None = None
    ) -> list[tuple[str, float]]:
        if k <= 0 or (allowed_ids is not None and not allowed_ids):
            return []
        vec = np.asarray(query, dtype=np.float32).reshape(-1)
        dim = self._index_dim(kind)
        if dim is None or (allowed_ids is not None and len(allowed_ids) <= EXACT_FILTER_MAX) or k > EXACT_K_MAX:
            return self._exact_search(kind, vec, k, allowed_ids)
        vtype = sql.Identifier(self.vec_type)
        typed = sql.SQL("(vec::public.{}({}))").format(vtype, sql.Literal(dim))
        where = sql.SQL("kind = {}").format(sql.Literal(kind))  # literal so the partial index matches
        params: list[object] = [self._param(vec)]
        if allowed_ids is not None:
            where += sql.SQL(" AND item_id = ANY(%s)")
            params.append(list(allowed_ids))
        query_sql = sql.SQL(
            "SELECT item_id, -({t} <#> %s::public.{v}({d})) FROM vectors WHERE {w} "
            "ORDER BY {t} <#> %s::public.{v}({d}) LIMIT %s"
        ).format(t=typed, v=vtype, d=sql.Literal(dim), w=where)
        with self.transaction():
            self._all(
                "SELECT set_config('hnsw.ef_search', %s, true), set_config('hnsw.iterative_scan', 'strict_order', true)",
                (str(min(1000, max(100, 2 * k))),),
            )
            rows = self._all(query_sql, [params[0], *params[1:], params[0], k])
        return [(r[0], float(r[1])) for r in rows]

    def _exact_search(
        self, kind: str, vec: np.ndarray, k: int, allowed_ids: set[str] | None
    ) -> list[tuple[str, float]]:
        """Exact top-k over the (filtered) rows of one kind, bypassing the HNSW index."""
        ids_filter = " AND item_id = ANY(%(ids)s)" if allowed_ids is not None else ""
        rows = self._all(  # `vec <#> q` is not the indexed expression `vec::vector(dim)`: a plain scan
            "SELECT item_id, -(vec <#> %(q)s) AS s FROM vectors WHERE kind = %(kind)s" + ids_filter
            + " ORDER BY s DESC, item_id LIMIT %(k)s",
            {"kind": kind, "ids": sorted(allowed_ids or ()), "q": self._param(vec), "k": k},
        )  # fmt: skip
        return [(r[0], float(r[1])) for r in rows]
