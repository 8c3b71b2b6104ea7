"""The tri-graph stage: sentence vectors (from the embedding cache) and entity-sentence edges, no LLM.

Runs after the keyword graph (order 26) so that every sentence vector is already in the embedder's
cache; resumable per chunk. Needed by the `trigraph` and `fused` strategies.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from kgrag.stages import register_stage

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace


@register_stage("trigraph", 26, "Tri-graph: entities (capitalised spans) <-> sentences (vectors) <-> passages, for PPR")
def trigraph_stage(index: Workspace, progress: Progress) -> dict[str, Any]:
    from kgrag.graph.trigraph import ensure_trigraph

    start = time.perf_counter()
    done = ensure_trigraph(index, progress)
    return {"chunks": done, "seconds": round(time.perf_counter() - start, 3)}
