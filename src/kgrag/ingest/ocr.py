"""OCR of PDF pages without a text layer (scans, glyphs drawn as vector outlines): render with pypdfium2,
recognise with RapidOCR (ONNX models shipped inside the `rapidocr-onnxruntime` wheel, one CPU thread)."""

from __future__ import annotations

import signal
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from typing import Any

import pypdfium2 as pdfium

from kgrag.ingest.clean import normalize_whitespace
from kgrag.ingest.ocr_layout import Box, boxes_to_lines
from kgrag.ingest.pdf_layout import Line

OCR_EXTRA = "ocr"  # pip install 'kgrag[ocr]'
ENGINE_PACKAGE = "rapidocr-onnxruntime"
DPI = 200  # render resolution; the engine scales the page to at most 2000 px on its longer side
DET_MAX_SIDE = 1280  # text detection runs on the page scaled to this longer side (recognition on full-size crops)
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
    """The recogniser, loaded once per process (~1 s): one thread, unbatched recognition (batches pad every
    crop to the widest line, which tripled the CPU time on datasheet pages), detection on a scaled page."""
    from rapidocr_onnxruntime import RapidOCR

    return RapidOCR(intra_op_num_threads=1, inter_op_num_threads=1, rec_batch_num=1,
                    det_limit_type="max", det_limit_side_len=DET_MAX_SIDE)


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
    scale = DPI / 72
    image = page.render(scale=scale).to_numpy()
    result, _ = _engine()(image)
    boxes: list[Box] = []
    for points, text, score in result or []:
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
