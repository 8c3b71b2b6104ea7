"""Embedded store, part 1: connection, transactions, the SQL hooks of `SqlBase`, and FTS5 BM25 search."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kgrag.store.schema import SCHEMA, SCHEMA_VERSION
from kgrag.store.sql_base import SqlBase
from kgrag.store.vectors import COMPACT_FORMAT, VECTOR_FORMAT_KEY, VectorMatrix

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


def fts_query(text: str) -> str:
    """An FTS5 OR-query of the content words of `text`, each quoted (safe against FTS syntax)."""
    terms: dict[str, None] = {}
    for raw in _WORD.findall(text.lower()):
        word = raw.strip(".-_")
        if word and word not in FTS_STOPWORDS:
            terms.setdefault(word.replace('"', ""), None)
    return " OR ".join(f'"{t}"' for t in terms)


class SqliteCore(SqlBase):
    """Connection handling, SQLite's side of the `SqlBase` hooks and full-text search for `SqliteStore`."""

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

    # -- SqlBase hooks ------------------------------------------------------------------------------
    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.execute(query, params).fetchall()

    def _exec(self, query: str, params: Sequence[Any] = ()) -> int:
        return self.execute(query, params).rowcount

    def _in(self, column: str, ids: list[str]) -> tuple[str, list[Any]]:
        return f"{column} IN ({','.join('?' * len(ids))})", list(ids)

    def _put_rows(
        self, table: str, cols: Sequence[str], rows: Iterable[Sequence[Any]], key: Sequence[str], replace: bool = True
    ) -> None:
        verb = "REPLACE" if replace else "IGNORE"  # SQLite resolves every unique key itself, so `key` is implied
        marks = ",".join("?" * len(cols))
        self.executemany(f"INSERT OR {verb} INTO {table}({', '.join(cols)}) VALUES ({marks})", rows)

    # -- full text --------------------------------------------------------------------------------
    def search_text(self, query: str, k: int, within: Sequence[str] | None = None) -> list[tuple[str, float]]:
        """BM25 over chunk text and section; higher score is better; `within` limits the ranked chunks."""
        match = fts_query(query)
        if not match or within is not None and not within:
            return []
        scope = "" if within is None else " AND c.chunk_id IN (SELECT value FROM json_each(?))"
        params = (match,) if within is None else (match, json.dumps(list(within)))
        rows = self.execute(
            "SELECT c.chunk_id, -bm25(chunk_fts, 1.0, 0.5) AS s FROM chunk_fts JOIN chunks c ON c.rowid = chunk_fts.rowid "
            f"WHERE chunk_fts MATCH ?{scope} ORDER BY bm25(chunk_fts, 1.0, 0.5) LIMIT ?",
            (*params, k),
        ).fetchall()
        return [(r[0], float(r[1])) for r in rows]
