"""The context every indexing stage and retrieval strategy works with: one index's store, settings and models.

It sits below `graph/`, `retrieve/` and `stages/` (they take a `Workspace` and import nothing above it);
`kgrag.index.Index` is the public facade built on top of it. Tests can build one from a store and
injected models without opening a folder.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgrag.config import Settings
from kgrag.errors import IndexLockedError
from kgrag.store.base import Store
from kgrag.types import Document

if TYPE_CHECKING:
    from kgrag.models.base import LLM, Embedder

LOCK_FILE = ".write.lock"


class Workspace:
    """Store + settings + lazily loaded models (embedder, LLM, token ledger) of one index folder."""

    def __init__(
        self, root: Path, settings: Settings, store: Store, *, embedder: Embedder | None = None, llm: LLM | None = None
    ) -> None:
        self.root = root
        self.settings = settings
        self.store = store
        if embedder is not None:
            self.__dict__["embedder"] = embedder  # injected: the cached property is not consulted
        if llm is not None:
            self.__dict__["llm"] = llm
        self._docs: dict[str, Document] | None = None
        self._docs_generation = ""
        self._version_chunks: dict[str, frozenset[str]] = {}  # version -> its chunk ids, for _docs_generation
        self._document_chunks: dict[str, frozenset[str]] = {}  # doc_id -> its chunk ids, for _docs_generation
        self._lock_depth = 0  # write_lock nesting

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
            self._version_chunks = {}
            self._document_chunks = {}
        return self._docs

    def document_chunks(self, doc_id: str) -> frozenset[str]:
        """Chunk ids of one document, cached with the documents (a question naming it searches them each time)."""
        self.documents()  # first: a changed index drops the cached ids
        cached = self._document_chunks  # one read: another thread may swap in a fresh cache meanwhile
        if doc_id not in cached:
            cached[doc_id] = frozenset(c.chunk_id for c in self.store.chunks_of_document(doc_id))
        return cached[doc_id]

    def version_chunks(self, version: str) -> frozenset[str]:
        """Chunk ids of the documents with this `version` metadata, cached with the documents: a version filter
        reads every chunk once per change of the index, not on each of a query's searches."""
        documents = self.documents()  # first: a changed index drops the cached ids
        cached = self._version_chunks  # one read, as in document_chunks
        if version not in cached:
            docs = {d.doc_id for d in documents.values() if d.version == version}
            cached[version] = frozenset(c.chunk_id for c in self.store.iter_chunks() if c.doc_id in docs)
        return cached[version]

    # -- writers -----------------------------------------------------------------------------------
    @contextmanager
    def write_lock(self, wait_s: float = 0.0) -> Iterator[None]:
        """Exclusive writer lock; a second writer waits up to `wait_s` then fails with a clear message.

        Re-entrant within one object (e.g. `add` then the stages under one outer lock).
        """
        if self._lock_depth:
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
            return
        handle = (self.root / LOCK_FILE).open("a+")
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
