"""Tri-graph passage ranking without LLM calls: entity activation, personalized PageRank, bridge round.

1. Question entities: every question n-gram that names a graph entity (activation 1).
2. Semantic bridging (LinearRAG): the sentences nearest the question activate the entities they
   mention, with their (max-normalised) similarity.
3. Personalized PageRank over the entity-passage bipartite graph, reset on the activated entities
   (weighted by specificity, log(1 + P/df)) and on the dense top passages; passages ranked by mass.
4. Bridge round: entities of the first-round passages that the question does not name join the
   reset (weighted by their sentences' similarity to the question); the second ranking fills the
   budget left after the first round's share.

`second_hop` is the other way to follow a chain, used by `fused` on its own first round: the passages
that share a specific entity with the top passages, ranked by their similarity to the question.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from kgrag.graph.keywords import tokens

if TYPE_CHECKING:
    from kgrag.retrieve.trigraph_index import TriGraph


@dataclass(frozen=True)
class MultiHopParams:
    """The few free parameters of the tri-graph ranking (defaults chosen on the MuSiQue dev set)."""

    damping: float = 0.5  # PPR continuation probability (HippoRAG's 0.5)
    steps: int = 6  # power-iteration steps (damping 0.5: 1.6 % of the mass left; 5, 6, 8 and 12 give the same dev Coverage)
    sentences: int = 10  # top sentences for semantic bridging
    passage_seeds: int = 10  # dense top passages in the reset vector
    passage_weight: float = 0.4  # share of the reset mass on the dense passages
    sentence_pool: int = 200  # semantic bridging searches the sentences of this many dense top passages (0: all)
    first_share: float = 0.5  # budget share of the first round (the bridge round fills the rest)
    bridge_passages: int = 3  # first-round passages whose entities seed the bridge round
    bridge_weight: float = 0.5  # reset mass of bridge entities relative to the question's entities


def question_entities(graph: TriGraph, question: str) -> list[int]:
    """Entity rows named by any n-gram of the question (case-insensitive), in order of appearance."""
    toks = tokens(question)
    found: dict[int, None] = {}
    for i in range(len(toks)):
        for n in range(1, min(graph.max_name_tokens, len(toks) - i) + 1):
            row = graph.name_pos.get(" ".join(toks[i:i + n]))
            if row is not None:
                found.setdefault(row, None)
    return list(found)


def personalized_pagerank(
    ent_pass: sparse.csr_matrix, reset_e: np.ndarray, reset_p: np.ndarray, damping: float, steps: int,
    walk: sparse.csr_matrix | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """PPR by power iteration on the bipartite entity-passage graph (random walk over its edges).

    Each step: x = (1 - d)·reset + d·(walk one edge from x); mass at isolated nodes stops walking.
    `walk` is the precomputed `walk_matrix` of `ent_pass`. Returns (entity mass, passage mass).
    """
    if walk is None:
        from kgrag.retrieve.trigraph_index import walk_matrix

        walk = walk_matrix(ent_pass, np.asarray(ent_pass.sum(axis=1), np.float32).ravel(),
                           np.asarray(ent_pass.sum(axis=0), np.float32).ravel())
    reset = np.concatenate([reset_e, reset_p]).astype(np.float32)
    base = (1 - damping) * reset
    x = reset
    for _ in range(steps):
        x = walk @ x
        x *= damping
        x += base
    n_e = len(reset_e)
    return x[:n_e], x[n_e:]


class SentenceScores:
    """A question's cosine to sentence rows, each computed on first access: a question needs the sentences of a
    few hundred candidate passages, not all of them (the full product reads every sentence vector, ~3 ms on
    MuSiQue's 24k sentences)."""

    def __init__(self, vectors: np.ndarray, qvec: np.ndarray) -> None:
        self._vectors, self._q = vectors, qvec
        self._values = np.full(len(vectors), np.nan, dtype=np.float32)

    def __len__(self) -> int:
        return len(self._values)

    def __getitem__(self, rows: np.ndarray | list[int]) -> np.ndarray:
        """Cosines of `rows` (an index array; computed once per row)."""
        rows = np.asarray(rows, dtype=np.int64)
        todo = rows[np.isnan(self._values[rows])]
        if 2 * len(todo) > len(self._values):  # most rows (sentence_pool = 0): one contiguous product is faster
            self._values = self._vectors @ self._q
        elif len(todo):
            self._values[todo] = self._vectors[todo] @ self._q
        return self._values[rows]


@dataclass
class QueryScores:
    """A question's vector, its cosine to every passage and (lazily) to sentences, computed once per question
    and shared by every channel (dense seeds, bridging, hybrid's dense side, sentence cutting)."""

    qvec: np.ndarray
    dense: np.ndarray  # passage rows
    sentences: SentenceScores | np.ndarray  # sentence rows, indexed by arrays of rows


def query_scores(graph: TriGraph, qvec: np.ndarray) -> QueryScores:
    """The passage product of one question against the tri-graph; sentence cosines follow on demand."""
    q = np.asarray(qvec, dtype=np.float32)
    dense = graph.passages.vectors @ q if len(graph.passages.ids) else np.zeros(0, np.float32)
    sents = SentenceScores(graph.sent_vectors, q) if graph.sent_vectors.size else np.zeros(0, np.float32)
    return QueryScores(q, dense, sents)


def _normalised(weights: np.ndarray, mass: float) -> np.ndarray:
    total = float(weights.sum())
    return weights * (mass / total) if total > 0 else weights


def entity_activation(graph: TriGraph, q_entities: list[int], sent_sims: SentenceScores | np.ndarray, k: int,
                      pool: np.ndarray | None = None) -> np.ndarray:
    """Activation per entity: 1 for question entities, else the best normalised similarity of a top-k sentence
    (among the sentence rows in `pool`, all when None)."""
    act = np.zeros(len(graph.names))
    rows = np.arange(len(sent_sims)) if pool is None else np.asarray(pool, dtype=np.int64)
    if k > 0 and len(rows):
        sims = sent_sims[rows]
        pick = np.argpartition(-sims, min(k, len(rows)) - 1)[:k]
        best = float(sims[pick].max())
        for s, sim in zip(rows[pick].tolist(), sims[pick].tolist(), strict=True):
            rel = sim / best if best > 0 else 0.0
            cols = graph.sent_ent.indices[graph.sent_ent.indptr[s]:graph.sent_ent.indptr[s + 1]]
            act[cols] = np.maximum(act[cols], rel)
    act[q_entities] = 1.0
    return act


def bridge_activation(graph: TriGraph, passages: list[int], sent_sims: SentenceScores | np.ndarray,
                      exclude: list[int]) -> np.ndarray:
    """Entities of `passages` (not in `exclude`), each with the best similarity of its sentences there."""
    act = np.zeros(len(graph.names))
    if not passages:
        return act
    sents = graph.pass_sent[passages].indices
    if not len(sents):
        return act
    sims = sent_sims[sents]
    best = float(sims.max())
    for s, sim in zip(sents.tolist(), sims.tolist(), strict=True):
        cols = graph.sent_ent.indices[graph.sent_ent.indptr[s]:graph.sent_ent.indptr[s + 1]]
        rel = max(sim, 0.0) / best if best > 0 else 0.0
        act[cols] = np.maximum(act[cols], rel)
    act[exclude] = 0.0
    return act


def _ranked(scores: np.ndarray, fallback: np.ndarray, skip: set[int], limit: int) -> list[int]:
    """The best `limit` rows not in `skip`: positive score first, then the others by `fallback` (dense)."""
    key = np.where(scores > 0, scores.astype(np.float64) + 2.0, fallback.astype(np.float64) / 2.0 - 1.0)
    if skip:
        key[list(skip)] = -np.inf
    k = min(limit, len(key))
    if k <= 0:
        return []
    top = np.argpartition(-key, k - 1)[:k]
    top = top[np.lexsort((top, -key[top]))]
    return top[np.isfinite(key[top])].tolist()


def rank_passages(
    graph: TriGraph, question: str, qvec: np.ndarray, budget: int, params: MultiHopParams | None = None,
    *, bridge: bool = True, limit: int = 400, scores: QueryScores | None = None, seed_rows: list[int] | None = None,
) -> tuple[list[int], dict[str, object]]:
    """The best `limit` passage rows for `budget` tokens, best first (callers may fuse or fill further).

    The walk restarts on the question's activated entities and on `passage_seeds` passages: `seed_rows` best first
    when given (`fused` passes its hybrid channel's ranking), else the dense top passages.
    """
    p = params or MultiHopParams()
    scores = scores or query_scores(graph, qvec)
    dense, sent_sims = scores.dense, scores.sentences
    q_ents = question_entities(graph, question)
    pool = None
    if p.sentence_pool > 0 and len(dense):
        size = min(p.sentence_pool, len(dense))
        top_p = np.argpartition(-dense, size - 1)[:size]
        pool = graph.pass_sent[top_p].indices
    act = entity_activation(graph, q_ents, sent_sims, p.sentences, pool)
    idf = graph.idf
    reset_p = np.zeros(len(dense))
    if p.passage_seeds > 0 and len(dense):
        top = (np.asarray(seed_rows[:p.passage_seeds], dtype=np.int64) if seed_rows
               else np.argsort(-dense, kind="stable")[:p.passage_seeds])
        reset_p[top] = np.maximum(dense[top], 0.0)
    has_entities = act.sum() > 0
    reset_e = _normalised(act * idf, 1.0 - p.passage_weight if has_entities else 0.0)
    reset_p = _normalised(reset_p, p.passage_weight if has_entities else 1.0)
    _, mass = personalized_pagerank(graph.ent_pass, reset_e, reset_p, p.damping, p.steps, graph.walk)
    first = _ranked(mass, dense, set(), limit)
    info: dict[str, object] = {"question_entities": [graph.names[i] for i in q_ents],
                               "activated": int((act > 0).sum())}
    if not bridge or p.first_share >= 1.0:
        return first, info
    taken, used = [], 0
    for row in first:
        if used >= p.first_share * budget or len(taken) >= p.bridge_passages:
            break
        taken.append(row)
        used += int(graph.passages.tokens[row])
    extra = bridge_activation(graph, taken, sent_sims, q_ents)
    if not extra.any():
        return first, info
    reset_e2 = reset_e + _normalised(extra * idf, p.bridge_weight * float(reset_e.sum() or 1.0))
    _, mass2 = personalized_pagerank(graph.ent_pass, reset_e2, reset_p, p.damping, p.steps, graph.walk)
    head = set(taken)
    second = _ranked(mass2, dense, head, limit)
    info["bridge_entities"] = [graph.names[i] for i in np.argsort(-extra)[:5].tolist() if extra[i] > 0]
    return taken + second, info


SECOND_HOP_MAX_DF = 20  # an entity named by more passages is a hub ("United States"), not a bridge
SECOND_HOP_SPECIFICITY = 0.1  # weight of the shared entity's idf next to the cosine (0.1-0.4 measured the same)


def second_hop(
    graph: TriGraph, seeds: list[int], dense: np.ndarray, exclude: list[int], *, max_df: int = SECOND_HOP_MAX_DF,
    specificity: float = SECOND_HOP_SPECIFICITY, limit: int = 400,
) -> list[int]:
    """Passage rows that mention an entity of the `seeds` passages (not one in `exclude`, the question's own,
    and not a hub named by more than `max_df` passages), best first by similarity to the question plus
    `specificity` × the rarest shared entity's idf. The answer of a two-hop question sits in a passage about
    the bridge entity, which shares few words with the question, so neither dense nor BM25 ranks it high."""
    if not seeds or not len(dense):
        return []
    ents = np.unique(graph.pass_ent[seeds].indices)
    ents = ents[(graph.df[ents] <= max_df) & ~np.isin(ents, exclude)]
    if not len(ents):
        return []
    link = (sparse.diags(graph.idf[ents]) @ graph.ent_pass[ents]).max(axis=0).toarray().ravel()
    link[seeds] = 0.0
    cand = np.flatnonzero(link)
    key = dense[cand].astype(np.float64) + specificity * link[cand]
    return cand[np.lexsort((cand, -key))][:limit].tolist()


def best_sentences(graph: TriGraph, row: int, sent_sims: SentenceScores | np.ndarray, keep: int,
                   lead: bool = False) -> list[int] | None:
    """Positions (in text order) of the `keep` sentences of passage `row` nearest the question (with `lead`,
    the first sentence, which names the passage's subject, plus the `keep - 1` nearest others), or None when
    the passage has no more than `keep` sentences (then it is used whole)."""
    sents = graph.pass_sent.indices[graph.pass_sent.indptr[row]:graph.pass_sent.indptr[row + 1]]
    if keep <= 0 or len(sents) <= keep:
        return None
    order = np.argsort(-sent_sims[sents], kind="stable")
    pos = graph.sent_pos[sents]
    if lead:
        first = int(np.argmin(pos))
        order = np.concatenate([[first], order[order != first]])
    return sorted(pos[order[:keep]].tolist())
