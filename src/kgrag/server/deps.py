"""FastAPI dependencies shared by the route modules."""

from __future__ import annotations

from fastapi import Request

from kgrag.server.state import ServerState


def get_state(request: Request) -> ServerState:
    """The process-wide server state (one shared Index)."""
    return request.app.state.kgrag
