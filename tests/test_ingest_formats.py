"""Each loader end to end through parse_file: metadata, sections, pages, ids, token limits."""

from __future__ import annotations

import json
import shutil
from importlib import resources
from pathlib import Path

import pytest

from kgrag.config import ChunkingSettings
from kgrag.ingest import SUPPORTED_SUFFIXES, content_hash, discover, parse_file
from kgrag.ingest.base import make_doc_id
from kgrag.ingest.text import heading_level, text_title
from kgrag.types import Chunk

FIXTURES = Path(__file__).parent / "fixtures" / "ingest"
SAMPLES = Path(str(resources.files("kgrag") / "samples"))
DOCS = SAMPLES / "docs"
SAMPLE_PDF = DOCS / "Zephyr Boards" / "Zephyr Nano Rev2" / "zephyr-nano-rev2-datasheet.pdf"
SETTINGS = ChunkingSettings()


def test_markdown_sections_front_matter_code_and_folder_metadata() -> None:
    path = FIXTURES / "Sensors" / "Baro X1" / "guide.md"
    parsed = parse_file(path, root=FIXTURES, settings=SETTINGS)
    doc = parsed.document
    assert doc.path == "Sensors/Baro X1/guide.md"
    assert doc.doc_id == make_doc_id("Sensors/Baro X1/guide.md")
    assert (doc.title, doc.version, doc.category, doc.product) == ("Baro X1 user guide", "3", "Sensors", "Baro X1")
    assert doc.content_hash == content_hash(path) and len(doc.content_hash) == 64
    sections = [s for c in parsed.chunks for s in c.meta.get("sections", [c.section])]
    assert sections[:2] == ["Baro X1", "Baro X1 > Power"]  # tiny intro and child section share a chunk
    registers = next(c for c in parsed.chunks if c.section.endswith("Pressure output"))
    assert registers.section == "Baro X1 > Registers > Pressure output"
    assert "// # this is not a heading" in registers.text  # code kept verbatim, not read as a heading
    assert "PRESS_OUT | 0x04 | pressure, 24 bit" in registers.text
    text = "\n".join(c.text for c in parsed.chunks)
    assert "example.com" not in text  # link bar and URL-only line dropped
    assert "wraps" not in text and "weather stations. It measures" in text.replace("\n", " ")
    for i, chunk in enumerate(parsed.chunks):
        assert chunk.chunk_id == f"{doc.doc_id}-{i:05d}" and chunk.ord == i
        assert (chunk.product, chunk.category) == ("Baro X1", "Sensors")
        assert chunk.page_start is None


def test_a_title_without_the_variant_its_folder_names_gets_it(tmp_path: Path) -> None:
    """A datasheet headed "Zephyr Carrier" in the folder of the "Zephyr Carrier Rev2" is the Rev2's; a title that names
    its product otherwise ("… Breakout Board" for "… Breakout") is kept."""
    from kgrag.ingest.base import title_with_variant

    folder = tmp_path / "Carriers" / "Zephyr Carrier Rev2"
    folder.mkdir(parents=True)
    body = ("The carrier holds an 18650 lithium-ion cell, a round TFT display, five capacitive buttons, two relays "
            "and a set of environmental sensors for home automation projects. ") * 3
    (folder / "datasheet.md").write_text(f"# Zephyr Carrier\n\n{body}\n")
    doc = parse_file(folder / "datasheet.md", root=tmp_path, settings=SETTINGS).document
    assert (doc.title, doc.product) == ("Zephyr Carrier Rev2", "Zephyr Carrier Rev2")
    assert title_with_variant("Arduino Zephyr Breakout Board", "Zephyr Breakout") == "Arduino Zephyr Breakout Board"
    assert title_with_variant("Arduino Zephyr Carrier Rev2", "Zephyr Carrier Rev2") == "Arduino Zephyr Carrier Rev2"
    assert title_with_variant("zephyr-datasheet", "Zephyr Carrier") == "zephyr-datasheet"


def test_html_drops_boilerplate_and_keeps_headings_and_tables() -> None:
    parsed = parse_file(FIXTURES / "page.html", root=FIXTURES, settings=SETTINGS)
    doc = parsed.document
    assert (doc.title, doc.product, doc.category) == ("Widget Hub manual", "Widget Hub", "")
    text = "\n".join(c.text for c in parsed.chunks)
    for junk in ("tracking", "Alpha link", "Related one", "Sidebar", "Copyright", "Search", "color"):
        assert junk not in text
    assert "a single controller over a shared RS-485 line" in text  # HTML whitespace collapsed
    assert "V+ and GND,\nthen daisy-chain" in text  # <br> kept as a line break
    wiring = next(c for c in parsed.chunks if "Terminal | Signal" in c.text)
    assert "Widget Hub > Installation > Wiring table" in wiring.meta["sections"]  # tiny table merged up
    assert "3 | RS-485 A" in wiring.text
    assert any(c.section == "Widget Hub > Troubleshooting" for c in parsed.chunks)


