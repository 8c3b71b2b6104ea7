"""Open the store an index folder is configured for: its embedded SQLite file or a server backend URL."""

from __future__ import annotations

import os
from pathlib import Path

from kgrag.store.base import Store

STORE_FILE = "index.sqlite"
BACKEND_MARKER = "backend.url"


def open_store(root: Path) -> Store:
    """`$KGRAG_BACKEND`, else the folder's backend.url, else the embedded SQLite file beside kgrag.toml."""
    backend = os.environ.get("KGRAG_BACKEND") or read_backend(root)
    if backend:
        from kgrag.store.server import open_server_store  # the scale-out backend

        return open_server_store(backend, root)
    from kgrag.store.sqlite import SqliteStore

    return SqliteStore(root / STORE_FILE)


def read_backend(root: Path) -> str:
    """The server URL pinned in the folder (empty for the embedded default)."""
    marker = root / BACKEND_MARKER
    return marker.read_text(encoding="utf-8").strip() if marker.exists() else ""
