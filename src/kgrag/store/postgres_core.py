"""Server store, part 1: pool, transactions, COPY upserts, meta, documents, chunks, full text, progress, usage."""

from __future__ import annotations

import atexit
import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import sql
from psycopg_pool import ConnectionPool

from kgrag.store.generations import GenerationCounters
from kgrag.store.postgres_schema import SCHEMA_VERSION, TABLE_NAMES, TABLES, PgTarget
from kgrag.store.sqlite_core import FTS_STOPWORDS
from kgrag.store.vectors import VectorMatrix
from kgrag.types import Chunk, Document

BATCH = 5000  # ids per `= ANY(%s)` statement
_CHUNK_COLS = ("chunk_id", "doc_id", "ord", "text", "section", "page_start", "page_end", "product", "category",
               "tokens", "meta")  # fmt: skip
_CHUNK_SELECT = ", ".join(_CHUNK_COLS)


def batches(ids: Iterable[str], size: int = BATCH) -> Iterator[list[str]]:
    """Distinct ids in slices of `size` (order kept)."""
    unique = list(dict.fromkeys(ids))
    for start in range(0, len(unique), size):
        yield unique[start : start + size]


def _row_to_chunk(r: Sequence[Any]) -> Chunk:
    return Chunk(
        chunk_id=r[0], doc_id=r[1], ord=r[2], text=r[3], section=r[4], page_start=r[5], page_end=r[6],
        product=r[7], category=r[8], tokens=r[9], meta=json.loads(r[10] or "{}"),
    )  # fmt: skip


