"""Spreadsheet (CSV/TSV, XLSX) and e-mail (.eml) loaders on files made here: a sheet's rows as a table under its
header with every cell in its column, a reply thread read message by message with its authors; damaged files are one
clear error that does not stop the others."""

from __future__ import annotations

import datetime as dt
from email.message import EmailMessage
from pathlib import Path

import pytest
import xlsxwriter

from kgrag.config import ChunkingSettings
from kgrag.errors import IngestError
from kgrag.index import Index
from kgrag.ingest import parse_file
from kgrag.ingest.details import document_details, format_details
from kgrag.ingest.mail import split_thread

SETTINGS = ChunkingSettings()


def _text(path: Path) -> str:
    return "\n".join(c.text for c in parse_file(path, root=path.parent, settings=SETTINGS).chunks)


def _workbook(path: Path) -> Path:
    book = xlsxwriter.Workbook(str(path))
    parts = book.add_worksheet("Spare parts")
    parts.write("A1", "Prices valid from 1 March 2026")
    for r, row in enumerate([("Part no.", "Description", "Fits", "Price (EUR)", "Lead time"),
                             ("TX-FLT-2", "Sintered filter cap", "TX-200, TX-210", 18.0, "2 weeks"),
                             ("TX-CAB-5", "Probe cable\n5 m", "", 42.5, "stock"),
                             ("TX-KIT-9", "Service kit", "all", 1250, "stock")], start=2):
        parts.write_row(r, 1, row)  # the table starts in column B, under a blank row
    parts.set_column(4, 4, None, book.add_format({"num_format": "#,##0.00"}))
    for r, price in ((3, 18.0), (4, 42.5), (5, 1250)):
        parts.write_number(r, 4, price, book.add_format({"num_format": "#,##0.00"}))
    parts.merge_range("B8:F8", "Prices exclude VAT.")  # a note merged across the table's width
    limits = book.add_worksheet("Test limits")
    limits.write_row(0, 0, ["Register", "Default TX-200", "Default TX-210", "RH accuracy", "Calibrated"])
    limits.write("A2", "Alarm delay (s)")
    limits.merge_range("B2:C2", 30)  # one default merged over both models' columns
    limits.write("D2", 0.015)
    limits.write_datetime(1, 4, dt.datetime(2026, 2, 14), book.add_format({"num_format": "yyyy-mm-dd"}))
    limits.write_number(1, 3, 0.015, book.add_format({"num_format": "0.0%"}))
    book.add_worksheet("Empty")
    book.close()
    return path


def test_xlsx_sheets_are_sections_and_rows_keep_their_columns(tmp_path: Path) -> None:
    parsed = parse_file(_workbook(tmp_path / "parts.xlsx"), root=tmp_path, settings=SETTINGS)
    assert parsed.document.meta["format"] == "xlsx" and parsed.document.meta["tables"] == 2
    text = "\n".join(c.text for c in parsed.chunks)
    assert "Prices valid from 1 March 2026" in text  # a note above the table is a line of text
    assert ("Part no. | Description | Fits | Price (EUR) | Lead time\n"
            "TX-FLT-2 | Sintered filter cap | TX-200, TX-210 | 18.00 | 2 weeks\n"
            "TX-CAB-5 | Probe cable 5 m |  | 42.50 | stock\n"
            "TX-KIT-9 | Service kit | all | 1,250.00 | stock") in text  # no empty column A, prices as Excel shows them
    assert "Prices exclude VAT." in text and "Prices exclude VAT. |" not in text  # a merged note read once
    assert ("Register | Default TX-200 | Default TX-210 | RH accuracy | Calibrated\n"
            "Alarm delay (s) | 30 | 30 | 1.5% | 2026-02-14") in text  # the merged default is each model's
    sections = {s for c in parsed.chunks for s in [c.section, *c.meta.get("sections", [])]}
    assert sections == {"Spare parts", "Test limits"}  # an empty sheet is no section


