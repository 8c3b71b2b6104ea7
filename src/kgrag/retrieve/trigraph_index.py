"""In-memory arrays of the tri-graph (entities, sentences, passages), built once per store generation.

Sentence vectors are held as float32 for fast matrix products (numpy has no BLAS path for float16);
the store keeps them in its own vector format. Passages are the chunk units of `ket_index`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from kgrag.graph.trigraph import EDGE_KIND, VECTOR_KIND, chunk_of_sentence
from kgrag.ingest.sentences import split_sentences
from kgrag.retrieve.ket_index import UnitArrays, cached, unit_arrays
from kgrag.tokens import _encoding
from kgrag.types import Chunk

if TYPE_CHECKING:
    from kgrag.workspace import Workspace


@dataclass
class TriGraph:
    """Entity, sentence and passage rows plus the incidence matrices between them."""

    passages: UnitArrays  # chunk units: ids, vectors, tokens
    names: list[str]  # entity names (lower-case, normalised)
    name_pos: dict[str, int]
    ent_pass: sparse.csr_matrix  # entity x passage, binary
    sent_vectors: np.ndarray  # sentence x dim, float32
    sent_ent: sparse.csr_matrix  # sentence x entity, binary
    pass_sent: sparse.csr_matrix  # passage x sentence, binary
    sent_pos: np.ndarray  # position of each sentence in its passage (the n of `#t<n>`)
    max_name_tokens: int
    df: np.ndarray = field(init=False)  # passages mentioning each entity
    idf: np.ndarray = field(init=False)  # log(1 + P / df)
    walk: sparse.csr_matrix = field(init=False)  # one PPR step over [entities; passages] (block matrix)
    pass_ent: sparse.csr_matrix = field(init=False)  # passage x entity (the transpose, for per-passage lookups)

    def __post_init__(self) -> None:
        """The PPR walk matrix, computed once: entity -> passage and passage -> entity, in one block."""
        deg_e = np.asarray(self.ent_pass.sum(axis=1), dtype=np.float32).ravel()
        deg_p = np.asarray(self.ent_pass.sum(axis=0), dtype=np.float32).ravel()
        self.df = deg_e
        self.idf = np.log1p(len(self.passages.ids) / np.maximum(deg_e, 1.0)).astype(np.float32)
        self.walk = walk_matrix(self.ent_pass, deg_e, deg_p)
        self.pass_ent = self.ent_pass.T.tocsr()


@dataclass
class PassageText:
    """A passage's chunk and its sentences (the tri-graph's split) with their cl100k tokens."""

    chunk: Chunk
    sentences: list[str]
    tokens: list[int]  # tokens of " " + sentence: a sum over a cut is an upper bound of the cut's tokens


def _texts(index: Workspace) -> dict[str, PassageText]:
    enc = _encoding()
    out = {}
    for chunk in index.store.iter_chunks():
        sents = split_sentences(chunk.text)
        out[chunk.chunk_id] = PassageText(chunk, sents, [len(enc.encode_ordinary(" " + s)) for s in sents])
    return out


def passage_texts(index: Workspace) -> dict[str, PassageText]:
    """Every chunk with its sentences, read once per store generation (no store read per query)."""
    return cached(index.store, "trigraph:texts", ("edges", "vectors:chunk"), lambda: _texts(index))


def walk_matrix(ent_pass: sparse.csr_matrix, deg_e: np.ndarray, deg_p: np.ndarray) -> sparse.csr_matrix:
    """float32 CSR W over [entities; passages]: one random-walk step is x' = W @ x (each node spreads its
    mass evenly over its edges; isolated nodes keep none)."""
    inv_e = np.divide(1.0, deg_e, out=np.zeros_like(deg_e), where=deg_e > 0)
    inv_p = np.divide(1.0, deg_p, out=np.zeros_like(deg_p), where=deg_p > 0)
    walk_e = ent_pass.multiply(inv_e[:, None]).T  # passage x entity: new_p = walk_e @ x_e
    walk_p = ent_pass.multiply(inv_p[None, :])  # entity x passage: new_e = walk_p @ x_p
    return sparse.bmat([[None, walk_p], [walk_e, None]], format="csr", dtype=np.float32)


def build_trigraph(
    passages: UnitArrays, sentence_ids: list[str], sentence_vectors: np.ndarray, edges: list[tuple[str, str, float]]
) -> TriGraph:
    """The tri-graph from sentence vectors (ids `<chunk_id>#t<n>`) and (entity, sentence id, _) edges."""
    keep = [i for i, sid in enumerate(sentence_ids) if chunk_of_sentence(sid) in passages.position]
    sids = [sentence_ids[i] for i in keep]
    s_pos = {s: i for i, s in enumerate(sids)}
    s_pass = np.asarray([passages.position[chunk_of_sentence(s)] for s in sids], dtype=np.int64)
    names: dict[str, int] = {}
    rows, cols = [], []
    for name, sid, _ in edges:
        j = s_pos.get(sid)
        if j is not None:
            rows.append(j)
            cols.append(names.setdefault(name, len(names)))
    n_s, n_e, n_p = len(sids), len(names), len(passages.ids)
    sent_ent = sparse.csr_matrix((np.ones(len(rows), np.float32), (rows, cols)), shape=(n_s, n_e))
    sent_ent.sum_duplicates()
    sent_ent.data[:] = 1.0
    pass_sent = sparse.csr_matrix((np.ones(n_s, np.float32), (s_pass, np.arange(n_s))), shape=(n_p, n_s))
    ent_pass = (sent_ent.T @ pass_sent.T).tocsr()
    ent_pass.data[:] = 1.0
    vectors = np.ascontiguousarray(sentence_vectors[keep], dtype=np.float32) if keep else np.zeros((0, 0), np.float32)
    order = sorted(names, key=names.__getitem__)
    sent_pos = np.asarray([int(s.rsplit("#t", 1)[1]) for s in sids], dtype=np.int32)
    return TriGraph(passages, order, names, ent_pass, vectors, sent_ent, pass_sent, sent_pos,
                    max((n.count(" ") + 1 for n in order), default=1))


def _load(index: Workspace) -> TriGraph:
    store = index.store
    vm = store.vector_matrix(VECTOR_KIND)
    return build_trigraph(unit_arrays(index, "chunk"), list(vm.ids), vm.matrix, store.edges(EDGE_KIND))


def trigraph_arrays(index: Workspace) -> TriGraph:
    """The cached tri-graph of this index (rebuilt when edges or vectors change)."""
    return cached(index.store, "trigraph", ("edges", f"vectors:{VECTOR_KIND}", "vectors:chunk"), lambda: _load(index))
