"""KET-RAG indexing stages: keywords, KNN chunk graph, core chunks, sub-chunks, keyword graph, skeleton.

They run before the graph stage (30) except `skeleton` (35), which runs the configured extractor on
the core chunks only and then rewires the skeleton's text units to sub-chunks. Each is resumable:
per-chunk progress (keywords, sub-chunks, keyword graph, extraction) or a signature (KNN graph).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from kgrag.stages import register_stage

if TYPE_CHECKING:
    from kgrag.index import Index
    from kgrag.progress import Progress


def _timed(fn: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return {"result": result, "seconds": round(time.perf_counter() - start, 3)}


@register_stage("keywords", 10, "KET-RAG: keywords of every chunk (vocabulary, TF-IDF or noun phrases)")
def keywords_stage(index: Index, progress: Progress) -> dict[str, Any]:
    from kgrag.graph.keywords import ensure_keywords

    return _timed(ensure_keywords, index, progress)


@register_stage("knn", 15, "KET-RAG: KNN chunk graph (K/2 by shared keywords + K/2 by embedding cosine)")
def knn_stage(index: Index, progress: Progress) -> dict[str, Any]:
    from kgrag.graph.knn import ensure_knn_graph

    return _timed(ensure_knn_graph, index, progress)


@register_stage("core", 20, "KET-RAG: core chunks = top ceil(beta*N) by PageRank over the KNN graph (or uniform)")
def core_stage(index: Index, progress: Progress) -> dict[str, Any]:
    from kgrag.graph.core import save_core, select_core_chunks

    g = index.settings.graph
    start = time.perf_counter()
    core = select_core_chunks(index, g.beta, g.core_selection, g.seed)
    save_core(index, core, g.beta, g.core_selection)
    return {"core": len(core), "beta": g.beta, "method": g.core_selection, "seconds": round(time.perf_counter() - start, 3)}


@register_stage("subchunks", 22, "KET-RAG: split chunks into 2^tau sub-chunks (~subchunk_tokens) and embed them")
def subchunks_stage(index: Index, progress: Progress) -> dict[str, Any]:
    from kgrag.graph.subchunks import ensure_subchunks

    return _timed(ensure_subchunks, index, progress)


@register_stage("keyword-graph", 25, "KET-RAG: keyword <-> sub-chunk graph, keyword descriptions and embeddings")
def keyword_graph_stage(index: Index, progress: Progress) -> dict[str, Any]:
    from kgrag.graph.keyword_graph import ensure_keyword_graph

    return _timed(ensure_keyword_graph, index, progress)


@register_stage("skeleton", 35, "KET-RAG: extract the KG skeleton from core chunks only, rewire it to sub-chunks")
def skeleton_stage(index: Index, progress: Progress) -> dict[str, Any]:
    return build_skeleton(index, progress)


def build_skeleton(index: Index, progress: Progress | None = None) -> dict[str, Any]:
    """Extract triples from the saved core chunks (none when beta = 0), embed entities, rewire to sub-chunks."""
    from kgrag.graph.core import load_core
    from kgrag.graph.subchunks import rewire_skeleton

    start = time.perf_counter()
    core = load_core(index)
    if core is None:
        core_stage(index, progress)  # type: ignore[arg-type]
        core = load_core(index) or set()
    out: dict[str, Any] = {"core_chunks": len(core)}
    if core:
        from kgrag.graph.build import build_graph

        ordered = [cid for cid in index.store.chunk_ids() if cid in core]
        out["build"] = build_graph(index, chunk_ids=ordered, extractor=index.settings.graph.extractor, progress=progress)
    out["entity_vectors"] = embed_missing_entities(index)
    out["rewired"] = rewire_skeleton(index)
    out["seconds"] = round(time.perf_counter() - start, 3)
    return out


def embed_missing_entities(index: Index, batch: int = 256) -> int:
    """Embed 'name: description' of entities without a vector (local search seeds by entity vectors)."""
    store = index.store
    have = set(store.vector_matrix("entity").ids)
    todo = [e for e in store.iter_entities() if e.entity_id not in have]
    for start in range(0, len(todo), batch):
        part = todo[start : start + batch]
        vectors = index.embedder.embed([f"{e.name}: {e.description}" if e.description else e.name for e in part])
        store.put_vectors("entity", [e.entity_id for e in part], vectors)
    return len(todo)
