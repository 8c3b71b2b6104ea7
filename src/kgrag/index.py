"""The public facade: an index folder you open, add documents to, and ask questions of.

Everything below it (stages, graph, retrieval) works on the `Workspace` this class extends; nothing there
imports this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgrag.config import CONFIG_FILE, Settings, dump_settings_toml, load_settings
from kgrag.errors import IndexNotFoundError
from kgrag.progress import NullProgress, Progress
from kgrag.store.open import BACKEND_MARKER, STORE_FILE, open_store
from kgrag.types import Answer, Context, Document
from kgrag.workspace import LOCK_FILE, Workspace

if TYPE_CHECKING:
    from kgrag.indexing import AddReport

__all__ = ["LOCK_FILE", "STORE_FILE", "Index", "open_store"]


class Index(Workspace):
    """An index folder: `Index.open(path)`, then `add(paths)`, `search(q)`, `ask(q)`."""

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
            (root / BACKEND_MARKER).write_text(backend + "\n", encoding="utf-8")
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
        return cls(root, settings, open_store(root))

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        question = self.cased(question)
        return make_retriever(name, self).timed(question, budget or self.settings.retrieval.budget, **options)

    def cased(self, question: str) -> str:
        """`question` with support shorthand written out ("cmd" -> "command", answering/shorthand.py) and the product
        names it types in lower case ("the opta") written as the documents write them, with the one revision the
        documents hold ("Mega 2560" -> "Mega 2560 Rev3", answering/casing.py); read again when the documents change."""
        from kgrag.answering.casing import known_names, sole_revisions, with_known_casing, with_sole_revisions
        from kgrag.answering.shorthand import written_out

        documents = self.documents()  # cached until the store changes: a new dict then, and the names read again
        read = getattr(self, "_names_read", None)
        if read is None or read[0] is not documents:
            products, titles = [d.product for d in documents.values()], [d.title for d in documents.values()]
            # one assignment: a server thread asking meanwhile sees the old names or the new, never half of them
            read = (documents, tuple(known_names(products, titles)), sole_revisions(products, titles))
            self._names_read = read
        _, names, revisions = read
        return with_sole_revisions(with_known_casing(written_out(question), names), revisions)

    def ask(
        self, question: str, *, strategy: str | None = None, budget: int | None = None, mode: str | None = None,
        **options: Any,
    ) -> Answer:
        """A grounded answer with inline [n] citations; `mode` auto | extractive | generative ([answer] mode)."""
        from kgrag.answer import answer_options, generate_answer

        context = self.search(question, strategy=strategy, budget=budget, **options)
        return generate_answer(self.llm, context.question, context, embedder=self.embedder,
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
