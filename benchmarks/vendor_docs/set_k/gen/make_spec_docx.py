"""Generate docs/sentinel_gx400_product_specification.docx (fictional Farrowdale Instruments product spec).

Run from set_k/:  /work/main/.venv/bin/python gen/make_spec_docx.py
"""
import datetime
from pathlib import Path

from docx import Document
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt

OUT = Path(__file__).resolve().parent.parent / "docs" / "sentinel_gx400_product_specification.docx"

doc = Document()
cp = doc.core_properties
cp.title = "Sentinel GX-400 Series Fixed Gas Transmitters - Product Specification"
cp.author = "Owen Latimer"
cp.subject = "FI-PS-GX400 Rev D"
cp.keywords = "GX-410, GX-420, GX-430, GX-440, gas transmitter"
cp.created = datetime.datetime(2024, 9, 16, 9, 0, 0)
cp.revision = 4

section = doc.sections[0]
section.header.paragraphs[0].text = "Farrowdale Instruments Ltd - FI-PS-GX400 Rev D"
section.footer.paragraphs[0].text = (
    "Farrowdale Instruments Ltd, Unit 7 Holbrook Park, Sheffield S20 3FJ, UK. "
    "Specifications subject to change without notice."
)


def table(rows, header, widths=None, style="Table Grid"):
    t = doc.add_table(rows=1, cols=len(header))
    t.style = style
    for i, h in enumerate(header):
        cell = t.rows[0].cells[i]
        cell.text = ""
        run = cell.paragraphs[0].add_run(h)
        run.bold = True
    for r in rows:
        cells = t.add_row().cells
        for i, v in enumerate(r):
            cells[i].text = v
    return t


def caption(text):
    p = doc.add_paragraph()
    run = p.add_run(text)
    run.italic = True
    run.font.size = Pt(9)


def bullets(items):
    for it in items:
        doc.add_paragraph(it, style="List Bullet")


doc.add_paragraph("Sentinel GX-400 Series Fixed Gas Transmitters", style="Title")
p = doc.add_paragraph()
p.add_run("Product Specification").bold = True
p.add_run(" - Document FI-PS-GX400, Revision D, 16 September 2024")
p.alignment = WD_ALIGN_PARAGRAPH.LEFT
doc.add_paragraph(
    "This revision supersedes Revision C (22 January 2024). Changed values are listed in section 8, "
    "Revision history."
)

# 1 Overview
doc.add_heading("1 Overview", level=1)
doc.add_paragraph(
    "The Sentinel GX-400 series are 3-wire, 24 V DC powered fixed-point gas transmitters for continuous "
    "monitoring of oxygen, toxic and combustible gases in water and wastewater plants, cold stores, breweries, "
    "biogas sites and light industry. All models share one enclosure family, one main board and one firmware "
    "image; the sensor board fitted in the factory defines the model."
)
doc.add_heading("1.1 Models", level=2)
doc.add_paragraph(
    "GX-410 measures oxygen (O2) with a lead-free galvanic cell. GX-420 measures carbon monoxide (CO) and "
    "GX-430 measures hydrogen sulfide (H2S), both with 3-electrode electrochemical cells. GX-440 measures "
    "methane (CH4) in %LEL with a dual-wavelength NDIR sensor and is certified for Zone 1 hazardous areas. "
    "The electrochemical models (GX-410, GX-420, GX-430) can be fitted with a remote sensor head; the GX-440 "
    "cannot."
)
doc.add_heading("1.2 Key features", level=2)
bullets([
    "3-wire 4-20 mA current output with NAMUR NE 43 signal levels (fault 3.6 mA from firmware 2.5.0).",
    "RS-485 Modbus RTU slave, 9600 to 57600 baud, on every unit.",
    "Option R: three relays (Alarm 1, Alarm 2, Fault), SPDT, latching or non-latching.",
    "Non-intrusive calibration with the magnetic wand GXA-MAG-01 through the closed lid.",
    "128 x 64 backlit LCD with concentration, alarm state and sensor remaining life.",
    "Remote sensor head up to 15 m for GX-410/GX-420/GX-430 (kits GXA-RMK-05 and GXA-RMK-15).",
    "Calibration log of the last 16 zero/span events, readable over Modbus (firmware 2.4.0 and later).",
])