def test_a_number_reads_in_its_cells_format() -> None:
    from kgrag.ingest.sheets import _cell_text

    assert [_cell_text(v, f) for v, f in [(1.23e-5, "0.00E+00"), (1250, "#,##0.00"), (0.015, "0.0%"), (12.0, "General"),
                                          (0.1 + 0.2, "General"), (1234567.891, "#,##0")]] == [
        "1.23E-05", "1,250.00", "1.5%", "12", "0.3", "1,234,568"]


def test_csv_export_is_a_table_with_its_header(tmp_path: Path) -> None:
    path = tmp_path / "tickets_export.csv"
    path.write_text('ticket_id;product;resolution;status\n'
                    'T-1043;TX-210;"Update to firmware 2.4.1\n(fixes RH drift)";closed\n'
                    'T-1044;TX-200;;open\n', encoding="utf-8")
    parsed = parse_file(path, root=tmp_path, settings=SETTINGS)
    assert parsed.document.meta["format"] == "csv" and parsed.document.title == "tickets export"  # the name in words
    assert parsed.chunks[0].text == ("ticket_id | product | resolution | status\n"
                                     "T-1043 | TX-210 | Update to firmware 2.4.1 (fixes RH drift) | closed\n"
                                     "T-1044 | TX-200 |  | open")
    tsv = tmp_path / "limits.tsv"
    tsv.write_text("model\tmax temperature\tnote\nTX-200\t50\tsee datasheet section 4\nTX-210\t60\tsee datasheet section 5\n", encoding="utf-8")
    assert _text(tsv) == ("model | max temperature | note\nTX-200 | 50 | see datasheet section 4\n"
                          "TX-210 | 60 | see datasheet section 5")


def _email(path: Path, body: str, html: str | None = None) -> Path:
    message = EmailMessage()
    message["From"] = "Jane Doe <jane@acme.example>"
    message["To"] = "Bob Smith <bob@customer.example>"
    message["Date"] = "Tue, 03 Mar 2026 09:12:00 +0000"
    message["Subject"] = "RE: RE: RH drift on TX-210"
    message.set_content(body)
    if html is not None:
        message.add_alternative(html, subtype="html")
    path.write_bytes(bytes(message))
    return path


THREAD = """Hi Bob,

please update to firmware 2.4.1, which fixes the
humidity drift. Your RMA number is RMA-5521.

Jane

This e-mail is confidential and meant for its addressee only.

On Mon, 2 Mar 2026 at 16:05, Bob Smith <bob@customer.example>
wrote:
> Our TX-210 reads 8 %RH too high since
> the update to 2.4.0.
>
> This e-mail is confidential and meant for its addressee only.
>
> -----Original Message-----
> From: Jane Doe <jane@acme.example>
> Sent: Sunday, 1 March 2026 10:00
> Subject: RH drift
>
> Please send the serial number.
"""


def test_email_thread_is_read_message_by_message(tmp_path: Path) -> None:
    parsed = parse_file(_email(tmp_path / "drift.eml", THREAD), root=tmp_path, settings=SETTINGS)
    doc = parsed.document
    assert doc.title == "RH drift on TX-210" and doc.meta["format"] == "eml"
    text = "\n".join(c.text for c in parsed.chunks)
    assert "please update to firmware 2.4.1, which fixes the humidity drift. Your RMA number is RMA-5521." in text
    assert "Our TX-210 reads 8 %RH too high since the update to 2.4.0." in text  # quote marks gone, lines joined
    assert ">" not in text.replace("<jane@acme.example>", "").replace("<bob@customer.example>", "")
    assert text.count("This e-mail is confidential") == 1  # a repeated disclaimer is kept once
    sections = [c.section for c in parsed.chunks] + [s for c in parsed.chunks for s in c.meta.get("sections", [])]
    assert "On Mon, 2 Mar 2026 at 16:05, Bob Smith <bob@customer.example> wrote" in sections
    assert "On Sunday, 1 March 2026 10:00, Jane Doe <jane@acme.example> wrote" in sections
    assert "To: Bob Smith <bob@customer.example>" in text


def test_split_thread_assigns_lines_by_quote_depth() -> None:
    lines = ["Top reply.", "On Monday, Ann wrote:", "> Middle.", "> On Sunday, Ben wrote:", ">> Oldest.", "> Middle again."]
    assert split_thread(lines, "top") == [("top", ["Top reply."]), ("On Monday, Ann wrote", ["Middle.", "Middle again."]),
                                          ("On Sunday, Ben wrote", ["Oldest."])]