def _chunks_text(folder: Path, name: str, content: str) -> str:
    """The chunks' text of a file written with `content`."""
    path = folder / name
    path.write_text(content, encoding="utf-8")
    return "\n".join(c.text for c in parse_file(path, root=folder, settings=SETTINGS).chunks)


def test_an_html_ordered_list_keeps_its_step_numbers(tmp_path: Path) -> None:
    text = _chunks_text(tmp_path, "rma.html", "<html><body><h1>Returns</h1><h2>RMA procedure</h2><ol><li>Request an "
                        "RMA number.</li><li>Decontaminate the unit.</li><li>Ship it.</li></ol><ol start='7'><li>Wait."
                        "</li></ol><ul><li>Freight is paid by the sender.</li></ul></body></html>")
    assert "1. Request an RMA number.\n2. Decontaminate the unit.\n3. Ship it." in text
    assert "7. Wait." in text and "- Freight is paid by the sender." in text


def test_an_html_page_of_several_articles_is_read_whole_and_a_page_of_one_is_read_as_that_one(tmp_path: Path) -> None:
    """A knowledge base's articles, a forum thread's posts: every one is content; a blog page's one <article> is its
    content and the page's other text is not."""
    text = _chunks_text(tmp_path, "kb.html", "<html><body><h1>Knowledge base</h1><article><h2>KB-1 Clock resets</h2><p>"
                        "Replace the RTC battery.</p><article><p>A comment inside.</p></article></article><article><h2>"
                        "KB-2 Upload rejected</h2><p>Write booleans as true or false.</p></article></body></html>")
    assert "Replace the RTC battery." in text and "Write booleans as true or false." in text
    text = _chunks_text(tmp_path, "post.html", "<html><body><div><p>Cookie notice for visitors.</p></div><article><h1>"
                        "Release 4.1</h1><p>Adds TLS 1.3 to the cloud connection and fixes the clock drift after a power outage.</p><article><p>A reader's comment.</p></article></article>"
                        "</body></html>")
    assert "Adds TLS 1.3 to the cloud" in text and "reader's comment" in text and "Cookie notice" not in text


def test_the_header_of_a_forum_post_is_kept_and_the_pages_banner_is_not(tmp_path: Path) -> None:
    """Who wrote a post and whether it is the accepted answer sit in each post's <header>; the page's own <header>
    is boilerplate, as before."""
    posts = "".join(f'<div class="post{extra}"><header><span>{who}</span> · posted 2025-03-1{i}</header><p>{said}</p></div>'
                    for i, (extra, who, said) in enumerate([("", "pete", "Set tls_min_version to 1.0 in the cloud section."),
                                                            (" staff accepted", "✔ Accepted solution Lena",
                                                             "Schema 3 accepts 1.2 or 1.3 only; fix the endpoint line.")]))
    text = _chunks_text(tmp_path, "thread.html", f"<html><body><header><p>Community home · Sign in</p></header><h1>Cloud "
                        f"offline after the upgrade</h1>{posts}</body></html>")
    assert "pete · posted 2025-03-10" in text and "✔ Accepted solution Lena · posted 2025-03-11" in text, text
    assert "Sign in" not in text


def test_plain_text_paragraphs_and_hyphenation(tmp_path: Path) -> None:
    parsed = parse_file(FIXTURES / "notes.txt", root=None, settings=SETTINGS)
    doc = parsed.document
    assert doc.title == "Field notes for the pressure logger"
    assert Path(doc.path).is_absolute() and (doc.product, doc.category) == ("", "")
    text = parsed.chunks[0].text
    assert "temperature of the enclosure and" in text
    assert "ten minutes and stored" in text  # wrapped lines re-flowed
    bom = tmp_path / "bom.txt"
    bom.write_bytes("\ufeff".encode() + b"Caf\xc3\xa9 notes about the humidity sensor calibration done in the lab "
                    b"during the second week of the project.")
    assert parse_file(bom, root=tmp_path, settings=SETTINGS).chunks[0].text.startswith("Caf\u00e9 notes")
    utf16 = tmp_path / "utf16.txt"
    utf16.write_text("UTF-16 text with a byte order mark still reads fine as long as it has enough words.",
                     encoding="utf-16")
    assert "byte order mark" in parse_file(utf16, root=tmp_path, settings=SETTINGS).chunks[0].text


