"""KET-RAG indexing stages: keywords, KNN chunk graph, core chunks, sub-chunks, keyword graph, skeleton.

They run before the graph stage (30) except `skeleton` (35), which runs the configured extractor on
the core chunks only and then rewires the skeleton's text units to sub-chunks. Each is resumable:
per-chunk progress (keywords, sub-chunks, keyword graph, extraction) or a signature (KNN graph).
"""

from __future__ import annotations

import importlib
import time
from typing import TYPE_CHECKING, Any

from kgrag.stages import register_stage

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace


def _timed(fn: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return {"result": result, "seconds": round(time.perf_counter() - start, 3)}


def _runner(module: str, function: str) -> Any:
    """A stage running `module.function(index, progress)`, imported on first use, timed."""

    def run(index: Workspace, progress: Progress) -> dict[str, Any]:
        return _timed(getattr(importlib.import_module(module), function), index, progress)

    return run


for _name, _order, _description, _module, _function in (
    ("keywords", 10, "KET-RAG: keywords of every chunk (vocabulary, TF-IDF or noun phrases)", "keywords", "ensure_keywords"),
    ("knn", 15, "KET-RAG: KNN chunk graph (K/2 by shared keywords + K/2 by cosine)", "knn", "ensure_knn_graph"),
    ("subchunks", 22, "KET-RAG: split chunks into 2^tau sub-chunks (~subchunk_tokens), embed them", "subchunks",
     "ensure_subchunks"),
    ("keyword-graph", 25, "KET-RAG: keyword <-> sub-chunk graph, keyword descriptions and embeddings", "keyword_graph",
     "ensure_keyword_graph"),
):
    register_stage(_name, _order, _description)(_runner(f"kgrag.graph.{_module}", _function))


@register_stage("core", 20, "KET-RAG: core chunks = top ceil(beta*N) by PageRank over the KNN graph (or uniform)")
def core_stage(index: Workspace, progress: Progress) -> dict[str, Any]:
    from kgrag.graph.core import save_core, select_core_chunks

    g = index.settings.graph
    start = time.perf_counter()
    core = select_core_chunks(index, g.beta, g.core_selection, g.seed)
    save_core(index, core, g.beta, g.core_selection)
    return {"core": len(core), "beta": g.beta, "method": g.core_selection, "seconds": round(time.perf_counter() - start, 3)}


@register_stage("skeleton", 35, "KET-RAG: extract the KG skeleton from core chunks only, rewire it to sub-chunks")
def skeleton_stage(index: Workspace, progress: Progress) -> dict[str, Any]:
    return build_skeleton(index, progress)


def build_skeleton(index: Workspace, progress: Progress | None = None) -> dict[str, Any]:
    """Extract triples from the core chunks (none when beta = 0), then rewire the graph to sub-chunks."""
    from kgrag.graph.build import build_graph, embed_entities
    from kgrag.graph.core import load_core
    from kgrag.graph.subchunks import rewire_skeleton

    g = index.settings.graph
    start = time.perf_counter()
    if load_core(index) is None:
        core_stage(index, progress)  # type: ignore[arg-type]
    core = load_core(index) or set()
    out: dict[str, Any] = {"core_chunks": len(core), "beta": g.beta}
    if core:
        report = build_graph(index, g.extractor, budget=g.beta, method=g.core_selection, progress=progress)
        out["build"] = report.to_dict()
    out["entity_vectors"] = embed_entities(index, set())
    out["rewired"] = rewire_skeleton(index)
    out["seconds"] = round(time.perf_counter() - start, 3)
    return out
