"""KET-RAG KNN chunk graph: each chunk -> top K/2 chunks by shared keywords + top K/2 by embedding cosine.

No pairwise Python loops: shared-keyword counts come from blockwise sparse products `X[b] @ X.T` of
the binary chunk x keyword matrix (blocks sized by their expected non-zeros), cosine from blockwise
dense products; per-row top-k is vectorised. Stored as `edges('knn', src, dst, weight)` where the
weight counts the criteria (lexical, semantic) that picked the edge.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from kgrag.graph.keywords import chunk_keywords, ensure_keywords

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace

EDGE_KIND = "knn"
META_KEY = "ket:knn"
MAX_BLOCK_NNZ = 4_000_000  # bound on the entries of one sparse product block: full MuSiQue peaks 259 MB (708 at 20M)
DENSE_BLOCK = 512
MAX_DF = 0.2  # lexical similarity ignores keywords in more than this share of chunks (when N is large)
MIN_DF_CAP = 50


def keyword_matrix(keyword_sets: Sequence[Sequence[str]]) -> tuple[sparse.csr_matrix, list[str]]:
    """Binary chunk x keyword CSR matrix and its column vocabulary."""
    vocab: dict[str, int] = {}
    cols: list[int] = []
    indptr = [0]
    for terms in keyword_sets:
        cols.extend(sorted({vocab.setdefault(t, len(vocab)) for t in terms}))
        indptr.append(len(cols))
    data = np.ones(len(cols), dtype=np.float32)
    matrix = sparse.csr_matrix((data, np.asarray(cols, dtype=np.int64), np.asarray(indptr)), shape=(len(keyword_sets), len(vocab)))
    return matrix, list(vocab)


def _row_topk(block: sparse.csr_matrix, k: int, offset: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, cols, values) of the k largest positive entries per row of a sparse block, self excluded."""
    block = block.tocoo()
    rows, cols, vals = block.row + offset, block.col, block.data
    keep = (cols != rows) & (vals > 0)
    rows, cols, vals = rows[keep], cols[keep], vals[keep]
    order = np.lexsort((cols, -vals, rows))
    rows, cols, vals = rows[order], cols[order], vals[order]
    starts = np.searchsorted(rows, rows, side="left")
    rank = np.arange(len(rows)) - starts
    pick = rank < k
    return rows[pick], cols[pick], vals[pick]


def lexical_neighbours(x: sparse.csr_matrix, k: int, max_df: float = MAX_DF) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-k chunks per chunk by number of shared keywords (ties: more idf mass, then lower index)."""
    n = x.shape[0]
    empty = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float32))
    if n < 2 or k <= 0 or x.nnz == 0:
        return empty
    df = np.asarray(x.sum(axis=0)).ravel()
    cap = max(int(max_df * n), MIN_DF_CAP)
    x = (x @ sparse.diags((df <= cap).astype(np.float32))).tocsr()
    x.eliminate_zeros()
    idf = np.log((1 + n) / (1 + df)).astype(np.float32)
    tie_scale = 1.0 / (float(idf.sum()) + 1.0)  # idf tie-break stays below one shared keyword
    # one product gives count + tie_scale * (idf mass of the shared keywords), x being binary
    xt = (x @ sparse.diags(1.0 + tie_scale * idf)).T.tocsr()
    expected = np.asarray(x @ df.astype(np.float64)).ravel()  # upper bound of each row's product entries
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    start = 0
    cumulative = np.cumsum(expected)
    while start < n:
        base = cumulative[start - 1] if start else 0.0
        end = int(np.searchsorted(cumulative, base + MAX_BLOCK_NNZ, side="right"))
        end = min(max(end, start + 1), n)
        out.append(_row_topk((x[start:end] @ xt).tocsr(), k, start))
        start = end
    return tuple(np.concatenate(parts) for parts in zip(*out, strict=True)) if out else empty  # type: ignore[return-value]


def semantic_neighbours(vectors: np.ndarray, k: int, block: int = DENSE_BLOCK) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-k chunks per chunk by cosine of unit vectors, via blockwise dense products."""
    n = vectors.shape[0]
    if n < 2 or k <= 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float32)
    k = min(k, n - 1)
    rows, cols, vals = [], [], []
    for start in range(0, n, block):
        sims = vectors[start : start + block] @ vectors.T
        local = np.arange(sims.shape[0])
        sims[local, local + start] = -np.inf
        top = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        top_vals = np.take_along_axis(sims, top, axis=1)
        order = np.argsort(-top_vals, axis=1, kind="stable")
        rows.append(np.repeat(local + start, k))
        cols.append(np.take_along_axis(top, order, axis=1).ravel())
        vals.append(np.take_along_axis(top_vals, order, axis=1).ravel())
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals).astype(np.float32)


def knn_edges(
    chunk_ids: Sequence[str], x: sparse.csr_matrix, vectors: np.ndarray, k: int = 2
) -> list[tuple[str, str, float]]:
    """Directed KNN edges: top ceil(K/2) lexical + top floor(K/2) semantic per chunk, weight = #criteria."""
    k_lex, k_sem = (k + 1) // 2, k // 2
    weight: dict[tuple[int, int], float] = {}
    for rows, cols, _ in (lexical_neighbours(x, k_lex), semantic_neighbours(vectors, k_sem)):
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True):
            weight[(r, c)] = weight.get((r, c), 0.0) + 1.0
    return [(chunk_ids[r], chunk_ids[c], w) for (r, c), w in sorted(weight.items())]


def _signature(index: Workspace, k: int) -> str:
    store = index.store
    return f"{store.generation('vectors:chunk')}|{store.count('chunks')}|k={k}|{index.settings.graph.keyword_method}"


def ensure_knn_graph(index: Workspace, progress: Progress | None = None, *, force: bool = False) -> int:
    """Build the KNN chunk graph unless it is current (keywords first); returns the edges written (0: current)."""
    store = index.store
    k = index.settings.graph.knn_k
    ensure_keywords(index, progress)
    signature = _signature(index, k)
    if not force and store.get_meta(META_KEY) == signature:
        return 0
    ids = store.chunk_ids()
    keywords = chunk_keywords(index)
    x, _ = keyword_matrix([keywords.get(cid, []) for cid in ids])
    vectors = store.get_vectors("chunk", ids)
    edges = knn_edges(ids, x, vectors, k)
    with store.transaction():
        store.delete_edges(EDGE_KIND)
        store.put_edges(EDGE_KIND, edges)
        store.set_meta(META_KEY, signature)
    return len(edges)


def knn_adjacency(index: Workspace, ids: Sequence[str]) -> sparse.csr_matrix:
    """The stored KNN graph as a weighted CSR matrix over `ids` (edges to unknown ids dropped)."""
    pos = {cid: i for i, cid in enumerate(ids)}
    rows, cols, vals = [], [], []
    for src, dst, w in index.store.edges(EDGE_KIND):
        if src in pos and dst in pos:
            rows.append(pos[src])
            cols.append(pos[dst])
            vals.append(w)
    n = len(ids)
    return sparse.csr_matrix((np.asarray(vals, np.float32), (rows, cols)), shape=(n, n))
