"""The FastAPI application: `create_app(index_path)` serves the API (OpenAPI at /docs) and the web page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from kgrag.errors import IndexLockedError, IndexNotFoundError, KgragError, UnknownStrategyError
from kgrag.index import Index
from kgrag.server.routes import documents, graph, questions
from kgrag.server.security import require_api_key
from kgrag.server.state import DEFAULT_MAX_UPLOAD_BYTES, ServerState
from kgrag.server.uploads import UploadError

JSON_BODY_LIMIT = 1024 * 1024  # every request except uploads
STATIC_DIR = Path(str(resources.files("kgrag.server") / "static"))


def _status_for(exc: KgragError) -> int:
    if isinstance(exc, UploadError):
        return exc.status
    if isinstance(exc, IndexLockedError):
        return 409
    if isinstance(exc, IndexNotFoundError):
        return 404
    if isinstance(exc, UnknownStrategyError):
        return 422
    return 400


async def _kgrag_error(request: Request, exc: Exception) -> JSONResponse:
    """User-actionable errors become JSON `{detail}` with a fitting status instead of a 500."""
    assert isinstance(exc, KgragError)
    return JSONResponse({"detail": str(exc), "type": type(exc).__name__}, status_code=_status_for(exc))


def create_app(
    index_path: str | Path, api_key: str | None = None, max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES
) -> FastAPI:
    """An app over one index folder; with `api_key`, every API route needs header X-API-Key."""
    state = ServerState(Index.open(index_path), api_key=api_key, max_upload_bytes=max_upload_bytes)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        state.close()

    app = FastAPI(
        title="kgrag",
        summary="Knowledge-graph-enhanced RAG over your documents: ask, search, manage documents, explore the graph.",
        version="0.1.0",
        lifespan=lifespan,
        max_body_size=JSON_BODY_LIMIT,
    )
    app.state.kgrag = state
    app.add_exception_handler(KgragError, _kgrag_error)
    protected = [Depends(require_api_key)]
    app.include_router(questions.router, dependencies=protected)
    app.include_router(documents.make_router(max_upload_bytes), dependencies=protected)
    app.include_router(graph.router, dependencies=protected)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        """The web page (public: it only holds the app; its API calls carry the key)."""
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    return app
