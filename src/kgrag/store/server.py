"""Entry point for server backends: `open_server_store(url, root)` picks the implementation by URL scheme."""

from __future__ import annotations

from pathlib import Path

from kgrag.errors import KgragError
from kgrag.store.base import Store


class BackendUnavailableError(KgragError):
    """The server backend's client libraries are missing or the server cannot be reached."""


def open_server_store(url: str, root: Path | None) -> Store:
    """The store for backend `url` (postgresql://user@host:port/db[?schema=NAME]) of the index at `root`."""
    scheme = url.split(":", 1)[0].lower()
    if scheme not in ("postgresql", "postgres"):
        raise KgragError(f"unsupported backend URL {url!r}: only postgresql://... is supported")
    try:
        import psycopg

        from kgrag.store.postgres import PostgresStore
    except ImportError as exc:  # the optional `server` extra is not installed
        raise BackendUnavailableError(
            f"backend {url} needs the server extra: pip install 'kgrag[server]' ({exc})"
        ) from exc
    try:
        return PostgresStore.from_url(url, root)
    except psycopg.OperationalError as exc:
        raise BackendUnavailableError(
            f"cannot connect to {url}: {str(exc).strip()}; start a local server with `kgrag db start`"
        ) from exc
