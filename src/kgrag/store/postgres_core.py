"""Server store, part 1: pool, transactions, COPY upserts, PostgreSQL's side of the `SqlBase` hooks, full text."""

from __future__ import annotations

import atexit
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg_pool import ConnectionPool

from kgrag.store.postgres_schema import SCHEMA_VERSION, TABLES, PgTarget
from kgrag.store.sql_base import SqlBase
from kgrag.store.sqlite_core import FTS_STOPWORDS
from kgrag.store.vectors import VectorMatrix

BATCH = 5000  # ids per `= ANY(%s)` statement


def _tsquery_term(lexeme: str) -> str:
    """One lexeme as a quoted tsquery operand (exact, not re-parsed)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


class PgCore(SqlBase):
    """Connection handling, PostgreSQL's side of the `SqlBase` hooks and full-text search for `PostgresStore`."""

    ID_BATCH = BATCH
    SEQ = "seq"

    def __init__(self, target: PgTarget) -> None:
        self.target = target
        self.schema = target.schema
        self._local = threading.local()
        self._vector_cache: dict[str, VectorMatrix] = {}
        self._cache_lock = threading.Lock()
        self._create_schema()
        self.pool = ConnectionPool(
            target.conninfo,
            min_size=1,
            max_size=max(1, target.pool_max),
            # no server-side prepared statements: generic plans would miss the partial HNSW indexes
            kwargs={"autocommit": True, "prepare_threshold": None, "options": f"-c search_path={self.schema},public"},
            configure=register_vector,
            open=True,
            name=f"kgrag-{self.schema}",
        )
        # close the pool at interpreter exit (CLI commands do not close their Index): closing from a pool
        # worker during garbage collection would print "cannot join current thread"
        atexit.register(self.pool.close)

    def _create_schema(self) -> None:
        """Extension, schema and tables, serialised by an advisory lock so concurrent openers don't race."""
        with psycopg.connect(self.target.conninfo, autocommit=True) as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('kgrag-schema'))")
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(self.schema)))
            conn.execute(sql.SQL("SET LOCAL search_path = {}, public").format(sql.Identifier(self.schema)))
            conn.execute(TABLES)
            conn.execute(
                "INSERT INTO meta(key, value) VALUES ('schema_version', %s) ON CONFLICT (key) DO NOTHING",
                (str(SCHEMA_VERSION),),
            )

    # -- connection and transactions -------------------------------------------------------------
    @contextmanager
    def _cursor(self, binary: bool = False) -> Iterator[psycopg.Cursor[Any]]:
        """A cursor on this thread's transaction connection, else on a pooled autocommit connection."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            with conn.cursor(binary=binary) as cur:
                yield cur
            return
        with self.pool.connection() as conn, conn.cursor(binary=binary) as cur:
            yield cur

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic write; nested calls join the outer transaction (one connection per thread)."""
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        with self.pool.connection() as conn:
            self._local.conn = conn
            try:
                with conn.transaction():
                    yield
            finally:
                self._local.conn = None

    def _all(self, query: Any, params: Sequence[Any] | dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        with self._cursor() as cur:
            cur.execute(query, params)
            return cur.fetchall() if cur.description else []

    def _run(self, query: Any, params: Sequence[Any] | dict[str, Any] | None = None) -> int:
        with self._cursor() as cur:
            cur.execute(query, params)
            return cur.rowcount

    def _upsert(
        self, table: str, cols: Sequence[str], rows: Iterable[Sequence[Any]], key: Sequence[str],
        update: Sequence[str] | None = None, pre: str = "", types: Sequence[str] | None = None,
    ) -> int:  # fmt: skip
        """Batched write: COPY rows into a temp staging table, then one INSERT ... ON CONFLICT.

        `update` columns are overwritten on conflict (None: all non-key columns, []: keep the old row);
        rows repeating a key keep the last one, like SQLite's INSERT OR REPLACE. `pre` runs between the
        COPY and the INSERT (e.g. to clear rows conflicting on another unique column). With `types` (SQL type
        names of `cols`) the COPY is binary, e.g. for vectors (no float-to-text formatting).
        """
        keypos = [list(cols).index(k) for k in key]
        unique = {tuple(r[i] for i in keypos): r for r in rows}
        if not unique:
            return 0
        stage = sql.Identifier(f"_stage_{table}")
        col_ids = sql.SQL(", ").join(map(sql.Identifier, cols))
        update = [c for c in cols if c not in key] if update is None else update
        action = (
            sql.SQL("DO UPDATE SET ")
            + sql.SQL(", ").join(sql.SQL("{0} = EXCLUDED.{0}").format(sql.Identifier(c)) for c in update)
            if update
            else sql.SQL("DO NOTHING")
        )
        with self.transaction(), self._cursor() as cur:
            cur.execute(
                sql.SQL(
                    "CREATE TEMP TABLE IF NOT EXISTS {} ON COMMIT DELETE ROWS AS SELECT {} FROM {} WITH NO DATA"
                ).format(stage, col_ids, sql.Identifier(table))
            )
            fmt = sql.SQL(" (FORMAT BINARY)" if types else "")
            with cur.copy(sql.SQL("COPY {} ({}) FROM STDIN{}").format(stage, col_ids, fmt)) as copy:
                if types:
                    copy.set_types(list(types))
                for row in unique.values():
                    copy.write_row(row)
            if pre:
                cur.execute(pre)
            cur.execute(
                sql.SQL("INSERT INTO {} ({}) SELECT {} FROM {} ON CONFLICT ({}) ").format(
                    sql.Identifier(table), col_ids, col_ids, stage, sql.SQL(", ").join(map(sql.Identifier, key))
                )
                + action
            )
            cur.execute(sql.SQL("TRUNCATE {}").format(stage))
        return len(unique)

    def query(self, text: str, params: Sequence[Any] | None = None) -> list[tuple[Any, ...]]:
        """Rows of one parameterized read (backend-internal, like SqliteStore.execute; not in the protocol)."""
        return self._all(text, params)

    def close(self) -> None:
        self.pool.close()

    # -- SqlBase hooks ------------------------------------------------------------------------------
    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self._all(query.replace("?", "%s"), params)

    def _exec(self, query: str, params: Sequence[Any] = ()) -> int:
        return self._run(query.replace("?", "%s"), params)

    def _in(self, column: str, ids: list[str]) -> tuple[str, list[Any]]:
        return f"{column} = ANY(?)", [list(ids)]

    def _put_rows(
        self, table: str, cols: Sequence[str], rows: Iterable[Sequence[Any]], key: Sequence[str], replace: bool = True
    ) -> None:
        self._upsert(table, cols, rows, key=key, update=None if replace else [])

    # -- full text --------------------------------------------------------------------------------
    def search_text(self, query: str, k: int, within: Sequence[str] | None = None) -> list[tuple[str, float]]:
        """BM25-like ranking over chunk text and section (idf x saturating tf, length-normalised); higher is better.

        Query words are tokenised by the server's own `simple` parser (so `BMI270`, `3.3` match exactly as
        indexed), stopwords dropped as in the embedded store; each term's matches come from the GIN index and
        their count is its document frequency, so the work is proportional to the matched postings, as in BM25.
        `within` limits the ranked chunks; document frequencies stay those of the whole index.
        """
        if k <= 0 or not query.strip() or within is not None and not within:
            return []
        lexemes = self._all("SELECT tsvector_to_array(to_tsvector('simple'::regconfig, %s))", (query,))[0][0]
        terms = [_tsquery_term(lx) for lx in lexemes if lx.strip(".-_") and lx.strip(".-_") not in FTS_STOPWORDS]
        if not terms:
            return []
        rows = self._all(
            """
            WITH n AS (
              SELECT greatest(CASE WHEN c.reltuples >= 50000 THEN c.reltuples::bigint
                                   ELSE (SELECT count(*) FROM chunks) END, 1) AS n
              FROM pg_class c WHERE c.oid = 'chunks'::regclass
            ), m AS MATERIALIZED (
              SELECT t.i, c.seq, c.chunk_id, ts_rank('{0, 0, 0.5, 1}', c.tsv, t.q, 1) AS r
              FROM unnest(%(terms)s::tsquery[]) WITH ORDINALITY AS t(q, i) JOIN chunks c ON c.tsv @@ t.q
            ), d AS (SELECT i, count(*) AS df FROM m GROUP BY i)
            SELECT m.chunk_id, sum(ln(1 + (n.n - d.df + 0.5) / (d.df + 0.5)) * m.r) AS score
            FROM m JOIN d USING (i) CROSS JOIN n
            WHERE %(within)s::text[] IS NULL OR m.chunk_id = ANY(%(within)s::text[])
            GROUP BY m.chunk_id, m.seq ORDER BY score DESC, m.seq LIMIT %(k)s
            """,
            {"terms": terms, "k": k, "within": None if within is None else list(within)},
        )
        return [(r[0], float(r[1])) for r in rows]
