"""Test fixtures: PDFs without a text layer, made here. Text drawn as vector glyph outlines (fontTools reads
reportlab's bundled Vera fonts; like datasheets whose glyphs are paths) and text rendered into an image (a scan)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import reportlab
from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

FONTS = Path(reportlab.__file__).parent / "fonts"
PAGE_W, PAGE_H = 595.0, 842.0  # A4 in points
SMALL = (420.0, 300.0)  # a small page keeps OCR in the tests to a few seconds


@lru_cache(maxsize=4)
def _font(name: str) -> TTFont:
    return TTFont(str(FONTS / name))


class _PathPen(BasePen):
    """fontTools pen drawing into a reportlab path (quadratic TrueType curves raised to cubic)."""

    def __init__(self, glyphs: object, path: object, x: float, y: float, scale: float) -> None:
        super().__init__(glyphs)
        self.path, self.x, self.y, self.scale = path, x, y, scale
        self.last = (0.0, 0.0)

    def _pt(self, p: tuple[float, float]) -> tuple[float, float]:
        return self.x + p[0] * self.scale, self.y + p[1] * self.scale

    def _moveTo(self, p: tuple[float, float]) -> None:
        self.path.moveTo(*self._pt(p))
        self.last = p

    def _lineTo(self, p: tuple[float, float]) -> None:
        self.path.lineTo(*self._pt(p))
        self.last = p

    def _curveToOne(self, p1: tuple[float, float], p2: tuple[float, float], p3: tuple[float, float]) -> None:
        self.path.curveTo(*self._pt(p1), *self._pt(p2), *self._pt(p3))
        self.last = p3

    def _closePath(self) -> None:
        self.path.close()


def draw_outlined(c: canvas.Canvas, text: str, x: float, y: float, size: float, font: str = "Vera.ttf") -> None:
    """Draw `text` at (x, y) as filled glyph outlines: the page shows it, but has no text layer."""
    tt = _font(font)
    glyphs, cmap, hmtx = tt.getGlyphSet(), tt.getBestCmap(), tt["hmtx"]
    scale = size / tt["head"].unitsPerEm
    path = c.beginPath()
    for ch in text:
        name = cmap.get(ord(ch), ".notdef")
        glyphs[name].draw(_PathPen(glyphs, path, x, y, scale))
        x += hmtx[name][0] * scale
    c.drawPath(path, stroke=0, fill=1)


def outlined_pdf(path: Path, pages: Sequence[Sequence[tuple[str, float]]]) -> Path:
    """A PDF whose pages hold (text, font size) lines drawn as outlines, top to bottom; a size ≥ 16 uses
    the bold font (a heading)."""
    c = canvas.Canvas(str(path), pagesize=(PAGE_W, PAGE_H))
    for lines in pages:
        y = PAGE_H - 72
        for text, size in lines:
            y -= size * 1.6
            draw_outlined(c, text, 72, y, size, "VeraBd.ttf" if size >= 16 else "Vera.ttf")
        c.showPage()
    c.save()
    return path


def outlined_table(
    c: canvas.Canvas, rows: Sequence[Sequence[str]], top: float, size: float = 10, left: float = 72,
) -> float:
    """Rows of cells at fixed column positions (a table without rules), drawn as outlines; returns the y below."""
    y = top
    for row in rows:
        y -= size * 2.2
        for i, cell in enumerate(row):
            draw_outlined(c, cell, left + i * 120, y, size)
    return y


def scanned_pdf(path: Path, lines: Sequence[str], dpi: int = 200, size: int = 11) -> Path:
    """A small-page PDF whose only page is one raster image of `lines` (rendered by pdfium from a text PDF): a scan."""
    import pypdfium2 as pdfium

    width, height = SMALL
    source = io.BytesIO()
    c = canvas.Canvas(source, pagesize=SMALL)
    y = height - 36
    for text in lines:
        y -= size * 1.6
        c.setFont("Helvetica", size)
        c.drawString(36, y, text)
    c.showPage()
    c.save()
    image = pdfium.PdfDocument(source.getvalue())[0].render(scale=dpi / 72).to_pil().convert("L")
    out = canvas.Canvas(str(path), pagesize=SMALL)
    out.drawImage(ImageReader(image), 0, 0, width, height)
    out.showPage()
    out.save()
    return path
