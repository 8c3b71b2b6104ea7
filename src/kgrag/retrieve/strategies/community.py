"""Community retrievers: `community` (HyDE → level-1 community summaries → members' chunks) and
`community-hybrid` (hybrid chunks, reranked, each followed by the summaries of its entities' communities).

Levels: 0 is the coarsest Leiden level; "level 1" (the thesis's) is its first refinement. When an
index has only level 0, level 0 is used.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kgrag.answering.refusal import is_refusal
from kgrag.errors import KgragError
from kgrag.models.rerankers import make_reranker, rerank
from kgrag.models.usage import llm_stage
from kgrag.retrieve.base import Retriever, register
from kgrag.retrieve.chunks import chunk_items, hybrid_search
from kgrag.retrieve.packing import pack
from kgrag.types import Community, Context, ContextItem, Subgraph

DEFAULT_LEVEL = 1
TOP_COMMUNITIES = 5
MEMBERS_PER_COMMUNITY = 10  # member entities expanded per community
CHUNKS_PER_COMMUNITY = 6
COMMUNITIES_PER_CHUNK = 2
HYBRID_CHUNKS = 15  # reranked chunks kept by community-hybrid
MAX_SUBGRAPH_NODES = 50
HYDE_SYSTEM = (
    "You write the summary of a topic cluster in a knowledge graph built from technical documents. "
    "Given a question, write the 2-3 sentence summary of the cluster of entities (products, components, "
    "specifications) that would answer it, naming plausible specific entities. No preamble."
)


_LEVEL_CACHE: dict[int, tuple[str, dict[int, set[str]]]] = {}


def community_ids_by_level(store: Any) -> dict[int, set[str]]:
    """Community ids per level, loaded once per community generation instead of on every query."""
    gen = store.generation("vectors:community")
    cached = _LEVEL_CACHE.get(id(store))
    if cached is None or cached[0] != gen:
        levels: dict[int, set[str]] = {}
        for c in store.iter_communities():
            levels.setdefault(c.level, set()).add(c.community_id)
        cached = (gen, levels)
        _LEVEL_CACHE[id(store)] = cached
    return cached[1]


def community_level(index: Any, wanted: int = DEFAULT_LEVEL) -> int:
    """`wanted` if the index has communities at that level, else the deepest level below it (0 = coarsest)."""
    levels = community_ids_by_level(index.store)
    for level in range(wanted, -1, -1):
        if levels.get(level):
            return level
    return wanted


def community_item(c: Community, score: float, members: list[str] | None = None) -> ContextItem:
    """A community summary as one context item (title, summary and optionally its member names)."""
    text = f"Topic: {c.title}\n{c.summary}"
    if members:
        text += "\nMembers: " + ", ".join(members)
    return ContextItem(
        kind="community",
        text=text,
        score=score,
        item_id=c.community_id,
        source={"title": f"community {c.title}", "level": c.level, "community_id": c.community_id},
    )


def hyde_community_text(index: Any, question: str, use_llm: bool) -> str:
    """A hypothetical community summary for the question from the LLM; "" when off, failed or a refusal.

    HyDE is on by default except with the `fake` LLM provider; the option `hyde=` overrides.
    """
    if not use_llm:
        return ""
    messages = [{"role": "system", "content": HYDE_SYSTEM}, {"role": "user", "content": question}]
    try:
        with llm_stage("query"):
            text = index.llm.complete(messages, max_tokens=120).text.strip()
    except KgragError:
        return ""
    return "" if is_refusal(text) else text


def _unit_mean(matrix: np.ndarray) -> np.ndarray:
    vec = np.asarray(matrix, dtype=np.float32).mean(axis=0)
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm > 0 else vec


def _context(
    retriever: Retriever, question: str, budget: int, items: list[ContextItem], entity_ids: list[str], info: dict
) -> Context:
    """Items packed to the budget; the subgraph lists the (at most 50) entities behind them."""
    packed, used = pack(items, budget)
    ids = list(dict.fromkeys(entity_ids))[:MAX_SUBGRAPH_NODES]
    nodes = [{"id": e.entity_id, "name": e.name, "type": e.type} for e in retriever.index.store.get_entities(ids)]
    return Context(question=question, strategy=retriever.name, items=packed, tokens=used, budget=budget,
                   subgraph=Subgraph(nodes=nodes), info=info)


@register
class CommunityRetriever(Retriever):
    name = "community"
    description = "HyDE community search: top level-1 community summaries, then chunks mentioning their members."
    needs_llm = True

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        store = self.index.store
        level = community_level(self.index, int(options.get("level", DEFAULT_LEVEL)))
        use_llm = options.get("hyde", self.index.settings.llm.provider != "fake")
        hyde = hyde_community_text(self.index, question, bool(use_llm))
        query = _unit_mean(self.index.embedder.embed([question, hyde] if hyde else [question]))
        allowed = community_ids_by_level(store).get(level, set())
        hits = store.search_vectors("community", query, int(options.get("top_k", TOP_COMMUNITIES)), allowed)
        communities = {c.community_id: c for c in store.get_communities([cid for cid, _ in hits])}
        members = store.community_members(list(communities))
        mentions = store.chunks_of_entities(sorted({m for ms in members.values() for m in ms}))
        names = {e.entity_id: e.name for e in store.get_entities(list(mentions))}
        items: list[ContextItem] = []
        chunk_lists: list[list[str]] = []
        kept: list[str] = []
        for cid, score in hits:
            if cid not in communities:
                continue
            ranked = sorted(members.get(cid, []), key=lambda e: (-len(mentions.get(e, [])), e))
            top = ranked[:MEMBERS_PER_COMMUNITY]
            kept.extend(top)
            items.append(community_item(communities[cid], score, [names.get(e, e) for e in top]))
            chunk_lists.append(sorted({c for e in top for c in mentions.get(e, [])}))
        chunk_ids = sorted({c for cs in chunk_lists for c in cs})
        sims = dict(zip(chunk_ids, (store.get_vectors("chunk", chunk_ids) @ query).tolist(), strict=True))
        ranked_chunks: list[tuple[str, float]] = []
        for cs in chunk_lists:  # the best chunks of each community, community order kept
            best = sorted(cs, key=lambda c: (-sims[c], c))[:CHUNKS_PER_COMMUNITY]
            ranked_chunks.extend((c, sims[c]) for c in best)
        items += chunk_items(self.index, list(dict(ranked_chunks).items()))
        info = {"level": level, "hyde": bool(hyde), "communities": [cid for cid, _ in hits]}
        return _context(self, question, budget, items, kept, info)


@register
class CommunityHybridRetriever(Retriever):
    name = "community-hybrid"
    description = "Hybrid chunks, reranked, each followed by the level-1 community summaries of its entities."

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        store = self.index.store
        settings = self.index.settings.retrieval
        level = community_level(self.index, int(options.get("level", DEFAULT_LEVEL)))
        alpha = float(options.get("alpha", settings.alpha))
        k = max(settings.top_k, budget // 100)
        ranked = hybrid_search(self.index, question, k, alpha, options.get("version"))
        chunks = chunk_items(self.index, ranked)
        chosen = make_reranker(options.get("reranker", "lexical"), lambda: self.index.llm,
                               scripted_llm=self.index.settings.llm.provider == "fake")
        scores, reranker = rerank(chosen, question, [c.text for c in chunks])
        order = sorted(range(len(chunks)), key=lambda i: (-scores[i], i))[: int(options.get("chunks", HYBRID_CHUNKS))]
        chunks = [chunks[i] for i in order]
        for item, i in zip(chunks, order, strict=True):
            item.score = float(scores[i])
        entities_of = store.entities_of_chunks([c.chunk_id for c in chunks if c.chunk_id])
        communities_of = store.communities_of_entities(sorted({e for es in entities_of.values() for e in es}), level)
        all_cids = sorted({c for cs in communities_of.values() for c in cs})
        communities = {c.community_id: c for c in store.get_communities(all_cids)}
        items: list[ContextItem] = []
        shown: set[str] = set()
        linked: list[str] = []
        for chunk in chunks:
            items.append(chunk)
            votes: dict[str, int] = {}
            for e in entities_of.get(chunk.chunk_id or "", []):
                for cid in communities_of.get(e, []):
                    votes[cid] = votes.get(cid, 0) + 1
            for cid in sorted(votes, key=lambda c: (-votes[c], c))[:COMMUNITIES_PER_CHUNK]:
                if cid in shown or cid not in communities:
                    continue
                shown.add(cid)
                items.append(community_item(communities[cid], chunk.score))
            linked.extend(e for e in entities_of.get(chunk.chunk_id or "", []) if communities_of.get(e))
        info = {"level": level, "reranker": reranker, "communities": sorted(shown)}
        return _context(self, question, budget, items, linked, info)
