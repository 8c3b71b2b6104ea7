"""Score normalisation and fusion for hybrid retrieval (the thesis's min-max α-fusion)."""

from __future__ import annotations

from collections.abc import Sequence


def minmax(scored: Sequence[tuple[str, float]], floor: float | None = None) -> dict[str, float]:
    """Scores mapped to [0, 1] between the lowest (or `floor`, the score of what the list left out) and the highest;
    when all are equal every item gets 1."""
    if not scored:
        return {}
    values = [s for _, s in scored]
    lo, hi = min(values) if floor is None else min(floor, *values), max(values)
    if hi - lo <= 1e-12:
        return {item: 1.0 for item, _ in scored}
    return {item: (s - lo) / (hi - lo) for item, s in scored}


def alpha_fuse(
    dense: Sequence[tuple[str, float]], sparse: Sequence[tuple[str, float]], alpha: float, k: int | None = None
) -> list[tuple[str, float]]:
    """Union by id of min-max-normalised lists: alpha·dense + (1-alpha)·sparse (a missing side counts 0).

    `k` is the number of BM25 hits asked for: a shorter list holds every chunk that shares a word with the question,
    so its scores run down to the chunks that share none (BM25 0). Its weakest hit keeps the share of the top score it
    has: "whats err E32" matches two chunks, and min-max alone scored the E32 row, the second, as a chunk with no word.
    """
    complete = k is not None and len(sparse) < k
    d, s = minmax(dense), minmax(sparse, floor=0.0 if complete else None)
    fused = {item: alpha * d.get(item, 0.0) + (1 - alpha) * s.get(item, 0.0) for item in {**d, **s}}
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))


def rrf(rankings: Sequence[Sequence[str]], weights: Sequence[float] | None = None, k: float = 60.0) -> list[tuple[str, float]]:
    """Weighted reciprocal rank fusion: sum over lists of weight / (k + rank), rank from 1; best first.

    Ties keep the order of first appearance (earlier lists, then earlier ranks).
    """
    weights = list(weights) if weights is not None else [1.0] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError("one weight per ranking")
    scores: dict[str, float] = {}
    for ranking, w in zip(rankings, weights, strict=True):
        seen: set[str] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
    order = {item: n for n, item in enumerate(scores)}
    return sorted(scores.items(), key=lambda kv: (-kv[1], order[kv[0]]))
