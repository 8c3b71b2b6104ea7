"""Indexing stage `communities`: hierarchical Leiden communities of the entity graph, with summaries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgrag.stages import register_stage

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace


@register_stage(
    "communities",
    50,
    "Leiden communities of entities (similarity + relations), profiles, LLM summaries, vectors",
)
def run(index: Workspace, progress: Progress) -> dict[str, object]:
    """Build or refresh the communities; unchanged profiles keep their summaries (see graph/community_build)."""
    from kgrag.graph.community_build import build_communities

    return build_communities(index, summaries=index.settings.llm.provider != "fake", progress=progress).to_dict()
