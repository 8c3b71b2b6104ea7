"""Embedded store, part 2: entities, relations, mentions, merge log, sub-chunks, keywords, edges, communities."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from kgrag.types import Community, Entity, Keyword, Relation, SubChunk


def _marks(n: int) -> str:
    return ",".join("?" * n)


def _batches(ids: Sequence[str], size: int = 400) -> Iterator[list[str]]:
    ids = list(dict.fromkeys(ids))
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


class SqliteGraph:
    """Graph-side tables of `SqliteStore`; relies on `execute`/`executemany`/`transaction` of the core."""

    # -- entities ---------------------------------------------------------------------------------
    def upsert_entities(self, entities: Sequence[Entity]) -> None:
        self.executemany(
            "INSERT OR REPLACE INTO entities(entity_id, name, type, description, aliases) VALUES (?,?,?,?,?)",
            [(e.entity_id, e.name, e.type, e.description, json.dumps(e.aliases)) for e in entities],
        )
        self.bump_generation("graph")

    def _entities(self, where: str, params: Sequence[Any]) -> list[Entity]:
        rows = self.execute(f"SELECT entity_id, name, type, description, aliases FROM entities {where}", params)
        return [Entity(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    def get_entities(self, entity_ids: Sequence[str]) -> list[Entity]:
        found: dict[str, Entity] = {}
        for part in _batches(entity_ids):
            for e in self._entities(f"WHERE entity_id IN ({_marks(len(part))})", part):
                found[e.entity_id] = e
        return [found[i] for i in dict.fromkeys(entity_ids) if i in found]

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose name equals `name` case-insensitively."""
        return self._entities("WHERE name = ? COLLATE NOCASE", (name,))

    def iter_entities(self) -> Iterator[Entity]:
        yield from self._entities("ORDER BY entity_id", ())

    def delete_entities(self, entity_ids: Sequence[str]) -> None:
        """Delete entities with their relations, mentions, community memberships and vectors."""
        with self.transaction():
            for part in _batches(entity_ids):
                m = _marks(len(part))
                rel_ids = [
                    r[0]
                    for r in self.execute(
                        f"SELECT relation_id FROM relations WHERE source_id IN ({m}) OR target_id IN ({m})", part + part
                    )
                ]
                self.delete_relations(rel_ids)
                self.execute(f"DELETE FROM entities WHERE entity_id IN ({m})", part)
                self.execute(f"DELETE FROM mentions WHERE entity_id IN ({m})", part)
                self.execute(f"DELETE FROM community_members WHERE entity_id IN ({m})", part)
                self.execute(f"DELETE FROM vectors WHERE kind = 'entity' AND item_id IN ({m})", part)
            self.bump_generation("graph")
            self.bump_generation("vectors:entity")

    # -- relations --------------------------------------------------------------------------------
    def upsert_relations(self, relations: Sequence[Relation]) -> None:
        self.executemany(
            "INSERT OR REPLACE INTO relations(relation_id, source_id, target_id, type, description, weight) "
            "VALUES (?,?,?,?,?,?)",
            [(r.relation_id, r.source_id, r.target_id, r.type, r.description, r.weight) for r in relations],
        )
        self.bump_generation("graph")

    def add_relation_support(self, pairs: Iterable[tuple[str, str]]) -> None:
        """(relation_id, chunk_id) rows: which chunks support a relation."""
        self.executemany("INSERT OR IGNORE INTO relation_support(relation_id, chunk_id) VALUES (?,?)", list(pairs))

    def _relations(self, where: str, params: Sequence[Any]) -> list[Relation]:
        rows = self.execute(
            f"SELECT relation_id, source_id, target_id, type, description, weight FROM relations {where}", params
        )
        return [Relation(*r) for r in rows]

    def get_relations(self, relation_ids: Sequence[str]) -> list[Relation]:
        out: list[Relation] = []
        for part in _batches(relation_ids):
            out.extend(self._relations(f"WHERE relation_id IN ({_marks(len(part))})", part))
        return out

    def relations_of(self, entity_ids: Sequence[str]) -> list[Relation]:
        """Relations with either end in `entity_ids`."""
        found: dict[str, Relation] = {}
        for part in _batches(entity_ids, 300):
            m = _marks(len(part))
            for r in self._relations(f"WHERE source_id IN ({m}) OR target_id IN ({m})", part + part):
                found[r.relation_id] = r
        return list(found.values())

    def iter_relations(self) -> Iterator[Relation]:
        yield from self._relations("ORDER BY relation_id", ())

    def _grouped(self, sql: str, ids: Sequence[str], *, key: int = 0, extra: Sequence[Any] = ()) -> dict[str, list[str]]:
        """Two-column rows of `sql` (`{marks}` stands for the id list) for `ids` in batches, grouped by column `key`."""
        out: dict[str, list[str]] = defaultdict(list)
        for part in _batches(ids):
            for row in self.execute(sql.format(marks=_marks(len(part))), [*part, *extra]):
                out[row[key]].append(row[1 - key])
        return dict(out)

    def relation_support(self, relation_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped("SELECT relation_id, chunk_id FROM relation_support WHERE relation_id IN ({marks}) "
                             "ORDER BY relation_id, chunk_id", relation_ids)

    def delete_relations(self, relation_ids: Sequence[str]) -> None:
        for part in _batches(relation_ids):
            m = _marks(len(part))
            self.execute(f"DELETE FROM relations WHERE relation_id IN ({m})", part)
            self.execute(f"DELETE FROM relation_support WHERE relation_id IN ({m})", part)
        self.bump_generation("graph")

    # -- mentions ---------------------------------------------------------------------------------
    def add_mentions(self, pairs: Iterable[tuple[str, str]]) -> None:
        """(chunk_id, entity_id) rows."""
        self.executemany("INSERT OR IGNORE INTO mentions(chunk_id, entity_id) VALUES (?,?)", list(pairs))
        self.bump_generation("graph")

    def entities_of_chunks(self, chunk_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped("SELECT chunk_id, entity_id FROM mentions WHERE chunk_id IN ({marks}) "
                             "ORDER BY chunk_id, entity_id", chunk_ids)

    def chunks_of_entities(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped("SELECT chunk_id, entity_id FROM mentions WHERE entity_id IN ({marks}) "
                             "ORDER BY entity_id, chunk_id", entity_ids, key=1)

    def prune_graph(self) -> dict[str, int]:
        """Drop relations no chunk supports, then entities no chunk mentions and no relation uses."""
        with self.transaction():
            rel = self.execute(
                "DELETE FROM relations WHERE relation_id NOT IN (SELECT relation_id FROM relation_support)"
            ).rowcount
            orphan_ids = [
                r[0]
                for r in self.execute(
                    "SELECT entity_id FROM entities WHERE entity_id NOT IN (SELECT entity_id FROM mentions) "
                    "AND entity_id NOT IN (SELECT source_id FROM relations) "
                    "AND entity_id NOT IN (SELECT target_id FROM relations)"
                )
            ]
            self.delete_entities(orphan_ids)
        return {"relations": rel, "entities": len(orphan_ids)}

    # -- merge log --------------------------------------------------------------------------------
    def add_merge(self, kept_id: str, merged_ids: Sequence[str], reason: str, snapshot: dict[str, Any]) -> int:
        cur = self.execute(
            "INSERT INTO merge_log(created_at, kept_id, merged_ids, reason, snapshot) VALUES (?,?,?,?,?)",
            (time.time(), kept_id, json.dumps(list(merged_ids)), reason, json.dumps(snapshot)),
        )
        return int(cur.lastrowid or 0)

    def merges(self, include_undone: bool = False) -> list[dict[str, Any]]:
        where = "" if include_undone else "WHERE undone = 0"
        rows = self.execute(
            f"SELECT merge_id, created_at, kept_id, merged_ids, reason, snapshot, undone "
            f"FROM merge_log {where} ORDER BY merge_id"
        ).fetchall()
        return [
            {
                "merge_id": r[0],
                "created_at": r[1],
                "kept_id": r[2],
                "merged_ids": json.loads(r[3]),
                "reason": r[4],
                "snapshot": json.loads(r[5]),
                "undone": bool(r[6]),
            }
            for r in rows
        ]

    def mark_merge_undone(self, merge_id: int) -> None:
        self.execute("UPDATE merge_log SET undone = 1 WHERE merge_id = ?", (merge_id,))

    # -- sub-chunks and keywords ------------------------------------------------------------------
    def replace_subchunks(self, chunk_ids: Sequence[str], subchunks: Sequence[SubChunk]) -> None:
        """Replace the sub-chunks of `chunk_ids` with `subchunks`."""
        with self.transaction():
            for part in _batches(chunk_ids):
                self.execute(f"DELETE FROM subchunks WHERE chunk_id IN ({_marks(len(part))})", part)
            self.executemany(
                "INSERT OR REPLACE INTO subchunks(subchunk_id, chunk_id, ord, text, tokens) VALUES (?,?,?,?,?)",
                [(s.subchunk_id, s.chunk_id, s.ord, s.text, s.tokens) for s in subchunks],
            )
            self.bump_generation("edges")

    def get_subchunks(self, subchunk_ids: Sequence[str]) -> list[SubChunk]:
        found: dict[str, SubChunk] = {}
        for part in _batches(subchunk_ids):
            for r in self.execute(
                f"SELECT subchunk_id, chunk_id, ord, text, tokens FROM subchunks "
                f"WHERE subchunk_id IN ({_marks(len(part))})",
                part,
            ):
                found[r[0]] = SubChunk(*r)
        return [found[i] for i in dict.fromkeys(subchunk_ids) if i in found]

    def iter_subchunks(self) -> Iterator[SubChunk]:
        for r in self.execute("SELECT subchunk_id, chunk_id, ord, text, tokens FROM subchunks ORDER BY chunk_id, ord"):
            yield SubChunk(*r)

    def upsert_keywords(self, keywords: Sequence[Keyword]) -> None:
        self.executemany(
            "INSERT OR REPLACE INTO keywords(keyword_id, term, description) VALUES (?,?,?)",
            [(k.keyword_id, k.term, k.description) for k in keywords],
        )

    def get_keywords(self, keyword_ids: Sequence[str]) -> list[Keyword]:
        found: dict[str, Keyword] = {}
        for part in _batches(keyword_ids):
            for r in self.execute(
                f"SELECT keyword_id, term, description FROM keywords WHERE keyword_id IN ({_marks(len(part))})", part
            ):
                found[r[0]] = Keyword(*r)
        return [found[i] for i in dict.fromkeys(keyword_ids) if i in found]

    def iter_keywords(self) -> Iterator[Keyword]:
        for r in self.execute("SELECT keyword_id, term, description FROM keywords ORDER BY keyword_id"):
            yield Keyword(*r)

    def delete_keywords(self, keyword_ids: Sequence[str] | None = None) -> None:
        if keyword_ids is None:
            self.execute("DELETE FROM keywords")
            self.execute("DELETE FROM vectors WHERE kind IN ('keyword', 'kwsum')")
        else:
            for part in _batches(keyword_ids):
                m = _marks(len(part))
                self.execute(f"DELETE FROM keywords WHERE keyword_id IN ({m})", part)
                self.execute(f"DELETE FROM vectors WHERE kind IN ('keyword', 'kwsum') AND item_id IN ({m})", part)
        self.bump_generation("vectors:keyword")
        self.bump_generation("vectors:kwsum")

    # -- generic typed edges (KNN chunk graph, keyword-subchunk graph, ...) -----------------------
    def put_edges(self, kind: str, edges: Iterable[tuple[str, str, float]]) -> None:
        self.executemany(
            "INSERT OR REPLACE INTO edges(kind, src, dst, weight) VALUES (?,?,?,?)",
            [(kind, s, d, w) for s, d, w in edges],
        )
        self.bump_generation("edges")

    def delete_edges(self, kind: str) -> None:
        self.execute("DELETE FROM edges WHERE kind = ?", (kind,))
        self.bump_generation("edges")

    def edges(self, kind: str) -> list[tuple[str, str, float]]:
        return [
            (r[0], r[1], r[2])
            for r in self.execute("SELECT src, dst, weight FROM edges WHERE kind = ? ORDER BY src, dst", (kind,))
        ]

    # -- communities ------------------------------------------------------------------------------
    def replace_communities(self, communities: Sequence[Community], members: Iterable[tuple[str, str]]) -> None:
        """Replace all communities and their (community_id, entity_id) memberships atomically."""
        with self.transaction():
            self.execute("DELETE FROM communities")
            self.execute("DELETE FROM community_members")
            self.execute("DELETE FROM vectors WHERE kind = 'community'")
            self.upsert_communities(communities)
            self.executemany(
                "INSERT OR IGNORE INTO community_members(community_id, entity_id) VALUES (?,?)", list(members)
            )
            self.bump_generation("vectors:community")

    def upsert_communities(self, communities: Sequence[Community]) -> None:
        self.executemany(
            "INSERT OR REPLACE INTO communities(community_id, level, parent_id, title, summary, full_content, key_terms) "
            "VALUES (?,?,?,?,?,?,?)",
            [
                (
                    c.community_id,
                    c.level,
                    c.parent_id,
                    c.title,
                    c.summary,
                    json.dumps(c.full_content, sort_keys=True),
                    json.dumps(c.key_terms),
                )
                for c in communities
            ],
        )

    def _communities(self, where: str, params: Sequence[Any]) -> list[Community]:
        rows = self.execute(
            f"SELECT community_id, level, parent_id, title, summary, full_content, key_terms FROM communities {where}",
            params,
        )
        return [Community(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6])) for r in rows]

    def get_communities(self, community_ids: Sequence[str]) -> list[Community]:
        found: dict[str, Community] = {}
        for part in _batches(community_ids):
            for c in self._communities(f"WHERE community_id IN ({_marks(len(part))})", part):
                found[c.community_id] = c
        return [found[i] for i in dict.fromkeys(community_ids) if i in found]

    def iter_communities(self, level: int | None = None) -> Iterator[Community]:
        if level is None:
            yield from self._communities("ORDER BY level, community_id", ())
        else:
            yield from self._communities("WHERE level = ? ORDER BY community_id", (level,))

    def community_members(self, community_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped("SELECT community_id, entity_id FROM community_members WHERE community_id IN ({marks}) "
                             "ORDER BY community_id, entity_id", community_ids)

    def communities_of_entities(self, entity_ids: Sequence[str], level: int | None = None) -> dict[str, list[str]]:
        at_level = " AND c.level = ?" if level is not None else ""
        return self._grouped("SELECT m.entity_id, m.community_id FROM community_members m JOIN communities c "
                             "ON c.community_id = m.community_id WHERE m.entity_id IN ({marks})" + at_level
                             + " ORDER BY m.entity_id, m.community_id", entity_ids,
                             extra=(level,) if level is not None else ())
