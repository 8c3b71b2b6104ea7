"""Graph-side store logic both SQL backends share (entities, relations, mentions, merge log, sub-chunks,
keywords, edges, communities), written once over the dialect hooks of `SqlBase`."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from kgrag.store.sql_base import SqlBase, batches
from kgrag.types import Community, Entity, Keyword, Relation, SubChunk

_ENTITY_SELECT = "SELECT entity_id, name, type, description, aliases FROM entities"
_RELATION_SELECT = "SELECT relation_id, source_id, target_id, type, description, weight FROM relations"
_SUBCHUNK_SELECT = "SELECT subchunk_id, chunk_id, ord, text, tokens FROM subchunks"
_KEYWORD_SELECT = "SELECT keyword_id, term, description FROM keywords"
_COMMUNITY_COLS = ("community_id", "level", "parent_id", "title", "summary", "full_content", "key_terms")
_COMMUNITY_SELECT = f"SELECT {', '.join(_COMMUNITY_COLS)} FROM communities"


def _entity(r: Sequence[Any]) -> Entity:
    return Entity(r[0], r[1], r[2], r[3], json.loads(r[4]))


def _community(r: Sequence[Any]) -> Community:
    return Community(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), json.loads(r[6]))


class SqlGraph(SqlBase):
    """The graph half of a store; the backend adds `find_entities`, `add_merge` and `upsert_keywords`."""

    def _grouped(self, query: str, column: str, ids: Sequence[str], *, key: int = 0,
                 extra: Sequence[Any] = ()) -> dict[str, list[str]]:  # fmt: skip
        """Two-column rows of `query` (`{where}`: `column` in a batch of `ids`, then `extra` parameters), grouped
        by column `key`."""
        out: dict[str, list[str]] = defaultdict(list)
        for part in batches(ids, self.ID_BATCH):
            where, params = self._in(column, part)
            for row in self._rows(query.format(where=where), [*params, *extra]):
                out[row[key]].append(row[1 - key])
        return dict(out)

    # -- entities -----------------------------------------------------------------------------------
    def upsert_entities(self, entities: Sequence[Entity]) -> None:
        with self.transaction():
            self._put_rows(
                "entities", ("entity_id", "name", "type", "description", "aliases"),
                [(e.entity_id, e.name, e.type, e.description, json.dumps(e.aliases)) for e in entities],
                key=("entity_id",),
            )  # fmt: skip
            self.bump_generation("graph")

    def _entities(self, where: str, params: Sequence[Any]) -> list[Entity]:
        return [_entity(r) for r in self._rows(f"{_ENTITY_SELECT} {where}", params)]

    def get_entities(self, entity_ids: Sequence[str]) -> list[Entity]:
        return self._by_ids(_ENTITY_SELECT, "entity_id", entity_ids, _entity)

    def iter_entities(self) -> Iterator[Entity]:
        yield from self._entities("ORDER BY entity_id", ())

    def delete_entities(self, entity_ids: Sequence[str]) -> None:
        """Delete entities with their relations, mentions, community memberships and vectors."""
        with self.transaction():
            for part in batches(entity_ids, self.ID_BATCH):
                (src, p), (dst, q) = self._in("source_id", part), self._in("target_id", part)
                self.delete_relations([r[0] for r in self._rows(
                    f"SELECT relation_id FROM relations WHERE {src} OR {dst}", p + q)])  # fmt: skip
                for table in ("entities", "mentions", "community_members"):
                    self._delete_in(table, "entity_id", part)
                self._delete_in("vectors", "item_id", part, extra="kind = 'entity' AND ")
            self.bump_generation("graph")
            self.bump_generation("vectors:entity")

    # -- relations ----------------------------------------------------------------------------------
    def upsert_relations(self, relations: Sequence[Relation]) -> None:
        with self.transaction():
            self._put_rows(
                "relations", ("relation_id", "source_id", "target_id", "type", "description", "weight"),
                [(r.relation_id, r.source_id, r.target_id, r.type, r.description, r.weight) for r in relations],
                key=("relation_id",),
            )  # fmt: skip
            self.bump_generation("graph")

    def add_relation_support(self, pairs: Iterable[tuple[str, str]]) -> None:
        """(relation_id, chunk_id) rows: which chunks support a relation."""
        cols = ("relation_id", "chunk_id")
        self._put_rows("relation_support", cols, list(pairs), key=cols, replace=False)

    def _relations(self, where: str, params: Sequence[Any]) -> list[Relation]:
        return [Relation(*r) for r in self._rows(f"{_RELATION_SELECT} {where}", params)]

    def get_relations(self, relation_ids: Sequence[str]) -> list[Relation]:
        return self._by_ids(_RELATION_SELECT, "relation_id", relation_ids, lambda r: Relation(*r))

    def relations_of(self, entity_ids: Sequence[str]) -> list[Relation]:
        """Relations with either end in `entity_ids`."""
        found: dict[str, Relation] = {}
        for part in batches(entity_ids, self.ID_BATCH):
            (src, p), (dst, q) = self._in("source_id", part), self._in("target_id", part)
            for r in self._relations(f"WHERE {src} OR {dst}", p + q):
                found[r.relation_id] = r
        return list(found.values())

    def iter_relations(self) -> Iterator[Relation]:
        yield from self._relations("ORDER BY relation_id", ())

    def relation_support(self, relation_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped("SELECT relation_id, chunk_id FROM relation_support WHERE {where} "
                             "ORDER BY relation_id, chunk_id", "relation_id", relation_ids)  # fmt: skip

    def delete_relations(self, relation_ids: Sequence[str]) -> None:
        with self.transaction():
            for part in batches(relation_ids, self.ID_BATCH):
                self._delete_in("relations", "relation_id", part)
                self._delete_in("relation_support", "relation_id", part)
            self.bump_generation("graph")

    # -- mentions -----------------------------------------------------------------------------------
    def add_mentions(self, pairs: Iterable[tuple[str, str]]) -> None:
        """(chunk_id, entity_id) rows."""
        with self.transaction():
            cols = ("chunk_id", "entity_id")
            self._put_rows("mentions", cols, list(pairs), key=cols, replace=False)
            self.bump_generation("graph")

    def entities_of_chunks(self, chunk_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped("SELECT chunk_id, entity_id FROM mentions WHERE {where} ORDER BY chunk_id, entity_id",
                             "chunk_id", chunk_ids)  # fmt: skip

    def chunks_of_entities(self, entity_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped("SELECT entity_id, chunk_id FROM mentions WHERE {where} ORDER BY entity_id, chunk_id",
                             "entity_id", entity_ids)  # fmt: skip

    def prune_graph(self) -> dict[str, int]:
        """Drop relations no chunk supports, then entities no chunk mentions and no relation uses."""
        with self.transaction():
            rel = self._exec(
                "DELETE FROM relations WHERE NOT EXISTS "
                "(SELECT 1 FROM relation_support s WHERE s.relation_id = relations.relation_id)"
            )
            orphan_ids = [r[0] for r in self._rows(
                "SELECT e.entity_id FROM entities e "
                "WHERE NOT EXISTS (SELECT 1 FROM mentions m WHERE m.entity_id = e.entity_id) "
                "AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.source_id = e.entity_id) "
                "AND NOT EXISTS (SELECT 1 FROM relations r WHERE r.target_id = e.entity_id)"
            )]  # fmt: skip
            self.delete_entities(orphan_ids)
            if rel:
                self.bump_generation("graph")
        return {"relations": rel, "entities": len(orphan_ids)}

    # -- merge log ----------------------------------------------------------------------------------
    def merges(self, include_undone: bool = False) -> list[dict[str, Any]]:
        where = "" if include_undone else "WHERE undone = 0"
        keys = ("merge_id", "created_at", "kept_id", "merged_ids", "reason", "snapshot", "undone")
        rows = self._rows(f"SELECT {', '.join(keys)} FROM merge_log {where} ORDER BY merge_id")
        return [
            {**dict(zip(keys, r, strict=True)), "merged_ids": json.loads(r[3]), "snapshot": json.loads(r[5]),
             "undone": bool(r[6])}
            for r in rows
        ]  # fmt: skip

    def mark_merge_undone(self, merge_id: int) -> None:
        self._exec("UPDATE merge_log SET undone = 1 WHERE merge_id = ?", (merge_id,))

    def clear_merges(self) -> None:
        self._exec("DELETE FROM merge_log")

    # -- sub-chunks and keywords --------------------------------------------------------------------
    def replace_subchunks(self, chunk_ids: Sequence[str], subchunks: Sequence[SubChunk]) -> None:
        """Replace the sub-chunks of `chunk_ids` with `subchunks`."""
        with self.transaction():
            for part in batches(chunk_ids, self.ID_BATCH):
                self._delete_in("subchunks", "chunk_id", part)
            self._put_rows(
                "subchunks", ("subchunk_id", "chunk_id", "ord", "text", "tokens"),
                [(s.subchunk_id, s.chunk_id, s.ord, s.text, s.tokens) for s in subchunks], key=("subchunk_id",),
            )  # fmt: skip
            self.bump_generation("edges")

    def get_subchunks(self, subchunk_ids: Sequence[str]) -> list[SubChunk]:
        return self._by_ids(_SUBCHUNK_SELECT, "subchunk_id", subchunk_ids, lambda r: SubChunk(*r))

    def iter_subchunks(self) -> Iterator[SubChunk]:
        for r in self._rows(f"{_SUBCHUNK_SELECT} ORDER BY chunk_id, ord"):
            yield SubChunk(*r)

    def get_keywords(self, keyword_ids: Sequence[str]) -> list[Keyword]:
        return self._by_ids(_KEYWORD_SELECT, "keyword_id", keyword_ids, lambda r: Keyword(*r))

    def iter_keywords(self) -> Iterator[Keyword]:
        for r in self._rows(f"{_KEYWORD_SELECT} ORDER BY keyword_id"):
            yield Keyword(*r)

    def delete_keywords(self, keyword_ids: Sequence[str] | None = None) -> None:
        with self.transaction():
            if keyword_ids is None:
                self._exec("DELETE FROM keywords")
                self._exec("DELETE FROM vectors WHERE kind IN ('keyword', 'kwsum')")
            else:
                for part in batches(keyword_ids, self.ID_BATCH):
                    self._delete_in("keywords", "keyword_id", part)
                    self._delete_in("vectors", "item_id", part, extra="kind IN ('keyword', 'kwsum') AND ")
            self.bump_generation("vectors:keyword")
            self.bump_generation("vectors:kwsum")

    # -- generic typed edges (KNN chunk graph, keyword-subchunk graph, ...) -------------------------
    def put_edges(self, kind: str, edges: Iterable[tuple[str, str, float]]) -> None:
        with self.transaction():
            self._put_rows("edges", ("kind", "src", "dst", "weight"), [(kind, s, d, w) for s, d, w in edges],
                           key=("kind", "src", "dst"))  # fmt: skip
            self.bump_generation("edges")

    def delete_edges(self, kind: str) -> None:
        with self.transaction():
            self._exec("DELETE FROM edges WHERE kind = ?", (kind,))
            self.bump_generation("edges")

    def edges(self, kind: str) -> list[tuple[str, str, float]]:
        return [(r[0], r[1], r[2]) for r in self._rows(
            "SELECT src, dst, weight FROM edges WHERE kind = ? ORDER BY src, dst", (kind,))]  # fmt: skip

    # -- communities --------------------------------------------------------------------------------
    def replace_communities(self, communities: Sequence[Community], members: Iterable[tuple[str, str]]) -> None:
        """Replace all communities and their (community_id, entity_id) memberships atomically."""
        with self.transaction():
            self._exec("DELETE FROM communities")
            self._exec("DELETE FROM community_members")
            self._exec("DELETE FROM vectors WHERE kind = 'community'")
            self.upsert_communities(communities)
            cols = ("community_id", "entity_id")
            self._put_rows("community_members", cols, list(members), key=cols, replace=False)
            self.bump_generation("vectors:community")

    def upsert_communities(self, communities: Sequence[Community]) -> None:
        self._put_rows(
            "communities", _COMMUNITY_COLS,
            [(c.community_id, c.level, c.parent_id, c.title, c.summary, json.dumps(c.full_content, sort_keys=True),
              json.dumps(c.key_terms)) for c in communities],
            key=("community_id",),
        )  # fmt: skip

    def _communities(self, where: str, params: Sequence[Any]) -> list[Community]:
        return [_community(r) for r in self._rows(f"{_COMMUNITY_SELECT} {where}", params)]

    def get_communities(self, community_ids: Sequence[str]) -> list[Community]:
        return self._by_ids(_COMMUNITY_SELECT, "community_id", community_ids, _community)

    def iter_communities(self, level: int | None = None) -> Iterator[Community]:
        if level is None:
            yield from self._communities("ORDER BY level, community_id", ())
        else:
            yield from self._communities("WHERE level = ? ORDER BY community_id", (level,))

    def community_members(self, community_ids: Sequence[str]) -> dict[str, list[str]]:
        return self._grouped("SELECT community_id, entity_id FROM community_members WHERE {where} "
                             "ORDER BY community_id, entity_id", "community_id", community_ids)  # fmt: skip

    def communities_of_entities(self, entity_ids: Sequence[str], level: int | None = None) -> dict[str, list[str]]:
        at_level = " AND c.level = ?" if level is not None else ""
        return self._grouped("SELECT m.entity_id, m.community_id FROM community_members m JOIN communities c "
                             "ON c.community_id = m.community_id WHERE {where}" + at_level
                             + " ORDER BY m.entity_id, m.community_id", "m.entity_id", entity_ids,
                             extra=(level,) if level is not None else ())  # fmt: skip
