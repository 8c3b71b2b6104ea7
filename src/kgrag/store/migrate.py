"""Copy a whole index between backends (embedded SQLite <-> PostgreSQL server), in batches, verified by counts.

Everything goes through the `Store` protocol, except a small read-only catalog (vector kinds, edge kinds,
progress rows, meta items) that the protocol does not list; that SQL is the same in both dialects.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any, TypeVar

from kgrag.config import CONFIG_FILE, Settings, dump_settings_toml
from kgrag.errors import KgragError
from kgrag.store.base import Store
from kgrag.store.open import STORE_FILE, open_store
from kgrag.store.postgres_schema import TABLE_NAMES

T = TypeVar("T")
CONFIG_META = "config:kgrag.toml"  # the index settings travel with the data
SKIP_META = ("schema_version", "hnsw:", CONFIG_META)  # backend-internal keys; the config is rewritten
VERIFIED_TABLES = [t for t in TABLE_NAMES if t != "meta"]  # meta differs by design (backend-internal keys)


class MigrationError(KgragError):
    """An index could not be copied (destination not empty, unreachable, or counts differ afterwards)."""


@dataclass
class MigrationReport:
    """Rows copied per table and where the copy went."""

    source: str
    destination: str
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def _chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while part := list(islice(it, size)):
        yield part


def _rows(store: Store, text: str) -> list[tuple[Any, ...]]:
    """A read-only catalog query on either backend."""
    query = getattr(store, "query", None)
    if query is not None:
        return list(query(text))
    return list(store.execute(text).fetchall())  # type: ignore[attr-defined]


def copy_store(
    src: Store, dst: Store, *, batch: int = 5000, on_table: Callable[[str, int], None] | None = None
) -> dict[str, int]:
    """Copy every table of `src` into the empty `dst`, one transaction per batch; returns rows per table."""
    if dst.count("documents") or dst.count("chunks"):
        raise MigrationError("the destination index is not empty; migrate into a new folder or schema")
    counts: dict[str, int] = {}

    def done(table: str, n: int) -> None:
        counts[table] = counts.get(table, 0) + n
        if on_table:
            on_table(table, n)

    for key, value in _rows(src, "SELECT key, value FROM meta"):
        if not key.startswith(SKIP_META):
            dst.set_meta(key, value)
    for doc in src.list_documents():
        dst.upsert_document(doc)
        done("documents", 1)
    for part in _chunked(src.iter_chunks(batch), batch):
        ids = [c.chunk_id for c in part]
        mentions = src.entities_of_chunks(ids)
        with dst.transaction():
            dst.add_chunks(part)
            dst.add_mentions((cid, eid) for cid, eids in mentions.items() for eid in eids)
        done("chunks", len(part))
        done("mentions", sum(len(v) for v in mentions.values()))
    for (kind,) in _rows(src, "SELECT DISTINCT kind FROM vectors ORDER BY kind"):
        matrix = src.vector_matrix(kind)  # already in memory: a server destination takes it in one COPY, so
        step = len(matrix.ids) if hasattr(dst, "build_vector_index") else batch  # its HNSW index is bulk-built once
        for start in range(0, len(matrix.ids), max(step, 1)):
            dst.put_vectors(kind, matrix.ids[start : start + step], matrix.matrix[start : start + step])
        done("vectors", len(matrix.ids))
    _copy_graph(src, dst, batch, done)
    for (kind,) in _rows(src, "SELECT DISTINCT kind FROM edges ORDER BY kind"):
        for part in _chunked(src.edges(kind), batch * 4):
            dst.put_edges(kind, part)
            done("edges", len(part))
    for stage, item, status, info in _rows(src, "SELECT stage, item_key, status, info FROM progress"):
        if status == "done":
            dst.mark_done(stage, [item], info)
        else:
            dst.mark_failed(stage, item, info)
        done("progress", 1)
    for u in src.usage():
        dst.add_usage(
            u["stage"], u["model"], u["calls"], u["prompt_tokens"], u["completion_tokens"], u["seconds"], u["usd"]
        )
        done("llm_usage", 1)
    return counts


def _copy_graph(src: Store, dst: Store, batch: int, done: Callable[[str, int], None]) -> None:
    """Entities, relations with support, merge log, sub-chunks, keywords, communities with members."""
    for part in _chunked(src.iter_entities(), batch):
        dst.upsert_entities(part)
        done("entities", len(part))
    for rels in _chunked(src.iter_relations(), batch):
        support = src.relation_support([r.relation_id for r in rels])
        with dst.transaction():
            dst.upsert_relations(rels)
            dst.add_relation_support((rid, cid) for rid, cids in support.items() for cid in cids)
        done("relations", len(rels))
        done("relation_support", sum(len(v) for v in support.values()))
    for m in src.merges(include_undone=True):
        new_id = dst.add_merge(m["kept_id"], m["merged_ids"], m["reason"], m["snapshot"])
        if m["undone"]:
            dst.mark_merge_undone(new_id)
        done("merge_log", 1)
    for subs in _chunked(src.iter_subchunks(), batch):
        dst.replace_subchunks([], subs)
        done("subchunks", len(subs))
    for kws in _chunked(src.iter_keywords(), batch):
        dst.upsert_keywords(kws)
        done("keywords", len(kws))
    communities = list(src.iter_communities())
    members = src.community_members([c.community_id for c in communities])
    pairs = [(cid, eid) for cid, eids in members.items() for eid in eids]
    community_vectors = src.vector_matrix("community")
    with dst.transaction():
        dst.replace_communities(communities, pairs)  # also clears community vectors: put them back
        if community_vectors.ids:
            dst.put_vectors("community", community_vectors.ids, community_vectors.matrix)
    done("communities", len(communities))
    done("community_members", len(pairs))


def verify_counts(src: Store, dst: Store) -> None:
    """Raise MigrationError unless every table has as many rows in `dst` as in `src`."""
    diffs = {t: (src.count(t), dst.count(t)) for t in VERIFIED_TABLES if src.count(t) != dst.count(t)}
    if diffs:
        detail = ", ".join(f"{t}: {a} -> {b}" for t, (a, b) in diffs.items())
        raise MigrationError(f"row counts differ after the copy ({detail})")


def _open_source(location: str) -> tuple[Store, Path | None]:
    """The store at an index folder (embedded, or its backend.url) or a server URL naming its schema."""
    if "://" in location:
        if "schema=" not in location:
            raise MigrationError(f"{location}: name the index schema to copy from, e.g. {location}?schema=NAME")
        from kgrag.store.server import open_server_store

        return open_server_store(location, None), None
    root = Path(location)
    if not (root / CONFIG_FILE).exists():
        raise MigrationError(f"{root}: not a kgrag index (no {CONFIG_FILE})")

    return open_store(root), root


def _open_destination(location: str, src_root: Path | None) -> tuple[Store, Path | None, str]:
    """A server schema (named after the source folder unless `?schema=`) or a new embedded index folder."""
    if "://" in location:
        from kgrag.store.postgres_schema import parse_url
        from kgrag.store.server import open_server_store

        schema = parse_url(location, src_root).schema
        url = location if "schema=" in location else f"{location}{'&' if '?' in location else '?'}schema={schema}"
        return open_server_store(url, None), None, url
    root = Path(location)
    if (root / CONFIG_FILE).exists() or (root / STORE_FILE).exists():
        raise MigrationError(f"{root}: already an index; migrate into a new folder")
    root.mkdir(parents=True, exist_ok=True)
    from kgrag.store.sqlite import SqliteStore

    return SqliteStore(root / STORE_FILE), root, str(root)


def migrate(source: str, destination: str, *, batch: int = 5000, switch: bool = False) -> MigrationReport:
    """Copy the index at `source` (folder or URL) to `destination` (URL or new folder) and verify counts.

    With `switch`, a source folder is pointed at the server copy afterwards (its backend.url is written).
    """
    start = time.perf_counter()
    src, src_root = _open_source(source)
    try:
        dst, dst_root, dst_location = _open_destination(destination, src_root)
    except BaseException:
        src.close()
        raise
    try:
        counts = copy_store(src, dst, batch=batch)
        verify_counts(src, dst)
        if src_root is not None:
            dst.set_meta(CONFIG_META, (src_root / CONFIG_FILE).read_text(encoding="utf-8"))
        if dst_root is not None:
            (dst_root / CONFIG_FILE).write_text(src.get_meta(CONFIG_META) or dump_settings_toml(Settings()), "utf-8")
    finally:
        src.close()
        dst.close()
    if switch and src_root is not None and dst_root is None:
        (src_root / "backend.url").write_text(dst_location + "\n", encoding="utf-8")
    return MigrationReport(source, dst_location, counts, time.perf_counter() - start)
