"""Embedded store, part 2: the graph methods whose SQL is SQLite's own (the rest is shared in `SqlGraph`)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from kgrag.store.sql_graph import SqlGraph
from kgrag.types import Entity, Keyword


class SqliteGraph(SqlGraph):
    """Case-insensitive name lookup, merge-log ids and keyword upserts in SQLite's dialect."""

    def find_entities(self, name: str) -> list[Entity]:
        """Entities whose name equals `name` case-insensitively."""
        return self._entities("WHERE name = ? COLLATE NOCASE", (name,))

    def add_merge(self, kept_id: str, merged_ids: Sequence[str], reason: str, snapshot: dict[str, Any]) -> int:
        cur = self.execute(
            "INSERT INTO merge_log(created_at, kept_id, merged_ids, reason, snapshot) VALUES (?,?,?,?,?)",
            (time.time(), kept_id, json.dumps(list(merged_ids)), reason, json.dumps(snapshot)),
        )
        return int(cur.lastrowid or 0)

    def upsert_keywords(self, keywords: Sequence[Keyword]) -> None:
        """Insert or replace keywords (OR REPLACE also drops an old row holding the same term)."""
        rows = [(k.keyword_id, k.term, k.description) for k in keywords]
        self._put_rows("keywords", ("keyword_id", "term", "description"), rows, key=("keyword_id",))
