"""The Tesseract engine: Debian's `tesseract-ocr` binary (English model from the package) run per page on
one thread, its TSV words grouped into line phrases (boxes split at cell-wide gaps) for the shared layout
code; nothing is downloaded."""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache

import numpy as np

from kgrag.ingest.ocr_layout import Box, split_at_gaps

BINARY = "tesseract"
INSTALL = "apt-get install tesseract-ocr"
PAGE_SEGMENTATION = "3"  # fully automatic layout analysis: blocks, paragraphs, lines
TIMEOUT_S = 120  # one page; a stuck process is killed
MIN_SCORE = 0.5  # phrases recognised below this (char-weighted) confidence are dropped, as with RapidOCR


class TesseractError(RuntimeError):
    """The binary failed on a page (its stderr, shortened)."""


def available() -> bool:
    """True when the `tesseract` binary is on PATH."""
    return shutil.which(BINARY) is not None


@lru_cache(maxsize=1)
def version() -> str:
    """`tesseract <version>` from `tesseract --version`: recorded on every OCR'd chunk and document."""
    try:
        out = subprocess.run([BINARY, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return BINARY
    first = (out.stdout or out.stderr).strip().splitlines()
    return first[0].strip() if first else BINARY


def read_image(image: np.ndarray, dpi: float) -> list[Box]:
    """One box (pixels) per phrase of a page image: words of one Tesseract line, split where the gap is wider
    than a table cell gap; confidence in [0, 1]."""
    gray = image if image.ndim == 2 else image[..., :3].mean(axis=2).astype(np.uint8)
    height, width = gray.shape[:2]
    pgm = b"P5\n%d %d\n255\n" % (width, height) + np.ascontiguousarray(gray, dtype=np.uint8).tobytes()
    cmd = [BINARY, "stdin", "stdout", "--psm", PAGE_SEGMENTATION, "--dpi", str(round(dpi)), "-l", "eng", "tsv"]
    try:
        proc = subprocess.run(cmd, input=pgm, capture_output=True, timeout=TIMEOUT_S,
                              env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    except subprocess.TimeoutExpired as exc:
        raise TesseractError(f"tesseract took over {TIMEOUT_S} s on the page") from exc
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise TesseractError(f"tesseract failed: {message[-1] if message else f'exit code {proc.returncode}'}")
    return phrases(proc.stdout.decode("utf-8", "replace"))


def phrases(tsv: str) -> list[Box]:
    """Boxes of Tesseract's TSV output: the recognised words (level 5) of each line joined into phrases."""
    lines: dict[tuple[str, str, str, str], list[Box]] = {}
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip():
            continue
        conf = float(cols[10])
        if conf < 0:
            continue
        left, top, w, h = (float(c) for c in cols[6:10])
        lines.setdefault((cols[1], cols[2], cols[3], cols[4]), []).append(
            Box(cols[11].strip(), left, top, left + w, top + h, conf / 100))
    out: list[Box] = []
    for words in lines.values():
        for group in _split_at_gaps(sorted(words, key=lambda b: b.x0)):
            weight = sum(len(b.text) for b in group)
            score = sum(b.score * len(b.text) for b in group) / weight
            if score >= MIN_SCORE:
                out.append(Box(" ".join(b.text for b in group), min(b.x0 for b in group),
                               min(b.top for b in group), max(b.x1 for b in group),
                               max(b.bottom for b in group), score))
    return out


def _split_at_gaps(words: list[Box]) -> list[list[Box]]:
    """A line's words in runs whose gaps are at most CELL_GAP line heights (a wider gap separates cells)."""
    return split_at_gaps(words, max(b.bottom for b in words) - min(b.top for b in words))
