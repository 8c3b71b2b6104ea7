"""Server store, part 3: entities, relations, mentions, merge log, sub-chunks, keywords, edges, communities."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from kgrag.store.postgres_core import batches
from kgrag.types import Community, Entity, Keyword, Relation, SubChunk

_COMMUNITY_COLS = "community_id, level, parent_id, title, summary, full_content, key_terms"


def _pairs(table: str, a: str, b: str) -> str:
    """SELECT of (a, b) pairs filtered by an id array on `a`; callers swap a/b to group the other way."""
    return f"SELECT {a}, {b} FROM {table} WHERE {a} = ANY(%s) ORDER BY {a}, {b}"


class PgGraph:
    """Graph-side tables of `PostgresStore`; relies on the core's `_all`/`_run`/`_upsert`/`transaction`."""

    def _grouped(self, query: str, ids: Sequence[str]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for part in batches(ids):
            for key, value in self._all(query, (part,)):
                out[key].append(value)
        return dict(out)

    def _by_ids(self, query: str, ids: Sequence[str], make: Any) -> list[Any]:
        """Rows fetched by `= ANY(ids)` and returned in the order of `ids` (missing ones skipped)."""
        found: dict[str, Any] = {}
        for part in batches(ids):
            for row in self._all(query, (part,)):
                found[row[0]] = make(row)
        return [found[i] for i in dict.fromkeys(ids) if i in found]

    # -- entities ---------------------------------------------------------------------------------
    def upsert_entities(self, entities: Sequence[Entity]) -> None:
        with self.transaction():
            self._upsert(
                "entities", ("entity_id", "name", "type", "description", "aliases"),
                ((e.entity_id, e.name, e.type, e.description, json.dumps(e.aliases)) for e in entities),
                key=("entity_id",),
            )  # fmt: skip
            self.bump_generation("graph")

    def _entities(self, where: str, params: Sequence[Any]) -> list[Entity]:
        rows = self._all(f"SELECT entity_id, name, type, description, aliases FROM entities {where}", params)
        return [Entity(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    def get_entities(self, entity_ids: Sequence[str]) -> list[Entity]:
        return self._by_ids(
            "SELECT entity_id, name, type, description, aliases FROM entities WHERE entity_id = ANY(%s)",
            entity_ids,
            lambda r: Entity(r[0], r[1], r[2], r[3], json.loads(r[4])),
        )

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose name equals `name` case-insensitively."""
        return self._entities("WHERE lower(name) = lower(%s) ORDER BY entity_id", (name,))

    def iter_entities(self) -> Iterator[Entity]:
        yield from self._entities("ORDER BY entity_id", ())

    def delete_entities(self, entity_ids: Sequence[str]) -> None:
        """Delete entities with their relations, mentions, community memberships and vectors."""
        with self.transaction():
            for part in batches(entity_ids):
                rel_ids = [
                    r[0]
                    for r in self._all(
                        "SELECT relation_id FROM relations WHERE source_id = ANY(%s) OR target_id = ANY(%s)",
                        (part, part),
                    )
                ]
                self.delete_relations(rel_ids)
                self._run("DELETE FROM entities WHERE entity_id = ANY(%s)", (part,))
                self._run("DELETE FROM mentions WHERE entity_id = ANY(%s)", (part,))
                self._run("DELETE FROM community_members WHERE entity_id = ANY(%s)", (part,))
                self._run("DELETE FROM vectors WHERE kind = 'entity' AND item_id = ANY(%s)", (part,))
            self.bump_generation("graph")
            self.bump_generation("vectors:entity")

    # -- relations --------------------------------------------------------------------------------
    def upsert_relations(self, relations: Sequence[Relation]) -> None:
        with self.transaction():
            self._upsert(
                "relations", ("relation_id", "source_id", "target_id", "type", "description", "weight"),
                ((r.relation_id, r.source_id, r.target_id, r.type, r.description, r.weight) for r in relations),
                key=("relation_id",),
            )  # fmt: skip
            self.bump_generation("graph")

    def add_relation_support(self, pairs: Iterable[tuple[str, str]]) -> None:
        """(relation_id, chunk_id) rows: which chunks support a relation."""
        cols = ("relation_id", "chunk_id")
        self._upsert("relation_support", cols, pairs, key=cols, update=[])

    def _relations(self, where: str, params: Sequence[Any]) -> list[Relation]:
        rows = self._all(
            f"SELECT relation_id, source_id, target_id, type, description, weight FROM relations {where}", params
        )
        return [Relation(*r) for r in rows]

    def get_relations(self, relation_ids: Sequence[str]) -> list[Relation]:
        out: list[Relation] = []
        for part in batches(relation_ids):
            out.extend(self._relations("WHERE relation_id = ANY(%s)", (part,)))
        return out

    def relations_of(self, entity_ids: Sequence[str]) -> list[Relation]:
        """Relations with either end in `entity_ids`."""
        found: dict[str, Relation] = {}
        for part in batches(entity_ids):
            for r in self._relations("WHERE source_id = ANY(%s) OR target_id = ANY(%s)", (part, part)):
                found[r.relation_id] = r
        return list(found.values())

    def iter_relations(self) -> Iterator[Relation]:
        yield from self._relations("ORDER BY relation_id", ())

    def relation_support(self, relation_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped(_pairs("relation_support", "relation_id", "chunk_id"), relation_ids)

    def delete_relations(self, relation_ids: Sequence[str]) -> None:
        with self.transaction():
            for part in batches(relation_ids):
                self._run("DELETE FROM relations WHERE relation_id = ANY(%s)", (part,))
                self._run("DELETE FROM relation_support WHERE relation_id = ANY(%s)", (part,))
            self.bump_generation("graph")

    # -- mentions ---------------------------------------------------------------------------------
    def add_mentions(self, pairs: Iterable[tuple[str, str]]) -> None:
        """(chunk_id, entity_id) rows."""
        with self.transaction():
            self._upsert("mentions", ("chunk_id", "entity_id"), pairs, key=("chunk_id", "entity_id"), update=[])
            self.bump_generation("graph")

    def entities_of_chunks(self, chunk_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped(_pairs("mentions", "chunk_id", "entity_id"), chunk_ids)

    def chunks_of_entities(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped(_pairs("mentions", "entity_id", "chunk_id"), entity_ids)

    def prune_graph(self) -> dict[str, int]:
        """Drop relations no chunk supports, then entities no chunk mentions and no relation uses."""
        with self.transaction():
            rel = self._run(
                "DELETE FROM relations r WHERE NOT EXISTS "
                "(SELECT 1 FROM relation_support s WHERE s.relation_id = r.relation_id)"
            )
            orphan_ids = [
                r[0]
                for r in self._all(
                    "SELECT e.entity_id FROM entities e "
                    "WHERE NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.entity_id) "
                    "AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.source_id = e.entity_id) "
                    "AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.target_id = e.entity_id)"
                )
            ]
            self.delete_entities(orphan_ids)
            if rel:
                self.bump_generation("graph")
        return {"relations": rel, "entities": len(orphan_ids)}

    # -- merge log --------------------------------------------------------------------------------
    def add_merge(self, kept_id: str, merged_ids: Sequence[str], reason: str, snapshot: dict[str, Any]) -> int:
        rows = self._all(
            "INSERT INTO merge_log(created_at, kept_id, merged_ids, reason, snapshot) VALUES (%s,%s,%s,%s,%s) "
            "RETURNING merge_id",
            (time.time(), kept_id, json.dumps(list(merged_ids)), reason, json.dumps(snapshot)),
        )
        return int(rows[0][0])

    def merges(self, include_undone: bool = False) -> list[dict[str, Any]]:
        where = "" if include_undone else "WHERE undone = 0"
        rows = self._all(
            f"SELECT merge_id, created_at, kept_id, merged_ids, reason, snapshot, undone FROM merge_log {where} "
            "ORDER BY merge_id"
        )
        keys = ("merge_id", "created_at", "kept_id", "merged_ids", "reason", "snapshot", "undone")
        return [
            {**dict(zip(keys, r, strict=True)), "merged_ids": json.loads(r[3]), "snapshot": json.loads(r[5]),
             "undone": bool(r[6])}
            for r in rows
        ]  # fmt: skip

    def mark_merge_undone(self, merge_id: int) -> None:
        self._run("UPDATE merge_log SET undone = 1 WHERE merge_id = %s", (merge_id,))

    # -- sub-chunks and keywords ------------------------------------------------------------------
    def replace_subchunks(self, chunk_ids: Sequence[str], subchunks: Sequence[SubChunk]) -> None:
        """Replace the sub-chunks of `chunk_ids` with `subchunks`."""
        with self.transaction():
            for part in batches(chunk_ids):
                self._run("DELETE FROM subchunks WHERE chunk_id = ANY(%s)", (part,))
            self._upsert(
                "subchunks", ("subchunk_id", "chunk_id", "ord", "text", "tokens"),
                ((s.subchunk_id, s.chunk_id, s.ord, s.text, s.tokens) for s in subchunks), key=("subchunk_id",),
            )  # fmt: skip
            self.bump_generation("edges")

    def get_subchunks(self, subchunk_ids: Sequence[str]) -> list[SubChunk]:
        return self._by_ids(
            "SELECT subchunk_id, chunk_id, ord, text, tokens FROM subchunks WHERE subchunk_id = ANY(%s)",
            subchunk_ids,
            lambda r: SubChunk(*r),
        )

    def iter_subchunks(self) -> Iterator[SubChunk]:
        for r in self._all("SELECT subchunk_id, chunk_id, ord, text, tokens FROM subchunks ORDER BY chunk_id, ord"):
            yield SubChunk(*r)

    def upsert_keywords(self, keywords: Sequence[Keyword]) -> None:
        """Insert or replace keywords; like SQLite's OR REPLACE, a new id for an existing term replaces the old row."""
        by_term = {k.term: k for k in keywords}  # the last keyword of a repeated term wins
        self._upsert(
            "keywords", ("keyword_id", "term", "description"),
            ((k.keyword_id, k.term, k.description) for k in by_term.values()), key=("keyword_id",),
            pre="DELETE FROM keywords k USING pg_temp._stage_keywords s "
                "WHERE (k.term = s.term AND k.keyword_id <> s.keyword_id)",
        )  # fmt: skip

    def get_keywords(self, keyword_ids: Sequence[str]) -> list[Keyword]:
        return self._by_ids(
            "SELECT keyword_id, term, description FROM keywords WHERE keyword_id = ANY(%s)", keyword_ids,
            lambda r: Keyword(*r),
        )  # fmt: skip

    def iter_keywords(self) -> Iterator[Keyword]:
        for r in self._all("SELECT keyword_id, term, description FROM keywords ORDER BY keyword_id"):
            yield Keyword(*r)

    def delete_keywords(self, keyword_ids: Sequence[str] | None = None) -> None:
        with self.transaction():
            if keyword_ids is None:
                self._run("DELETE FROM keywords")
                self._run("DELETE FROM vectors WHERE kind IN ('keyword', 'kwsum')")
            else:
                for part in batches(keyword_ids):
                    self._run("DELETE FROM keywords WHERE keyword_id = ANY(%s)", (part,))
                    self._run("DELETE FROM vectors WHERE kind IN ('keyword', 'kwsum') AND item_id = ANY(%s)", (part,))
            self.bump_generation("vectors:keyword")
            self.bump_generation("vectors:kwsum")

    # -- generic typed edges (KNN chunk graph, keyword-subchunk graph, ...) -----------------------
    def put_edges(self, kind: str, edges: Iterable[tuple[str, str, float]]) -> None:
        with self.transaction():
            self._upsert(
                "edges", ("kind", "src", "dst", "weight"), ((kind, s, d, w) for s, d, w in edges),
                key=("kind", "src", "dst"),
            )  # fmt: skip
            self.bump_generation("edges")

    def delete_edges(self, kind: str) -> None:
        with self.transaction():
            self._run("DELETE FROM edges WHERE kind = %s", (kind,))
            self.bump_generation("edges")

    def edges(self, kind: str) -> list[tuple[str, str, float]]:
        return [
            (r[0], r[1], r[2])
            for r in self._all("SELECT src, dst, weight FROM edges WHERE kind = %s ORDER BY src, dst", (kind,))
        ]

    # -- communities ------------------------------------------------------------------------------
    def replace_communities(self, communities: Sequence[Community], members: Iterable[tuple[str, str]]) -> None:
        """Replace all communities and their (community_id, entity_id) memberships atomically."""
        with self.transaction():
            self._run("DELETE FROM communities")
            self._run("DELETE FROM community_members")
            self._run("DELETE FROM vectors WHERE kind = 'community'")
            self.upsert_communities(communities)
            cols = ("community_id", "entity_id")
            self._upsert("community_members", cols, members, key=cols, update=[])
            self.bump_generation("vectors:community")

    def upsert_communities(self, communities: Sequence[Community]) -> None:
        self._upsert(
            "communities", tuple(_COMMUNITY_COLS.split(", ")),
            ((c.community_id, c.level, c.parent_id, c.title, c.summary, json.dumps(c.full_content, sort_keys=True),
              json.dumps(c.key_terms)) for c in communities),
            key=("community_id",),
        )  # fmt: skip

    def _communities(self, where: str, params: Sequence[Any]) -> list[Community]:
        rows = self._all(f"SELECT {_COMMUNITY_COLS} FROM communities {where}", params)
        return [Community(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6])) for r in rows]

    def get_communities(self, community_ids: Sequence[str]) -> list[Community]:
        return self._by_ids(
            f"SELECT {_COMMUNITY_COLS} FROM communities WHERE community_id = ANY(%s)", community_ids,
            lambda r: Community(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6])),
        )  # fmt: skip

    def iter_communities(self, level: int | None = None) -> Iterator[Community]:
        if level is None:
            yield from self._communities("ORDER BY level, community_id", ())
        else:
            yield from self._communities("WHERE level = %s ORDER BY community_id", (level,))

    def community_members(self, community_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped(_pairs("community_members", "community_id", "entity_id"), community_ids)

    def communities_of_entities(self, entity_ids: Sequence[str], level: int | None = None) -> dict[str, list[str]]:
        level_sql = " AND c.level = %s" if level is not None else ""
        out: dict[str, list[str]] = defaultdict(list)
        for part in batches(entity_ids):
            params: list[Any] = [part] + ([level] if level is not None else [])
            for eid, cid in self._all(
                "SELECT m.entity_id, m.community_id FROM community_members m JOIN communities c "
                f"ON c.community_id = m.community_id WHERE m.entity_id = ANY(%s){level_sql} "
                "ORDER BY m.entity_id, m.community_id",
                params,
            ):
                out[eid].append(cid)
        return dict(out)
