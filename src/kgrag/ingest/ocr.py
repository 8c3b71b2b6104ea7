"""OCR of PDF pages without a text layer (scans, glyphs drawn as vector outlines): render with pypdfium2,
detect and recognise with RapidOCR's models (ONNX, shipped inside the `rapidocr-onnxruntime` wheel), one
CPU thread; long lines are recognised in pieces, one crop per call (the cheapest schedule measured here)."""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from typing import Any

import numpy as np
import pypdfium2 as pdfium

from kgrag.ingest.clean import normalize_whitespace
from kgrag.ingest.ocr_layout import Box, boxes_to_lines
from kgrag.ingest.ocr_split import split_crop
from kgrag.ingest.pdf_layout import Line

OCR_EXTRA = "ocr"  # pip install 'kgrag[ocr]'
ENGINE_PACKAGE = "rapidocr-onnxruntime"
DPI = 200  # render resolution, capped so the longer side is at most MAX_SIDE pixels (A4: ~170 dpi)
MAX_SIDE = 2000
DET_MAX_SIDE = 1280  # text detection runs on the page scaled to this longer side (recognition on full-size crops)
MIN_SCORE = 0.5  # recognised lines below this confidence are dropped (the engine's own default)
LOW_CONFIDENCE = 0.80  # pages whose mean recognition confidence is below this are reported
MIN_TEXT_CHARS = 10  # a page with fewer letters/digits in its text layer has no usable text
PAGE_TIME_ALLOWANCE_S = 30  # each OCR'd page extends the per-file parse time limit by this much


@dataclass
class OcrPage:
    """The OCR result of one page: lines in PDF points, mean confidence, time spent."""

    page: int
    lines: list[Line] = field(default_factory=list)
    confidence: float = 0.0
    boxes: int = 0
    seconds: float = 0.0


def ocr_available() -> bool:
    """True when the OCR extra (rapidocr-onnxruntime and its OpenCV) can be imported."""
    try:
        import rapidocr_onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


def engine_name() -> str:
    """`rapidocr-onnxruntime <version>`: recorded on every OCR'd chunk and document."""
    try:
        return f"{ENGINE_PACKAGE} {metadata.version(ENGINE_PACKAGE)}"
    except metadata.PackageNotFoundError:
        return ENGINE_PACKAGE


@lru_cache(maxsize=1)
def _engine() -> Any:
    """RapidOCR's detector and recogniser (PP-OCRv4, ONNX), loaded once per process (~1 s), one thread each."""
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


def read_image(image: np.ndarray) -> list[tuple[np.ndarray, str, float]]:
    """(4 corner points, text, confidence) per detected text line of an RGB image, top to bottom."""
    engine = _engine()
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
    for box, parts in zip(boxes, texts, strict=True):
        text = " ".join(t for t, _ in parts if t)
        weight = sum(len(t) for t, _ in parts) or 1
        score = sum(s * len(t) for t, s in parts) / weight
        if text and score >= MIN_SCORE:
            out.append((np.asarray(box, dtype=np.float32) * [ratio_w, ratio_h], text, score))
    return out


def _recognise(engine: Any, crops: list[np.ndarray]) -> list[tuple[str, float]]:
    """Text and confidence per crop, one crop per model call: a batch pads every crop to its widest, and
    even equal-width batches of 8 took 1.5x the CPU of 8 single calls here."""
    found, _ = engine.text_rec(crops)
    return [(str(res[0]), float(res[1])) for res in found]


def needs_ocr(page: pdfium.PdfPage, text_chars: int) -> bool:
    """A page needs OCR when its text layer has (almost) no letters or digits but it draws something:
    an image (a scan) or vector paths (outlined glyphs). Blank pages are left alone."""
    if text_chars >= MIN_TEXT_CHARS:
        return False
    return any(obj.type in (pdfium.raw.FPDF_PAGEOBJ_IMAGE, pdfium.raw.FPDF_PAGEOBJ_PATH,
                            pdfium.raw.FPDF_PAGEOBJ_FORM) for obj in page.get_objects())


def ocr_page(page: pdfium.PdfPage, page_no: int) -> OcrPage:
    """Render one page at DPI and turn the recognised boxes into positioned lines (PDF points)."""
    started = time.perf_counter()
    width, height = page.get_size()
    scale = min(DPI / 72, MAX_SIDE / max(width, height, 1.0))
    image = page.render(scale=scale).to_numpy()
    boxes: list[Box] = []
    for points, text, score in read_image(image):
        text = normalize_whitespace(str(text))
        if not text:
            continue
        xs = [float(p[0]) / scale for p in points]
        ys = [float(p[1]) / scale for p in points]
        boxes.append(Box(text, min(xs), min(ys), max(xs), max(ys), float(score)))
    _extend_time_limit(PAGE_TIME_ALLOWANCE_S)
    confidence = sum(b.score for b in boxes) / len(boxes) if boxes else 0.0
    return OcrPage(page_no, boxes_to_lines(boxes, page_no), round(confidence, 3), len(boxes),
                   time.perf_counter() - started)


def _extend_time_limit(seconds: int) -> None:
    """Add `seconds` to a pending per-file SIGALRM limit (kgrag.indexing.time_limit) so a long scanned file
    is not cut off by a limit sized for text parsing; nothing when no limit is set."""
    if threading.current_thread() is not threading.main_thread():
        return
    remaining = signal.alarm(0)
    if remaining:
        signal.alarm(remaining + seconds)
