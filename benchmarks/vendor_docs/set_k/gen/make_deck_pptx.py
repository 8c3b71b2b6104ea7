"""Generate docs/sentinel_gx400_training_deck.pptx (fictional Farrowdale partner training deck, March 2024).

Run from set_k/:  /work/main/.venv/bin/python gen/make_deck_pptx.py
"""
import datetime
from pathlib import Path

from pptx import Presentation
from pptx.util import Inches, Pt

OUT = Path(__file__).resolve().parent.parent / "docs" / "sentinel_gx400_training_deck.pptx"

prs = Presentation()
cp = prs.core_properties
cp.title = "Sentinel GX-400 - Channel partner training, module 2"
cp.author = "Owen Latimer"
cp.created = datetime.datetime(2024, 3, 12, 14, 0)
cp.revision = 3
cp.subject = "Partner training March 2024, v1.2"

TITLE, BULLETS, TITLE_ONLY = prs.slide_layouts[0], prs.slide_layouts[1], prs.slide_layouts[5]


def notes(slide, text):
    slide.notes_slide.notes_text_frame.text = text


def bullet_slide(title, items, note=None):
    s = prs.slides.add_slide(BULLETS)
    s.shapes.title.text = title
    tf = s.placeholders[1].text_frame
    for i, it in enumerate(items):
        level = 0
        if it.startswith("- "):
            level, it = 1, it[2:]
        p = tf.paragraphs[0] if i == 0 else tf.add_paragraph()
        p.text = it
        p.level = level
        for r in p.runs:
            r.font.size = Pt(20 if level == 0 else 16)
    if note:
        notes(s, note)
    return s


def table_slide(title, header, rows, col_widths, note=None, font=12):
    s = prs.slides.add_slide(TITLE_ONLY)
    s.shapes.title.text = title
    left, top = Inches(0.4), Inches(1.6)
    width = Inches(sum(col_widths))
    height = Inches(0.4) * (len(rows) + 1)
    tbl = s.shapes.add_table(len(rows) + 1, len(header), left, top, width, height).table
    for i, w in enumerate(col_widths):
        tbl.columns[i].width = Inches(w)
    for c, h in enumerate(header):
        tbl.cell(0, c).text = h
    for r, rowv in enumerate(rows, start=1):
        for c, v in enumerate(rowv):
            tbl.cell(r, c).text = v
    for r in range(len(rows) + 1):
        for c in range(len(header)):
            for p in tbl.cell(r, c).text_frame.paragraphs:
                for run in p.runs:
                    run.font.size = Pt(font)
    if note:
        notes(s, note)
    return s


# 1 Title
s = prs.slides.add_slide(TITLE)
s.shapes.title.text = "Sentinel GX-400 Fixed Gas Transmitters"
s.placeholders[1].text = "Channel partner training, module 2 - March 2024 (v1.2)\nFarrowdale Instruments Ltd"
notes(s, "Presenter: Owen Latimer, Product Manager, Gas Detection. The session runs 45 minutes plus Q&A; "
         "attending counts toward Farrowdale Certified Partner level 2.")

# 2 Agenda
bullet_slide("Agenda", [
    "The GX-400 family and where each model sells",
    "Electrical and installation essentials",
    "Ordering code",
    "What changed in firmware 2.5.0",
    "Calibration, maintenance and spares",
    "Top support issues, warranty and RMA",
])

# 3 Family table
table_slide(
    "The GX-400 family at a glance",
    ["Model", "Gas", "Principle", "Range", "T90"],
    [
        ["GX-410", "O2", "Electrochemical (galvanic)", "0-25 %VOL", "15 s max."],
        ["GX-420", "CO", "Electrochemical", "0-500 ppm", "30 s max."],
        ["GX-430", "H2S", "Electrochemical", "0-100 ppm", "25 s max."],
        ["GX-440", "CH4", "NDIR (ATEX/IECEx Zone 1)", "0-100 %LEL", "20 s max."],
    ],
    [1.3, 1.0, 3.0, 1.8, 1.2],
    note="GX-430 is our best seller: about 46 % of 2023 unit sales, mostly to water utilities. The GX-440 was "
         "launched in May 2023 with firmware 2.4.0 and already made up 18 % of units shipped in its first "
         "seven months.",
    font=14,
)

# 4 Applications
bullet_slide("Where each model sells", [
    "GX-410 (O2 depletion): nitrogen generator rooms, controlled-atmosphere cold stores, labs",
    "GX-420 (CO): car parks, boiler houses, loading bays",
    "GX-430 (H2S): wastewater works, sewage pumping stations, biogas plants",
    "GX-440 (CH4): biogas, gas-fired boiler rooms, Zone 1 areas",
    "Remote sensor head for ducts, pits and hot spots (GX-410/420/430 only)",
], note="Car-park CO projects: warn customers about hydrogen cross-sensitivity near battery-charging bays - the "
        "CO cell reads roughly 20 ppm per 100 ppm of H2 (specification, section 3). For H2S pits, the remote "
        "head lets the electronics stay outside the confined space.")

