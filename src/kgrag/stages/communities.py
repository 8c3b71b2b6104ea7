"""Indexing stage `communities`: hierarchical Leiden communities of the entity graph, with summaries.

Summaries are extractive (from the community profile, no LLM) unless LLM summaries are asked for
(`--llm-summaries`) or an OpenAI-compatible endpoint is configured; then the estimate is shown first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kgrag.progress import note
from kgrag.stages import register_stage

if TYPE_CHECKING:
    from kgrag.graph.community_build import Prepared
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace


@register_stage(
    "communities",
    50,
    "Leiden communities of entities (similarity + relations), profiles, summaries (extractive by default), vectors",
)
def run(index: Workspace, progress: Progress) -> dict[str, object]:
    """Build or refresh the communities; unchanged profiles keep their summaries (see graph/community_build)."""
    from kgrag.graph.community_build import build_communities, summaries_wanted
    from kgrag.plan import format_cost, summary_cost

    def announce(prep: Prepared) -> None:
        note(progress, f"communities: LLM summaries of {len(prep.todo)} communities: "
                       f"{format_cost(summary_cost(index, prep.todo_profiles()))}")

    return build_communities(index, summaries=summaries_wanted(index), progress=progress, announce=announce).to_dict()
