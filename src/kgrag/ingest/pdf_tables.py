"""Rows of a PDF table as cell texts. Drawn cell borders usually frame the text, but some datasheets draw them where
the text does not fit ("U22 PCF | 8563 Real-time clock/calen | dar", "4 | .3 V"): a row whose border cuts through a
word is read again by whole words, each in the cell that holds its middle."""

from __future__ import annotations

from typing import Any

_TOLERANCE = 1.0  # points a word may overlap a border (kerning, rounding) before the border counts as cutting it
_LINE_TOLERANCE = 3.0  # points between the tops of two words of one text line ("limit¹" sits a little higher)

Box = tuple[float, float, float, float]


def table_rows(page: Any, table: Any) -> list[list[str | None]]:
    """The table's rows as pdfplumber reads them, a row re-read by words where one of its borders cuts a word."""
    rows = table.extract()
    words = [w for w in page.crop(table.bbox, strict=False).extract_words() if str(w["text"]).strip()]
    for i, row in enumerate(table.rows):
        cells: list[Box | None] = list(row.cells)
        inside = [w for w in words if _holds(row.bbox, w, horizontal=False)]
        borders = [float(c[0]) for c in cells[1:] if c is not None]
        if any(_cuts(w, b) for w in inside for b in borders):
            rows[i] = [None if c is None else _cell_text([w for w in inside if _holds(c, w)]) for c in cells]
    return rows


def _holds(box: Box, word: dict[str, Any], horizontal: bool = True) -> bool:
    """The word's middle lies in the box (only its height compared unless `horizontal`)."""
    y = (float(word["top"]) + float(word["bottom"])) / 2
    x = (float(word["x0"]) + float(word["x1"])) / 2
    return float(box[1]) <= y <= float(box[3]) and (not horizontal or float(box[0]) <= x < float(box[2]))


def _cuts(word: dict[str, Any], border: float) -> bool:
    """The word reaches past the border on both sides (by more than kerning would)."""
    return float(word["x0"]) < border - _TOLERANCE and float(word["x1"]) > border + _TOLERANCE


def _cell_text(words: list[dict[str, Any]]) -> str | None:
    """The words as lines, top to bottom, each line left to right."""
    lines: list[list[dict[str, Any]]] = []
    for w in sorted(words, key=lambda w: float(w["top"])):
        if lines and float(w["top"]) - float(lines[-1][0]["top"]) <= _LINE_TOLERANCE:
            lines[-1].append(w)
        else:
            lines.append([w])
    text = "\n".join(" ".join(str(w["text"]) for w in sorted(line, key=lambda w: float(w["x0"]))) for line in lines)
    return text or None
