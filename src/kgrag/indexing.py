"""Adding and removing documents: ingest, embed and store each file atomically, resumably."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kgrag.errors import IngestError, KgragError
from kgrag.progress import Progress
from kgrag.types import Chunk, Document, Entity, Relation

if TYPE_CHECKING:
    from kgrag.store.base import Store
    from kgrag.workspace import Workspace

INGEST_STAGE = "ingest"
PER_FILE_TIME_LIMIT_S = 300
STALE_KEY = "derived_stale"  # "1": documents changed since the last full `kgrag index` (communities are stale)


@dataclass
class AddReport:
    """What `add` did: counts, and one error per file that could not be indexed."""

    added: int = 0
    replaced: int = 0
    unchanged: int = 0
    reread: int = 0  # unchanged files an older parser had read, parsed again (replaced only if their text changed)
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
            "reread": self.reread,
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


def add_paths(index: Workspace, paths: Sequence[str | Path], progress: Progress, version: str | None = None) -> AddReport:
    """Index every supported file under `paths` (tagged `version` if given); one bad file never stops the others.

    Files that cannot be indexed are recorded as failed items of stage 'ingest' (listed by `kgrag status`)
    under their stored path, and cleared when the file is later indexed.
    """
    from kgrag.ingest import content_hash, parse_file
    from kgrag.ingest.base import PARSER_KEY, PARSER_VERSION, relative_path

    store = index.store
    report = AddReport()
    pairs, report.errors = _sources(paths)
    for err in report.errors:
        store.mark_failed(INGEST_STAGE, str(err.path), err.reason)
    done = store.done_keys(INGEST_STAGE)
    task = progress.task("files", len(pairs))
    started = time.perf_counter()
    for path, root in pairs:
        rel = relative_path(path, root)
        try:
            with time_limit(PER_FILE_TIME_LIMIT_S, path):
                digest = content_hash(path)
                existing = store.get_document_by_path(rel)
                same = existing if (existing and existing.content_hash == digest and existing.doc_id in done
                                    and (version is None or existing.version == version)) else None
                if same and same.meta.get(PARSER_KEY) == PARSER_VERSION:
                    report.unchanged += 1
                    continue
                parsed = parse_file(path, root=root, settings=index.settings.chunking, progress=progress,
                                    ocr_engine=index.settings.ingest.ocr_engine)
            if version is not None:
                parsed.document.version = version
            if same:  # read by an older parser: its chunks (and all derived from them) stay if it reads the same text
                report.reread += 1
                if _same_chunks(store.chunks_of_document(same.doc_id), parsed.chunks):
                    store.upsert_document(parsed.document)
                    report.unchanged += 1
                    continue
            store_document(index, parsed.document, parsed.chunks, replacing=existing)
            report.chunks += len(parsed.chunks)
            if existing:
                report.replaced += 1
            else:
                report.added += 1
        except IngestError as exc:
            report.errors.append(exc)
            store.mark_failed(INGEST_STAGE, rel, exc.reason)
        except KgragError:
            raise
        except Exception as exc:  # a parser bug must not stop the other files
            report.errors.append(IngestError(path, f"{type(exc).__name__}: {exc}"))
            store.mark_failed(INGEST_STAGE, rel, report.errors[-1].reason)
        finally:
            rate = report.chunks / max(time.perf_counter() - started, 1e-9)
            task.advance(1, chunks=report.chunks, **{"chunks/s": f"{rate:.1f}"})
    return report


def _same_chunks(stored: Sequence[Chunk], parsed: Sequence[Chunk]) -> bool:
    """The same chunks (ids, texts and sections): a new parser read the document as the old one did."""
    return [(c.chunk_id, c.text, c.section) for c in stored] == [(c.chunk_id, c.text, c.section) for c in parsed]


def store_document(index: Workspace, doc: Document, chunks: list, replacing: Document | None) -> None:
    """Embed, then write the document, its chunks and vectors (replacing the old version's) in one transaction."""
    store = index.store
    vectors = index.embedder.embed([c.text for c in chunks]) if chunks else None
    old_ids = [c.chunk_id for c in store.chunks_of_document(replacing.doc_id)] if replacing is not None else []
    plan = plan_refresh(index, old_ids)
    with store.transaction():
        if replacing is not None:
            forget_chunks(index, old_ids, plan)
            if replacing.doc_id != doc.doc_id:
                store.delete_document(replacing.doc_id)
        store.upsert_document(doc)
        store.add_chunks(chunks)
        if vectors is not None:
            store.put_vectors("chunk", [c.chunk_id for c in chunks], vectors)
        store.mark_done(INGEST_STAGE, [doc.doc_id], info=doc.content_hash)
        store.clear_progress(INGEST_STAGE, [doc.path])  # an earlier failure of this file
        store.set_meta(STALE_KEY, "1")


def find_document(index: Workspace, ref: str) -> Document:
    """A document by id or by its stored path."""
    store = index.store
    doc = store.get_document(ref) or store.get_document_by_path(ref)
    if doc is None:
        doc = next((d for d in store.list_documents() if d.path.endswith(ref)), None)
    if doc is None:
        raise KgragError(f"{ref}: no such document in {index.root} (see `kgrag documents`)")
    return doc


def remove_document(index: Workspace, ref: str) -> Document:
    """Delete a document, its chunks and the graph items only it supported; shared items are refreshed."""
    doc = find_document(index, ref)
    store = index.store
    ids = [c.chunk_id for c in store.chunks_of_document(doc.doc_id)]
    plan = plan_refresh(index, ids)
    with store.transaction():
        forget_chunks(index, ids, plan)
        store.delete_document(doc.doc_id)
        store.clear_progress(INGEST_STAGE, [doc.doc_id])
        store.set_meta(STALE_KEY, "1")
    return doc


# -- keeping derived data consistent when chunks go away ---------------------------------------------
@dataclass
class RefreshPlan:
    """Shared graph items of chunks about to be deleted, with descriptions rebuilt from their other chunks."""

    chunk_ids: list[str] = field(default_factory=list)
    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    llm: object = None  # the LLM an LLM extractor summarises long descriptions with (None: cut them)


def _graph_keys(store: Store, chunk_ids: set[str]) -> list[str]:
    """The graph stage's progress keys (`<extractor>:<chunk_id>`, done or failed) of `chunk_ids`."""
    from kgrag.graph.build import STAGE

    keys = store.done_keys(STAGE) | {f["item"] for f in store.failures(STAGE)}
    return [k for k in keys if k.split(":", 1)[-1] in chunk_ids]


def plan_refresh(index: Workspace, chunk_ids: Sequence[str]) -> RefreshPlan:
    """Read-only: re-extract the remaining chunks of entities/relations shared with `chunk_ids` and merge
    their descriptions again (graph/merge.py), so shared items keep exactly their other provenance."""
    from kgrag.graph.extractors import make_extractor
    from kgrag.graph.merge import _redirect, active_redirects, add_alias, merge_descriptions

    store, gone = index.store, set(chunk_ids)
    plan = RefreshPlan(list(chunk_ids))
    touched = {e for es in store.entities_of_chunks(list(gone)).values() for e in es}
    if not touched:
        return plan
    mentions = store.chunks_of_entities(sorted(touched))
    shared_e = {e: [c for c in cs if c not in gone] for e, cs in mentions.items() if set(cs) - gone}
    relations = store.relations_of(sorted(touched))
    support = store.relation_support([r.relation_id for r in relations])
    shared_r = {r.relation_id: [c for c in support.get(r.relation_id, []) if c not in gone] for r in relations
                if set(support.get(r.relation_id, [])) & gone and set(support.get(r.relation_id, [])) - gone}
    sources = {c for cs in (*shared_e.values(), *shared_r.values()) for c in cs}
    extractor_of = {k.split(":", 1)[1]: k.split(":", 1)[0] for k in _graph_keys(store, sources)}
    redirects = active_redirects(store)
    desc_e: dict[str, str] = {}
    desc_r: dict[str, str] = {}
    names: dict[str, list[tuple[bool, int, str]]] = {}  # (merged-in name?, position, name)
    order = {cid: n for n, cid in enumerate(store.chunk_ids())}
    for name in sorted(set(extractor_of.values())):
        ex = make_extractor(name, index)
        plan.llm = getattr(ex, "llm", None) or plan.llm
        todo = sorted((c for c, n in extractor_of.items() if n == name), key=lambda c: order.get(c, 0))
        for _chunk, result in ex.extract_many(store.get_chunks(todo)):
            if isinstance(result, Exception):
                continue  # keep what the other chunks give; nothing is invented
            _, rels = _redirect(result, redirects)
            for e in result.entities:
                eid = redirects.get(e.entity_id, e.entity_id)
                if eid in shared_e:
                    desc_e[eid] = merge_descriptions(desc_e.get(eid, ""), e.description)
                    found = names.setdefault(eid, [])
                    found.append((eid != e.entity_id, len(found), e.name))
            for r in rels:
                if r.relation_id in shared_r:
                    desc_r[r.relation_id] = merge_descriptions(desc_r.get(r.relation_id, ""), r.description)
    for e in store.get_entities(sorted(shared_e)):
        e.description = desc_e.get(e.entity_id, e.description)
        seen = [n for _, _, n in sorted(names.get(e.entity_id, []))]
        if seen:  # the name and aliases the remaining chunks give, own names before merged-in ones
            e.name, e.aliases = seen[0], []
            for name in seen[1:]:
                add_alias(e, name)
        plan.entities.append(e)
    for r in relations:
        if r.relation_id in shared_r:
            r.description = desc_r.get(r.relation_id, r.description)
            plan.relations.append(r)
    return plan


def forget_chunks(index: Workspace, chunk_ids: Sequence[str], plan: RefreshPlan) -> None:
    """Delete chunks and everything derived from them; call inside the caller's transaction.

    FTS, vectors, mentions, support, sub-chunks and edges go with the chunks (store.delete_chunks); the
    stages' progress records are cleared so the next `kgrag index` redoes what depends on them; graph
    items only these chunks supported are pruned; shared ones get the plan's descriptions, weights
    recounted and vectors refreshed; keywords in no chunk any more are dropped.
    """
    from kgrag.graph.build import embed_entities
    from kgrag.graph.merge import refresh_weights, summarize_long_descriptions
    from kgrag.graph.trigraph import forget_trigraph

    store = index.store
    with store.transaction():
        store.clear_progress("graph", _graph_keys(store, set(chunk_ids)))
        forget_trigraph(index, chunk_ids)  # sentence rows are keyed `<chunk_id>#t<n>`, not by the chunk id
        store.delete_chunks(list(chunk_ids))
        store.prune_graph()
        alive = {e.entity_id for e in store.get_entities([e.entity_id for e in plan.entities])}
        store.upsert_entities([e for e in plan.entities if e.entity_id in alive])
        kept = store.get_relations([r.relation_id for r in plan.relations])
        descriptions = {r.relation_id: r.description for r in plan.relations}
        for r in kept:
            r.description = descriptions[r.relation_id]
        refresh_weights(store, kept)
        summarize_long_descriptions(store, plan.llm, alive)  # type: ignore[arg-type]
        if alive:
            embed_entities(index, alive)
        prune_keywords(store)
        store.set_meta(STALE_KEY, "1")


def prune_keywords(store: Store) -> int:
    """Delete keywords that no chunk has any more (KET-RAG); returns how many."""
    from kgrag.graph.keywords import EDGE_KIND

    linked = {kid for kid, _, _ in store.edges(EDGE_KIND)}
    orphans = [k.keyword_id for k in store.iter_keywords() if k.keyword_id not in linked]
    if orphans:
        store.delete_keywords(orphans)
    return len(orphans)
