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
        store = PostgresStore.from_url(url, root)
    except psycopg.OperationalError as exc:
        raise BackendUnavailableError(
            f"cannot connect to {url}: {str(exc).strip()}; start a local server with `kgrag db start`"
        ) from exc
    if root is not None:
        _pin_schema(Path(root), url, store.schema)
    return store


def _pin_schema(root: Path, url: str, schema: str) -> None:
    """Record the derived schema in `<index>/backend.url`, so moving or renaming the folder keeps its data."""
    marker = root / "backend.url"
    if "schema=" in url or not marker.exists() or marker.read_text(encoding="utf-8").strip() != url.strip():
        return
    marker.write_text(f"{url.strip()}{'&' if '?' in url else '?'}schema={schema}\n", encoding="utf-8")
