"""DOCX and PPTX loaders on files made here: headings by style, paragraphs, lists, tables as ` | ` rows,
slide titles as sections, notes; damaged files are one clear error that does not stop the others."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx
from pptx import Presentation
from pptx.util import Inches

from kgrag.config import ChunkingSettings
from kgrag.index import Index
from kgrag.ingest import discover, parse_file

SETTINGS = ChunkingSettings()


def _docx(path: Path) -> Path:
    d = docx.Document()
    d.core_properties.title = "Zephyr Hub Manual"
    d.add_heading("Zephyr Hub", level=1)
    d.add_paragraph("The Zephyr Hub connects up to eight sensor boards over RS-485 and forwards readings by MQTT.")
    d.add_heading("Power", level=2)
    d.add_paragraph("The hub is powered with 12 V through the barrel jack and draws 150 mA at full load.")
    d.add_paragraph("Use the supplied adapter only.", style="List Bullet")
    d.add_paragraph("Never power it from the RS-485 bus.", style="List Bullet")
    d.add_heading("Ports", level=2)
    table = d.add_table(rows=3, cols=3)
    for r, row in enumerate([("Port", "Connector", "Speed"), ("Ethernet", "RJ45", "100 Mbit/s"),
                             ("Bus", "RS-485 terminal", "115200 baud")]):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    d.add_paragraph("The Ethernet port also supplies PoE power to the hub when the jack is unused.")
    d.save(str(path))
    return path


def _pptx(path: Path) -> Path:
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])  # title and content
    slide.shapes.title.text = "Zephyr Hub Installation"
    body = slide.placeholders[1].text_frame
    body.text = "Mount the hub on a DIN rail close to the sensor boards."
    item = body.add_paragraph()
    item.text = "Keep the RS-485 bus shorter than 1200 m."
    item.level = 1
    slide.notes_slide.notes_text_frame.text = "Mention the grounding of the shield wire during the demo."
    table_slide = deck.slides.add_slide(deck.slide_layouts[5])  # title only
    table_slide.shapes.title.text = "LED Codes"
    shape = table_slide.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(2))
    for r, row in enumerate([("LED", "Meaning"), ("Green blinking", "Bus traffic"),
                             ("Red steady", "Power supply fault")]):
        for c, text in enumerate(row):
            shape.table.cell(r, c).text = text
    deck.save(str(path))
    return path


def test_docx_headings_paragraphs_lists_and_tables(tmp_path: Path) -> None:
    parsed = parse_file(_docx(tmp_path / "hub.docx"), root=tmp_path, settings=SETTINGS)
    doc = parsed.document
    assert doc.title == "Zephyr Hub Manual" and doc.meta["format"] == "docx" and doc.meta["tables"] == 1
    text = "\n".join(c.text for c in parsed.chunks)
    assert "12 V through the barrel jack" in text
    assert "- Use the supplied adapter only.\n- Never power it from the RS-485 bus." in text
    assert "Port | Connector | Speed\nEthernet | RJ45 | 100 Mbit/s\nBus | RS-485 terminal | 115200 baud" in text
    paths = {p for c in parsed.chunks for p in [c.section, *c.meta.get("sections", [])]}
    assert {"Zephyr Hub > Power", "Zephyr Hub > Ports"} <= paths


def test_pptx_slide_titles_are_sections(tmp_path: Path) -> None:
    parsed = parse_file(_pptx(tmp_path / "install.pptx"), root=tmp_path, settings=SETTINGS)
    doc = parsed.document
    assert doc.meta["format"] == "pptx" and doc.meta["slides"] == 2 and doc.meta["tables"] == 1
    assert doc.title == "Zephyr Hub Installation"
    by_section = {}
    for c in parsed.chunks:
        for section in [c.section, *c.meta.get("sections", [])]:
            by_section.setdefault(section, []).append(c)
    assert set(by_section) >= {"Zephyr Hub Installation", "LED Codes"}
    text = "\n".join(c.text for c in parsed.chunks)
    assert "Mount the hub on a DIN rail" in text and "- Keep the RS-485 bus shorter than 1200 m." in text
    assert "grounding of the shield wire" in text  # speaker notes are content too
    assert "LED | Meaning\nGreen blinking | Bus traffic\nRed steady | Power supply fault" in text
    assert by_section["LED Codes"][0].page_end == 2  # page = slide number


def test_office_files_are_discovered_and_damaged_ones_reported(empty_index: Index, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _docx(docs / "hub.docx")
    _pptx(docs / "install.pptx")
    (docs / "broken.docx").write_bytes(b"PK\x03\x04 this is not really a zip")
    (docs / "notzip.pptx").write_text("plain text pretending to be slides", encoding="utf-8")
    with zipfile.ZipFile(docs / "other.docx", "w") as z:  # a zip, but not a Word package
        z.writestr("readme.txt", "hello")
    files, errors = discover([docs])
    assert [f.name for f in files] == ["broken.docx", "hub.docx", "install.pptx", "notzip.pptx", "other.docx"]
    assert not errors
    report = empty_index.add([docs])
    assert report.added == 2
    reasons = {Path(e.path).name: e.reason for e in report.errors}
    assert reasons.pop("other.docx").startswith("corrupt docx (KeyError")
    assert reasons == {"broken.docx": "corrupt docx (not a zip package)", "notzip.pptx": "corrupt pptx (not a zip package)"}
    hits = empty_index.search("what does a red steady LED mean", strategy="sparse").items
    assert hits and "Power supply fault" in hits[0].text
