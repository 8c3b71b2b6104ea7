"""Index verification: an order-independent digest of the logical content, and internal consistency checks.

Two indexes built from the same input (a clean run, or a run killed and resumed) must have equal
digests. The digest covers documents, chunks, graph, KET-RAG structures and community membership;
it excludes timestamps, caches, vectors (only their presence is checked) and LLM usage counters.
Only the Store protocol is used, so every backend can be verified.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kgrag.store.base import Store

# edge kind -> (source node kind, target node kind), from the stages that write them
EDGE_ENDPOINTS = {
    "kw_chunk": ("keyword", "chunk"),
    "knn": ("chunk", "chunk"),
    "kw_sub": ("keyword", "subchunk"),
    "ent_sub": ("entity", "subchunk"),
    "rel_sub": ("relation", "subchunk"),
}
VECTOR_KINDS = ("chunk", "subchunk", "entity", "keyword", "community")
MAX_EXAMPLES = 5  # ids quoted per problem


@dataclass
class VerifyReport:
    """Digest (overall and per section), counts, and the consistency problems found."""

    digest: str = ""
    sections: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "digest": self.digest, "sections": self.sections, "counts": self.counts,
                "problems": self.problems}


def _hash_rows(rows: Iterable[Any]) -> tuple[str, int]:
    """sha256 over the sorted canonical JSON of `rows` (order-independent), and the row count."""
    lines = sorted(json.dumps(r, sort_keys=True, ensure_ascii=False, default=str) for r in rows)
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest(), len(lines)


def _w(x: float) -> float:
    """A weight rounded so float noise from summation order does not change the digest."""
    return round(float(x), 6)


class _Snapshot:
    """Everything read once from the store: rows of every logical table."""

    def __init__(self, store: Store) -> None:
        self.documents = store.list_documents()
        self.chunks = list(store.iter_chunks())
        self.entities = list(store.iter_entities())
        self.relations = list(store.iter_relations())
        self.subchunks = list(store.iter_subchunks())
        self.keywords = list(store.iter_keywords())
        self.communities = list(store.iter_communities())
        entity_ids = [e.entity_id for e in self.entities]
        self.mentions = {(c, e) for e, cs in store.chunks_of_entities(entity_ids).items() for c in cs}
        support = store.relation_support([r.relation_id for r in self.relations])
        self.support = {(r, c) for r, cs in support.items() for c in cs}
        members = store.community_members([c.community_id for c in self.communities])
        self.members = {(c, e) for c, es in members.items() for e in es}
        self.edges = {kind: store.edges(kind) for kind in EDGE_ENDPOINTS}
        self.vectors = {kind: set(store.vector_matrix(kind).ids) for kind in VECTOR_KINDS}
        self.core = store.get_meta("ket:core")
        self.merges = store.merges(include_undone=True)
        self.ids = {
            "document": {d.doc_id for d in self.documents},
            "chunk": {c.chunk_id for c in self.chunks},
            "entity": set(entity_ids),
            "relation": {r.relation_id for r in self.relations},
            "subchunk": {s.subchunk_id for s in self.subchunks},
            "keyword": {k.keyword_id for k in self.keywords},
            "community": {c.community_id for c in self.communities},
        }


def _sections(s: _Snapshot) -> dict[str, list[Any]]:
    """The logical rows of each digest section."""
    by_community: dict[str, list[str]] = {}
    for cid, eid in s.members:
        by_community.setdefault(cid, []).append(eid)
    level = {c.community_id: c.level for c in s.communities}
    return {
        "documents": [[d.doc_id, d.path, d.title, d.content_hash, d.product, d.category, d.version, d.meta]
                      for d in s.documents],
        "chunks": [[c.chunk_id, c.doc_id, c.ord, c.text, c.section, c.page_start, c.page_end, c.product,
                    c.category, c.tokens, c.meta] for c in s.chunks],
        "entities": [[e.entity_id, e.name, e.type, e.description, sorted(e.aliases)] for e in s.entities],
        "relations": [[r.relation_id, r.source_id, r.target_id, r.type, r.description, _w(r.weight)]
                      for r in s.relations],
        "mentions": sorted(s.mentions),
        "support": sorted(s.support),
        "subchunks": [[x.subchunk_id, x.chunk_id, x.ord, x.text] for x in s.subchunks],
        "keywords": [[k.keyword_id, k.term, k.description] for k in s.keywords],
        "edges": [[kind, a, b, _w(w)] for kind, rows in s.edges.items() for a, b, w in rows],
        "core": sorted(json.loads(s.core)["ids"]) if s.core else [],
        "communities": [[level.get(cid, -1), sorted(eids)] for cid, eids in by_community.items()],
        "merges": [[m["kept_id"], sorted(m["merged_ids"]), m["reason"], m["undone"]] for m in s.merges],
    }


def _missing(problems: list[str], what: str, items: Iterable[Any]) -> None:
    """Add one problem line naming how many `items` there are and a few examples."""
    found = sorted({str(i) for i in items})
    if found:
        examples = ", ".join(found[:MAX_EXAMPLES]) + (" ..." if len(found) > MAX_EXAMPLES else "")
        problems.append(f"{len(found)} {what}: {examples}")


def _check_rows(store: Store, s: _Snapshot, problems: list[str]) -> None:
    """Dangling references, orphans and missing vectors."""
    ids = s.ids
    _missing(problems, "chunks of a missing document", (c.chunk_id for c in s.chunks if c.doc_id not in ids["document"]))
    _missing(problems, "chunks without a vector", ids["chunk"] - s.vectors["chunk"])
    for kind in VECTOR_KINDS:
        _missing(problems, f"'{kind}' vectors of a missing {kind}", s.vectors[kind] - ids[kind])
    _missing(problems, "subchunks without a vector", ids["subchunk"] - s.vectors["subchunk"])
    _missing(problems, "mentions of a missing chunk", (f"{c}->{e}" for c, e in s.mentions if c not in ids["chunk"]))
    _missing(problems, "support rows of a missing chunk", (f"{r}<-{c}" for r, c in s.support if c not in ids["chunk"]))
    _missing(problems, "relations with a missing endpoint", (r.relation_id for r in s.relations
                                                            if r.source_id not in ids["entity"]
                                                            or r.target_id not in ids["entity"]))
    supported = {r for r, _ in s.support}
    _missing(problems, "relations without supporting chunks", ids["relation"] - supported)
    linked = {e for _, e in s.mentions} | {r.source_id for r in s.relations} | {r.target_id for r in s.relations}
    _missing(problems, "orphan entities (no mention, no relation)", ids["entity"] - linked)
    _missing(problems, "subchunks of a missing chunk", (x.subchunk_id for x in s.subchunks
                                                        if x.chunk_id not in ids["chunk"]))
    _missing(problems, "community members that are missing entities",
             (f"{c}:{e}" for c, e in s.members if e not in ids["entity"]))
    for kind, (src_kind, dst_kind) in EDGE_ENDPOINTS.items():
        _missing(problems, f"'{kind}' edges with a missing end", (f"{a}->{b}" for a, b, _ in s.edges[kind]
                                                                  if a not in ids[src_kind] or b not in ids[dst_kind]))
    keyword_links = {a for a, _, _ in s.edges["kw_chunk"]}
    _missing(problems, "orphan keywords (in no chunk)", ids["keyword"] - keyword_links)
    # rows whose owner is missing are invisible through the owner: compare with the table counts
    for table, seen in (("mentions", s.mentions), ("relation_support", s.support), ("community_members", s.members)):
        extra = store.count(table) - len(seen)
        if extra:
            problems.append(f"{extra} {table} rows point to a missing entity/relation/community")


def _check_fts(store: Store, s: _Snapshot, problems: list[str]) -> None:
    """Embedded store only: every chunk row has exactly one full-text row."""
    execute = getattr(store, "execute", None)
    if execute is None or not hasattr(store, "path"):
        return
    try:
        indexed = execute("SELECT COUNT(*) FROM chunk_fts_docsize").fetchone()[0]
        missing = execute("SELECT chunk_id FROM chunks WHERE rowid NOT IN (SELECT id FROM chunk_fts_docsize)").fetchall()
    except Exception:  # noqa: BLE001 - not the embedded schema: nothing to check here
        return
    _missing(problems, "chunks without a full-text row", (r[0] for r in missing))
    if indexed != len(s.chunks):
        problems.append(f"full-text index has {indexed} rows for {len(s.chunks)} chunks")


def _check_progress(store: Store, s: _Snapshot, problems: list[str]) -> None:
    """A 'done' progress record only for items whose results exist."""
    from kgrag.graph.build import STAGE as GRAPH
    from kgrag.graph.keyword_graph import STAGE as KWGRAPH
    from kgrag.graph.keywords import STAGE as KEYWORDS
    from kgrag.graph.subchunks import STAGE as SUBCHUNKS
    from kgrag.indexing import INGEST_STAGE

    chunks = s.ids["chunk"]
    _missing(problems, "'ingest' done records of missing documents", store.done_keys(INGEST_STAGE) - s.ids["document"])
    for stage in (KEYWORDS, KWGRAPH):
        _missing(problems, f"'{stage}' done records of missing chunks", store.done_keys(stage) - chunks)
    split = {x.chunk_id for x in s.subchunks}
    _missing(problems, f"'{SUBCHUNKS}' done records without subchunks", store.done_keys(SUBCHUNKS) - split)
    graph_done = {k.split(":", 1)[1] for k in store.done_keys(GRAPH) if ":" in k}
    _missing(problems, f"'{GRAPH}' done records of missing chunks", graph_done - chunks)


def verify_store(store: Store) -> VerifyReport:
    """Digest and consistency report of one store (read-only)."""
    snap = _Snapshot(store)
    report = VerifyReport()
    overall = hashlib.sha256()
    for name, rows in _sections(snap).items():
        digest, n = _hash_rows(rows)
        report.sections[name] = digest
        report.counts[name] = n
        overall.update(f"{name}:{digest}\n".encode())
    report.digest = overall.hexdigest()
    _check_rows(store, snap, report.problems)
    _check_fts(store, snap, report.problems)
    _check_progress(store, snap, report.problems)
    return report


def compare(a: VerifyReport, b: VerifyReport) -> list[str]:
    """Names of the digest sections that differ between two reports."""
    return [name for name in sorted(set(a.sections) | set(b.sections)) if a.sections.get(name) != b.sections.get(name)]