def test_jsonl_records_become_chunks_and_bad_lines_are_counted() -> None:
    parsed = parse_file(FIXTURES / "records.jsonl", root=FIXTURES, settings=SETTINGS)
    doc, chunks = parsed.document, parsed.chunks
    assert doc.meta["format"] == "jsonl" and doc.meta["skipped_lines"] == 2 and doc.meta["records"] == 3
    assert doc.meta["problems"][0].startswith("line 3: invalid JSON")
    assert len(chunks) == 3
    first, second, third = chunks
    assert first.text.startswith("[Product: Nano 33 IoT] [Category: Nano Family]")  # kept as is
    assert (first.product, first.category, first.section) == ("Nano 33 IoT", "Nano Family", "")
    assert first.meta["source_chunk_id"] == "ABX00027-datasheet::c0" and first.meta["chunk_type"] == "contextualized"
    assert first.chunk_id.startswith(doc.doc_id + "-") and first.chunk_id != f"{doc.doc_id}-00000"
    # product/category from the "[Product: X] [Category: Y]" prefix when the fields are missing
    assert (second.product, second.category, second.section, second.page_start) == (
        "Nano 33 BLE Sense Rev2", "Nano Family", "Features", 2)
    assert "a Bosch BMI270 IMU" in second.text  # trademark signs dropped as for every other format
    assert third.chunk_id == f"{doc.doc_id}-00002" and third.product == ""
    assert doc.category == "" and doc.product == ""  # records disagree / are missing
    again = parse_file(FIXTURES / "records.jsonl", root=FIXTURES, settings=SETTINGS)
    assert [c.chunk_id for c in again.chunks] == [c.chunk_id for c in chunks]


def test_jsonl_oversized_record_is_rechunked_and_duplicate_ids_stay_unique(tmp_path: Path) -> None:
    settings = ChunkingSettings(max_tokens=50, overlap_tokens=0, min_tokens=3)
    long_text = " ".join(f"Sentence {i} describes one more property of the board." for i in range(40))
    lines = [{"chunk_id": "a::c0", "text": long_text}, {"chunk_id": "dup", "text": "first copy of a record"},
             {"chunk_id": "dup", "text": "second copy of a record"}]
    path = tmp_path / "big.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines), encoding="utf-8")
    chunks = parse_file(path, root=tmp_path, settings=settings).chunks
    parts = [c for c in chunks if c.meta.get("source_chunk_id") == "a::c0"]
    assert len(parts) > 2 and all(c.tokens <= 50 for c in parts)
    ids = [c.chunk_id for c in chunks]
    assert len(ids) == len(set(ids))


def test_sample_pdf_headings_pages_tables_and_header_removal() -> None:
    parsed = parse_file(SAMPLE_PDF, root=DOCS, settings=SETTINGS)
    doc, chunks = parsed.document, parsed.chunks
    assert doc.title == "Zephyr Nano Rev2 Datasheet"
    assert (doc.category, doc.product) == ("Zephyr Boards", "Zephyr Nano Rev2")
    assert doc.meta["format"] == "pdf" and doc.meta["pages"] == 4
    by_section = {c.section: c for c in chunks}
    assert by_section["2 Ratings > 2.1 Recommended Operating Conditions"].page_start == 2
    sensors = by_section["3 Functional Overview > 3.2 Sensors"]
    assert (sensors.page_start, sensors.page_end) == (3, 3)
    assert sensors.text.startswith("3.2 Sensors\nThe BPX-390 measures barometric pressure from 260 to 1260 hPa")
    assert "VIN | Input voltage on the VIN pin | 4.5 | 5.0 | 18 | V" in by_section[
        "2 Ratings > 2.1 Recommended Operating Conditions"].text
    features = by_section["1 Features"]  # bold run-in headings, merged because they are tiny
    assert features.meta["sections"] == ["1 Features > Microcontroller", "1 Features > Sensors",
                                         "1 Features > Interfaces"]
    assert features.text.startswith("Microcontroller\nKestrel K52 microcontroller")
    assert max(c.page_end or 0 for c in chunks) == 4
    text = "\n".join(c.text for c in chunks)
    assert "Aerolith Instruments - Zephyr Nano Rev2 (ZPH-N2) Datasheet" not in text  # running header
    assert "Document AI-DS-0112" not in text  # running footer with page numbers
    assert "2.2 Power Consumption 2" not in text  # contents list
    assert all(c.tokens <= SETTINGS.max_tokens for c in chunks)


