"""Question → graph: entity linking (name/alias keys + entity embeddings), relation mapping, alias expansion."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kgrag.graph.adjacency import GraphAdjacency, get_adjacency, name_key
from kgrag.retrieve.query import candidate_spans, question_terms

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

EXACT, ALIAS, EMBEDDING = 1.0, 0.9, 0.85  # score scale of each kind of match
MAX_RELATION_TYPES_EMBEDDED = 500  # most frequent relation types compared by embedding
_DIGIT = re.compile(r"\d")


@dataclass
class LinkedEntity:
    """A graph entity the question refers to, how it was matched and how sure we are (0–1)."""

    entity_id: str
    name: str
    type: str
    score: float
    match: str  # exact | alias | embedding
    span: str = ""
    node: int = -1  # index in the adjacency


def _span_weight(span: str) -> float:
    """Specific spans (numbers, capitals, several words) link more confidently than one common word."""
    parts = span.split()
    if len(parts) > 1 or _DIGIT.search(span) or span[:1].isupper():
        return 1.0
    return 0.7


def question_vector(index: Workspace, question: str) -> np.ndarray:
    """The question's embedding (one embedder call)."""
    return index.embedder.embed([question])[0]


def link_entities(
    index: Workspace,
    question: str,
    *,
    k: int = 8,
    min_similarity: float = 0.55,
    qvec: np.ndarray | None = None,
    adj: GraphAdjacency | None = None,
) -> list[LinkedEntity]:
    """Entities named in the question (exact/alias key match of n-gram spans) or close to it by embedding."""
    adj = adj or get_adjacency(index.store)
    found: dict[int, LinkedEntity] = {}

    def offer(node: int, score: float, match: str, span: str) -> None:
        current = found.get(node)
        if current is None or score > current.score:
            found[node] = LinkedEntity(adj.ids[node], adj.names[node], adj.types[node], score, match, span, node)

    for span in candidate_spans(question):
        if span.replace(".", "").isdigit():
            continue  # a bare number is not an entity reference
        key = name_key(span)
        for node in adj.lookup(span):
            exact = name_key(adj.names[node]) == key
            offer(node, (EXACT if exact else ALIAS) * _span_weight(span), "exact" if exact else "alias", span)
    if len(index.store.vector_matrix("entity").ids):  # cached in memory: cheap to check
        vec = question_vector(index, question) if qvec is None else qvec
        for eid, sim in index.store.search_vectors("entity", vec, k):
            node = adj.index_of.get(eid)
            if node is not None and sim >= min_similarity:
                offer(node, EMBEDDING * float(sim), "embedding", "")
    ranked = sorted(found.values(), key=lambda e: (-e.score, -len(e.span), e.entity_id))
    return ranked[:k]


def entity_relevance(
    index: Workspace, question: str, entity_ids: Sequence[str], names: Sequence[str], qvec: np.ndarray | None = None
) -> dict[str, float]:
    """Question relevance of entities: cosine of stored entity vectors, else name-term overlap with the question."""
    out: dict[str, float] = {}
    if entity_ids and len(index.store.vector_matrix("entity").ids):
        vec = question_vector(index, question) if qvec is None else qvec
        vectors = index.store.get_vectors("entity", list(entity_ids))
        for row, eid in enumerate(entity_ids):
            if np.any(vectors[row]):
                out[eid] = float(vectors[row] @ vec)
    wanted = set(question_terms(question))
    for eid, name in zip(entity_ids, names, strict=True):
        if eid not in out:
            out[eid] = len(set(question_terms(name)) & wanted) / len(wanted) if wanted else 0.0
    return out


def _stem(word: str) -> str:
    """A crude verb/noun stem so provide/provides/provided and connect/connecting meet."""
    for suffix in ("ing", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def _relation_words(rtype: str) -> list[str]:
    from kgrag.graph.keys import relation_key

    return [_stem(w) for w in relation_key(rtype).split() if w not in {"to", "of", "in", "on", "by", "is", "has"}]


def map_relations(
    index: Workspace,
    question: str,
    *,
    k: int = 5,
    min_similarity: float = 0.5,
    qvec: np.ndarray | None = None,
    adj: GraphAdjacency | None = None,
) -> list[tuple[str, float]]:
    """Relation types the question asks about: verb/word overlap with the type's words, or embedding similarity."""
    adj = adj or get_adjacency(index.store)
    counts = adj._cache.get("relation_type_counts")
    if counts is None:
        counts = Counter(adj.rel_types)
        adj._cache["relation_type_counts"] = counts
    if not counts:
        return []
    stems = {_stem(w) for w in question_terms(question)}
    scores: dict[str, float] = {}
    for rtype in counts:
        rwords = _relation_words(rtype)
        if rwords:
            share = len(set(rwords) & stems) / len(set(rwords))
            if share > 0:
                scores[rtype] = share
    cache_key = ("relation_type_vectors", getattr(index.embedder, "model_name", ""))
    cached = adj._cache.get(cache_key)
    if cached is None:
        from kgrag.graph.keys import relation_key

        types = [t for t, _ in counts.most_common(MAX_RELATION_TYPES_EMBEDDED)]
        cached = (types, index.embedder.embed([relation_key(t) for t in types]))
        adj._cache[cache_key] = cached
    types, matrix = cached
    vec = question_vector(index, question) if qvec is None else qvec
    if len(types):
        for rtype, sim in zip(types, (matrix @ vec).tolist(), strict=True):
            if sim >= min_similarity:
                scores[rtype] = max(scores.get(rtype, 0.0), float(sim))
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


def expand_query(question: str, linked: Sequence[LinkedEntity], adj: GraphAdjacency, max_terms: int = 10) -> str:
    """The question plus the names and aliases of its linked entities not already in it (graph expansion)."""
    present = question.lower()
    extra: list[str] = []
    for entity in linked:
        node = entity.node if entity.node >= 0 else adj.index_of.get(entity.entity_id, -1)
        if node < 0:
            continue
        for term in [adj.names[node], *adj.aliases[node]]:
            if term and term.lower() not in present and term not in extra:
                extra.append(term)
    return " ".join([question, *extra[:max_terms]])
