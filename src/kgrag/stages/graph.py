"""Indexing stage `graph`: the configured extractor (default `rules`) + merge, resolution and entity vectors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgrag.stages import register_stage

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace


@register_stage("graph", 30, "knowledge graph: extract entities/relations, merge, resolve, embed entities")
def graph_stage(index: Workspace, progress: Progress) -> dict[str, object]:
    """Extract from chunks not done yet, resolve duplicates deterministically, embed new/changed entities."""
    from kgrag.graph.build import build_graph, embed_entities
    from kgrag.graph.resolve import resolve_entities

    settings = index.settings.graph
    report = build_graph(index, settings.extractor, max_llm_tokens=settings.max_llm_tokens or None, progress=progress)
    resolved = resolve_entities(index.store)
    if resolved.kept_ids:
        embed_entities(index, set(resolved.kept_ids))
    return {"build": report.to_dict(), "resolve": resolved.to_dict()}