def test_sample_corpus_parses_and_questions_are_well_formed() -> None:
    files, errors = discover([DOCS])
    assert errors == []
    assert {f.suffix for f in files} >= {".md", ".html", ".pdf"}
    products = set()
    for path in files:
        parsed = parse_file(path, root=DOCS, settings=SETTINGS)
        assert parsed.chunks, path
        products.add(parsed.document.product)
    assert {"Zephyr Nano", "Zephyr Nano Rev2", "Zephyr Pro"} <= products
    records = [json.loads(line) for line in (SAMPLES / "questions.jsonl").read_text().splitlines()]
    assert len(records) >= 12
    assert {r["query_type"] for r in records} == {"factual", "reasoning", "disambiguation", "multi_hop", "summary"}
    assert any(r.get("answerable") is False for r in records)
    for r in records:
        for source in r["sources"]:
            assert (DOCS / source).is_file(), source


def test_ids_are_stable_across_locations_and_change_with_the_relative_path(tmp_path: Path) -> None:
    a, b = tmp_path / "a" / "Cat", tmp_path / "b" / "Cat"
    a.mkdir(parents=True)
    shutil.copy(FIXTURES / "notes.txt", a / "notes.txt")
    shutil.copytree(a, b)
    pa = parse_file(a / "notes.txt", root=tmp_path / "a", settings=SETTINGS)
    pb = parse_file(b / "notes.txt", root=tmp_path / "b", settings=SETTINGS)
    assert pa.document.doc_id == pb.document.doc_id
    assert [c.chunk_id for c in pa.chunks] == [c.chunk_id for c in pb.chunks]
    assert (pa.document.category, pa.document.product) == ("Cat", "")
    pc = parse_file(a / "notes.txt", root=tmp_path, settings=SETTINGS)
    assert pc.document.doc_id != pa.document.doc_id and pc.document.path == "a/Cat/notes.txt"
    assert (pc.document.category, pc.document.product) == ("a", "Cat")


@pytest.mark.parametrize("max_tokens", [40, 120])
def test_token_limit_respected_for_every_format(max_tokens: int) -> None:
    settings = ChunkingSettings(max_tokens=max_tokens, overlap_tokens=10, min_tokens=3)
    for path in [SAMPLE_PDF, FIXTURES / "page.html", FIXTURES / "Sensors" / "Baro X1" / "guide.md",
                 FIXTURES / "notes.txt"]:
        for chunk in parse_file(path, root=None, settings=settings).chunks:
            assert chunk.tokens <= max_tokens, (path.name, chunk.text)


def test_supported_suffixes() -> None:
    assert frozenset(
        {".pdf", ".html", ".htm", ".md", ".markdown", ".txt", ".text", ".jsonl", ".docx", ".pptx", ".xlsx", ".xlsm",
         ".csv", ".tsv", ".eml", ".mbox"}) == SUPPORTED_SUFFIXES


def test_plain_text_manual_headings_become_sections() -> None:
    parsed = parse_file(FIXTURES / "valve_manual.txt", root=None, settings=SETTINGS)
    assert parsed.document.title == "PV-12 / PV-12S Solenoid Valves - Operating Manual"  # not the maker's name above it

    def sections(chunk: Chunk) -> list[str]:
        return chunk.meta.get("sections") or [chunk.section]  # tiny sibling sections share a chunk

    mounting = next(c for c in parsed.chunks if "coil pointing upwards" in c.text)
    assert mounting.text.startswith("3.1 Mounting\n")
    assert sections(mounting)[0] == "3 INSTALLATION > 3.1 Mounting"
    assert "WARNING" in mounting.text and "Never energise" in mounting.text  # "WARNING" alone starts no section
    wiring = next(c for c in parsed.chunks if "Connect the coil" in c.text)
    assert "3 INSTALLATION > 3.2 Electrical connection" in sections(wiring)  # numbered steps, "24 VDC": no headings
    assert len(sections(wiring)) == 2
    fault = next(c for c in parsed.chunks if "within 10 %" in c.text)
    assert fault.section == "7 TROUBLESHOOTING > 7.1 Valve does not open"
    assert all("-----" not in c.text and "=====" not in c.text for c in parsed.chunks)  # drawn rules dropped
    assert "LED State Meaning PWR green" in " ".join(wiring.text.split())  # the table's column rule too