def _tsquery_term(lexeme: str) -> str:
    """One lexeme as a quoted tsquery operand (exact, not re-parsed)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


class PgCore(GenerationCounters):
    """Connection handling and the document/chunk/full-text/progress half of `PostgresStore`."""

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

    # -- meta -------------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self._all("SELECT value FROM meta WHERE key = %s", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._run(
            "INSERT INTO meta(key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (key, value),
        )

    # -- documents --------------------------------------------------------------------------------
    def upsert_document(self, doc: Document) -> None:
        self._run(
            "INSERT INTO documents(doc_id, path, title, content_hash, product, category, version, meta, added_at) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (doc_id) DO UPDATE SET path=EXCLUDED.path, "
            "title=EXCLUDED.title, content_hash=EXCLUDED.content_hash, product=EXCLUDED.product, "
            "category=EXCLUDED.category, version=EXCLUDED.version, meta=EXCLUDED.meta, added_at=EXCLUDED.added_at",
            (doc.doc_id, doc.path, doc.title, doc.content_hash, doc.product, doc.category, doc.version,
             json.dumps(doc.meta, sort_keys=True), time.time()),
        )  # fmt: skip

    def _docs(self, where: str = "", params: Sequence[Any] = ()) -> list[Document]:
        rows = self._all(
            f"SELECT doc_id, path, title, content_hash, product, category, version, meta FROM documents {where} "
            "ORDER BY path",
            params,
        )
        return [Document(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7])) for r in rows]

    def get_document(self, doc_id: str) -> Document | None:
        docs = self._docs("WHERE doc_id = %s", (doc_id,))
        return docs[0] if docs else None

    def get_document_by_path(self, path: str) -> Document | None:
        docs = self._docs("WHERE path = %s", (path,))
        return docs[0] if docs else None

    def list_documents(self) -> list[Document]:
        return self._docs()

    def delete_document(self, doc_id: str) -> list[str]:
        """Delete a document, its chunks (with text and vector entries) and its mentions/support rows."""
        with self.transaction():
            ids = [r[0] for r in self._all("SELECT chunk_id FROM chunks WHERE doc_id = %s ORDER BY seq", (doc_id,))]
            self.delete_chunks(ids)
            self._run("DELETE FROM documents WHERE doc_id = %s", (doc_id,))
        return ids

    # -- chunks -----------------------------------------------------------------------------------
    def add_chunks(self, chunks: Sequence[Chunk]) -> None:
        self._upsert(
            "chunks",
            _CHUNK_COLS,
            ((c.chunk_id, c.doc_id, c.ord, c.text, c.section, c.page_start, c.page_end, c.product, c.category,
              c.tokens, json.dumps(c.meta, sort_keys=True)) for c in chunks),
            key=("chunk_id",),
        )  # fmt: skip

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None:
        """Remove chunks and every row keyed by them (vectors, mentions, support, sub-chunks, edges)."""
        if not chunk_ids:
            return
        with self.transaction():
            for part in batches(chunk_ids):
                subs = [r[0] for r in self._all("SELECT subchunk_id FROM subchunks WHERE chunk_id = ANY(%s)", (part,))]
                for table in ("chunks", "mentions", "relation_support", "subchunks"):
                    self._run(sql.SQL("DELETE FROM {} WHERE chunk_id = ANY(%s)").format(sql.Identifier(table)), (part,))
                for ids in (part, *batches(subs)):
                    self._run("DELETE FROM edges WHERE src = ANY(%s) OR dst = ANY(%s)", (ids, ids))
                    self._run("DELETE FROM vectors WHERE item_id = ANY(%s)", (ids,))
                self._run("DELETE FROM progress WHERE item_key = ANY(%s)", (part,))
            for kind in ("vectors:chunk", "vectors:subchunk", "edges", "graph"):
                self.bump_generation(kind)

    def get_chunks(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Chunks in the order of `chunk_ids` (missing ids skipped)."""
        found: dict[str, Chunk] = {}
        for part in batches(chunk_ids):
            for row in self._all(f"SELECT {_CHUNK_SELECT} FROM chunks WHERE chunk_id = ANY(%s)", (part,)):
                found[row[0]] = _row_to_chunk(row)
        return [found[i] for i in dict.fromkeys(chunk_ids) if i in found]

    def iter_chunks(self, batch: int = 2000) -> Iterator[Chunk]:
        """All chunks in insertion order, streamed by keyset pages."""
        last = -1
        while True:
            rows = self._all(
                f"SELECT seq, {_CHUNK_SELECT} FROM chunks WHERE seq > %s ORDER BY seq LIMIT %s", (last, batch)
            )
            if not rows:
                return
            for row in rows:
                yield _row_to_chunk(row[1:])
            last = rows[-1][0]

    def chunks_of_document(self, doc_id: str) -> list[Chunk]:
        rows = self._all(f"SELECT {_CHUNK_SELECT} FROM chunks WHERE doc_id = %s ORDER BY ord", (doc_id,))
        return [_row_to_chunk(r) for r in rows]

    def chunk_ids(self) -> list[str]:
        return [r[0] for r in self._all("SELECT chunk_id FROM chunks ORDER BY seq")]

    def count(self, table: str) -> int:
        """Row count of one of the store's tables."""
        if table not in TABLE_NAMES:
            raise ValueError(table)
        return int(self._all(sql.SQL("SELECT COUNT(*) FROM {}").format(sql.Identifier(table)))[0][0])

    # -- full text --------------------------------------------------------------------------------
    def search_text(self, query: str, k: int) -> list[tuple[str, float]]:
        """BM25-like ranking over chunk text and section (idf x saturating tf, length-normalised); higher is better.

        Query words are tokenised by the server's own `simple` parser (so `BMI270`, `3.3` match exactly as
        indexed), stopwords dropped as in the embedded store; each term's matches come from the GIN index and
        their count is its document frequency, so the work is proportional to the matched postings, as in BM25.
        """
        if k <= 0 or not query.strip():
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
            GROUP BY m.chunk_id, m.seq ORDER BY score DESC, m.seq LIMIT %(k)s
            """,
            {"terms": terms, "k": k},
        )
        return [(r[0], float(r[1])) for r in rows]

    # -- progress and failures --------------------------------------------------------------------
    def mark_done(self, stage: str, keys: Iterable[str], info: str = "") -> None:
        now = time.time()
        cols = ("stage", "item_key", "status", "info", "updated_at")
        self._upsert("progress", cols, ((stage, k, "done", info, now) for k in keys), key=cols[:2])

    def mark_failed(self, stage: str, key: str, reason: str) -> None:
        self._run(
            "INSERT INTO progress(stage, item_key, status, info, updated_at) VALUES (%s,%s,'failed',%s,%s) "
            "ON CONFLICT (stage, item_key) DO UPDATE SET status = EXCLUDED.status, info = EXCLUDED.info, "
            "updated_at = EXCLUDED.updated_at",
            (stage, key, reason, time.time()),
        )

    def done_keys(self, stage: str) -> set[str]:
        return {r[0] for r in self._all("SELECT item_key FROM progress WHERE stage = %s AND status = 'done'", (stage,))}

    def failures(self, stage: str | None = None) -> list[dict[str, Any]]:
        where = " AND stage = %s" if stage else ""
        rows = self._all(
            f"SELECT stage, item_key, info, updated_at FROM progress WHERE status = 'failed'{where} "
            "ORDER BY stage, item_key",
            (stage,) if stage else (),
        )
        return [{"stage": r[0], "item": r[1], "reason": r[2], "at": r[3]} for r in rows]

    def clear_progress(self, stage: str, keys: Sequence[str] | None = None) -> None:
        if keys is None:
            self._run("DELETE FROM progress WHERE stage = %s", (stage,))
            return
        with self.transaction():
            for part in batches(keys):
                self._run("DELETE FROM progress WHERE stage = %s AND item_key = ANY(%s)", (stage, part))

    # -- LLM usage accounting ---------------------------------------------------------------------
    def add_usage(
        self, stage: str, model: str, calls: int, prompt_tokens: int, completion_tokens: int, seconds: float, usd: float
    ) -> None:
        self._run(
            "INSERT INTO llm_usage AS u (stage, model, calls, prompt_tokens, completion_tokens, seconds, usd) "
            "VALUES (%s,%s,%s,%s,%s,%s,%s) ON CONFLICT (stage, model) DO UPDATE SET calls = u.calls + EXCLUDED.calls, "
            "prompt_tokens = u.prompt_tokens + EXCLUDED.prompt_tokens, "
            "completion_tokens = u.completion_tokens + EXCLUDED.completion_tokens, "
            "seconds = u.seconds + EXCLUDED.seconds, usd = u.usd + EXCLUDED.usd",
            (stage, model, calls, prompt_tokens, completion_tokens, seconds, usd),
        )

    def usage(self) -> list[dict[str, Any]]:
        rows = self._all(
            "SELECT stage, model, calls, prompt_tokens, completion_tokens, seconds, usd FROM llm_usage ORDER BY stage, model"
        )
        keys = ("stage", "model", "calls", "prompt_tokens", "completion_tokens", "seconds", "usd")
        return [dict(zip(keys, r, strict=True)) for r in rows]
