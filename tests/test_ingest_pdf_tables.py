"""PDF tables whose drawn borders cut through words are read by whole words; well-drawn tables as before."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from reportlab.pdfgen import canvas

from kgrag.config import ChunkingSettings
from kgrag.ingest import parse_file
from kgrag.ingest.pdf_tables import table_rows

COLUMNS = [72, 110, 170, 400]  # the drawn borders: the second and third cut "W25Q16" and "Description"
ROWS = [700, 684, 668, 652]
CELLS = [  # (x, text) per row: where the document's text really starts, not where its borders are
    [(76, "Ref."), (114, "Part"), (150, "Description")],
    [(76, "U1"), (114, "PCF8563"), (175, "Real-time clock/calendar")],
    [(76, "U2"), (96, "W25Q16"), (175, "Flash 16M")],
]


def _pdf(path: Path) -> Path:
    c = canvas.Canvas(str(path))
    c.setFont("Helvetica-Bold", 14)
    c.drawString(72, 740, "1 Parts")
    c.setFont("Helvetica", 10)
    c.grid(COLUMNS, ROWS)
    for top, row in zip(ROWS[:-1], CELLS, strict=True):
        for x, text in row:
            c.drawString(x, top - 12, text)
    c.grid([72, 200, 300], [600, 584, 568])  # a well-drawn table: its text inside the cells
    c.drawString(76, 588, "Supply")
    c.drawString(204, 588, "3.3 V")
    c.drawString(76, 572, "Clock")
    c.drawString(204, 572, "64 MHz")
    c.showPage()
    c.save()
    return path


def test_a_border_cutting_words_reads_the_row_by_whole_words(tmp_path: Path) -> None:
    with pdfplumber.open(_pdf(tmp_path / "parts.pdf")) as pdf:
        page = pdf.pages[0]
        cut, plain = sorted(page.find_tables(), key=lambda t: t.bbox[1])
        assert cut.extract()[2][:2] != ["U2", "W25Q16"]  # what pdfplumber reads: the part number split
        assert [r[:3] for r in table_rows(page, cut)] == [
            ["Ref.", "Part", "Description"], ["U1", "PCF8563", "Real-time clock/calendar"],
            ["U2", "W25Q16", "Flash 16M"]]
        assert table_rows(page, plain) == plain.extract()  # borders framing the text: pdfplumber's own reading


def test_parsed_pdf_keeps_part_numbers_whole(tmp_path: Path) -> None:
    parsed = parse_file(_pdf(tmp_path / "parts.pdf"), root=tmp_path, settings=ChunkingSettings())
    text = "\n".join(c.text for c in parsed.chunks)
    assert "U2 | W25Q16 | Flash 16M" in text
    assert "Ref. | Part | Description" in text
    assert "Supply | 3.3 V" in text
