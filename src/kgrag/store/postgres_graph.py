"""Server store, part 3: the graph methods whose SQL is PostgreSQL's own (the rest is shared in `SqlGraph`)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from kgrag.store.sql_graph import SqlGraph
from kgrag.types import Entity, Keyword


class PgGraph(SqlGraph):
    """Case-insensitive name lookup, merge-log ids and keyword upserts in PostgreSQL's dialect."""

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose name equals `name` case-insensitively."""
        return self._entities("WHERE lower(name) = lower(?) ORDER BY entity_id", (name,))

    def add_merge(self, kept_id: str, merged_ids: Sequence[str], reason: str, snapshot: dict[str, Any]) -> int:
        rows = self._rows(
            "INSERT INTO merge_log(created_at, kept_id, merged_ids, reason, snapshot) VALUES (?,?,?,?,?) "
            "RETURNING merge_id",
            (time.time(), kept_id, json.dumps(list(merged_ids)), reason, json.dumps(snapshot)),
        )
        return int(rows[0][0])

    def upsert_keywords(self, keywords: Sequence[Keyword]) -> None:
        """Insert or replace keywords; like SQLite's OR REPLACE, a new id for an existing term replaces the old row."""
        by_term = {k.term: k for k in keywords}  # the last keyword of a repeated term wins
        self._upsert(
            "keywords", ("keyword_id", "term", "description"),
            ((k.keyword_id, k.term, k.description) for k in by_term.values()), key=("keyword_id",),
            pre="DELETE FROM keywords k USING pg_temp._stage_keywords s "
                "WHERE (k.term = s.term AND k.keyword_id <> s.keyword_id)",
        )  # fmt: skip
