"""From OCR word/line boxes to positioned PDF lines: boxes grouped into rows by their vertical centre, cells
of a row split at wide gaps, runs of multi-cell rows kept as ` | ` table rows, a font size per line."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from kgrag.ingest.pdf_layout import Line

CELL_GAP = 1.2  # a horizontal gap wider than this many line heights separates two cells of a row
HEADING_HEIGHT = 1.25  # a line this much taller than the body lines keeps its own size (heading candidate)
_DESCENDERS = set("gjpqyQ()[]{}|,;")
_NO_DESCENDER_SHARE = 0.8  # a box of text without descenders covers about this share of the full line height


@dataclass
class Box:
    """One recognised text box in PDF points (top-left origin) with the engine's confidence."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    score: float

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2


def line_height(text: str, height: float) -> float:
    """The box height a full line (with descenders) of the same font would have: comparable across lines."""
    return height if any(c in _DESCENDERS for c in text) else height / _NO_DESCENDER_SHARE


def group_rows(boxes: list[Box]) -> list[list[Box]]:
    """Boxes grouped into visual rows (vertical centres within half a box height), top to bottom, each
    row left to right."""
    rows: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: (b.middle, b.x0)):
        if rows:
            row = rows[-1]
            middle = statistics.fmean(b.middle for b in row)
            height = min(box.height, statistics.fmean(b.height for b in row))
            if abs(box.middle - middle) <= 0.5 * height:
                row.append(box)
                continue
        rows.append([box])
    return [sorted(row, key=lambda b: b.x0) for row in rows]


def split_at_gaps(boxes: list[Box], height: float) -> list[list[Box]]:
    """Boxes (sorted left to right) in runs: a gap wider than CELL_GAP x `height` starts a new cell."""
    cells: list[list[Box]] = [[boxes[0]]]
    for box in boxes[1:]:
        if box.x0 - cells[-1][-1].x1 > CELL_GAP * height:
            cells.append([box])
        else:
            cells[-1].append(box)
    return cells


def split_cells(row: list[Box]) -> list[list[Box]]:
    """The cells of a row: neighbouring boxes closer than CELL_GAP median box heights belong to one cell."""
    return split_at_gaps(row, statistics.median(b.height for b in row))


def boxes_to_lines(boxes: list[Box], page: int) -> list[Line]:
    """Lines of one page in reading order; two or more consecutive rows with several cells are a table."""
    rows = [split_cells(row) for row in group_rows(boxes)]
    multi = [len(cells) > 1 for cells in rows]
    lines: list[Line] = []
    for i, cells in enumerate(rows):
        flat = [b for cell in cells for b in cell]
        texts = [" ".join(b.text for b in cell) for cell in cells]
        top, bottom = min(b.top for b in flat), max(b.bottom for b in flat)
        x0, x1 = min(b.x0 for b in flat), max(b.x1 for b in flat)
        in_table = multi[i] and ((i > 0 and multi[i - 1]) or (i + 1 < len(rows) and multi[i + 1]))
        if in_table:
            lines.append(Line(" | ".join(texts), page, top, top, x0, x1, 0.0, False, "table"))
        else:
            size = max(line_height(b.text, b.height) for b in flat)
            lines.append(Line(" ".join(texts), page, top, bottom, x0, x1, size, False))
    return lines


def normalize_sizes(lines: list[Line], body: float) -> None:
    """Express OCR line heights as font sizes on the document's scale: the typical OCR line becomes `body`
    (the text layer's body size, or the OCR median when no page has text); clearly taller lines keep
    their proportion so heading detection sees them; the height noise of body lines is removed."""
    text = sorted((ln.size, len(ln.text)) for ln in lines if ln.kind == "text" and ln.size)
    if not text:
        return
    half, seen = sum(n for _, n in text) / 2, 0
    typical = text[-1][0]
    for size, n in text:  # the median height by characters: body lines outweigh a few short headings
        seen += n
        if seen >= half:
            typical = size
            break
    target = body or round(typical * 2) / 2
    for ln in lines:
        if ln.kind == "text" and ln.size:
            ln.size = ln.size * target / typical if ln.size >= HEADING_HEIGHT * typical else target
