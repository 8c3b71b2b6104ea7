"""The public entry point: an index folder with its settings, store and (lazily loaded) models."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgrag.config import CONFIG_FILE, Settings, dump_settings_toml, load_settings
from kgrag.errors import IndexLockedError, IndexNotFoundError
from kgrag.progress import NullProgress, Progress
from kgrag.store.base import Store
from kgrag.types import Answer, Context, Document

if TYPE_CHECKING:
    from kgrag.indexing import AddReport
    from kgrag.models.base import LLM, Embedder

STORE_FILE = "index.sqlite"
LOCK_FILE = ".write.lock"


def open_store(root: Path, settings: Settings) -> Store:
    """The store configured for this index: the embedded SQLite file, or a server backend URL."""
    backend = os.environ.get("KGRAG_BACKEND") or _read_backend(root)
    if backend:
        from kgrag.store.server import open_server_store  # the scale-out backend

        return open_server_store(backend, root)
    from kgrag.store.sqlite import SqliteStore

    return SqliteStore(root / STORE_FILE)


def _read_backend(root: Path) -> str:
    marker = root / "backend.url"
    return marker.read_text(encoding="utf-8").strip() if marker.exists() else ""


class Index:
    """An index folder: `Index.open(path)`, then `add(paths)`, `search(q)`, `ask(q)`."""

    def __init__(self, root: Path, settings: Settings, store: Store) -> None:
        self.root = root
        self.settings = settings
        self.store = store
        self._docs: dict[str, Document] | None = None
        self._docs_generation = ""
        self._lock_depth = 0  # write_lock nesting

    # -- lifecycle ---------------------------------------------------------------------------------
    @classmethod
    def init(cls, path: str | Path, *, backend: str = "", settings: Settings | None = None) -> Index:
        """Create (or re-open) an index folder; running it twice is harmless."""
        root = Path(path)
        root.mkdir(parents=True, exist_ok=True)
        config = root / CONFIG_FILE
        if not config.exists():
            config.write_text(dump_settings_toml(settings or Settings()), encoding="utf-8")
        if backend:
            (root / "backend.url").write_text(backend + "\n", encoding="utf-8")
        return cls.open(root)

    @classmethod
    def open(cls, path: str | Path) -> Index:
        """Open an existing index folder (created by `Index.init` / `kgrag init`)."""
        root = Path(path)
        if not (root / CONFIG_FILE).exists():
            raise IndexNotFoundError(
                f"{root}: not a kgrag index (no {CONFIG_FILE}); create it with `kgrag init {root}`"
            )
        settings = load_settings(root)
        return cls(root, settings, open_store(root, settings))

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def write_lock(self, wait_s: float = 0.0) -> Iterator[None]:
        """Exclusive writer lock; a second writer waits up to `wait_s` then fails with a clear message.

        Re-entrant within one Index object (e.g. `add` then the stages under one outer lock).
        """
        if self._lock_depth:
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
            return
        path = self.root / LOCK_FILE
        handle = path.open("a+")
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    handle.seek(0)
                    holder = handle.read().strip() or "another process"
                    handle.close()
                    raise IndexLockedError(
                        f"{self.root}: another kgrag process ({holder}) is writing to this index; "
                        "wait for it to finish (readers such as ask/serve keep working)"
                    ) from None
                time.sleep(0.2)
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        self._lock_depth = 1
        try:
            yield
        finally:
            self._lock_depth = 0
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)
            handle.close()

    # -- models (loaded on first use) --------------------------------------------------------------
    @cached_property
    def embedder(self) -> Embedder:
        from kgrag.models.factory import make_embedder

        return make_embedder(self.settings.embedder, cache_path=self.root / "embed_cache.sqlite")

    @cached_property
    def llm(self) -> LLM:
        from kgrag.models.factory import make_llm

        return make_llm(
            self.settings.llm,
            cache_path=self.root / "llm_cache.sqlite",
            ledger=self.ledger,
            max_tokens_total=self.settings.graph.max_llm_tokens,
        )

    @cached_property
    def ledger(self) -> Any:
        """Token accounting per stage, persisted into the store after each call."""
        from kgrag.models.layers import UsageLedger

        return UsageLedger(sink=self.store.add_usage, prices=self.settings.prices)

    # -- documents ---------------------------------------------------------------------------------
    def documents(self) -> dict[str, Document]:
        """doc_id -> Document, cached until the store changes."""
        gen = self.store.generation("vectors:chunk")
        if self._docs is None or gen != self._docs_generation:
            self._docs = {d.doc_id: d for d in self.store.list_documents()}
            self._docs_generation = gen
        return self._docs

    def add(
        self, paths: Sequence[str | Path], *, progress: Progress | None = None, version: str | None = None
    ) -> AddReport:
        """Ingest files/folders (changed files replace their old version; unchanged ones are skipped).

        `version` tags the added documents (e.g. "v2") so retrieval can be limited to it.
        """
        from kgrag.indexing import add_paths

        with self.write_lock():
            return add_paths(self, paths, progress or NullProgress(), version=version)

    def remove(self, doc_ref: str) -> Document:
        """Delete a document (by id or path) and everything derived only from it."""
        from kgrag.indexing import remove_document

        with self.write_lock():
            return remove_document(self, doc_ref)

    # -- questions ---------------------------------------------------------------------------------
    def search(
        self, question: str, *, strategy: str | None = None, budget: int | None = None, **options: Any
    ) -> Context:
        """Retrieved context only (no LLM answer), with scores and provenance."""
        from kgrag.retrieve.base import make_retriever

        name = strategy or self.settings.retrieval.strategy
        return make_retriever(name, self).timed(question, budget or self.settings.retrieval.budget, **options)

    def ask(
        self, question: str, *, strategy: str | None = None, budget: int | None = None, mode: str | None = None,
        **options: Any,
    ) -> Answer:
        """A grounded answer with inline [n] citations; `mode` auto | extractive | generative ([answer] mode)."""
        from kgrag.answer import answer_options, generate_answer

        context = self.search(question, strategy=strategy, budget=budget, **options)
        return generate_answer(self.llm, question, context, embedder=self.embedder,
                               **answer_options(self.settings, mode))

    def stats(self) -> dict[str, Any]:
        s = self.store
        counts = {
            t: s.count(t)
            for t in (
                "documents",
                "chunks",
                "entities",
                "relations",
                "mentions",
                "subchunks",
                "keywords",
                "edges",
                "communities",
            )
        }
        from kgrag.plan import stage_stats

        return {"index": str(self.root), "counts": counts, "llm_usage": s.usage(), "failures": len(s.failures()),
                "stages": stage_stats(self)}