# 5 Electrical
bullet_slide("Electrical and installation essentials", [
    "3-wire 4-20 mA and RS-485 Modbus RTU on every unit",
    "24 V DC nominal supply - check the minimum voltage for GX-440",
    "Option R: Alarm 1, Alarm 2 and a fail-safe Fault relay",
    "Close unused cable entries with the certified blanking plug",
    "Mounting height follows gas density",
    "- H2S low, methane high, O2 and CO in the breathing zone",
], note="GX-440 draws up to 165 mA at cold start - size the loop supply for that, not for the 120 mA typical. "
        "The three electrochemical models stay below about 70 mA. RS-485 runs up to 1200 m with a proper "
        "120 ohm termination at both ends of the bus.")

# 6 Ordering code
table_slide(
    "Ordering code: GX-<model>-<enclosure>-<output>-<entry>",
    ["Position", "Codes", "Meaning"],
    [
        ["Model", "410 / 420 / 430 / 440", "O2 / CO / H2S / CH4"],
        ["Enclosure", "A / S", "Polyamide (IP66) / 316L stainless (IP66/IP67)"],
        ["Output", "M / R", "4-20 mA + Modbus / same + 3 relays"],
        ["Cable entry", "M20 / N", "2 x M20 x 1.5 / 2 x 1/2\" NPT"],
        ["Example", "GX-430-S-R-M20", "H2S, stainless, relays, M20 entries"],
    ],
    [1.7, 2.6, 4.8],
    note="GX-440 only ships in the stainless S enclosure because of the flameproof Ex db certification. Partners "
         "keep quoting GX-440-A - the online configurator rejects it, so quote GX-440-S instead.",
    font=14,
)

# 7 Firmware 2.5.0
bullet_slide("Firmware 2.5.0 - what changed (January 2024)", [
    "Fault current now 3.6 mA (NAMUR NE 43) - was 3.5 mA",
    "Fault level selectable: 3.6 / 3.5 / 21.5 mA",
    "New 57600 baud rate",
    "Configurable relay hysteresis - ends relay chatter near the set point",
    "Free upgrade with the GX Service Tool and GXA-USB-02 cable",
], note="Warn customers whose DCS alarms on exactly 3.5 mA: after upgrading they can write 1 to register 40020 to "
        "restore the legacy level (see ticket GXT-10644). Version 2.5.1 is planned for April and fixes the "
        "float word-order bug on registers 30003-30004.")

# 8 Calibration
bullet_slide("Calibration and maintenance", [
    "Bump test every 30 days (GX-440: every 90 days)",
    "Calibrate every 6 months (electrochemical) or 12 months (GX-440)",
    "Use the right flow cap: 0.5 L/min, or 1.0 L/min on GX-440",
    "Replace cells at end of life: O2 and H2S 2 years, CO 3 years",
    "Calibration log keeps the last 16 events (firmware 2.4.0+)",
], note="Electrochemical cells have a 6-month shelf life - do not stock more than a quarter's worth. H2S cells "
        "must be stored at 0-20 °C; a warm service van in summer kills them.")

# 9 Spares table
table_slide(
    "Spares partners should stock",
    ["Part number", "Description", "Models"],
    [
        ["GXS-430-H2S", "H2S sensor cell", "GX-430"],
        ["GXS-420-CO", "CO sensor cell", "GX-420"],
        ["GXS-410-O2", "O2 sensor cell", "GX-410"],
        ["GXA-SG-01", "Splash guard with PTFE membrane", "GX-410/420/430"],
        ["GXA-CAL-01", "Calibration flow cap 0.5 L/min", "GX-410/420/430"],
        ["GXA-MAG-01", "Magnetic calibration wand", "All"],
        ["GXP-SEAL-K", "Seal kit with blanking plugs", "All"],
    ],
    [2.2, 4.6, 2.3],
    note="Partner discount: 25 % off list on spares and accessories, and 30 % off list on sensor cells for orders "
         "of 10 or more cells. List prices are in the current parts and pricing workbook.",
    font=13,
)

# 10 Support issues
bullet_slide("Top support issues in 2023", [
    "Modbus address above 99 lost after power cycle - fixed in 2.3.1",
    "CO offset after calibration below 0 °C - fixed in 2.4.3",
    "Relay chatter on GX-440 - configurable hysteresis in 2.5.0",
    "E09 on remote heads: cable cut or extended beyond 15 m",
    "Rev C main boards cannot be downgraded below 2.4.0",
], note="Escalation: partners log tickets by e-mail to support@farrowdale-instruments.example. Target first "
        "response is 4 working hours for priority 1 (plant safety) and 2 working days for priority 3.")

# 11 Warranty
bullet_slide("Warranty, RMA and contacts", [
    "Transmitter warranty 24 months, sensor cells 12 months",
    "Request an RMA number before returning anything",
    "Mark the RMA number on the outside of the box",
    "Product management: Owen Latimer",
    "Applications support: support@farrowdale-instruments.example",
], note="Repair turnaround target is 10 working days from receipt in Sheffield. Units returned without an RMA "
        "number are held for up to 30 days and then sent back at the customer's cost.")

OUT.parent.mkdir(parents=True, exist_ok=True)
prs.save(OUT)
print("wrote", OUT, "slides:", len(prs.slides))