# 2 Electrical
doc.add_heading("2 Electrical specifications", level=1)
doc.add_heading("2.1 Power supply", level=2)
doc.add_paragraph(
    "Values apply at 25 °C ambient unless noted. Supply current is measured at 24 V DC with the analog output "
    "at 20 mA and all relays de-energised. Size the supply for the maximum values."
)
table(
    [
        ["Supply voltage", "GX-410, GX-420, GX-430", "12", "24", "30", "V DC", "At the transmitter terminals"],
        ["Supply voltage", "GX-440", "18", "24", "30", "V DC", "NDIR lamp; below 18 V the unit stays in fault E04"],
        ["Supply current", "GX-410", "-", "46", "62", "mA", "24 V, output 20 mA, relays off"],
        ["Supply current", "GX-420", "-", "50", "64", "mA", "24 V, output 20 mA, relays off"],
        ["Supply current", "GX-430", "-", "50", "66", "mA", "24 V, output 20 mA, relays off"],
        ["Supply current", "GX-440", "-", "120", "180", "mA", "24 V, output 20 mA, relays off; maximum at -40 °C (lamp heater)"],
        ["Inrush current", "GX-440", "-", "-", "450", "mA", "For less than 20 ms at power-up"],
        ["Additional current per energised relay", "All, option R", "-", "12", "15", "mA", ""],
        ["4-20 mA loop load", "All", "0", "-", "500", "Ω", "At 24 V supply"],
        ["Relay contact rating", "All, option R", "-", "-", "2", "A", "30 V DC resistive; 0.5 A at 125 V AC"],
    ],
    ["Parameter", "Model", "Min", "Typ", "Max", "Unit", "Conditions"],
)
caption("Table 1 - Electrical specifications per model")
doc.add_paragraph(
    "Reverse-polarity protection is provided on all models. The GX-440 maximum supply current was corrected "
    "in Revision D from 165 mA to 180 mA after field measurements at low temperature."
)

doc.add_heading("2.2 Analog output and relays", level=2)
doc.add_paragraph(
    "The 4-20 mA output is a current source referenced to supply 0 V (3-wire connection). The output is linear "
    "over the measuring range of the model. Signal levels:"
)
bullets([
    "Normal measurement: 4.0 to 20.0 mA; under-range down to 3.8 mA, over-range up to 20.5 mA.",
    "Fault: 3.6 mA (default from firmware 2.5.0; firmware before 2.5.0 uses 3.5 mA). Selectable 3.5 mA or "
    "21.5 mA with Modbus register 40020.",
    "During warm-up the output is held at the fault level; during calibration it is held at 4.0 mA.",
])
doc.add_paragraph(
    "Option R adds three SPDT relays: Alarm 1, Alarm 2 and Fault. The Fault relay is normally energised "
    "(fail-safe) and drops out on any fault or loss of supply. Alarm relays can be latching or non-latching; "
    "from the factory Alarm 2 is latching and Alarm 1 is not."
)

doc.add_heading("2.3 Digital communication", level=2)
doc.add_paragraph(
    "Two-wire RS-485, Modbus RTU slave. Address 1-247, factory default address 1, 19200 baud, 8 data bits, "
    "even parity, 1 stop bit (8E1). Supported baud rates are 9600, 19200, 38400 and 57600 baud (57600 baud "
    "from firmware 2.5.0). Maximum bus length is 1200 m at 19200 baud or less and 600 m at 57600 baud, with "
    "shielded twisted-pair cable and a 120 Ω termination at both ends of the bus. Up to 32 transmitters per "
    "segment. The register map is published in the parts and service workbook."
)

