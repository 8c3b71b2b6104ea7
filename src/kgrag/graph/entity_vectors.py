"""Entity and community vectors from vectors the index already holds, instead of embedding long new texts.

An entity's context vector is the mean of the stored sentence vectors (kind 'sentence', written by the
sentence-vector helper shared by the keyword-graph and tri-graph stages) of the sentences that mention
its name in the chunks it was found in; a community's is the mean of its members' entity vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kgrag.graph.sentence_vectors import chunk_sentence_vectors

if TYPE_CHECKING:
    from kgrag.types import Entity
    from kgrag.workspace import Workspace

MAX_CHUNKS_PER_ENTITY = 16  # a hub's context is well described by a sample of its chunks


def _unit(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0)


def combine(heads: np.ndarray, context: np.ndarray) -> np.ndarray:
    """Unit vectors of (unit head + unit context) row by row; a zero context row leaves the head alone."""
    heads = np.asarray(heads, dtype=np.float32)
    if context.shape != heads.shape:
        return _unit(heads)
    return _unit(_unit(heads) + _unit(np.asarray(context, dtype=np.float32)))


def entity_context(index: Workspace, entities: Sequence[Entity]) -> np.ndarray:
    """Per entity, the mean vector of the sentences naming it in its chunks (all their sentences if none does)."""
    store = index.store
    chunks_of = store.chunks_of_entities([e.entity_id for e in entities])
    chunk_ids = sorted({c for e in entities for c in chunks_of.get(e.entity_id, [])[:MAX_CHUNKS_PER_ENTITY]})
    texts, vectors = chunk_sentence_vectors(index, chunk_ids)
    dim = next((v.shape[1] for v in vectors.values() if v.size), 0)
    out = np.zeros((len(entities), dim), dtype=np.float32)
    if not dim:
        return out
    for row, e in enumerate(entities):
        name = e.name.lower()
        picked: list[np.ndarray] = []
        fallback: list[np.ndarray] = []
        for cid in chunks_of.get(e.entity_id, [])[:MAX_CHUNKS_PER_ENTITY]:
            sentences, matrix = texts.get(cid, []), vectors.get(cid)
            if matrix is None or not len(sentences):
                continue
            hits = [i for i, s in enumerate(sentences) if name in s.lower()]
            (picked if hits else fallback).append(matrix[hits] if hits else matrix)
        parts = picked or fallback
        if parts:
            out[row] = np.vstack(parts).mean(axis=0)
    return out


def community_context(member_lists: Sequence[Sequence[str]], ids: Sequence[str], matrix: np.ndarray) -> np.ndarray:
    """Per community, the mean of its members' entity vectors (`ids` row-aligned with `matrix`)."""
    position = {eid: i for i, eid in enumerate(ids)}
    dim = matrix.shape[1] if matrix.ndim == 2 else 0
    out = np.zeros((len(member_lists), dim), dtype=np.float32)
    for row, members in enumerate(member_lists):
        rows = [position[m] for m in members if m in position]
        if rows and dim:
            out[row] = matrix[rows].mean(axis=0)
    return out
