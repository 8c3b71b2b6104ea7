"""The embedded default store: one SQLite file (WAL) with FTS5 BM25 and in-memory exact vector search."""

from __future__ import annotations

from kgrag.store.sqlite_core import SqliteCore
from kgrag.store.sqlite_graph import SqliteGraph
from kgrag.store.sqlite_vectors import SqliteVectors


class SqliteStore(SqliteCore, SqliteVectors, SqliteGraph):
    """Documents, chunks, vectors, graph, keywords, communities and progress in `<index>/index.sqlite`."""
