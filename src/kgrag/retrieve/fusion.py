"""Score normalisation and fusion for hybrid retrieval (the thesis's min-max α-fusion)."""

from __future__ import annotations

from collections.abc import Sequence


def minmax(scored: Sequence[tuple[str, float]]) -> dict[str, float]:
    """Scores mapped to [0, 1]; when all scores are equal every item gets 1."""
    if not scored:
        return {}
    values = [s for _, s in scored]
    lo, hi = min(values), max(values)
    if hi - lo <= 1e-12:
        return {item: 1.0 for item, _ in scored}
    return {item: (s - lo) / (hi - lo) for item, s in scored}


def alpha_fuse(
    dense: Sequence[tuple[str, float]], sparse: Sequence[tuple[str, float]], alpha: float
) -> list[tuple[str, float]]:
    """Union by id of min-max-normalised lists: alpha·dense + (1-alpha)·sparse (a missing side counts 0)."""
    d, s = minmax(dense), minmax(sparse)
    fused = {item: alpha * d.get(item, 0.0) + (1 - alpha) * s.get(item, 0.0) for item in {**d, **s}}
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))
