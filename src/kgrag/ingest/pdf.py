"""PDF loader (pdfplumber; pypdfium2 for validation and as plain-text fallback; OCR for pages without a text
layer): headings from font size/bold/numbering relative to the body font, tables as ` | ` rows, repeated
headers/footers removed."""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pdfplumber
import pypdfium2 as pdfium

from kgrag.errors import IngestError
from kgrag.ingest.base import Parsed
from kgrag.ingest.clean import find_repeated_edge_lines, join_lines, normalize_whitespace, squash
from kgrag.ingest.ocr import install_hint
from kgrag.ingest.pdf_layout import Line, body_size, build_blocks, heading_style
from kgrag.ingest.pdf_ocr import ocr_missing_pages
from kgrag.ingest.pdf_tables import table_rows
from kgrag.ingest.textio import check_size, read_head
from kgrag.progress import Progress

_BOLD = re.compile(r"bold|black|heavy|semibold|demi", re.I)
_BAD_TITLE = re.compile(r"://|^www\.|localhost|\.(html?|pdf|docx?|indd|txt)\b|^untitled|^microsoft word", re.I)


@dataclass
class _PageResult:
    lines: list[Line]
    fallback: bool = False
    ocr: bool = False


@contextmanager
def _quiet() -> Iterator[None]:
    """pdfminer logs a warning per glyph problem (e.g. FontBBox); silence it while parsing."""
    logger = logging.getLogger("pdfminer")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def parse_pdf(path: Path, progress: Progress | None = None, ocr_engine: str = "auto") -> Parsed:
    """Blocks of a PDF with 1-based page numbers; pages without a text layer are OCR'd by `ocr_engine` when
    it is installed (`progress` shows them); IngestError for encrypted, corrupt or text-less files."""
    check_size(path)
    if b"%PDF-" not in read_head(path, 1024):
        raise IngestError(path, "corrupt PDF (no PDF header)")
    n_pages = _validate(path)
    with _quiet():
        pages, meta_title = _extract(path, n_pages, _pages_without_text_objects(path))
    meta: dict[str, Any] = {"format": "pdf", "pages": n_pages}
    warnings: list[str] = []
    ocr_lines = ocr_missing_pages(path, [p.lines for p in pages], meta, warnings, progress, ocr_engine)
    for index, lines in ocr_lines.items():
        pages[index] = _PageResult(lines, ocr=True)
    if not any(p.lines for p in pages):
        raise IngestError(path, _no_text_reason(meta, ocr_engine))
    title = _title(meta_title, pages, path.stem)  # before header removal: the running header is often the title
    _drop_headers_footers(pages)
    blocks = build_blocks([p.lines for p in pages])
    fallback = [i + 1 for i, p in enumerate(pages) if p.fallback]
    if fallback:
        meta["fallback_pages"] = fallback
        warnings.append(f"{_pages(fallback)} read as plain text (no fonts, no tables)")
    if warnings:
        meta["warnings"] = warnings
    return Parsed(blocks, title=title, meta=meta)


def _no_text_reason(meta: dict[str, Any], ocr_engine: str) -> str:
    """Why a PDF gave no text: no OCR installed (say how to install it), or OCR found nothing either."""
    if "ocr" in meta:
        return f"no extractable text (scanned PDF? OCR found no text on {_pages(meta['ocr']['pages'])})"
    if meta.get("pages_without_text"):
        return f"no extractable text (scanned PDF?); install OCR to read it: {install_hint(ocr_engine)}"
    return "no extractable text (scanned PDF?)"


def _pages(numbers: list[int]) -> str:
    """'page 3' / 'pages 1, 2, 5'."""
    return ("page " if len(numbers) == 1 else "pages ") + ", ".join(str(n) for n in numbers)


def _validate(path: Path) -> int:
    """Open with pdfium (fast, strict): the page count, or IngestError for encrypted/corrupt files."""
    try:
        doc = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        message = str(exc)
        if "password" in message.lower():
            raise IngestError(path, "encrypted PDF") from exc
        reason = message.split("(PDFium:", 1)[-1].rstrip(").").strip() or message
        raise IngestError(path, f"corrupt PDF ({reason})") from exc
    try:
        n_pages = len(doc)
    finally:
        doc.close()
    if n_pages == 0:
        raise IngestError(path, "corrupt PDF (no pages)")
    return n_pages


def _pages_without_text_objects(path: Path) -> set[int]:
    """0-based pages that draw no text object (forms included), by pdfium (~2 ms a page): pdfplumber has
    nothing to find there, and parsing a page of outlined glyphs cost it ~1.5 CPU s."""
    doc = pdfium.PdfDocument(str(path))
    try:
        return {i for i in range(len(doc))
                if not any(True for _ in doc[i].get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_TEXT]))}
    finally:
        doc.close()


