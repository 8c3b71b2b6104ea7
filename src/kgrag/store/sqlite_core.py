"""Embedded store, part 1: connection, transactions, meta, documents, chunks, BM25, progress, usage."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kgrag.store.generations import GenerationCounters
from kgrag.store.schema import SCHEMA, SCHEMA_VERSION
from kgrag.store.vectors import COMPACT_FORMAT, VECTOR_FORMAT_KEY, VectorMatrix
from kgrag.types import Chunk, Document

_WORD = re.compile(r"[\w][\w.\-]*", re.UNICODE)
FTS_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "you",
        "your",
    ]
)
_CHUNK_COLS = "chunk_id, doc_id, ord, text, section, page_start, page_end, product, category, tokens, meta"


def fts_query(text: str) -> str:
    """An FTS5 OR-query of the content words of `text`, each quoted (safe against FTS syntax)."""
    terms: dict[str, None] = {}
    for raw in _WORD.findall(text.lower()):
        word = raw.strip(".-_")
        if word and word not in FTS_STOPWORDS:
            terms.setdefault(word.replace('"', ""), None)
    return " OR ".join(f'"{t}"' for t in terms)


def _row_to_chunk(row: sqlite3.Row | tuple) -> Chunk:
    return Chunk(
        chunk_id=row[0],
        doc_id=row[1],
        ord=row[2],
        text=row[3],
        section=row[4],
        page_start=row[5],
        page_end=row[6],
        product=row[7],
        category=row[8],
        tokens=row[9],
        meta=json.loads(row[10] or "{}"),
    )


class SqliteCore(GenerationCounters):
    """Connection handling and the document/chunk/vector/progress half of `SqliteStore`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._local = threading.local()
        self._vector_cache: dict[str, VectorMatrix] = {}
        self._cache_lock = threading.Lock()
        conn = self._conn()
        fresh = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
        conn.executescript(SCHEMA)
        if self.get_meta("schema_version") is None:
            self.set_meta("schema_version", str(SCHEMA_VERSION))
            if fresh:
                self.set_meta(VECTOR_FORMAT_KEY, COMPACT_FORMAT)
        self.compact_vectors = self.get_meta(VECTOR_FORMAT_KEY) == COMPACT_FORMAT  # older indexes: float32

    def reclaim_space(self) -> None:
        """Give freed pages back to the file system and truncate the WAL (after a stage rewrote tables)."""
        conn = self._conn()
        if conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2:
            conn.execute("PRAGMA incremental_vacuum")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def compact(self) -> None:
        """Rewrite the file without free pages or fragmentation (VACUUM): once, at the end of `kgrag index`."""
        conn = self._conn()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # -- connection and transactions -------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=60, isolation_level=None, check_same_thread=False)
            if conn.execute("PRAGMA page_count").fetchone()[0] == 0:  # a new file: freed pages can be returned
                conn.execute("PRAGMA auto_vacuum=INCREMENTAL")  # (reclaim_space)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=60000")
            conn.execute("PRAGMA foreign_keys=OFF")
            self._local.conn = conn
            self._local.depth = 0
        return conn

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One atomic write; nested calls join the outer transaction."""
        conn = self._conn()
        if self._local.depth:
            self._local.depth += 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        conn.execute("BEGIN IMMEDIATE")
        self._local.depth = 1
        try:
            yield
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        else:
            conn.execute("COMMIT")
        finally:
            self._local.depth = 0

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self._conn().execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn().executemany(sql, rows)

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # -- meta -------------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.execute(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # -- documents --------------------------------------------------------------------------------
    def upsert_document(self, doc: Document) -> None:
        self.execute(
            "INSERT INTO documents(doc_id, path, title, content_hash, product, category, version, meta, added_at) "
            "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(doc_id) DO UPDATE SET path=excluded.path, title=excluded.title, "
            "content_hash=excluded.content_hash, product=excluded.product, category=excluded.category, "
            "version=excluded.version, meta=excluded.meta, added_at=excluded.added_at",
            (
                doc.doc_id,
                doc.path,
                doc.title,
                doc.content_hash,
                doc.product,
                doc.category,
                doc.version,
                json.dumps(doc.meta, sort_keys=True),
                time.time(),
            ),
        )

    def _docs(self, where: str = "", params: Sequence[Any] = ()) -> list[Document]:
        rows = self.execute(
            f"SELECT doc_id, path, title, content_hash, product, category, version, meta FROM documents {where} "
            "ORDER BY path",
            params,
        ).fetchall()
        return [Document(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7])) for r in rows]

    def get_document(self, doc_id: str) -> Document | None:
        docs = self._docs("WHERE doc_id = ?", (doc_id,))
        return docs[0] if docs else None

    def get_document_by_path(self, path: str) -> Document | None:
        docs = self._docs("WHERE path = ?", (path,))
        return docs[0] if docs else None

    def list_documents(self) -> list[Document]:
        return self._docs()

    def delete_document(self, doc_id: str) -> list[str]:
        """Delete a document, its chunks (with FTS and vector entries) and its mentions/support rows.

        Returns the deleted chunk ids; graph items left without support are pruned by the graph layer.
        """
        ids = [r[0] for r in self.execute("SELECT chunk_id FROM chunks WHERE doc_id = ?", (doc_id,))]
        with self.transaction():
            self.delete_chunks(ids)
            self.execute("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
        return ids

    # -- chunks -----------------------------------------------------------------------------------
    def add_chunks(self, chunks: Sequence[Chunk]) -> None:
        self.executemany(
            f"INSERT OR REPLACE INTO chunks({_CHUNK_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    c.chunk_id,
                    c.doc_id,
                    c.ord,
                    c.text,
                    c.section,
                    c.page_start,
                    c.page_end,
                    c.product,
                    c.category,
                    c.tokens,
                    json.dumps(c.meta, sort_keys=True),
                )
                for c in chunks
            ],
        )

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None:
        """Remove chunks and every row keyed by them (vectors, mentions, support, sub-chunks, edges)."""
        if not chunk_ids:
            return
        with self.transaction():
            for start in range(0, len(chunk_ids), 500):
                part = list(chunk_ids[start : start + 500])
                marks = ",".join("?" * len(part))
                sub_ids = [
                    r[0] for r in self.execute(f"SELECT subchunk_id FROM subchunks WHERE chunk_id IN ({marks})", part)
                ]
                self.execute(f"DELETE FROM chunks WHERE chunk_id IN ({marks})", part)
                self.execute(f"DELETE FROM mentions WHERE chunk_id IN ({marks})", part)
                self.execute(f"DELETE FROM relation_support WHERE chunk_id IN ({marks})", part)
                self.execute(f"DELETE FROM subchunks WHERE chunk_id IN ({marks})", part)
                for ids in (part, sub_ids):
                    for s in range(0, len(ids), 400):
                        p = ids[s : s + 400]
                        m = ",".join("?" * len(p))
                        self.execute(f"DELETE FROM edges WHERE src IN ({m}) OR dst IN ({m})", p + p)
                        self.execute(f"DELETE FROM vectors WHERE item_id IN ({m})", p)
                self.execute(f"DELETE FROM progress WHERE item_key IN ({marks})", part)
            for kind in ("vectors:chunk", "vectors:subchunk", "edges", "graph"):
                self.bump_generation(kind)

    def get_chunks(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Chunks in the order of `chunk_ids` (missing ids skipped)."""
        found: dict[str, Chunk] = {}
        ids = list(dict.fromkeys(chunk_ids))
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            rows = self.execute(
                f"SELECT {_CHUNK_COLS} FROM chunks WHERE chunk_id IN ({','.join('?' * len(part))})", part
            )
            for row in rows:
                found[row[0]] = _row_to_chunk(row)
        return [found[i] for i in ids if i in found]

    def iter_chunks(self, batch: int = 2000) -> Iterator[Chunk]:
        """All chunks in document/ord order, streamed."""
        last = -1
        while True:
            rows = self.execute(
                f"SELECT rowid, {_CHUNK_COLS} FROM chunks WHERE rowid > ? ORDER BY rowid LIMIT ?", (last, batch)
            ).fetchall()
            if not rows:
                return
            for row in rows:
                yield _row_to_chunk(row[1:])
            last = rows[-1][0]

    def chunks_of_document(self, doc_id: str) -> list[Chunk]:
        rows = self.execute(f"SELECT {_CHUNK_COLS} FROM chunks WHERE doc_id = ? ORDER BY ord", (doc_id,))
        return [_row_to_chunk(r) for r in rows]

    def chunk_ids(self) -> list[str]:
        return [r[0] for r in self.execute("SELECT chunk_id FROM chunks ORDER BY rowid")]

    def count(self, table: str) -> int:
        """Row count of one of the store's tables."""
        if not re.fullmatch(r"[a-z_]+", table):
            raise ValueError(table)
        return int(self.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    # -- full text --------------------------------------------------------------------------------
    def search_text(self, query: str, k: int) -> list[tuple[str, float]]:
        """BM25 over chunk text and section; higher score is better."""
        match = fts_query(query)
        if not match:
            return []
        rows = self.execute(
            "SELECT c.chunk_id, -bm25(chunk_fts, 1.0, 0.5) AS s FROM chunk_fts JOIN chunks c ON c.rowid = chunk_fts.rowid "
            "WHERE chunk_fts MATCH ? ORDER BY bm25(chunk_fts, 1.0, 0.5) LIMIT ?",
            (match, k),
        ).fetchall()
        return [(r[0], float(r[1])) for r in rows]

    # -- progress and failures --------------------------------------------------------------------
    def mark_done(self, stage: str, keys: Iterable[str], info: str = "") -> None:
        now = time.time()
        self.executemany(
            "INSERT OR REPLACE INTO progress(stage, item_key, status, info, updated_at) VALUES (?,?,?,?,?)",
            [(stage, k, "done", info, now) for k in keys],
        )

    def mark_failed(self, stage: str, key: str, reason: str) -> None:
        self.execute(
            "INSERT OR REPLACE INTO progress(stage, item_key, status, info, updated_at) VALUES (?,?,?,?,?)",
            (stage, key, "failed", reason, time.time()),
        )

    def done_keys(self, stage: str) -> set[str]:
        return {
            r[0] for r in self.execute("SELECT item_key FROM progress WHERE stage = ? AND status = 'done'", (stage,))
        }

    def failures(self, stage: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT stage, item_key, info, updated_at FROM progress WHERE status = 'failed'"
        rows = self.execute(
            sql + (" AND stage = ?" if stage else "") + " ORDER BY stage, item_key", (stage,) if stage else ()
        ).fetchall()
        return [{"stage": r[0], "item": r[1], "reason": r[2], "at": r[3]} for r in rows]

    def clear_progress(self, stage: str, keys: Sequence[str] | None = None) -> None:
        if keys is None:
            self.execute("DELETE FROM progress WHERE stage = ?", (stage,))
        else:
            self.executemany("DELETE FROM progress WHERE stage = ? AND item_key = ?", [(stage, k) for k in keys])

    # -- LLM usage accounting ---------------------------------------------------------------------
    def add_usage(
        self, stage: str, model: str, calls: int, prompt_tokens: int, completion_tokens: int, seconds: float, usd: float
    ) -> None:
        self.execute(
            "INSERT INTO llm_usage(stage, model, calls, prompt_tokens, completion_tokens, seconds, usd) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT(stage, model) DO UPDATE SET calls = calls + excluded.calls, "
            "prompt_tokens = prompt_tokens + excluded.prompt_tokens, "
            "completion_tokens = completion_tokens + excluded.completion_tokens, "
            "seconds = seconds + excluded.seconds, usd = usd + excluded.usd",
            (stage, model, calls, prompt_tokens, completion_tokens, seconds, usd),
        )

    def usage(self) -> list[dict[str, Any]]:
        rows = self.execute(
            "SELECT stage, model, calls, prompt_tokens, completion_tokens, seconds, usd "
            "FROM llm_usage ORDER BY stage, model"
        ).fetchall()
        keys = ("stage", "model", "calls", "prompt_tokens", "completion_tokens", "seconds", "usd")
        return [dict(zip(keys, r, strict=True)) for r in rows]