# 3 Measurement
doc.add_heading("3 Measurement performance", level=1)
table(
    [
        ["Target gas", "Oxygen (O2)", "Carbon monoxide (CO)", "Hydrogen sulfide (H2S)", "Methane (CH4)"],
        ["Sensing principle", "Electrochemical, galvanic, lead-free", "Electrochemical, 3-electrode",
         "Electrochemical, 3-electrode", "NDIR, dual wavelength"],
        ["Measuring range", "0-25 %VOL", "0-500 ppm", "0-100 ppm", "0-100 %LEL"],
        ["Resolution", "0.1 %VOL", "1 ppm", "0.1 ppm", "1 %LEL"],
        ["Accuracy", "±0.2 %VOL", "±3 ppm or ±5 % of reading, whichever is greater",
         "±1 ppm or ±5 % of reading, whichever is greater", "±3 %LEL (0-50 %LEL); ±5 %LEL (50-100 %LEL)"],
        ["Response time T90", "15 s max.", "30 s max.", "25 s max.", "20 s max."],
        ["Warm-up time", "60 s", "90 s", "90 s", "120 s"],
        ["Long-term drift", "< 2 % of reading per month", "< 2 % of reading per month",
         "< 2 % of reading per month", "< 2 %LEL per year"],
        ["Expected sensor life", "2 years", "3 years", "2 years", "more than 5 years"],
    ],
    ["Parameter", "GX-410", "GX-420", "GX-430", "GX-440"],
)
caption("Table 2 - Measurement performance")
doc.add_paragraph(
    "The CO cell of the GX-420 is cross-sensitive to hydrogen (approximately 20 ppm CO indication per 100 ppm "
    "H2). GX-440 is calibrated for methane; 100 %LEL CH4 = 4.4 %VOL according to IEC 60079-20-1."
)

# 4 Environmental
doc.add_heading("4 Environmental and mechanical", level=1)
table(
    [
        ["Operating temperature", "-30 to +55 °C", "-30 to +55 °C",
         "-30 to +50 °C continuous; +55 °C for max. 24 h", "-40 to +70 °C"],
        ["Operating humidity", "15-90 %RH non-condensing", "15-90 %RH non-condensing",
         "15-90 %RH non-condensing", "0-95 %RH non-condensing"],
        ["Operating pressure", "80-120 kPa", "80-120 kPa", "80-120 kPa", "80-120 kPa"],
        ["Storage temperature (transmitter)", "-20 to +50 °C", "-20 to +50 °C", "-20 to +50 °C", "-40 to +70 °C"],
        ["Ingress protection", "IP66 (A); IP66/IP67 (S)", "IP66 (A); IP66/IP67 (S)", "IP66 (A); IP66/IP67 (S)",
         "IP66/IP67"],
        ["Weight", "0.9 kg (A); 2.4 kg (S)", "0.9 kg (A); 2.4 kg (S)", "0.9 kg (A); 2.4 kg (S)", "2.7 kg"],
    ],
    ["Parameter", "GX-410", "GX-420", "GX-430", "GX-440"],
)
caption("Table 3 - Environmental and mechanical data")
doc.add_paragraph(
    "Dimensions (all models, without sensor head): 160 x 120 x 95 mm. Two cable entries, M20 x 1.5 or 1/2\" "
    "NPT. Terminals accept 0.5-2.5 mm² conductors; tighten to 0.5 Nm. Continuous operation of the GX-430 above "
    "+50 °C dries out the H2S cell electrolyte and shortens sensor life."
)

# 5 Certifications
doc.add_heading("5 Certifications", level=1)
doc.add_paragraph(
    "All models: CE (EMC Directive, EN 50270 type 2), UKCA, RoHS. GX-440 only: ATEX and IECEx, marking "
    "II 2G Ex db IIC T4 Gb, Ta -40 °C to +70 °C, ATEX certificate NRB 23 ATEX 2231X, IECEx certificate "
    "IECEx NRB 23.0091X; performance to EN 60079-29-1. The GX-410, GX-420 and GX-430 are not certified for "
    "hazardous areas."
)

