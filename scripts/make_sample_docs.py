"""Generate the bundled sample PDF (Zephyr Nano Rev2 datasheet) with reportlab; output is byte-stable.

    .venv/bin/python scripts/make_sample_docs.py

The PDF has a running header and footer on every page (removed by ingestion), numbered headings in
two sizes, a bold run-in heading, ruled tables and a contents page, so it exercises the PDF loader.
"""

from __future__ import annotations

import sys
from pathlib import Path

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

rl_config.invariant = 1  # no timestamps or random ids: the same bytes on every run

OUT = (
    Path(__file__).resolve().parents[1]
    / "src/kgrag/samples/docs/Zephyr Boards/Zephyr Nano Rev2/zephyr-nano-rev2-datasheet.pdf"
)
TITLE = "Zephyr Nano Rev2 Datasheet"

BODY = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13.5, spaceAfter=6)
H1 = ParagraphStyle("h1", fontName="Helvetica-Bold", fontSize=15, leading=19, spaceBefore=10, spaceAfter=6)
H2 = ParagraphStyle("h2", fontName="Helvetica-Bold", fontSize=12, leading=15, spaceBefore=8, spaceAfter=4)
RUNIN = ParagraphStyle("runin", fontName="Helvetica-Bold", fontSize=10, leading=13.5, spaceBefore=4)
COVER = ParagraphStyle("cover", fontName="Helvetica-Bold", fontSize=22, leading=27, spaceAfter=10)
TOC = ParagraphStyle("toc", fontName="Helvetica", fontSize=10, leading=15)


def _header_footer(canvas, doc) -> None:  # noqa: ANN001 - reportlab callback signature
    canvas.saveState()
    canvas.setFont("Helvetica", 8)
    canvas.drawString(20 * mm, A4[1] - 12 * mm, "Aerolith Instruments - Zephyr Nano Rev2 (ZPH-N2) Datasheet")
    canvas.drawRightString(A4[0] - 20 * mm, 10 * mm, f"Page {doc.page} - Document AI-DS-0112 rev. C - 2025-03-18")
    canvas.restoreState()


def _table(rows: list[list[str]], widths: list[float]) -> Table:
    table = Table(rows, colWidths=[w * mm for w in widths], hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), "Helvetica", 9),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.lightgrey),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]))
    return table


