"""Optional API key: every API route requires header `X-API-Key` when the server was started with a key."""

from __future__ import annotations

import hmac
from pathlib import Path

from fastapi import HTTPException, Request, Security
from fastapi.security import APIKeyHeader

from kgrag.errors import ConfigError

API_KEY_HEADER = "X-API-Key"
api_key_header = APIKeyHeader(name=API_KEY_HEADER, auto_error=False, description="Set when the server has a key.")


def require_api_key(request: Request, key: str | None = Security(api_key_header)) -> None:
    """401 unless the configured key matches (constant-time compare); no key configured: open."""
    expected: str | None = request.app.state.kgrag.api_key
    if expected is None:
        return
    if key is None or not hmac.compare_digest(key.encode("utf-8"), expected.encode("utf-8")):
        raise HTTPException(status_code=401, detail=f"missing or wrong API key (send header {API_KEY_HEADER})")


def read_api_key(path: Path) -> str:
    """The key stored in `path` (first line, stripped); refuses an empty file."""
    try:
        lines = path.read_text(encoding="utf-8").strip().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read the API key ({exc})") from exc
    key = lines[0].strip() if lines else ""
    if not key:
        raise ConfigError(f"{path}: the API key file is empty")
    return key