def test_html_only_email_keeps_its_quotes_apart(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"], message["Subject"] = "Jane Doe <jane@acme.example>", "Filter cap"
    message.set_content("<p>Order <b>TX-FLT-2</b>.</p><ul><li>Fits TX-200</li><li>Fits TX-210</li></ul>"
                        "<p>On Mon, Ann wrote:</p><blockquote><p>Which filter do I need?</p></blockquote>",
                        subtype="html")
    (tmp_path / "cap.eml").write_bytes(bytes(message))
    parsed = parse_file(tmp_path / "cap.eml", root=tmp_path, settings=SETTINGS)
    text = "\n".join(c.text for c in parsed.chunks)
    assert "Order TX-FLT-2." in text and "- Fits TX-200\n- Fits TX-210" in text
    assert "On Mon, Ann wrote" in {s for c in parsed.chunks for s in [c.section, *c.meta.get("sections", [])]}


def test_office_exports_are_indexed_and_bad_ones_reported(empty_index: Index, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _workbook(docs / "parts.xlsx")
    _email(docs / "drift.eml", THREAD)
    (docs / "broken.xlsx").write_text("not a workbook", encoding="utf-8")
    (docs / "notmail.eml").write_text("just a line of text\n", encoding="utf-8")
    (docs / "binary.csv").write_bytes(b"\x00\x01\x02 binary")
    report = empty_index.add([docs])
    assert report.added == 2
    reasons = {Path(e.path).name: e.reason for e in report.errors}
    assert reasons == {"broken.xlsx": "corrupt xlsx (not a zip package)", "binary.csv": "binary file",
                       "notmail.eml": "not an e-mail message (no From or Subject header)"}
    hits = empty_index.search("which RMA number did support give for the drift", strategy="sparse").items
    assert hits and "RMA-5521" in hits[0].text


def test_split_thread_reads_german_and_french_attributions() -> None:
    assert split_thread(["Danke.", "Am 01.03.2026 um 10:00 schrieb Jan Berg <j@x.de>:", "> Bitte Seriennummer senden."],
                        "top") == [("top", ["Danke."]), ("Am 01.03.2026 um 10:00 schrieb Jan Berg <j@x.de>",
                                                         ["Bitte Seriennummer senden."])]
    assert split_thread(["Merci.", "Le 1 mars 2026, Marie <m@x.fr> a écrit :", "> Le numéro de série ?"], "top")[1][0] == (
        "Le 1 mars 2026, Marie <m@x.fr> a écrit")


def test_an_unknown_charset_is_read_as_utf8_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "odd.eml"
    path.write_bytes(b"From: a@example.com\nSubject: Probe cable\nContent-Type: text/plain; charset=x-unknown-8\n\n"
                     b"The probe cable TX-CAB-5 is 5 m long and fits every TX-200 and TX-210 transmitter we ship.\n")
    text = _text(path)
    assert "The probe cable TX-CAB-5 is 5 m long" in text


def test_a_table_of_measurements_is_content_under_its_header(tmp_path: Path) -> None:
    """A calibration export is mostly digits: read as prose it was dropped as noise, and the file was not indexed."""
    path = tmp_path / "calibration_results.csv"
    rows = "\n".join(f"GX430-{1000 + i},2024-10-{1 + i % 28:02d},{0.1 * i:.1f},{-1.5 + 0.1 * i:.2f},PASS" for i in range(40))
    path.write_text(f"serial,date,zero offset ppm,span error %,result\n{rows}\n", encoding="utf-8")
    text = _text(path)
    assert text.startswith("serial | date | zero offset ppm | span error % | result\nGX430-1000 | 2024-10-01 | 0.0")
    assert "GX430-1039 | 2024-10-12 | 3.9 | 2.40 | PASS" in text


def test_a_text_of_digits_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "dump.txt"
    path.write_text("\n".join(f"x {i} {i * 2}.0 {i * 3}.5 {i * 4}.25 {i * 5}.125 {i * 6}.0625" for i in range(60)),
                    encoding="utf-8")
    with pytest.raises(IngestError, match=r"no indexable text \(60 words, but mostly digits and symbols\)"):
        parse_file(path, root=tmp_path, settings=SETTINGS)


def test_an_attached_document_is_read_under_its_name(tmp_path: Path) -> None:
    """The customer's logger export came as an attachment: its rows are the facts the thread talks about."""
    message = EmailMessage()
    message["From"], message["Subject"] = "Tom <tom@customer.example>", "Drift log for 01187"
    message.set_content("Hi Priya,\n\nthe temperature log of unit 01187 is attached, as you asked.\n\nTom\n")
    rows = "\n".join(f"2024-10-0{1 + i % 7} {i % 24:02d}:00,{54.8 + i * 0.01:.2f}" for i in range(30))
    message.add_attachment(f"time,sensor temperature degC\n{rows}\n".encode(), maintype="text", subtype="csv",
                           filename="01187_temperature_log.csv")
    message.add_attachment(b"PK\x03\x04 not really a workbook", maintype="application",
                           subtype="vnd.openxmlformats-officedocument.spreadsheetml.sheet", filename="broken.xlsx")
    message.add_attachment(b"\x89PNG\r\n\x1a\n", maintype="image", subtype="png", filename="photo.png")
    (tmp_path / "log.eml").write_bytes(bytes(message))
    parsed = parse_file(tmp_path / "log.eml", root=tmp_path, settings=SETTINGS)
    text = "\n".join(c.text for c in parsed.chunks)
    assert "Attachments: 01187_temperature_log.csv, broken.xlsx, photo.png" in text
    assert "time | sensor temperature degC\n2024-10-01 00:00 | 54.80" in text
    assert "The attachment broken.xlsx could not be read (corrupt xlsx (KeyError" not in text  # not a zip at all:
    assert "The attachment broken.xlsx could not be read (corrupt xlsx (not a zip package))." in text
    sections = {s for c in parsed.chunks for s in [c.section, *c.meta.get("sections", [])]}
    assert "Attachment: 01187_temperature_log.csv" in sections and not any("photo.png" in s for s in sections)
    details = format_details(document_details(parsed.document))  # `kgrag documents --details`
    assert details.startswith("eml · ") and "1 attachments" in details
    assert parsed.document.meta["warnings"] == ["attachment broken.xlsx not read: corrupt xlsx (not a zip package)"]


def test_a_mailbox_export_is_read_message_by_message(tmp_path: Path) -> None:
    """A reply in the mailbox quotes the message before it, which the mailbox also holds: its paragraphs once."""
    import mailbox

    first = EmailMessage()
    first["From"], first["Subject"] = "Tom <tom@customer.example>", "Drift on 01187"
    first.set_content("Unit 01187 drifts below zero every afternoon since September; the others are fine.\n")
    reply = EmailMessage()
    reply["From"], reply["Subject"] = "Priya <priya@acme.example>", "RE: Drift on 01187"
    reply.set_content("Please log register 30005 for a day.\n\nOn Mon, Tom wrote:\n> Unit 01187 drifts below zero every "
                      "afternoon since September; the others are fine.\n")
    box = mailbox.mbox(tmp_path / "support.mbox")
    box.add(first)
    box.add(reply)
    box.flush()
    box.close()
    parsed = parse_file(tmp_path / "support.mbox", root=tmp_path, settings=SETTINGS)
    assert parsed.document.meta["format"] == "mbox" and parsed.document.meta["messages"] == 2
    text = "\n".join(c.text for c in parsed.chunks)
    assert text.count("drifts below zero every afternoon") == 1 and "Please log register 30005 for a day." in text
    sections = {s for c in parsed.chunks for s in [c.section, *c.meta.get("sections", [])]}
    assert {"Drift on 01187 > Tom <tom@customer.example> wrote",
            "RE: Drift on 01187 > Priya <priya@acme.example> wrote"} <= sections
    (tmp_path / "empty.mbox").write_text("no messages here at all\n", encoding="utf-8")
    with pytest.raises(IngestError, match="no e-mail messages in the mailbox"):
        parse_file(tmp_path / "empty.mbox", root=tmp_path, settings=SETTINGS)