def story() -> list:
    """The flowables of the datasheet, page by page."""
    p = Paragraph
    return [
        p("Zephyr Nano Rev2", COVER),
        p("Product reference manual - SKU ZPH-N2", BODY),
        p("Description", H1),
        p("The Zephyr Nano Rev2 (SKU ZPH-N2) is the second revision of the Zephyr Nano environmental "
          "sensor board made by Aerolith Instruments. It keeps the 18 x 45 mm Nano footprint of the "
          "original Zephyr Nano (ZPH-N1) but replaces its microcontroller with the Kestrel K52 and its "
          "pressure sensor with the BPX-390, adds the MTN-6 motion sensor and moves to a USB-C connector. "
          "The board reads barometric pressure, relative humidity, temperature and motion, and sends the "
          "data over Bluetooth Low Energy using the radio built into the Kestrel K52.", BODY),
        p("Target areas: weather stations, altitude and floor-level tracking, indoor climate logging, "
          "wearables and battery-powered data loggers.", BODY),
        p("Contents", H1),
        p("1 Features 2", TOC),
        p("2 Ratings 2", TOC),
        p("2.1 Recommended Operating Conditions 2", TOC),
        p("2.2 Power Consumption 2", TOC),
        p("3 Functional Overview 3", TOC),
        p("3.1 Microcontroller 3", TOC),
        p("3.2 Sensors 3", TOC),
        p("3.3 Power Supply 3", TOC),
        p("4 Connector Pinouts 4", TOC),
        p("5 Revision History 4", TOC),
        PageBreak(),
        p("1 Features", H1),
        p("Microcontroller", RUNIN),
        p("Kestrel K52 microcontroller from Corvid Semiconductor with integrated Bluetooth Low Energy "
          "radio and a chip antenna on the board.", BODY),
        p("Sensors", RUNIN),
        p("BPX-390 barometric pressure sensor (260 to 1260 hPa), HTS-30 relative humidity and "
          "temperature sensor, MTN-6 six-axis motion sensor (accelerometer and gyroscope).", BODY),
        p("Interfaces", RUNIN),
        p("USB-C for power and programming, I2C, SPI, UART, 8 analog inputs, 14 digital I/O pins and a "
          "JST-PH 2-pin battery connector with an on-board LiPo charger (100 mA charge current).", BODY),
        p("2 Ratings", H1),
        p("2.1 Recommended Operating Conditions", H2),
        p("The Zephyr Nano Rev2 uses 3.3 V logic. Its I/O pins are not 5 V tolerant: connecting 5 V "
          "signals to them will damage the board.", BODY),
        _table([
            ["Symbol", "Description", "Min", "Typ", "Max", "Unit"],
            ["VIN", "Input voltage on the VIN pin", "4.5", "5.0", "18", "V"],
            ["VUSB", "Input voltage on the USB-C connector", "4.75", "5.0", "5.25", "V"],
            ["VBAT", "LiPo battery voltage on the JST-PH connector", "3.3", "3.7", "4.2", "V"],
            ["VIO", "I/O logic level", "-", "3.3", "3.3", "V"],
            ["TOP", "Operating temperature", "-20", "25", "70", "degC"],
        ], [18, 72, 14, 14, 14, 14]),
        Spacer(1, 6),
        p("2.2 Power Consumption", H2),
        _table([
            ["Mode", "Description", "Typical current"],
            ["Active", "All sensors sampling at 10 Hz, radio advertising", "6.8 mA"],
            ["Idle", "Microcontroller idle, sensors in standby", "1.2 mA"],
            ["Deep sleep", "RTC running, wake-up on timer or motion", "8 uA"],
        ], [30, 90, 35]),
        Spacer(1, 6),
        p("With the 1200 mAh Zephyr Battery Pack BP-2 and one measurement per minute the board runs for "
          "about nine months.", BODY),
        PageBreak(),
        p("3 Functional Overview", H1),
        p("3.1 Microcontroller", H2),
        p("The main processor is the Kestrel K52. It runs the user sketch, drives the on-board "
          "Bluetooth Low Energy radio and talks to all sensors over a dedicated internal I2C bus, so the "
          "external I2C pins remain free for other devices. The microcontroller can be put into deep "
          "sleep and woken up by the real-time clock or by a motion interrupt from the MTN-6.", BODY),
        p("3.2 Sensors", H2),
        p("The BPX-390 measures barometric pressure from 260 to 1260 hPa with an absolute accuracy of "
          "plus or minus 0.5 hPa, which is enough to tell which floor of a building the board is on. "
          "The HTS-30 measures relative humidity from 0 to 100 %RH and temperature; the MTN-6 measures "
          "acceleration and rotation and can detect free fall and taps.", BODY),
        p("Note: the pressure sensor of the original Zephyr Nano (BPX-210) covers a narrower range. "
          "Sketches written for the original board must be updated to use the BPX390 library.", BODY),
        p("3.3 Power Supply", H2),
        p("The board can be powered from the USB-C connector, from the VIN pin (4.5 to 18 V) or from a "
          "single-cell LiPo battery on the JST-PH connector. A buck converter generates the 3.3 V rail. "
          "When USB-C or VIN is present, the on-board charger charges the battery at 100 mA. Only the "
          "Zephyr Nano Rev2 and the Zephyr Pro have this charger; the original Zephyr Nano has no "
          "battery connector.", BODY),
        PageBreak(),
        p("4 Connector Pinouts", H1),
        p("The two 15-pin headers follow the Nano footprint, so shields and the Zephyr Screw Terminal "
          "Adapter ZTA-1 fit both revisions of the board.", BODY),
        _table([
            ["Pin", "Name", "Type", "Description"],
            ["1", "D13/SCK", "Digital", "GPIO, SPI clock"],
            ["2", "+3V3", "Power out", "3.3 V output, 500 mA maximum"],
            ["3", "A0", "Analog", "ADC input, 12 bit"],
            ["4", "A4/SDA", "Analog", "ADC input, I2C data"],
            ["5", "A5/SCL", "Analog", "ADC input, I2C clock"],
            ["6", "VIN", "Power in", "4.5 to 18 V input"],
            ["7", "GND", "Power", "Ground"],
            ["8", "D0/RX", "Digital", "UART receive"],
            ["9", "D1/TX", "Digital", "UART transmit"],
            ["10", "RST", "Digital in", "Reset, active low; press twice for bootloader mode"],
        ], [12, 25, 25, 90]),
        Spacer(1, 6),
        p("5 Revision History", H1),
        _table([
            ["Date", "Revision", "Changes"],
            ["2025-03-18", "C", "Added deep-sleep current and battery life estimate"],
            ["2024-09-02", "B", "Corrected VIN maximum to 18 V"],
            ["2024-05-14", "A", "First release"],
        ], [30, 22, 100]),
    ]


def build(out: Path = OUT) -> Path:
    """Write the datasheet PDF to `out`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    doc = SimpleDocTemplate(str(out), pagesize=A4, title=TITLE, author="Aerolith Instruments",
                            subject="Zephyr Nano Rev2 (ZPH-N2)", leftMargin=20 * mm, rightMargin=20 * mm,
                            topMargin=22 * mm, bottomMargin=20 * mm)
    doc.build(story(), onFirstPage=_header_footer, onLaterPages=_header_footer)
    return out


if __name__ == "__main__":
    print(build(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
