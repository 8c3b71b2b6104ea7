"""Maximal marginal relevance (Carbonell & Goldstein 1998): re-order ranked chunks so each next one is relevant
and unlike those already chosen, so a fixed token budget holds more different content."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kgrag.retrieve.fusion import minmax


def mmr_order(ranked: Sequence[tuple[str, float]], vectors: np.ndarray, relevance_weight: float
              ) -> list[tuple[str, float]]:
    """`ranked` (id, score) re-ordered greedily by w·relevance − (1−w)·max cosine to the chunks picked before.

    Relevance is the min-max normalised score; `vectors` are the chunks' unit-length embeddings in `ranked`
    order. Each item keeps its original score; only the order changes. w = 1 keeps the order."""
    if relevance_weight >= 1 or len(ranked) < 3:
        return list(ranked)
    scaled = minmax(ranked)
    rel = np.array([scaled[cid] for cid, _ in ranked], dtype=np.float32)
    sims = vectors @ vectors.T
    closest = np.full(len(ranked), -1.0, dtype=np.float32)  # max similarity to anything picked so far
    left = np.ones(len(ranked), dtype=bool)
    order: list[int] = []
    for _ in range(len(ranked)):
        gain = relevance_weight * rel - (1 - relevance_weight) * np.maximum(closest, 0.0)
        gain[~left] = -np.inf
        pick = int(np.argmax(gain))
        order.append(pick)
        left[pick] = False
        closest = np.maximum(closest, sims[pick])
    return [ranked[i] for i in order]
