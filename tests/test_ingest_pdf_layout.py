"""PDF lines to paragraphs (a full-width line wraps into the next, except where the next starts a new list item) and
the document's title."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen import canvas

from kgrag.ingest.pdf import parse_pdf
from kgrag.ingest.pdf_layout import Line, build_blocks

_SIZE = 9.0


def _line(text: str, top: float, x0: float, x1: float) -> Line:
    return Line(text, page=1, top=top, bottom=top + _SIZE, x0=x0, x1=x1, size=_SIZE, bold=False)


def _text(lines: list[Line]) -> str:
    return "\n---\n".join(b.text for b in build_blocks([lines]))


def test_outdented_component_line_after_a_full_width_list_item_is_not_joined() -> None:
    lines = [
        _line("Pressure sensor", 100, 74, 150),
        _line("260 to 1260 hPa absolute pressure range", 115, 92, 300),
        _line("16-bit temperature data output", 130, 92, 260),
        _line("1 Hz to 75 Hz output data rate, interrupt functions: data ready, FIFO flags, thresholds", 145, 92, 500),
        _line("Humidity sensor", 160, 74, 160),
        _line("0-100% relative humidity range", 178, 92, 240),
        _line("A wide body line that runs from the left margin all the way to the right margin here", 200, 74, 500),
    ]
    text = _text(lines)
    assert "thresholds\nHumidity sensor" in text


def test_wrapped_paragraph_and_indented_first_line_still_join() -> None:
    lines = [
        _line("Last line of the previous paragraph.", 100, 74, 300),
        _line("An indented first line of a paragraph that runs to the right margin of the", 112, 92, 500),
        _line("page continues here at the left margin and runs again to the right margin of", 124, 74, 500),
        _line("the page, then ends.", 136, 74, 200),
    ]
    text = _text(lines)
    assert "right margin of the page continues here" in text
    assert "right margin of the page, then ends." in text


def test_a_metadata_title_that_is_the_files_own_name_gives_way_to_the_first_heading(tmp_path: Path) -> None:
    """Scanners and image converters write the file name as the PDF's title ("scan_0001"); the page's heading is the
    document's title then, as for a PDF without one."""
    path = tmp_path / "scan_0001.pdf"
    c = canvas.Canvas(str(path))
    c.setTitle("Scan_0001")
    c.setFont("Helvetica-Bold", 20)
    c.drawString(72, 760, "QX-40 Flow Meter")
    c.setFont("Helvetica", 10)
    for i, line in enumerate(["Supply voltage: 12 to 30 V DC", "Maximum flow: 40 litres per minute",
                              "Mount the meter with the arrow pointing in the flow direction."]):
        c.drawString(72, 720 - 14 * i, line)
    c.save()
    assert parse_pdf(path).title == "QX-40 Flow Meter"
    c = canvas.Canvas(str(tmp_path / "named.pdf"))
    c.setTitle("QX-40 Flow Meter Installation Sheet")
    c.drawString(72, 720, "Some text of the sheet that is long enough to be read as the body of the document.")
    c.save()
    assert parse_pdf(tmp_path / "named.pdf").title == "QX-40 Flow Meter Installation Sheet"
    c = canvas.Canvas(str(tmp_path / "qx-40-flow-meter.pdf"))  # the file named after its title: the title stands
    c.setTitle("QX-40 Flow Meter")
    c.drawString(72, 720, "Some text of the sheet that is long enough to be read as the body of the document.")
    c.save()
    assert parse_pdf(tmp_path / "qx-40-flow-meter.pdf").title == "QX-40 Flow Meter"