# 6 Installation
doc.add_heading("6 Installation and maintenance notes", level=1)
bullets([
    "Mount the sensor pointing downwards, with the splash guard fitted (GXA-SG-01 for GX-410/420/430, "
    "GXA-SG-02 for GX-440).",
    "Mounting height: GX-430 (H2S, heavier than air) 0.3-0.6 m above floor or walkway; GX-440 (methane, "
    "lighter than air) within 0.3 m of the ceiling; GX-410 and GX-420 in the breathing zone, about 1.5 m.",
    "Close every unused cable entry with the supplied certified blanking plug; an open entry voids the IP "
    "rating and lets corrosive gas reach the terminal board.",
    "Tighten M20 cable glands to 5 Nm and the lid until the O-ring is fully compressed.",
    "Bump-test intervals, calibration intervals, span gases and pass limits are given in the Farrowdale parts "
    "and service workbook (sheet \"Calibration intervals\").",
])

# 7 Ordering
doc.add_heading("7 Ordering information", level=1)
doc.add_paragraph("Order code structure: GX-<model>-<enclosure>-<output>-<cable entry>, for example GX-430-S-R-M20.")
table(
    [
        ["Model", "410", "O2, 0-25 %VOL", ""],
        ["Model", "420", "CO, 0-500 ppm", ""],
        ["Model", "430", "H2S, 0-100 ppm", ""],
        ["Model", "440", "CH4, 0-100 %LEL, NDIR, ATEX/IECEx Zone 1", "Enclosure S only"],
        ["Enclosure", "A", "Glass-filled polyamide (PA66-GF30), IP66", "Not available for GX-440"],
        ["Enclosure", "S", "316L stainless steel, IP66/IP67", "Mandatory for GX-440 (flameproof Ex db)"],
        ["Output", "M", "4-20 mA + Modbus RTU (RS-485)", ""],
        ["Output", "R", "4-20 mA + Modbus RTU + 3 relays (Alarm 1, Alarm 2, Fault)", ""],
        ["Cable entry", "M20", "2 x M20 x 1.5", ""],
        ["Cable entry", "N", "2 x 1/2\" NPT", ""],
    ],
    ["Position", "Code", "Description", "Restrictions"],
)
caption("Table 4 - Ordering code")
doc.add_paragraph(
    "Example: GX-440-S-R-N is a methane transmitter in a stainless steel enclosure with relays and 1/2\" NPT "
    "entries. Remote sensor kits, splash guards, calibration accessories and spare sensor cells are ordered "
    "separately by part number."
)

# 8 Revision history
doc.add_heading("8 Revision history", level=1)
table(
    [
        ["A", "2022-05-10", "Initial release: GX-410, GX-420, GX-430 (firmware 2.2.0).", "R. Haigh"],
        ["B", "2023-05-30", "Added GX-440 NDIR methane transmitter (firmware 2.4.0) with ATEX/IECEx data; "
         "GX-440 maximum supply current 165 mA.", "R. Haigh"],
        ["C", "2024-01-22", "Fault signal changed to 3.6 mA (NAMUR NE 43) from firmware 2.5.0, previously "
         "3.5 mA; added 57600 baud and the 600 m bus length at 57600 baud.", "O. Latimer"],
        ["D", "2024-09-16", "GX-440 maximum supply current corrected from 165 mA to 180 mA (lamp heater at "
         "-40 °C); GX-430 continuous operating temperature limited to +50 °C (was +55 °C), +55 °C allowed for "
         "max. 24 h; added GX-440 inrush current.", "O. Latimer"],
    ],
    ["Rev", "Date", "Description", "Author"],
)
caption("Table 5 - Revision history")

OUT.parent.mkdir(parents=True, exist_ok=True)
doc.save(OUT)
print("wrote", OUT)
