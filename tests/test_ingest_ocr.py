"""OCR of PDF pages without a text layer: outlined glyphs and scanned images are read, pages with text are not
OCR'd, chunks say they came from OCR, and a missing OCR extra keeps the old skip with the extra named."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen import canvas

from kgrag.config import ChunkingSettings
from kgrag.index import Index
from kgrag.ingest import ocr, parse_file
from outline_pdf import PAGE_H, PAGE_W, SMALL, draw_outlined, outlined_table, scanned_pdf

SETTINGS = ChunkingSettings()
needs_ocr_extra = pytest.mark.skipif(not ocr.ocr_available(), reason="OCR extra (kgrag[ocr]) not installed")

BODY = [
    "The Zephyr Lite gateway accepts 9 to 24 V on its DC input.",
    "Its LoRa radio transmits at up to 27 dBm with the SX1302 chip.",
]
TABLE = [("Interface", "Connector", "Speed"), ("Ethernet", "RJ45", "100 Mbit/s"), ("Console", "USB-C", "115200 baud")]


def _mixed_pdf(path: Path) -> Path:
    """Page 1 has a real text layer; page 2 draws a heading, sentences and a table as glyph outlines."""
    c = canvas.Canvas(str(path), pagesize=(PAGE_W, PAGE_H))
    c.setFont("Helvetica-Bold", 18)
    c.drawString(72, PAGE_H - 90, "Zephyr Lite Overview")
    c.setFont("Helvetica", 11)
    for i in range(30):  # enough text for a chunk of page 1 alone
        c.drawString(72, PAGE_H - 120 - 16 * i, f"The Zephyr Lite is an outdoor LoRaWAN gateway for small deployments (note {i}).")
    c.showPage()
    c.setPageSize(SMALL)
    draw_outlined(c, "Power and Radio", 36, SMALL[1] - 50, 18, "VeraBd.ttf")
    y = SMALL[1] - 50
    for line in BODY:
        y -= 24
        draw_outlined(c, line, 36, y, 11)
    draw_outlined(c, "Interfaces", 36, y - 50, 18, "VeraBd.ttf")
    outlined_table(c, TABLE, y - 60, 11, left=36)
    c.showPage()
    c.save()
    return path


@needs_ocr_extra
def test_outlined_page_is_ocrd_and_text_page_is_not(tmp_path: Path) -> None:
    path = _mixed_pdf(tmp_path / "lite.pdf")
    assert pdfium.PdfDocument(str(path))[1].get_textpage().get_text_range().strip() == ""  # really no text layer
    parsed = parse_file(path, root=tmp_path, settings=SETTINGS)
    meta = parsed.document.meta
    assert meta["ocr"]["pages"] == [2]  # page 1 has text: never OCR'd
    assert meta["ocr"]["engine"].startswith("rapidocr-onnxruntime")
    assert meta["ocr"]["mean_confidence"] > 0.8 and meta["ocr"]["low_confidence_pages"] == []
    text = "\n".join(c.text for c in parsed.chunks)
    assert "9 to 24 V" in text and "27 dBm" in text and "SX1302" in text
    assert "Ethernet | RJ45 | 100 Mbit/s" in text  # cells of a row kept together, in the PDF row format
    assert meta["tables"] >= 1
    ocr_chunks = [c for c in parsed.chunks if c.meta.get("ocr")]
    assert ocr_chunks and all(c.page_end == 2 for c in ocr_chunks)
    assert all(c.meta["ocr_engine"] == meta["ocr"]["engine"] and c.meta["ocr_confidence"] > 0.8 for c in ocr_chunks)
    text_chunks = [c for c in parsed.chunks if c.page_end == 1]
    assert text_chunks and not any(c.meta.get("ocr") for c in text_chunks)
    paths = [p for c in ocr_chunks for p in [c.section, *c.meta.get("sections", [])]]
    assert "Zephyr Lite Overview > Power and Radio" in paths  # a taller OCR line is a heading


@needs_ocr_extra
def test_scanned_image_pdf_is_read(tmp_path: Path) -> None:
    lines = ["Troubleshooting the Zephyr Lite", "If the LTE LED blinks slowly, the modem is searching for a network.",
             "Hold the reset key for five seconds to restore the factory settings."]
    parsed = parse_file(scanned_pdf(tmp_path / "scan.pdf", lines), root=tmp_path, settings=SETTINGS)
    text = " ".join(c.text for c in parsed.chunks)
    assert "modem is searching" in text and "factory settings" in text
    assert parsed.document.meta["ocr"]["pages"] == [1]
    assert all(c.meta["ocr"] for c in parsed.chunks)


@needs_ocr_extra
def test_search_finds_facts_of_an_outlined_pdf(empty_index: Index, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _mixed_pdf(docs / "lite.pdf")
    report = empty_index.add([docs])
    assert report.indexed == 1, report.errors
    hits = empty_index.search("transmit power of the LoRa radio in dBm", strategy="sparse").items
    assert hits and "27 dBm" in hits[0].text


def test_without_ocr_extra_text_pages_are_kept_and_the_gap_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ocr, "ocr_available", lambda: False)
    parsed = parse_file(_mixed_pdf(tmp_path / "lite.pdf"), root=tmp_path, settings=SETTINGS)
    meta = parsed.document.meta
    assert "ocr" not in meta and meta["pages_without_text"] == [2]
    assert any("kgrag[ocr]" in w for w in meta["warnings"])
    assert "outdoor LoRaWAN gateway" in parsed.chunks[0].text
