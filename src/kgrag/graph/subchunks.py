"""KET-RAG sub-chunks: each chunk halved tau times into 2^tau equal token spans (~subchunk_tokens each),
and the skeleton's text units rewired from chunks to the sub-chunks that mention them.

Sub-chunks are stored with `replace_subchunks` and embedded as vectors kind 'subchunk' (a sub-chunk
identical to its chunk reuses the chunk vector). Rewiring writes `edges('ent_sub')` and
`edges('rel_sub')`: entity/relation -> the sub-chunks of its supporting chunks that contain its name(s).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kgrag.graph.keywords import tokens as word_tokens
from kgrag.tokens import _encoding, count_tokens
from kgrag.types import Chunk, SubChunk

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace

STAGE = "ket.subchunks"
ENTITY_EDGES = "ent_sub"
RELATION_EDGES = "rel_sub"
BATCH = 256
SNAP_WINDOW = 8  # tokens searched around a cut for a word boundary


def split_depth(n_tokens: int, target: int) -> int:
    """tau: the number of halvings that brings `n_tokens` closest (in log scale) to `target` tokens."""
    if n_tokens <= target or target <= 0:
        return 0
    return max(0, round(math.log2(n_tokens / target)))


def _cut(ids: list[int], lo: int, hi: int) -> int:
    """The middle of ids[lo:hi], moved to the nearest token starting a new word (within SNAP_WINDOW)."""
    mid = (lo + hi) // 2
    enc = _encoding()
    for delta in range(SNAP_WINDOW + 1):
        for pos in (mid - delta, mid + delta):
            if lo < pos < hi and enc.decode([ids[pos]])[:1].isspace():
                return pos
    return mid


def split_text(text: str, tau: int) -> list[str]:
    """`text` halved recursively `tau` times into 2^tau parts of (nearly) equal token counts."""
    ids = _encoding().encode(text, disallowed_special=())
    spans = [(0, len(ids))]
    for _ in range(tau):
        halved: list[tuple[int, int]] = []
        for lo, hi in spans:
            if hi - lo < 2:
                halved.append((lo, hi))
                continue
            cut = _cut(ids, lo, hi)
            halved.extend([(lo, cut), (cut, hi)])
        spans = halved
    parts = [_encoding().decode(ids[lo:hi]).strip() for lo, hi in spans]
    return [p for p in parts if p] or [text]


def split_chunk(chunk: Chunk, target: int) -> list[SubChunk]:
    """The sub-chunks of one chunk, ids `<chunk_id>#s<ord>`."""
    n = chunk.tokens or count_tokens(chunk.text)
    parts = split_text(chunk.text, split_depth(n, target)) if n > target else [chunk.text]
    return [
        SubChunk(f"{chunk.chunk_id}#s{i}", chunk.chunk_id, i, text, count_tokens(text) if len(parts) > 1 else n)
        for i, text in enumerate(parts)
    ]


def ensure_subchunks(index: Workspace, progress: Progress | None = None) -> int:
    """Split and embed every chunk not yet split (resumable per chunk); returns chunks processed."""
    store = index.store
    target = index.settings.chunking.subchunk_tokens
    done = store.done_keys(STAGE)
    todo = [c for c in store.iter_chunks() if c.chunk_id not in done]
    task = progress.task("sub-chunks", len(todo)) if progress else None
    for start in range(0, len(todo), BATCH):
        part = todo[start : start + BATCH]
        subs = [s for c in part for s in split_chunk(c, target)]
        per_chunk = Counter(s.chunk_id for s in subs)
        copied = [s for s in subs if per_chunk[s.chunk_id] == 1]  # unsplit: reuse the chunk's vector
        fresh = [s for s in subs if per_chunk[s.chunk_id] > 1]
        reused = store.get_vectors("chunk", [s.chunk_id for s in copied])
        if copied and not reused.shape[1]:  # chunks were stored without vectors: embed them too
            copied, fresh = [], subs
        embedded = index.embedder.embed([s.text for s in fresh]) if fresh else None
        with store.transaction():
            store.replace_subchunks([c.chunk_id for c in part], subs)
            if copied:
                store.put_vectors("subchunk", [s.subchunk_id for s in copied], reused)
            if embedded is not None:
                store.put_vectors("subchunk", [s.subchunk_id for s in fresh], embedded)
            store.mark_done(STAGE, [c.chunk_id for c in part], info=str(target))
        if task:
            task.advance(len(part))
    return len(todo)


def units_containing(subchunks: Sequence[SubChunk], names: Sequence[str]) -> list[str]:
    """Sub-chunks containing all `names`, else any of them, else all sub-chunks (case-insensitive)."""
    texts = [f" {' '.join(word_tokens(s.text))} " for s in subchunks]
    keys = [f" {' '.join(word_tokens(n))} " for n in names if word_tokens(n)]
    if not keys:
        return [s.subchunk_id for s in subchunks]
    for need_all in (True, False):
        hits = [
            s.subchunk_id
            for s, text in zip(subchunks, texts, strict=True)
            if (all if need_all else any)(k in text for k in keys)
        ]
        if hits:
            return hits
    return [s.subchunk_id for s in subchunks]


def rewire_skeleton(index: Workspace) -> tuple[int, int]:
    """Map entity mentions and relation support from chunks to sub-chunks; returns (entity, relation) edges."""
    store = index.store
    by_chunk: dict[str, list[SubChunk]] = {}
    for s in store.iter_subchunks():
        by_chunk.setdefault(s.chunk_id, []).append(s)
    if not by_chunk:
        return 0, 0
    from kgrag.graph.adjacency import get_adjacency

    adj = get_adjacency(store)
    mentions = store.chunks_of_entities(adj.ids)
    ent_edges = [
        (eid, sid, 1.0)
        for eid, chunk_ids in mentions.items()
        for cid in chunk_ids
        for sid in units_containing(by_chunk.get(cid, []), [adj.names[adj.index_of[eid]]])
    ]
    support = store.relation_support(adj.rel_ids)
    rel_edges = []
    for r, rid in enumerate(adj.rel_ids):
        names = [adj.names[int(adj.rel_src[r])], adj.names[int(adj.rel_dst[r])]]
        for cid in support.get(rid, []):
            rel_edges.extend((rid, sid, 1.0) for sid in units_containing(by_chunk.get(cid, []), names))
    with store.transaction():
        store.delete_edges(ENTITY_EDGES)
        store.delete_edges(RELATION_EDGES)
        store.put_edges(ENTITY_EDGES, ent_edges)
        store.put_edges(RELATION_EDGES, rel_edges)
    return len(ent_edges), len(rel_edges)
