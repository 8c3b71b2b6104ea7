"""Sentence vectors of chunks, embedded once per index and stored (kind 'sentence').

The keyword-graph stage (keyword vectors are means of sentence vectors), the tri-graph stage (sentence
nodes) and entity/community vectors all read them here, so each sentence is embedded at most once
whatever the embedding cache has evicted. Sentence ids are `<chunk_id>#t<position>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kgrag.ingest.sentences import split_sentences

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

VECTOR_KIND = "sentence"


def sentence_id(chunk_id: str, position: int) -> str:
    """The id of the `position`-th sentence of a chunk (its chunk id is the part before '#t')."""
    return f"{chunk_id}#t{position}"


def chunk_sentence_vectors(
    index: Workspace, chunk_ids: Sequence[str], texts: dict[str, list[str]] | None = None
) -> tuple[dict[str, list[str]], dict[str, np.ndarray]]:
    """Per chunk, its sentences and their vectors: stored rows read, missing ones embedded and stored.

    `texts` (chunk id -> sentences) saves re-reading and re-splitting chunks the caller already split.
    """
    store = index.store
    if texts is None:
        texts = {c.chunk_id: split_sentences(c.text) for c in store.get_chunks(list(chunk_ids))}
    order = [cid for cid in chunk_ids if cid in texts]
    ids = [sentence_id(cid, i) for cid in order for i in range(len(texts[cid]))]
    flat = [s for cid in order for s in texts[cid]]
    if not ids:
        return texts, {cid: np.zeros((0, 0), np.float32) for cid in order}
    have = store.get_vectors(VECTOR_KIND, ids)
    missing = list(range(len(ids))) if have.shape[1] == 0 else np.flatnonzero(~have.any(axis=1)).tolist()
    if missing:
        fresh = np.asarray(index.embedder.embed([flat[j] for j in missing]), dtype=np.float32)
        if have.shape[1] != fresh.shape[1]:
            have = np.zeros((len(ids), fresh.shape[1]), np.float32)
        have[missing] = fresh
        with store.transaction():
            store.put_vectors(VECTOR_KIND, [ids[j] for j in missing], fresh)
    out: dict[str, np.ndarray] = {}
    start = 0
    for cid in order:
        n = len(texts[cid])
        out[cid] = have[start:start + n]
        start += n
    return texts, out
