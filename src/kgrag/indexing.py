"""Adding and removing documents: ingest, embed and store each file atomically, resumably."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kgrag.errors import IngestError, KgragError
from kgrag.progress import Progress
from kgrag.types import Document

if TYPE_CHECKING:
    from kgrag.index import Index

INGEST_STAGE = "ingest"
PER_FILE_TIME_LIMIT_S = 300


@dataclass
class AddReport:
    """What `add` did: counts, and one error per file that could not be indexed."""

    added: int = 0
    replaced: int = 0
    unchanged: int = 0
    chunks: int = 0
    errors: list[IngestError] = field(default_factory=list)

    @property
    def indexed(self) -> int:
        return self.added + self.replaced

    def to_dict(self) -> dict[str, object]:
        return {
            "added": self.added,
            "replaced": self.replaced,
            "unchanged": self.unchanged,
            "chunks": self.chunks,
            "errors": [{"path": e.path, "reason": e.reason} for e in self.errors],
        }


@contextmanager
def time_limit(seconds: int, path: Path) -> Iterator[None]:
    """Raise IngestError if the block runs longer than `seconds` (main thread only; elsewhere no limit)."""
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        yield
        return

    def _expired(signum: int, frame: object) -> None:
        raise IngestError(path, f"took longer than {seconds} s to parse; skipped")

    previous = signal.signal(signal.SIGALRM, _expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _sources(paths: Sequence[str | Path]) -> tuple[list[tuple[Path, Path]], list[IngestError]]:
    """(file, root) pairs: a folder is the root of the files below it, a file's root is its folder."""
    from kgrag.ingest import discover

    pairs: list[tuple[Path, Path]] = []
    errors: list[IngestError] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists() and not path.is_symlink():
            errors.append(IngestError(path, "no such file or folder"))
            continue
        files, errs = discover([path])
        errors.extend(errs)
        root = path if path.is_dir() else path.parent
        pairs.extend((f, root) for f in files)
    return pairs, errors


def add_paths(index: Index, paths: Sequence[str | Path], progress: Progress) -> AddReport:
    """Index every supported file under `paths`; one bad file never stops the others."""
    from kgrag.ingest import content_hash, parse_file
    from kgrag.ingest.base import relative_path

    store = index.store
    report = AddReport()
    pairs, report.errors = _sources(paths)
    done = store.done_keys(INGEST_STAGE)
    task = progress.task("files", len(pairs))
    for path, root in pairs:
        try:
            with time_limit(PER_FILE_TIME_LIMIT_S, path):
                digest = content_hash(path)
                rel = relative_path(path, root)
                existing = store.get_document_by_path(rel)
                if existing and existing.content_hash == digest and existing.doc_id in done:
                    report.unchanged += 1
                    continue
                parsed = parse_file(path, root=root, settings=index.settings.chunking)
            store_document(index, parsed.document, parsed.chunks, replacing=existing)
            report.chunks += len(parsed.chunks)
            if existing:
                report.replaced += 1
            else:
                report.added += 1
        except IngestError as exc:
            report.errors.append(exc)
        except KgragError:
            raise
        except Exception as exc:  # a parser bug must not stop the other files
            report.errors.append(IngestError(path, f"{type(exc).__name__}: {exc}"))
        finally:
            task.advance(1, chunks=report.chunks)
    if report.replaced:
        store.prune_graph()
    return report


def store_document(index: Index, doc: Document, chunks: list, replacing: Document | None) -> None:
    """Embed, then write the document, its chunks and vectors in one transaction."""
    store = index.store
    vectors = index.embedder.embed([c.text for c in chunks]) if chunks else None
    with store.transaction():
        if replacing is not None:
            store.delete_chunks([c.chunk_id for c in store.chunks_of_document(replacing.doc_id)])
            if replacing.doc_id != doc.doc_id:
                store.delete_document(replacing.doc_id)
        store.upsert_document(doc)
        store.add_chunks(chunks)
        if vectors is not None:
            store.put_vectors("chunk", [c.chunk_id for c in chunks], vectors)
        store.mark_done(INGEST_STAGE, [doc.doc_id], info=doc.content_hash)
        store.set_meta("derived_stale", "1")


def find_document(index: Index, ref: str) -> Document:
    """A document by id or by its stored path."""
    store = index.store
    doc = store.get_document(ref) or store.get_document_by_path(ref)
    if doc is None:
        doc = next((d for d in store.list_documents() if d.path.endswith(ref)), None)
    if doc is None:
        raise KgragError(f"{ref}: no such document in {index.root} (see `kgrag documents`)")
    return doc


def remove_document(index: Index, ref: str) -> Document:
    """Delete a document, its chunks and the graph items only it supported."""
    doc = find_document(index, ref)
    store = index.store
    with store.transaction():
        store.delete_document(doc.doc_id)
        store.clear_progress(INGEST_STAGE, [doc.doc_id])
        store.set_meta("derived_stale", "1")
    store.prune_graph()
    return doc
