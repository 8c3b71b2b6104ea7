"""The RapidOCR engine: PP-OCRv4 detection and recognition (ONNX models shipped inside the
`rapidocr-onnxruntime` wheel, extra `ocr`), one CPU thread; long lines are recognised in pieces, one crop per
call (the cheapest schedule measured here)."""

from __future__ import annotations

from functools import lru_cache
from importlib import metadata
from typing import Any

import numpy as np

from kgrag.ingest.ocr_layout import Box
from kgrag.ingest.ocr_split import split_crop

PACKAGE = "rapidocr-onnxruntime"
EXTRA = "ocr"  # pip install 'kgrag[ocr]'
DET_MAX_SIDE = 1280  # text detection runs on the page scaled to this longer side (recognition on full-size crops)
MIN_SCORE = 0.5  # recognised lines below this confidence are dropped (the engine's own default)


def available() -> bool:
    """True when the OCR extra (rapidocr-onnxruntime and its OpenCV) can be imported."""
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def version() -> str:
    """`rapidocr-onnxruntime <version>`: recorded on every OCR'd chunk and document."""
    try:
        return f"{PACKAGE} {metadata.version(PACKAGE)}"
    except metadata.PackageNotFoundError:
        return PACKAGE


@lru_cache(maxsize=1)
def load() -> Any:
    """RapidOCR's detector and recogniser, loaded once per process (~1 s), one thread each."""
    from rapidocr_onnxruntime import RapidOCR

    engine = RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1, rec_batch_num=1)
    engine.text_det.get_preprocess = lambda _max_side: _DetectorInput(DET_MAX_SIDE)
    return engine


class _DetectorInput:
    """The detector's input: the page scaled to at most `side` px (multiples of 32), normalised to [-1, 1] in
    float32. RapidOCR 1.4.4 ignores a smaller `limit_side_len` for pages over 1500 px and detects at 2000 px
    (2.2 s of CPU per page here; 0.75 s at 1280 px)."""

    def __init__(self, side: int) -> None:
        self.side = side

    def __call__(self, img: np.ndarray) -> np.ndarray:
        import cv2

        h, w = img.shape[:2]
        ratio = min(1.0, self.side / max(h, w))
        size = (max(32, round(w * ratio / 32) * 32), max(32, round(h * ratio / 32) * 32))
        scaled = cv2.resize(img, size, interpolation=cv2.INTER_AREA).astype(np.float32) * (2 / 255.0) - 1.0
        return scaled.transpose(2, 0, 1)[np.newaxis]


def read_image(image: np.ndarray, dpi: float) -> list[Box]:
    """One box (pixels) per detected text line of a colour page image, with its recognition confidence."""
    del dpi  # the detector scales the page itself
    engine = load()
    img, ratio_h, ratio_w = engine.preprocess(image)
    boxes, _ = engine.auto_text_det(img)
    if boxes is None:
        return []
    crops = engine.get_crop_img_list(img, boxes)  # no angle classifier: it turned upright 9.5 pt lines upside down
    pieces: list[np.ndarray] = []
    owners: list[int] = []
    for i, crop in enumerate(crops):
        for piece in split_crop(crop):
            pieces.append(piece)
            owners.append(i)
    texts: list[list[tuple[str, float]]] = [[] for _ in crops]
    for owner, (text, score) in zip(owners, _recognise(engine, pieces), strict=True):
        texts[owner].append((text, score))
    out = []
    for points, parts in zip(boxes, texts, strict=True):
        text = " ".join(t for t, _ in parts if t)
        weight = sum(len(t) for t, _ in parts) or 1
        score = sum(s * len(t) for t, s in parts) / weight
        if text and score >= MIN_SCORE:
            xy = np.asarray(points, dtype=np.float32) * [ratio_w, ratio_h]
            out.append(Box(text, float(xy[:, 0].min()), float(xy[:, 1].min()), float(xy[:, 0].max()),
                           float(xy[:, 1].max()), score))
    return out


def _recognise(engine: Any, crops: list[np.ndarray]) -> list[tuple[str, float]]:
    """Text and confidence per crop, one crop per model call: a batch pads every crop to its widest, and
    even equal-width batches of 8 took 1.5x the CPU of 8 single calls here."""
    found, _ = engine.text_rec(crops)
    return [(str(res[0]), float(res[1])) for res in found]
