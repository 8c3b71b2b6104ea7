"""Store logic both SQL backends share (meta, documents, chunks, progress, usage), written once over dialect hooks.

Shared statements use `?` placeholders; a backend runs them through `_rows`/`_exec` (PostgreSQL rewrites `?`
to `%s`, so shared SQL holds no `?` or `%` of its own) and supplies `_in` (an id-list filter) and `_put_rows`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from kgrag.store.generations import GenerationCounters
from kgrag.store.schema import TABLE_NAMES
from kgrag.types import Chunk, Document

T = TypeVar("T")
CHUNK_COLS = ("chunk_id", "doc_id", "ord", "text", "section", "page_start", "page_end", "product", "category",
              "tokens", "meta")  # fmt: skip
CHUNK_SELECT = ", ".join(CHUNK_COLS)
_DOC_SELECT = "SELECT doc_id, path, title, content_hash, product, category, version, meta FROM documents"


def batches(ids: Iterable[str], size: int) -> Iterator[list[str]]:
    """Distinct ids in slices of `size` (order kept)."""
    unique = list(dict.fromkeys(ids))
    for start in range(0, len(unique), size):
        yield unique[start : start + size]


def row_to_chunk(r: Sequence[Any]) -> Chunk:
    """A `Chunk` from a row of CHUNK_COLS."""
    return Chunk(
        chunk_id=r[0], doc_id=r[1], ord=r[2], text=r[3], section=r[4], page_start=r[5], page_end=r[6],
        product=r[7], category=r[8], tokens=r[9], meta=json.loads(r[10] or "{}"),
    )  # fmt: skip


class SqlBase(GenerationCounters):
    """Backend-independent half of a store's core; the backend class provides the hooks below."""

    ID_BATCH = 400  # ids per statement
    SEQ = "rowid"  # the chunks column that numbers rows in insertion order

    # -- dialect hooks ------------------------------------------------------------------------------
    def transaction(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows of one shared (`?`-style) statement."""
        raise NotImplementedError

    def _exec(self, query: str, params: Sequence[Any] = ()) -> int:
        """Run one shared (`?`-style) write; the affected row count."""
        raise NotImplementedError

    def _in(self, column: str, ids: list[str]) -> tuple[str, list[Any]]:
        """A WHERE condition `column` in `ids` (at most ID_BATCH of them) and its parameters."""
        raise NotImplementedError

    def _put_rows(
        self, table: str, cols: Sequence[str], rows: Iterable[Sequence[Any]], key: Sequence[str], replace: bool = True
    ) -> None:
        """Insert rows; a row whose `key` exists replaces the old one (`replace`) or is skipped."""
        raise NotImplementedError

    # -- shared helpers -----------------------------------------------------------------------------
    def _by_ids(self, select: str, column: str, ids: Sequence[str], make: Callable[[tuple[Any, ...]], T]) -> list[T]:
        """Rows of `select WHERE column in ids`, made into objects, in the order of `ids` (missing ones skipped)."""
        found: dict[str, T] = {}
        for part in batches(ids, self.ID_BATCH):
            where, params = self._in(column, part)
            for row in self._rows(f"{select} WHERE {where}", params):
                found[row[0]] = make(row)
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    def _delete_in(self, table: str, column: str, ids: list[str], extra: str = "") -> None:
        """DELETE the rows of `table` whose `column` is in `ids` (one batch), with an optional extra condition."""
        where, params = self._in(column, ids)
        self._exec(f"DELETE FROM {table} WHERE {extra}{where}", params)

    def count(self, table: str) -> int:
        """Row count of one of the store's tables."""
        if table not in TABLE_NAMES:
            raise ValueError(table)
        return int(self._rows(f"SELECT COUNT(*) FROM {table}")[0][0])

    # -- meta ---------------------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self._rows("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        self._exec(
            "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (key, value),
        )

    # -- documents ----------------------------------------------------------------------------------
    def upsert_document(self, doc: Document) -> None:
        self._exec(
            "INSERT INTO documents(doc_id, path, title, content_hash, product, category, version, meta, added_at) "
            "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (doc_id) DO UPDATE SET path=EXCLUDED.path, "
            "title=EXCLUDED.title, content_hash=EXCLUDED.content_hash, product=EXCLUDED.product, "
            "category=EXCLUDED.category, version=EXCLUDED.version, meta=EXCLUDED.meta, added_at=EXCLUDED.added_at",
            (doc.doc_id, doc.path, doc.title, doc.content_hash, doc.product, doc.category, doc.version,
             json.dumps(doc.meta, sort_keys=True), time.time()),
        )  # fmt: skip

    def _docs(self, where: str = "", params: Sequence[Any] = ()) -> list[Document]:
        rows = self._rows(f"{_DOC_SELECT} {where} ORDER BY path", params)
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
        """Delete a document, its chunks (with text and vector entries) and its mentions/support rows.

        Returns the deleted chunk ids; graph items left without support are pruned by the graph layer.
        """
        with self.transaction():
            ids = [r[0] for r in self._rows(f"SELECT chunk_id FROM chunks WHERE doc_id = ? ORDER BY {self.SEQ}",
                                            (doc_id,))]  # fmt: skip
            self.delete_chunks(ids)
            self._exec("DELETE FROM documents WHERE doc_id = ?", (doc_id,))
        return ids

    # -- chunks -------------------------------------------------------------------------------------
    def add_chunks(self, chunks: Sequence[Chunk]) -> None:
        self._put_rows(
            "chunks", CHUNK_COLS,
            [(c.chunk_id, c.doc_id, c.ord, c.text, c.section, c.page_start, c.page_end, c.product, c.category,
              c.tokens, json.dumps(c.meta, sort_keys=True)) for c in chunks],
            key=("chunk_id",),
        )  # fmt: skip

    def delete_chunks(self, chunk_ids: Sequence[str]) -> None:
        """Remove chunks and every row keyed by them (vectors, mentions, support, sub-chunks, edges)."""
        if not chunk_ids:
            return
        with self.transaction():
            for part in batches(chunk_ids, self.ID_BATCH):
                where, params = self._in("chunk_id", part)
                sub_ids = [r[0] for r in self._rows(f"SELECT subchunk_id FROM subchunks WHERE {where}", params)]
                for table in ("chunks", "mentions", "relation_support", "subchunks"):
                    self._delete_in(table, "chunk_id", part)
                for ids in (part, *batches(sub_ids, self.ID_BATCH)):
                    (src, p), (dst, q) = self._in("src", ids), self._in("dst", ids)
                    self._exec(f"DELETE FROM edges WHERE {src} OR {dst}", p + q)
                    self._delete_in("vectors", "item_id", ids)
                self._delete_in("progress", "item_key", part)
            for kind in ("vectors:chunk", "vectors:subchunk", "edges", "graph"):
                self.bump_generation(kind)

    def get_chunks(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Chunks in the order of `chunk_ids` (missing ids skipped)."""
        return self._by_ids(f"SELECT {CHUNK_SELECT} FROM chunks", "chunk_id", chunk_ids, row_to_chunk)

    def iter_chunks(self, batch: int = 2000) -> Iterator[Chunk]:
        """All chunks in insertion order, streamed by keyset pages."""
        last = -1
        while True:
            rows = self._rows(
                f"SELECT {self.SEQ}, {CHUNK_SELECT} FROM chunks WHERE {self.SEQ} > ? ORDER BY {self.SEQ} LIMIT ?",
                (last, batch),
            )
            if not rows:
                return
            for row in rows:
                yield row_to_chunk(row[1:])
            last = rows[-1][0]

    def chunks_of_document(self, doc_id: str) -> list[Chunk]:
        rows = self._rows(f"SELECT {CHUNK_SELECT} FROM chunks WHERE doc_id = ? ORDER BY ord", (doc_id,))
        return [row_to_chunk(r) for r in rows]

    def chunk_ids(self) -> list[str]:
        return [r[0] for r in self._rows(f"SELECT chunk_id FROM chunks ORDER BY {self.SEQ}")]

    # -- progress and failures ----------------------------------------------------------------------
    def mark_done(self, stage: str, keys: Iterable[str], info: str = "") -> None:
        now = time.time()
        cols = ("stage", "item_key", "status", "info", "updated_at")
        self._put_rows("progress", cols, [(stage, k, "done", info, now) for k in keys], key=cols[:2])

    def mark_failed(self, stage: str, key: str, reason: str) -> None:
        self._exec(
            "INSERT INTO progress(stage, item_key, status, info, updated_at) VALUES (?,?,'failed',?,?) "
            "ON CONFLICT (stage, item_key) DO UPDATE SET status = EXCLUDED.status, info = EXCLUDED.info, "
            "updated_at = EXCLUDED.updated_at",
            (stage, key, reason, time.time()),
        )

    def done_keys(self, stage: str) -> set[str]:
        return {r[0] for r in self._rows("SELECT item_key FROM progress WHERE stage = ? AND status = 'done'", (stage,))}

    def failures(self, stage: str | None = None) -> list[dict[str, Any]]:
        where = " AND stage = ?" if stage else ""
        rows = self._rows(
            f"SELECT stage, item_key, info, updated_at FROM progress WHERE status = 'failed'{where} "
            "ORDER BY stage, item_key",
            (stage,) if stage else (),
        )
        return [{"stage": r[0], "item": r[1], "reason": r[2], "at": r[3]} for r in rows]

    def clear_progress(self, stage: str, keys: Sequence[str] | None = None) -> None:
        if keys is None:
            self._exec("DELETE FROM progress WHERE stage = ?", (stage,))
            return
        with self.transaction():
            for part in batches(keys, self.ID_BATCH):
                where, params = self._in("item_key", part)
                self._exec(f"DELETE FROM progress WHERE stage = ? AND {where}", [stage, *params])

    # -- LLM usage accounting -----------------------------------------------------------------------
    def add_usage(
        self, stage: str, model: str, calls: int, prompt_tokens: int, completion_tokens: int, seconds: float, usd: float
    ) -> None:
        self._exec(
            "INSERT INTO llm_usage AS u (stage, model, calls, prompt_tokens, completion_tokens, seconds, usd) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT (stage, model) DO UPDATE SET calls = u.calls + EXCLUDED.calls, "
            "prompt_tokens = u.prompt_tokens + EXCLUDED.prompt_tokens, "
            "completion_tokens = u.completion_tokens + EXCLUDED.completion_tokens, "
            "seconds = u.seconds + EXCLUDED.seconds, usd = u.usd + EXCLUDED.usd",
            (stage, model, calls, prompt_tokens, completion_tokens, seconds, usd),
        )

    def usage(self) -> list[dict[str, Any]]:
        keys = ("stage", "model", "calls", "prompt_tokens", "completion_tokens", "seconds", "usd")
        rows = self._rows(f"SELECT {', '.join(keys)} FROM llm_usage ORDER BY stage, model")
        return [dict(zip(keys, r, strict=True)) for r in rows]
