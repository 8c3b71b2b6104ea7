"""Graph and statistics routes: GET /graph/entity/{name}?hops=1..3 and GET /stats."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query

from kgrag.server.deps import get_state
from kgrag.server.graphview import MAX_NEIGHBOURHOOD_NODES, find_entities, neighbourhood
from kgrag.server.state import ServerState

router = APIRouter(tags=["graph"])


@router.get("/graph/entity/{name:path}", summary="An entity's neighbourhood: entities and relations within `hops`")
def entity(
    name: str,
    hops: int = Query(1, ge=1, le=3, description="Relation hops from the entity (1-3)."),
    limit: int = Query(MAX_NEIGHBOURHOOD_NODES, ge=1, le=1000, description="At most this many entities."),
    state: ServerState = Depends(get_state),
) -> dict[str, Any]:
    store = state.index.store
    start = find_entities(store, name)
    if not start:
        raise HTTPException(404, detail=f"no entity named {name!r} in the graph")
    return neighbourhood(store, start, hops, limit)


@router.get("/stats", summary="Counts, LLM usage and cost per stage, indexing jobs")
def stats(state: ServerState = Depends(get_state)) -> dict[str, Any]:
    data = state.index.stats()
    usage = data["llm_usage"]
    data["llm_totals"] = {
        key: sum(row.get(key) or 0 for row in usage)
        for key in ("calls", "prompt_tokens", "completion_tokens", "seconds", "usd")
    }
    data["derived_stale"] = state.index.store.get_meta("derived_stale") == "1"
    jobs = state.jobs.all()
    data["jobs"] = {s: sum(j.status == s for j in jobs) for s in ("queued", "running", "done", "failed")}
    return data
