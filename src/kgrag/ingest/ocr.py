"""OCR of PDF pages without a text layer (scans, glyphs drawn as vector outlines): which pages need it, which
engine reads them (`[ingest] ocr_engine`: Tesseract when its binary is installed, else RapidOCR from the
`ocr` extra), and one page rendered with pypdfium2 and read into positioned lines."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pypdfium2 as pdfium

from kgrag.errors import ConfigError
from kgrag.ingest import ocr_rapid, ocr_tesseract
from kgrag.ingest.clean import normalize_whitespace
from kgrag.ingest.ocr_layout import Box, boxes_to_lines
from kgrag.ingest.pdf_layout import Line

ENGINES = ("auto", "tesseract", "rapidocr")  # the values of [ingest] ocr_engine
INSTALL_HINT = f"{ocr_tesseract.INSTALL} or pip install 'kgrag[{ocr_rapid.EXTRA}]'"
DPI = 200  # render resolution, capped so the longer side is at most MAX_SIDE pixels (A4: ~170 dpi)
MAX_SIDE = 2000
LOW_CONFIDENCE = 0.80  # pages whose mean recognition confidence is below this are reported
MIN_TEXT_CHARS = 10  # a page with fewer letters/digits in its text layer has no usable text
PAGE_TIME_ALLOWANCE_S = 30  # each OCR'd page extends the per-file parse time limit by this much


@dataclass(frozen=True)
class Engine:
    """One OCR engine: its key in ENGINES, how it is recorded (name and version), how it reads a page image
    (pixels and the render dpi -> boxes in pixels) and whether it wants a grey image."""

    key: str
    name: str
    read: Callable[[np.ndarray, float], list[Box]]
    grayscale: bool


@dataclass
class OcrPage:
    """The OCR result of one page: lines in PDF points, mean confidence, time spent."""

    page: int
    lines: list[Line] = field(default_factory=list)
    confidence: float = 0.0
    boxes: int = 0
    seconds: float = 0.0


_AVAILABLE: dict[str, Callable[[], bool]] = {"tesseract": ocr_tesseract.available, "rapidocr": ocr_rapid.available}


def engine_available(key: str) -> bool:
    """True when the engine `key` (tesseract | rapidocr) can run here."""
    return _AVAILABLE[key]()


def ocr_available() -> bool:
    """True when some OCR engine is installed."""
    return any(check() for check in _AVAILABLE.values())


def check_choice(choice: str) -> None:
    """ConfigError for an `[ingest] ocr_engine` value that names no engine."""
    if choice not in ENGINES:
        raise ConfigError(f"[ingest] ocr_engine: unknown OCR engine {choice!r} (one of {', '.join(ENGINES)})")


def select_engine(choice: str = "auto") -> Engine | None:
    """The engine for `choice`: `auto` = Tesseract when the binary is on PATH, else RapidOCR; None when the
    chosen engine (for `auto`: either) is not installed; ConfigError for an unknown name."""
    check_choice(choice)
    order = ["tesseract", "rapidocr"] if choice == "auto" else [choice]
    key = next((k for k in order if engine_available(k)), None)
    if key == "tesseract":
        return Engine(key, ocr_tesseract.version(), ocr_tesseract.read_image, grayscale=True)
    if key == "rapidocr":
        return Engine(key, ocr_rapid.version(), ocr_rapid.read_image, grayscale=False)
    return None


def install_hint(choice: str) -> str:
    """How to install the engine `choice` (both ways for `auto`)."""
    return {"tesseract": ocr_tesseract.INSTALL, "rapidocr": f"pip install 'kgrag[{ocr_rapid.EXTRA}]'"}.get(
        choice, INSTALL_HINT)


def needs_ocr(page: pdfium.PdfPage, text_chars: int) -> bool:
    """A page needs OCR when its text layer has (almost) no letters or digits but it draws something:
    an image (a scan) or vector paths (outlined glyphs). Blank pages are left alone."""
    if text_chars >= MIN_TEXT_CHARS:
        return False
    return any(obj.type in (pdfium.raw.FPDF_PAGEOBJ_IMAGE, pdfium.raw.FPDF_PAGEOBJ_PATH,
                            pdfium.raw.FPDF_PAGEOBJ_FORM) for obj in page.get_objects())


def ocr_page(page: pdfium.PdfPage, page_no: int, engine: Engine) -> OcrPage:
    """Render one page at DPI and turn the engine's boxes into positioned lines (PDF points)."""
    started = time.perf_counter()
    width, height = page.get_size()
    scale = min(DPI / 72, MAX_SIDE / max(width, height, 1.0))
    image = page.render(scale=scale, grayscale=engine.grayscale).to_numpy()
    boxes: list[Box] = []
    for box in engine.read(image, scale * 72):
        text = normalize_whitespace(box.text)
        if text:
            boxes.append(Box(text, box.x0 / scale, box.top / scale, box.x1 / scale, box.bottom / scale, box.score))
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
