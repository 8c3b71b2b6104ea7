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

from kgrag.errors import BudgetExceeded
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
from kgrag.graph.entity_vectors import combine, community_context
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


def _community_vectors(index: Workspace, communities: list[Community], members: dict[str, list[str]],
                       progress: Progress) -> np.ndarray:
    """Vectors of `communities`: an LLM summary is embedded in full; an extractive one (built from the
    profile) as its short title and key terms plus the mean of its members' entity vectors."""
    if not communities:
        return np.zeros((0, 1), dtype=np.float32)
    llm = [c.full_content.get("summary_source") != "profile" for c in communities]
    texts = [embedding_text(c.title, c.summary, c.key_terms) if is_llm else f"{c.title}. {', '.join(c.key_terms)}"
             for c, is_llm in zip(communities, llm, strict=True)]
    heads = _embed(index, texts, progress, "communities")
    matrix = index.store.vector_matrix("entity")
    context = community_context([members.get(c.community_id, []) for c in communities], matrix.ids, matrix.matrix)
    mixed = combine(heads, context) if context.shape == heads.shape else heads
    return np.where(np.asarray(llm)[:, None], heads, mixed).astype(np.float32)


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


@dataclass
class Prepared:
    """The partition and profiles of a build (no LLM), and which profile hashes still need a summary."""

    fingerprint: str
    report: CommunityReport
    nodes: list[Any]
    profiles: dict[str, dict[str, Any]]
    hashes: dict[str, str]
    done: dict[str, dict[str, Any]]
    todo: list[str]
    old_vectors: dict[str, np.ndarray]

    def todo_profiles(self) -> list[dict[str, Any]]:
        """One profile per profile hash still to summarise, in the order they are summarised."""
        first = {h: cid for cid, h in sorted(self.hashes.items(), reverse=True)}
        return [self.profiles[first[h]] for h in self.todo]


def summaries_wanted(index: Workspace) -> bool:
    """LLM community summaries: asked for (`graph.llm_summaries`) or an OpenAI-compatible endpoint configured."""
    return bool(index.settings.graph.llm_summaries) or index.settings.llm.provider == "openai"


def prepare_communities(index: Workspace, params: CommunityParams | None = None, *, summaries: bool = True,
                        force: bool = False, embed: bool = True) -> Prepared | None:
    """Partition and profile the entity graph; None when nothing changed since the last complete build.

    `embed=False` (a plan) writes nothing: entities without a vector join by their relations only.
    """
    params = params or CommunityParams(seed=index.settings.graph.seed)
    store = index.store
    fingerprint = f"{store.generation('graph')}|{params.key()}|{'llm' if summaries else 'profile'}"
    if not force and store.get_meta(FINGERPRINT_KEY) == fingerprint and store.count("communities"):
        return None
    report = CommunityReport()
    view = GraphView.load(store)
    ids = sorted(view.entities)
    report.entities = len(ids)
    if embed:  # the graph stage's 'entity' vectors (name + type + description); fills any missing
        embed_entities(index)
    vectors = store.get_vectors("entity", ids) if ids else np.zeros((0, 1), dtype=np.float32)
    if vectors.shape[1] == 0:
        vectors = np.zeros((len(ids), 1), dtype=np.float32)
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
    return Prepared(fingerprint, report, nodes, profiles, hashes, done, todo, old_vectors)


def build_communities(
    index: Workspace,
    params: CommunityParams | None = None,
    *,
    summaries: bool = True,
    force: bool = False,
    progress: Progress | None = None,
    announce: Any = None,
) -> CommunityReport:
    """(Re)build communities of all levels with profiles, summaries and vectors; see the module doc.

    With `summaries`, `announce(prepared)` (if given) is called before the first LLM call. When the LLM
    budget runs out, the remaining communities keep extractive summaries, everything is written, and
    BudgetExceeded is raised; the next run summarises only what is still missing.
    """
    progress = progress or NullProgress()
    start = time.perf_counter()
    prep = prepare_communities(index, params, summaries=summaries, force=force)
    if prep is None:
        return CommunityReport(skipped=True)
    report, done, store = prep.report, prep.done, index.store
    stopped: BudgetExceeded | None = None
    if summaries and prep.todo and announce is not None:
        announce(prep)
    task = progress.task("community summaries", len(prep.todo))
    with llm_stage(STAGE):
        for h, profile in zip(prep.todo, prep.todo_profiles(), strict=True):
            if summaries and stopped is None:
                try:
                    done[h] = llm_summary(index.llm, profile)
                    report.llm_calls += 1
                except BudgetExceeded as exc:
                    stopped = exc
            if h not in done:
                done[h] = profile_summary(profile)
            task.advance(1)
    report.summarised = len(prep.todo)

    communities = []
    nodes, hashes = prep.nodes, prep.hashes
    for n in nodes:
        s, h = done[hashes[n.community_id]], hashes[n.community_id]
        content = {**prep.profiles[n.community_id], "profile_hash": h, "summary_source": s["source"]}
        communities.append(
            Community(n.community_id, n.level, n.parent_id, s["topic_label"], s["summary"], content, s["key_terms"])
        )
    old_vectors = prep.old_vectors
    vec_key = {c.community_id: f"{hashes[c.community_id]}|{c.full_content['summary_source']}" for c in communities}
    missing = list({vec_key[c.community_id]: c for c in communities if vec_key[c.community_id] not in old_vectors}.items())
    members = {n.community_id: n.members for n in nodes}
    new_vectors = dict(old_vectors)  # a community carried down a level shares its parent's vector
    new_vectors.update(zip([key for key, _ in missing], _community_vectors(index, [c for _, c in missing], members, progress),
                           strict=True))
    with store.transaction():
        store.replace_communities(communities, [(n.community_id, m) for n in nodes for m in n.members])
        if communities:
            ids_out = [c.community_id for c in communities]
            store.put_vectors("community", ids_out, np.vstack([new_vectors[vec_key[i]] for i in ids_out]))
        store.set_meta(FINGERPRINT_KEY, prep.fingerprint if stopped is None else "")
        report.seconds = time.perf_counter() - start
        store.set_meta(SECONDS_KEY, f"{report.seconds:.3f}")
    report.per_level = {}
    for n in nodes:
        report.per_level[n.level] = report.per_level.get(n.level, 0) + 1
    if stopped is not None:
        raise BudgetExceeded(f"community summaries stopped after {report.llm_calls} of {len(prep.todo)} LLM calls "
                             f"({stopped}); the others keep extractive summaries until the next run")
    return report
