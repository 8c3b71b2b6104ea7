"""Building the community hierarchy of an index: embed entities, cluster, profile, summarise, embed, store.

Incremental behaviour: the partition and the profiles are always recomputed (seconds, no LLM);
summaries and community vectors are reused for every community whose profile hash (and summary
mode) is unchanged, so adding documents only pays LLM calls for communities whose profile changed.
The whole stage is skipped when the graph generation and the parameters are the same as last time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from kgrag.graph.build import embed_entities
from kgrag.graph.communities import CommunityParams, build_graph, hierarchical_leiden, similarity_edges
from kgrag.graph.community_profiles import (
    GraphView,
    build_profile,
    embedding_text,
    llm_summary,
    profile_hash,
    profile_summary,
)
from kgrag.models.usage import llm_stage
from kgrag.progress import NullProgress, Progress
from kgrag.types import Community

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

STAGE = "communities"
FINGERPRINT_KEY = "communities:fingerprint"
SECONDS_KEY = "stage_seconds:communities"
EMBED_BATCH = 256


@dataclass
class CommunityReport:
    """What a build did: counts per level, summaries computed vs reused, LLM calls, seconds."""

    skipped: bool = False
    entities: int = 0
    similarity_edges: int = 0
    relation_edges: int = 0
    per_level: dict[int, int] | None = None
    summarised: int = 0
    reused: int = 0
    llm_calls: int = 0
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return dict(vars(self))


def _embed(index: Workspace, texts: list[str], progress: Progress, label: str) -> np.ndarray:
    task = progress.task(label, len(texts))
    parts = []
    for start in range(0, len(texts), EMBED_BATCH):
        batch = texts[start : start + EMBED_BATCH]
        parts.append(np.asarray(index.embedder.embed(batch), dtype=np.float32))
        task.advance(len(batch))
    return np.vstack(parts) if parts else np.zeros((0, 1), dtype=np.float32)


def _previous(index: Workspace) -> tuple[dict[str, dict[str, Any]], dict[str, np.ndarray]]:
    """Summaries of the stored communities by profile hash, and their vectors by "hash|summary source"."""
    store = index.store
    old = list(store.iter_communities())
    summaries: dict[str, dict[str, Any]] = {}
    vectors: dict[str, np.ndarray] = {}
    if not old:
        return summaries, vectors
    matrix = store.get_vectors("community", [c.community_id for c in old])
    for c, vec in zip(old, matrix, strict=True):
        h = c.full_content.get("profile_hash")
        if not h:
            continue
        summaries[h] = {
            "topic_label": c.title,
            "summary": c.summary,
            "key_terms": c.key_terms,
            "source": c.full_content.get("summary_source", "profile"),
        }
        if np.any(vec):
            vectors[f"{h}|{summaries[h]['source']}"] = vec
    return summaries, vectors


def build_communities(
    index: Workspace,
    params: CommunityParams | None = None,
    *,
    summaries: bool = True,
    force: bool = False,
    progress: Progress | None = None,
) -> CommunityReport:
    """(Re)build communities of all levels with profiles, summaries and vectors; see the module doc."""
    params = params or CommunityParams(seed=index.settings.graph.seed)
    progress = progress or NullProgress()
    store = index.store
    start = time.perf_counter()
    fingerprint = f"{store.generation('graph')}|{params.key()}|{'llm' if summaries else 'profile'}"
    if not force and store.get_meta(FINGERPRINT_KEY) == fingerprint and store.count("communities"):
        return CommunityReport(skipped=True)
    report = CommunityReport()
    view = GraphView.load(store)
    ids = sorted(view.entities)
    report.entities = len(ids)
    embed_entities(index)  # the graph stage's 'entity' vectors (name + type + description); fills any missing
    vectors = store.get_vectors("entity", ids) if ids else np.zeros((0, 1), dtype=np.float32)
    sims = similarity_edges(vectors, params.top_k, params.min_similarity, params.block_rows)
    pos = {eid: i for i, eid in enumerate(ids)}
    rels = [(pos[s], pos[d]) for s, _, d in view.relations if s in pos and d in pos]
    report.similarity_edges, report.relation_edges = len(sims), len(rels)
    nodes = hierarchical_leiden(build_graph(len(ids), sims, rels, params), ids, params)

    old_summaries, old_vectors = _previous(index)
    profiles = {n.community_id: build_profile(view, store, n.members) for n in nodes}
    hashes = {cid: profile_hash(p) for cid, p in profiles.items()}
    wanted = {"llm", "raw"} if summaries else {"llm", "raw", "profile"}
    done: dict[str, dict[str, Any]] = {h: s for h, s in old_summaries.items() if s["source"] in wanted}
    todo = sorted({h for h in hashes.values() if h not in done})
    report.reused = sum(1 for h in hashes.values() if h in done)
    task = progress.task("community summaries", len(todo))
    first = {h: cid for cid, h in sorted(hashes.items(), reverse=True)}
    with llm_stage(STAGE):
        for h in todo:
            profile = profiles[first[h]]
            done[h] = llm_summary(index.llm, profile) if summaries else profile_summary(profile)
            report.llm_calls += int(summaries)
            task.advance(1)
    report.summarised = len(todo)

    communities = []
    for n in nodes:
        s, h = done[hashes[n.community_id]], hashes[n.community_id]
        content = {**profiles[n.community_id], "profile_hash": h, "summary_source": s["source"]}
        communities.append(
            Community(n.community_id, n.level, n.parent_id, s["topic_label"], s["summary"], content, s["key_terms"])
        )
    vec_key = {c.community_id: f"{hashes[c.community_id]}|{c.full_content['summary_source']}" for c in communities}
    missing = list({vec_key[c.community_id]: c for c in communities if vec_key[c.community_id] not in old_vectors}.items())
    texts = [embedding_text(c.title, c.summary, c.key_terms) for _, c in missing]
    new_vectors = dict(old_vectors)  # a community carried down a level shares its parent's vector
    new_vectors.update({key: v for (key, _), v in zip(missing, _embed(index, texts, progress, "communities"), strict=True)})
    with store.transaction():
        store.replace_communities(communities, [(n.community_id, m) for n in nodes for m in n.members])
        if communities:
            ids_out = [c.community_id for c in communities]
            store.put_vectors("community", ids_out, np.vstack([new_vectors[vec_key[i]] for i in ids_out]))
        store.set_meta(FINGERPRINT_KEY, fingerprint)
        report.seconds = time.perf_counter() - start
        store.set_meta(SECONDS_KEY, f"{report.seconds:.3f}")
    report.per_level = {}
    for n in nodes:
        report.per_level[n.level] = report.per_level.get(n.level, 0) + 1
    return report
