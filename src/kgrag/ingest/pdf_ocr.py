"""Which PDF pages are OCR'd and what the document records about it: pages whose text layer has (almost)
no letters but that draw an image or vector paths; never pages that have text."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from kgrag.ingest import ocr
from kgrag.ingest.ocr import DPI, LOW_CONFIDENCE, install_hint, needs_ocr, ocr_page
from kgrag.ingest.ocr_layout import normalize_sizes
from kgrag.ingest.ocr_tesseract import TesseractError
from kgrag.ingest.pdf_layout import Line, body_size
from kgrag.progress import NullProgress, Progress


def text_chars(lines: list[Line]) -> int:
    """Letters and digits in a page's extracted lines."""
    return sum(sum(c.isalnum() for c in ln.text) for ln in lines)


def ocr_missing_pages(
    path: Path, pages: list[list[Line]], meta: dict[str, Any], warnings: list[str], progress: Progress | None,
    engine_choice: str = "auto",
) -> dict[int, list[Line]]:
    """OCR'd lines by 0-based page index for the pages without usable text, read by the engine
    `engine_choice` (`[ingest] ocr_engine`). Records in `meta` `pages_without_text` (1-based) and, when OCR
    ran, `ocr` (engine, dpi, pages, per-page and mean confidence, low-confidence pages, seconds); problems
    are appended to `warnings`."""
    ocr.check_choice(engine_choice)  # an unknown engine name is an error even for PDFs with text
    doc = pdfium.PdfDocument(str(path))
    try:
        todo = [i for i, lines in enumerate(pages) if needs_ocr(doc[i], text_chars(lines))]
        if not todo:
            return {}
        meta["pages_without_text"] = [i + 1 for i in todo]
        # ocr_available is looked up on the module so tests can simulate a machine without any engine
        engine = ocr.select_engine(engine_choice) if ocr.ocr_available() else None
        if engine is None:
            warnings.append(f"{len(todo)} page(s) without a text layer skipped: OCR not installed "
                            f"({install_hint(engine_choice)})")
            return {}
        task = (progress or NullProgress()).task(f"OCR pages ({path.name}, {engine.key})", len(todo))
        results = []
        started = time.perf_counter()
        for i in todo:
            try:
                result = ocr_page(doc[i], i + 1, engine)
            except TesseractError as exc:  # one page the engine cannot read never stops the others
                warnings.append(f"OCR failed on page {i + 1}: {exc}")
                result = ocr.OcrPage(i + 1)
            results.append(result)
            task.advance(1, conf=f"{result.confidence:.2f}", **{"s/page": f"{result.seconds:.1f}"})
    finally:
        doc.close()
    ocr_lines = [ln for r in results for ln in r.lines]
    normalize_sizes(ocr_lines, body_size([ln for i, lines in enumerate(pages) if i not in todo for ln in lines]))
    found = [r for r in results if r.boxes]
    low = [r.page for r in found if r.confidence < LOW_CONFIDENCE]
    meta["ocr"] = {
        "engine": engine.name, "dpi": DPI, "pages": [r.page for r in results],
        "confidence": [r.confidence for r in results],
        "mean_confidence": round(statistics.fmean(r.confidence for r in found), 3) if found else 0.0,
        "low_confidence_pages": low, "seconds": round(time.perf_counter() - started, 1),
    }
    if low:
        warnings.append(f"OCR confidence below {LOW_CONFIDENCE:.2f} on page(s) {', '.join(map(str, low))}")
    empty = [r.page for r in results if not r.boxes]
    if empty and found:
        warnings.append(f"OCR found no text on page(s) {', '.join(map(str, empty))}")
    return {r.page - 1: r.lines for r in results if r.lines}


def ocr_chunk_meta(ocr: dict[str, Any] | None, page_start: int | None, page_end: int | None) -> dict[str, Any]:
    """`ocr: true`, the engine and the mean confidence of the OCR'd pages a chunk spans; {} otherwise."""
    if not ocr or page_start is None:
        return {}
    last = page_end if page_end is not None else page_start
    scores = [c for p, c in zip(ocr["pages"], ocr["confidence"], strict=True) if page_start <= p <= last]
    if not scores:
        return {}
    return {"ocr": True, "ocr_engine": ocr["engine"], "ocr_confidence": round(statistics.fmean(scores), 3)}
