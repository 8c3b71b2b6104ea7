"""Question routes: POST /ask, POST /ask/stream (server-sent events), POST /search, GET /strategies."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Literal

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from kgrag.answer import answer_options, stream_answer
from kgrag.models.usage import llm_stage
from kgrag.retrieve.base import strategy_descriptions
from kgrag.server.deps import get_state
from kgrag.server.graphview import context_subgraph
from kgrag.server.state import ServerState
from kgrag.types import Answer, Context

router = APIRouter(tags=["questions"])
ANSWER_STAGE = "answer"  # LLM usage of questions is reported under this stage in GET /stats
_END = object()


class AskRequest(BaseModel):
    """A question, optionally with a strategy name (GET /strategies), a token budget and a version filter."""

    question: str = Field(min_length=1, max_length=4000)
    strategy: str | None = Field(None, max_length=100)
    budget: int | None = Field(None, ge=50, le=200_000)
    version: str | None = Field(None, max_length=100)
    mode: Literal["auto", "extractive", "generative"] | None = None  # default: the index's [answer] mode

    def options(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "budget": self.budget, "version": self.version}


def context_payload(state: ServerState, context: Context) -> dict[str, Any]:
    return {**context.to_dict(), "subgraph": context_subgraph(state.index.store, context)}


def answer_payload(state: ServerState, answer: Answer, started: float) -> dict[str, Any]:
    """The answer with citations, context items, display subgraph, token counts and timings."""
    ctx = answer.context
    data = answer.to_dict()
    data["subgraph"] = data["context"]["subgraph"] = context_subgraph(state.index.store, ctx)
    data["tokens"] = {"context": ctx.tokens, "budget": ctx.budget, **answer.usage}
    data["timings"] = {**ctx.timings, **answer.timings, "total_s": time.perf_counter() - started}
    return data


@router.get("/strategies", summary="Registered retrieval strategies with one-line descriptions")
def strategies(state: ServerState = Depends(get_state)) -> list[dict[str, Any]]:
    default = state.index.settings.retrieval.strategy
    return [{"name": n, "description": d, "default": n == default} for n, d in strategy_descriptions().items()]


@router.post("/search", summary="Retrieved context only (no answer), with scores, provenance and subgraph")
def search(req: AskRequest, state: ServerState = Depends(get_state)) -> dict[str, Any]:
    state.ready_embedder()
    return context_payload(state, state.index.search(req.question, **req.options()))


@router.post("/ask", summary="A grounded answer with citations, context, subgraph, token counts and timings")
def ask(req: AskRequest, state: ServerState = Depends(get_state)) -> dict[str, Any]:
    started = time.perf_counter()
    state.ready_embedder()
    with llm_stage(ANSWER_STAGE):
        answer = state.index.ask(req.question, mode=req.mode, **req.options())
    return answer_payload(state, answer, started)


def sse(event: str, data: Any) -> str:
    """One server-sent event; data is JSON so newlines in tokens survive."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def _events(state: ServerState, req: AskRequest, out: Callable[[Any], None], cancel: threading.Event) -> None:
    """Retrieve, then stream the answer into `out`, stopping early once `cancel` is set."""
    started = time.perf_counter()
    state.ready_embedder()
    context = state.index.search(req.question, **req.options())
    subgraph = context_subgraph(state.index.store, context)
    gen_start = time.perf_counter()
    events = stream_answer(state.index.llm, context.question, context, embedder=state.index.embedder,
                           **answer_options(state.index.settings, req.mode))
    first_token: float | None = None
    try:
        for event in events:
            if cancel.is_set():
                return
            name, data = event["event"], event["data"]
            if name == "token" and first_token is None:
                first_token = time.perf_counter() - started
            if name == "sources":
                data = {"blocks": data, "subgraph": subgraph}
            elif name == "done":
                data["subgraph"] = data["context"]["subgraph"] = subgraph
                data["tokens"] = {"context": context.tokens, "budget": context.budget}
                now = time.perf_counter()
                data["timings"] = {**context.timings, "generate_s": now - gen_start, "total_s": now - started,
                                   "first_token_s": first_token}
            out((name, data))
    finally:
        events.close()  # releases the LLM lock at once when the client went away


def _produce(state: ServerState, req: AskRequest, out: Callable[[Any], None], cancel: threading.Event) -> None:
    """The stream's producer thread: events, or one `error` event, then the end marker."""
    try:
        with llm_stage(ANSWER_STAGE):
            _events(state, req, out, cancel)
    except Exception as exc:  # sent to the client as an `error` event
        out(("error", {"detail": str(exc), "type": type(exc).__name__}))
    finally:
        out(_END)


@router.post(
    "/ask/stream",
    summary="Server-sent events: `sources` (numbered blocks + subgraph), `token` pieces, then `done` (citations)",
    response_class=StreamingResponse,
)
async def ask_stream(req: AskRequest, state: ServerState = Depends(get_state)) -> StreamingResponse:
    loop = asyncio.get_running_loop()
    pending: asyncio.Queue = asyncio.Queue()
    cancel = threading.Event()

    def put(item: Any) -> None:
        """Hand an event from the producer thread to the event loop (dropped once the server is shutting down)."""
        try:
            loop.call_soon_threadsafe(pending.put_nowait, item)
        except RuntimeError:
            cancel.set()

    threading.Thread(target=_produce, args=(state, req, put, cancel), daemon=True, name="kgrag-stream").start()

    async def events() -> AsyncIterator[str]:
        try:
            while True:
                item = await pending.get()
                if item is _END:
                    return
                yield sse(*item)
        finally:
            cancel.set()

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)
