"""The scale-out store: one PostgreSQL schema per index, pgvector HNSW vectors, tsvector/GIN full text."""

from __future__ import annotations

from pathlib import Path

from kgrag.store.postgres_core import PgCore
from kgrag.store.postgres_graph import PgGraph
from kgrag.store.postgres_schema import PgTarget, parse_url
from kgrag.store.postgres_vectors import PgVectors


class PostgresStore(PgCore, PgVectors, PgGraph):
    """Every `Store` method on a PostgreSQL server (psycopg 3 + connection pool), same semantics as SQLite."""

    @classmethod
    def from_url(cls, url: str, root: Path | None = None) -> PostgresStore:
        """Open (creating if needed) the index schema named by `?schema=` or derived from `root`."""
        return cls(parse_url(url, root))


__all__ = ["PgTarget", "PostgresStore"]
