"""OCR of PDF pages without a text layer, with each engine (Tesseract, RapidOCR): outlined glyphs and scanned
images are read, pages with text are not OCR'd, chunks say they came from OCR and which engine read them, and
a machine without any engine keeps the old skip with the install named."""

from __future__ import annotations

import os
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from reportlab.pdfgen import canvas

from kgrag.config import ChunkingSettings
from kgrag.errors import ConfigError
from kgrag.index import Index
from kgrag.ingest import ocr, parse_file
from outline_pdf import PAGE_H, PAGE_W, SMALL, draw_outlined, outlined_table, scanned_pdf

SETTINGS = ChunkingSettings()
ENGINE_NAMES = {"tesseract": "tesseract ", "rapidocr": "rapidocr-onnxruntime "}  # how meta["ocr"]["engine"] starts
INSTALL = {"tesseract": "bash scripts/install_ocr.sh (apt-get install tesseract-ocr)",
           "rapidocr": "pip install 'kgrag[ocr]'"}


@pytest.fixture(params=["tesseract", "rapidocr"])
def engine(request: pytest.FixtureRequest) -> str:
    """Each OCR engine that is installed; under CI=true (which installs both) a missing engine fails."""
    name: str = request.param
    if not ocr.engine_available(name):
        message = f"OCR engine {name} not installed (install: {INSTALL[name]})"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return name


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


def test_outlined_page_is_ocrd_and_text_page_is_not(tmp_path: Path, engine: str) -> None:
    path = _mixed_pdf(tmp_path / "lite.pdf")
    assert pdfium.PdfDocument(str(path))[1].get_textpage().get_text_range().strip() == ""  # really no text layer
    parsed = parse_file(path, root=tmp_path, settings=SETTINGS, ocr_engine=engine)
    meta = parsed.document.meta
    assert meta["ocr"]["pages"] == [2]  # page 1 has text: never OCR'd
    assert meta["ocr"]["engine"].startswith(ENGINE_NAMES[engine])
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


def test_scanned_image_pdf_is_read(tmp_path: Path, engine: str) -> None:
    lines = ["Troubleshooting the Zephyr Lite", "If the LTE LED blinks slowly, the modem is searching for a network.",
             "Hold the reset key for five seconds to restore the factory settings."]
    parsed = parse_file(scanned_pdf(tmp_path / "scan.pdf", lines), root=tmp_path, settings=SETTINGS,
                        ocr_engine=engine)
    text = " ".join(c.text for c in parsed.chunks)
    assert "modem is searching" in text and "factory settings" in text
    assert parsed.document.meta["ocr"]["pages"] == [1]
    assert all(c.meta["ocr"] for c in parsed.chunks)


def test_search_finds_facts_of_an_outlined_pdf(empty_index: Index, tmp_path: Path, engine: str) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _mixed_pdf(docs / "lite.pdf")
    empty_index.settings.ingest.ocr_engine = engine  # [ingest] ocr_engine reaches the PDF loader
    report = empty_index.add([docs])
    assert report.indexed == 1, report.errors
    assert empty_index.store.list_documents()[0].meta["ocr"]["engine"].startswith(ENGINE_NAMES[engine])
    hits = empty_index.search("transmit power of the LoRa radio in dBm", strategy="sparse").items
    assert hits and "27 dBm" in hits[0].text


def test_without_ocr_extra_text_pages_are_kept_and_the_gap_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ocr, "ocr_available", lambda: False)
    parsed = parse_file(_mixed_pdf(tmp_path / "lite.pdf"), root=tmp_path, settings=SETTINGS)
    meta = parsed.document.meta
    assert "ocr" not in meta and meta["pages_without_text"] == [2]
    assert any("kgrag[ocr]" in w and "apt-get install tesseract-ocr" in w for w in meta["warnings"])
    assert "outdoor LoRaWAN gateway" in parsed.chunks[0].text


def test_auto_prefers_tesseract_and_falls_back_to_rapidocr(monkeypatch: pytest.MonkeyPatch) -> None:
    installed = {"tesseract": True, "rapidocr": True}
    monkeypatch.setattr(ocr, "engine_available", lambda key: installed[key])
    assert ocr.select_engine("auto").key == "tesseract"
    assert ocr.select_engine("rapidocr").key == "rapidocr"
    installed["tesseract"] = False  # the pip-only install
    assert ocr.select_engine("auto").key == "rapidocr"
    assert ocr.select_engine("tesseract") is None and ocr.install_hint("tesseract") == "apt-get install tesseract-ocr"
    with pytest.raises(ConfigError, match="unknown OCR engine 'easyocr'"):
        ocr.select_engine("easyocr")


def test_a_missing_chosen_engine_skips_the_pages_and_names_its_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ocr, "engine_available", lambda key: key == "rapidocr")
    parsed = parse_file(_mixed_pdf(tmp_path / "lite.pdf"), root=tmp_path, settings=SETTINGS, ocr_engine="tesseract")
    meta = parsed.document.meta
    assert "ocr" not in meta and meta["pages_without_text"] == [2]
    assert any("OCR not installed (apt-get install tesseract-ocr)" in w for w in meta["warnings"])


def test_tesseract_tsv_words_become_line_phrases_split_at_cell_gaps() -> None:
    from kgrag.ingest.ocr_tesseract import phrases

    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
    rows = [(4, 1, 1, 1, 1, 0, 10, 10, 400, 20, -1, ""),  # the line itself: no text
            (5, 1, 1, 1, 1, 1, 10, 10, 60, 20, 96.0, "Supply"), (5, 1, 1, 1, 1, 2, 76, 12, 60, 18, 94.0, "voltage"),
            (5, 1, 1, 1, 1, 3, 300, 10, 30, 20, 91.0, "12"), (5, 1, 1, 1, 1, 4, 336, 10, 14, 20, 89.0, "V"),
            (5, 1, 2, 1, 1, 1, 10, 60, 40, 20, 20.0, "~~"),  # low confidence: dropped
            (5, 1, 2, 1, 1, 2, 60, 60, 40, 20, -1.0, "x")]  # no confidence: not a word
    tsv = "\n".join([header, *("\t".join(map(str, r)) for r in rows)])
    boxes = phrases(tsv)
    assert [b.text for b in boxes] == ["Supply voltage", "12 V"]  # a gap of 164 px > 1.2 line heights: two cells
    assert (boxes[0].x0, boxes[0].top, boxes[0].x1, boxes[0].bottom) == (10, 10, 136, 30)
    assert boxes[0].score == pytest.approx((0.96 * 6 + 0.94 * 7) / 13)
