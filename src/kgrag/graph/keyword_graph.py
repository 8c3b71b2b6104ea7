"""KET-RAG keyword <-> sub-chunk bipartite graph, keyword descriptions and keyword embeddings.

An edge `kw_sub` joins a keyword of a chunk to each of the chunk's sub-chunks it occurs in. A
keyword's description is the sentences containing it; its embedding the mean of those sentences'
embeddings. Each distinct sentence of a batch is embedded once, however many keywords it holds.
Per-keyword running sums (vectors kind 'kwsum': d sums plus a count) make the stage resumable and
incremental per chunk; removing chunks triggers one full rebuild. They are the only stored keyword
vectors: the (unnormalised, as in KET-RAG) mean vectors are derived from them in memory (`keyword_vectors`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from kgrag.graph.keywords import chunk_keywords, ensure_keywords, keyword_id, terms_in
from kgrag.graph.sentence_vectors import chunk_sentence_vectors
from kgrag.graph.subchunks import ensure_subchunks
from kgrag.ingest.sentences import split_sentences
from kgrag.types import Chunk, Keyword, SubChunk

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.store.base import Store
    from kgrag.workspace import Workspace

STAGE = "ket.kwgraph"
EDGE_KIND = "kw_sub"
SUM_KIND = "kwsum"
VECTOR_KIND = "keyword"  # no longer written; deleted on a rebuild (indexes built before the sums were the only copy)
META_DONE = "ket:kwgraph_chunks"
BATCH = 500
MAX_DESCRIPTION_SENTENCES = 8  # stored description; the embedding uses every sentence


def sentence_keyword_matrix(
    sentences: Sequence[str], keywords: Sequence[Sequence[str]], vocab: dict[str, int]
) -> sparse.csr_matrix:
    """Binary keyword x sentence incidence: sentence j holds keyword i (from its chunk's keyword list)."""
    rows: list[int] = []
    cols: list[int] = []
    for j, (sentence, terms) in enumerate(zip(sentences, keywords, strict=True)):
        for term in terms_in(sentence, terms):
            rows.append(vocab.setdefault(term, len(vocab)))
            cols.append(j)
    data = np.ones(len(rows), dtype=np.float32)
    return sparse.csr_matrix((data, (rows, cols)), shape=(len(vocab), len(sentences)))


def keyword_sums(
    sentences: Sequence[str], keywords: Sequence[Sequence[str]], embed: object
) -> tuple[list[str], np.ndarray, list[list[str]]]:
    """Terms, their (sum of sentence vectors | count) rows, and their sentences, for a batch of sentences.

    Duplicate sentences (same text and same candidate keywords) are embedded and counted once.
    """
    unique: dict[tuple[str, tuple[str, ...]], None] = {}
    for s, terms in zip(sentences, keywords, strict=True):
        unique.setdefault((s, tuple(terms)), None)
    texts = list(dict.fromkeys(s for s, _ in unique))
    pos = {t: i for i, t in enumerate(texts)}
    vocab: dict[str, int] = {}
    keys = list(unique)
    incidence = sentence_keyword_matrix([s for s, _ in keys], [t for _, t in keys], vocab)
    vectors = embed([s for s in texts]) if texts else np.zeros((0, 0), np.float32)  # type: ignore[operator]
    rows = vectors[[pos[s] for s, _ in keys]] if keys else vectors
    sums = incidence @ rows if keys else np.zeros((0, 1), np.float32)
    counts = np.asarray(incidence.sum(axis=1), dtype=np.float32).reshape(-1, 1)
    terms = [""] * len(vocab)
    for term, i in vocab.items():
        terms[i] = term
    coo = incidence.tocsr()
    sents = [[keys[j][0] for j in coo.indices[coo.indptr[i] : coo.indptr[i + 1]]] for i in range(len(terms))]
    return terms, np.hstack([np.asarray(sums, np.float32), counts]), sents


def subchunk_edges(subchunks: Sequence[SubChunk], terms: Sequence[str]) -> list[tuple[str, str, float]]:
    """(keyword_id, subchunk_id, 1) for each chunk keyword occurring in each sub-chunk."""
    return [(keyword_id(t), s.subchunk_id, 1.0) for s in subchunks for t in terms_in(s.text, terms)]


def _reset(index: Workspace) -> None:
    store = index.store
    with store.transaction():
        store.clear_progress(STAGE)
        store.delete_edges(EDGE_KIND)
        store.delete_vectors(SUM_KIND)
        store.delete_vectors(VECTOR_KIND)
        store.upsert_keywords([Keyword(k.keyword_id, k.term) for k in store.iter_keywords()])
        store.set_meta(META_DONE, "0")


def _apply_batch(
    index: Workspace,
    chunks: Sequence[Chunk],
    subs: dict[str, list[SubChunk]],
    kws: dict[str, list[str]],
    running: dict[str, np.ndarray],
) -> None:
    """Edges, description sentences and running embedding sums of one batch of chunks, in one transaction.

    `running` holds every keyword's stored sum in memory for the whole run, so a batch never reloads the
    sums table (which grew to a full-table read per batch); the batch writes only the sums it changed.
    """
    store = index.store
    sentences: list[str] = []
    owners: list[list[str]] = []
    edges: list[tuple[str, str, float]] = []
    split = {c.chunk_id: split_sentences(c.text) for c in chunks}
    _, stored = chunk_sentence_vectors(index, list(split), split)  # each sentence embedded once per index
    lookup = {s: v for cid, ss in split.items() for s, v in zip(ss, stored[cid], strict=True)}
    for c in chunks:
        terms = kws.get(c.chunk_id, [])
        edges.extend(subchunk_edges(subs.get(c.chunk_id, []), terms))
        for s in split[c.chunk_id]:
            sentences.append(s)
            owners.append(terms)
    terms, sums, sents = keyword_sums(sentences, owners, lambda texts: np.vstack([lookup[t] for t in texts]))
    ids = [keyword_id(t) for t in terms]
    for row, kid in enumerate(ids):
        prior_sum = running.get(kid)
        if prior_sum is not None and prior_sum.shape[0] == sums.shape[1]:
            sums[row] += prior_sum
    known = {k.keyword_id: k for k in store.get_keywords(ids)}
    updated = []
    for kid, term, found in zip(ids, terms, sents, strict=True):
        prior = known.get(kid)
        have = prior.description.split("\n") if prior and prior.description else []
        extra = [s for s in found if s not in have][: max(0, MAX_DESCRIPTION_SENTENCES - len(have))]
        updated.append(Keyword(kid, term, "\n".join(have + extra)))
    with store.transaction():
        store.put_edges(EDGE_KIND, edges)
        store.upsert_keywords(updated)
        if ids:
            store.put_vectors(SUM_KIND, ids, sums)
        store.mark_done(STAGE, [c.chunk_id for c in chunks])
        store.set_meta(META_DONE, str(int(store.get_meta(META_DONE) or 0) + len(chunks)))
    running.update(zip(ids, sums, strict=True))  # only after the commit: a failed batch leaves them untouched


def keyword_vectors(store: Store) -> tuple[list[str], np.ndarray]:
    """Keyword ids and their embeddings as KET-RAG defines them: the plain mean of their sentences' vectors.

    The mean is not re-normalised: a keyword whose sentences point in many directions (a common word)
    gets a short vector and ranks below a specific one, as in the paper's inner-product search. Derived
    from the running sums (kind 'kwsum': d sums plus a count); indexes built before the sums fall back to
    their stored unit vectors (kind 'keyword').
    """
    sums = store.vector_matrix(SUM_KIND)
    if sums.ids and sums.matrix.shape[1] > 1:
        means = sums.matrix[:, :-1] / np.maximum(sums.matrix[:, -1:], 1.0)
        return list(sums.ids), np.ascontiguousarray(means, dtype=np.float32)
    legacy = store.vector_matrix(VECTOR_KIND)
    return list(legacy.ids), np.ascontiguousarray(legacy.matrix, dtype=np.float32)


def ensure_keyword_graph(index: Workspace, progress: Progress | None = None) -> int:
    """Build the bipartite graph and keyword vectors for chunks not yet done; returns chunks processed."""
    store = index.store
    ensure_keywords(index)
    ensure_subchunks(index)
    done = store.done_keys(STAGE)
    if len(done) != int(store.get_meta(META_DONE) or 0):  # chunks were removed: sums are stale
        _reset(index)
        done = set()
    todo = [c for c in store.iter_chunks() if c.chunk_id not in done]
    if not todo:
        return 0
    kws = chunk_keywords(index)
    subs: dict[str, list[SubChunk]] = {}
    for s in store.iter_subchunks():
        subs.setdefault(s.chunk_id, []).append(s)
    stored = store.vector_matrix(SUM_KIND)
    running = {kid: stored.matrix[pos].copy() for kid, pos in stored.position.items()}
    task = progress.task("keyword graph", len(todo)) if progress else None
    for start in range(0, len(todo), BATCH):
        part = todo[start : start + BATCH]
        _apply_batch(index, part, subs, kws, running)
        if task:
            task.advance(len(part))
    return len(todo)