@pytest.mark.parametrize(("line", "level"), [
    ("3  INSTALLATION", 1), ("3.2  Electrical connection", 2), ("7.1.4 Fault codes", 3), ("4 Mounting", 1),
    ("TROUBLESHOOTING", 1), ("SAFETY INSTRUCTIONS", 1),
    ("1. Switch off the supply.", 0), ("2. Connect the coil", 0), ("24 VDC", 0), ("10 mA", 0), ("WARNING", 0),
    ("NOTE - HAZARDOUS LOCATIONS", 0), ("Ticket: KSL-24-0107", 0), ("KX-220", 0), ("", 0),
    ("E3 - SPI clock glitch at 48 MHz", 5), ("A2: Suction alarm", 5), ("E12: check the supply", 0),
    ("E2 - USB suspend current too high.", 0),
])
def test_plain_text_heading_level(line: str, level: int) -> None:
    assert heading_level(line) == level


@pytest.mark.parametrize(("lines", "title"), [
    (["ACME CONTROLS GmbH", "KX-9 Remote I/O - User Manual", "Document UM-9, Revision 3"], "KX-9 Remote I/O - User Manual"),
    (["", "ACME - TECHNICAL SUPPORT LOG (EXPORT)", "Period: 2024-01-01 to 2024-07-31"], "ACME - TECHNICAL SUPPORT LOG (EXPORT)"),
    (["Field notes for the pressure logger", "", "The logger was installed …"], "Field notes for the pressure logger"),
    (["The logger was installed on the roof on a cold morning. Readings were", "taken every ten minutes."], ""),
    (["See the user manual of the valve for its wiring.", "Then switch it on."], ""),  # a sentence naming one
    (["=" * 30, " ACME GMBH", " KX-9 SERIES TRANSMITTERS", " COMMAND LINE INTERFACE (CLI) REFERENCE", " Document CLI-9"],
     "COMMAND LINE INTERFACE (CLI) REFERENCE"),
    (["KX-9 Compliance Summary", "Standards and certificates of the KX-9 series"], "KX-9 Compliance Summary"),
    (["SERVICE BULLETIN SB-2024-03", "Affected: KX-9 units with serial numbers below 24-1000"], "SERVICE BULLETIN SB-2024-03"),
])
def test_a_plain_text_title_is_the_first_paragraphs_line_naming_a_document_kind(lines: list[str], title: str) -> None:
    assert text_title(lines) == title


def test_a_plain_text_paragraph_of_pipe_joined_cells_is_a_table_a_row_per_line(tmp_path: Path) -> None:
    """An errata sheet's summary written with "|" between cells: re-flowed, its rows ran into one line ("… | Fixed
    in E1 | ADC offset …"), so no row could be quoted; as a table each row keeps its line and the header its
    columns. A sentence with one "|" in it stays text."""
    text = _chunks_text(tmp_path, "errata.txt", "QX-9 SILICON ERRATA\n\nErratum | Title | Affected revisions | Fixed in\n"
                        "E1 | ADC offset below -20 °C | A, B | C\nE2 | USB suspend current too high | A | B\n\n"
                        "The pipe | character is\nused in shell examples only.\n")
    assert "Erratum | Title | Affected revisions | Fixed in\nE1 | ADC offset below -20 °C | A, B | C\n" in text
    assert "The pipe | character is used in shell examples only." in text
    from kgrag.ingest.text import table_rows

    assert table_rows(["| Key | Default |", "|---|:--:|", "| poll.ms | 1000 |"]) == ["Key | Default", "poll.ms | 1000"]
    assert table_rows(["a | b", "no cells here"]) is None


def test_a_row_of_names_over_rows_of_marks_is_a_table_header() -> None:
    """A compatibility matrix ("Accessory | Part number | QX-9 | QX-9S" over "Wall bracket | ACC-101 | ✓ | –") has
    no numbers for the header rule to find; its marks say the first row names columns."""
    from kgrag.ingest.table_header import header_like

    assert header_like("Accessory | Part number | QX-9 | QX-9S", ["Wall bracket | ACC-101 | ✓ | –"])
    assert header_like("Feature | QX-9 | QX-9S", ["PoE | no | yes"])
    assert not header_like("Security | ATECC608 | SE050", ["Crypto | ATECC508 | NXP"])  # names over names: data
