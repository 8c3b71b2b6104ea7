"""Cutting long text-line crops at word gaps before recognition: the recogniser's cost grows faster than the
line width (measured on one core: 71 ms at 640 px, 175 ms at 1280 px, 500 ms at 2560 px), so a long line
read as pieces of at most MAX_RATIO × its height costs about half."""

from __future__ import annotations

import numpy as np

MAX_RATIO = 12.0  # longest piece, in line heights (576 px at the recogniser's 48 px input height)
MIN_RATIO = 5.0  # a cut is looked for between MIN_RATIO and MAX_RATIO line heights from the last one
MIN_GAP = 0.19  # ink-free column runs this wide (in line heights) are word gaps (measured: letters ≤ 0.14, words ≥ 0.21)


def cut_positions(crop: np.ndarray) -> list[int]:
    """Column indices where a line crop (H×W×3, uint8) may be cut: the widest ink-free gap inside each
    window; [] for a crop short enough to read whole or without usable gaps."""
    height, width = crop.shape[:2]
    if height == 0 or width <= MAX_RATIO * height:
        return []
    gray = crop.mean(axis=2) if crop.ndim == 3 else crop.astype(np.float32)
    low, high = float(gray.min()), float(gray.max())
    if high - low < 30:  # no contrast: nothing to find
        return []
    dark_text = float(np.median(gray)) > (low + high) / 2  # dark ink on a light background (usual) or inverse
    ink = gray < (low + high) / 2 if dark_text else gray > (low + high) / 2
    blank = ~ink.any(axis=0)
    gaps = _runs(blank, int(max(2, MIN_GAP * height)))
    cuts: list[int] = []
    start = 0
    while width - start > MAX_RATIO * height:
        lo, hi = start + MIN_RATIO * height, start + MAX_RATIO * height
        inside = [(b - a, a, b) for a, b in gaps if lo <= (a + b) / 2 <= hi]
        if not inside:
            later = [(a, b) for a, b in gaps if (a + b) / 2 > hi]
            if not later:
                break
            a, b = later[0]  # no gap in the window: cut at the next one (a longer piece, never a split word)
        else:
            _, a, b = max(inside, key=lambda g: (g[0], g[1]))
        cut = (a + b) // 2
        cuts.append(cut)
        start = cut
    return cuts


def _runs(flags: np.ndarray, min_len: int) -> list[tuple[int, int]]:
    """(start, end) of the runs of True at least `min_len` long, excluding runs touching either edge."""
    padded = np.concatenate(([False], flags, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    runs = zip(edges[::2], edges[1::2], strict=True)
    return [(int(a), int(b)) for a, b in runs if b - a >= min_len and a > 0 and b < len(flags)]


def split_crop(crop: np.ndarray) -> list[np.ndarray]:
    """The crop as pieces cut at `cut_positions` (the whole crop when it needs no cut)."""
    cuts = cut_positions(crop)
    bounds = [0, *cuts, crop.shape[1]]
    return [crop[:, a:b] for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