def _extract(path: Path, n_pages: int, skip: set[int]) -> tuple[list[_PageResult], str]:
    """Lines of every page with pdfplumber (pages in `skip` have none); pages it cannot read fall back to
    pdfium plain text."""
    try:
        pdf = pdfplumber.open(path)
    except Exception:  # pdfminer is stricter than pdfium: use plain text for the whole file
        return [_PageResult(_fallback_lines(path, i), True) for i in range(n_pages)], ""
    with pdf:
        meta_title = str(pdf.metadata.get("Title") or "") if isinstance(pdf.metadata, dict) else ""
        results: list[_PageResult] = []
        for i in range(n_pages):
            if i in skip:
                results.append(_PageResult([]))
                continue
            try:
                page = pdf.pages[i]
                results.append(_PageResult(_page_lines(page, i + 1)))
                page.close()
            except Exception:
                results.append(_PageResult(_fallback_lines(path, i), True))
    return results, meta_title


def _page_lines(page: Any, page_no: int) -> list[Line]:
    """Text lines (with font size and boldness) and table rows of one page, top to bottom."""
    tables = page.find_tables()
    boxes = [t.bbox for t in tables]
    lines: list[Line] = []
    for raw in page.extract_text_lines(return_chars=True, strip=True):
        text = normalize_whitespace(raw["text"])
        if not text or _inside(raw, boxes):
            continue
        chars = [c for c in raw["chars"] if not c["text"].isspace()]
        sizes = Counter(round(float(c["size"]), 1) for c in chars)
        size = sizes.most_common(1)[0][0] if sizes else 0.0
        flags = [bool(_BOLD.search(str(c.get("fontname", "")))) for c in chars]
        bold = bool(flags) and flags[0] and sum(flags) >= 0.5 * len(flags)  # "MPM3610 (DC-DC)": bold lead
        lines.append(Line(text, page_no, float(raw["top"]), float(raw["bottom"]), float(raw["x0"]),
                          float(raw["x1"]), size, bold))
    for table in tables:
        for i, row in enumerate(table_rows(page, table)):
            cells = [normalize_whitespace(join_lines(c.split("\n"))) for c in row if c and c.strip()]
            if cells:
                top = float(table.bbox[1]) + i * 1e-3
                lines.append(Line(" | ".join(cells), page_no, top, top, float(table.bbox[0]),
                                  float(table.bbox[2]), 0.0, False, "table"))
    lines.sort(key=lambda ln: (ln.top, ln.x0))
    return lines


def _inside(raw: dict[str, Any], boxes: list[tuple[float, float, float, float]]) -> bool:
    cy = (float(raw["top"]) + float(raw["bottom"])) / 2
    cx = (float(raw["x0"]) + float(raw["x1"])) / 2
    return any(x0 <= cx <= x1 and top <= cy <= bottom for x0, top, x1, bottom in boxes)


def _fallback_lines(path: Path, index: int) -> list[Line]:
    """Plain text of one page via pdfium (no fonts: every line is body text)."""
    try:
        doc = pdfium.PdfDocument(str(path))
        try:
            page = doc[index]
            text = page.get_textpage().get_text_range()
        finally:
            doc.close()
    except pdfium.PdfiumError:
        return []
    lines = [normalize_whitespace(t) for t in text.replace("\r\n", "\n").split("\n")]
    return [Line(t, index + 1, float(i), float(i), 0.0, 0.0, 0.0, False, "plain")
            for i, t in enumerate(lines) if t]


def _drop_headers_footers(pages: list[_PageResult]) -> None:
    """Remove lines recurring at the top/bottom of most pages (digits ignored: page numbers vary)."""
    drop = find_repeated_edge_lines([[ln.text for ln in p.lines] for p in pages], edge=2, min_share=0.6)
    for page, indices in zip(pages, drop, strict=True):
        if indices:
            page.lines = [ln for i, ln in enumerate(page.lines) if i not in indices]


def _title(meta_title: str, pages: list[_PageResult], stem: str = "") -> str:
    """Metadata title when it looks like one (not a URL, not a file name such as the file's own `stem`, which
    scanners and image converters write: "scan_0001"), else the first heading-styled line of the first page with
    text (datasheets put the product name there, often as running header)."""
    meta_title = normalize_whitespace(meta_title)
    own_name = bool(stem) and " " not in meta_title and squash(meta_title) == squash(stem)  # written as a file
    # name ("scan_0001"); "Zephyr Nano Rev2 Datasheet" for zephyr-nano-rev2-datasheet.pdf is a title
    if meta_title and not own_name and not _BAD_TITLE.search(meta_title) and sum(c.isalpha() for c in meta_title) >= 3:
        return meta_title
    first = next((p.lines for p in pages if p.lines), [])
    body = body_size([ln for p in pages for ln in p.lines])
    for line in first:
        if sum(c.isalpha() for c in line.text) >= 3 and heading_style(line, body) is not None:
            return line.text
    return ""
