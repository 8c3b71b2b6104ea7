"""Generate docs/arvina_product_specification.docx (fictional vendor document).

Run from set_l/:  /work/main/.venv/bin/python gen/make_spec_docx.py
"""
from docx import Document
from docx.shared import Pt

OUT = "docs/arvina_product_specification.docx"

doc = Document()
doc.core_properties.title = "Arvina Series Product Specification"
doc.core_properties.author = "Marzetti Caffè Tecnica S.r.l. - Product Management"

doc.add_heading("Arvina Series Commercial Espresso Machines - Product Specification", level=0)
p = doc.add_paragraph()
p.add_run("Document MCT-SPEC-0412, Revision D, 16 September 2024").bold = True
doc.add_paragraph(
    "Marzetti Caffè Tecnica S.r.l., Via dei Mulini 14, 24050 Grassobbio (BG), Italy. "
    "This specification covers the Arvina family of multi-boiler commercial espresso machines: "
    "ARV-2C (Arvina 2 Compact), ARV-2 (Arvina 2) and ARV-3 (Arvina 3). Spare part numbers, "
    "error codes and maintenance intervals are maintained separately in the service workbook "
    "MCT-SP-0415 (arvina_service_parts.xlsx); controller firmware changes are listed in the "
    "Arvina Controller Firmware Release Notes."
)

# 1 Overview
doc.add_heading("1 Overview", level=1)
doc.add_paragraph(
    "All Arvina machines use one independent, PID-controlled group boiler per group and a separate "
    "steam boiler. Every model is driven by the MZ-CTRL-5 controller board (revision D in production "
    "since March 2024) with a 7-inch touch display. Brew water is supplied by an internal rotary "
    "pump; brew pressure is factory-set to 9.0 bar at the group."
)
doc.add_heading("1.1 Model positioning", level=2)
doc.add_paragraph(
    "The ARV-2C is a compact two-group machine for kiosks and low-volume sites (up to about 250 drinks "
    "per day) and is the only model that can run from the optional water tank. The ARV-2 is the "
    "standard two-group machine for cafés serving up to about 400 drinks per day. The ARV-3 is the "
    "three-group machine for high-volume sites serving up to about 700 drinks per day and is supplied "
    "for three-phase connection only."
)
doc.add_heading("1.2 Key features", level=2)
for item in [
    "Independent group boilers with PID control, brew temperature adjustable from 88.0 to 96.0 °C in 0.1 °C steps (default 93.0 °C).",
    "Per-group brew temperature offset of ±2.0 °C (controller firmware 2.3.0 or later).",
    "Volumetric dosing with one flowmeter per group and four programmable doses per group.",
    "Eco standby (firmware 2.4.0 or later): after 45 minutes idle by default the steam boiler is lowered to 0.5 bar and the group boilers to 80 °C.",
    "Cool-touch steam wands; optional Autosteam wand on ARV-2 and ARV-3.",
    "USB-C service port for firmware updates with the Arvina Service Tool (AST).",
    "Optional telemetry module for remote counters and error reporting.",
]:
    doc.add_paragraph(item, style="List Bullet")

# 2 Technical specifications
doc.add_heading("2 Technical specifications", level=1)
doc.add_paragraph("Table 1 - Technical data per model (values at 230 V / 400 V, 50 Hz, 20 °C ambient).")
rows = [
    ("Parameter", "ARV-2C", "ARV-2", "ARV-3"),
    ("Number of groups", "2", "2", "3"),
    ("Group boiler volume (per group)", "0.8 L", "1.0 L", "1.0 L"),
    ("Group boiler heater (per group)", "550 W", "800 W", "800 W"),
    ("Steam boiler volume", "7.5 L", "11.0 L", "16.0 L"),
    ("Steam boiler heating element", "2.4 kW", "3.6 kW", "4.8 kW"),
    ("Rated power (maximum)", "3.6 kW", "5.4 kW", "7.4 kW"),
    ("Power supply", "230 V 1~ 50/60 Hz", "230 V 1~ or 400 V 3N~ 50/60 Hz", "400 V 3N~ 50/60 Hz"),
    ("Recommended circuit protection", "16 A type C, dedicated", "32 A (230 V 1~) or 3 x 16 A (400 V 3N~)", "3 x 16 A"),
    ("Pump", "Internal rotary, 150 L/h", "Internal rotary, 200 L/h", "Internal rotary, 200 L/h"),
    ("Brew temperature stability", "±0.5 °C", "±0.3 °C", "±0.3 °C"),
    ("Steam boiler pressure setpoint range", "0.8 - 1.4 bar", "0.8 - 1.5 bar", "0.8 - 1.5 bar"),
    ("Steam boiler pressure default", "1.2 bar", "1.3 bar", "1.3 bar"),
    ("Safety valve opening pressure", "1.8 bar", "2.0 bar", "2.0 bar"),
    ("Steam wands", "1", "2", "2"),
    ("Hot water outlets", "1", "1", "1"),
    ("Maximum cup height", "90 mm", "110 mm (140 mm with MZ-OPT-TC)", "110 mm (140 mm with MZ-OPT-TC)"),
    ("Heat-up time from cold (20 °C)", "22 min", "25 min", "28 min"),
    ("Dimensions W x D x H", "690 x 560 x 505 mm", "820 x 590 x 520 mm", "1060 x 590 x 520 mm"),
    ("Net weight", "58 kg", "74 kg", "96 kg"),
    ("Water supply", "Mains or optional 2.5 L tank (MZ-OPT-TK)", "Mains only", "Mains only"),
    ("Sound pressure level", "< 68 dB(A)", "< 70 dB(A)", "< 70 dB(A)"),
]
t = doc.add_table(rows=len(rows), cols=4)
t.style = "Table Grid"
for i, r in enumerate(rows):
    for j, v in enumerate(r):
        cell = t.cell(i, j)
        cell.text = v
        if i == 0:
            cell.paragraphs[0].runs[0].bold = True

doc.add_paragraph(
    "Note: the ARV-2C steam boiler default was 1.3 bar up to Revision C of this document. From controller "
    "firmware 2.4.0 the factory default is 1.2 bar; machines already installed keep their stored setpoint "
    "unless a factory reset is performed."
)

# 3 Installation requirements
doc.add_heading("3 Installation requirements", level=1)
doc.add_heading("3.1 Water", level=2)
doc.add_paragraph(
    "Water inlet pressure must be between 1.5 and 6.0 bar; above 6.0 bar a pressure reducer is required. "
    "The inlet connection is 3/8\" BSP. Total hardness must be kept between 4 and 7 °dH (70 - 125 mg/L CaCO3) "
    "and chlorides below 30 mg/L; a water treatment system is mandatory for the warranty to apply. "
    "The drain requires a 20 mm hose with a minimum fall of 2 cm per metre."
)
doc.add_heading("3.2 Electrical and environment", level=2)
doc.add_paragraph(
    "The machine must be connected to a dedicated circuit with an RCD of 30 mA. Ambient temperature during "
    "operation must be 10 - 32 °C with relative humidity of 80 % or less. Leave at least 100 mm clearance at the "
    "rear and 150 mm above the cup tray. Installation and commissioning must be performed by a technician "
    "certified at Arvina Service Level 1 or higher."
)

# 4 Ordering
doc.add_heading("4 Ordering information and options", level=1)
doc.add_paragraph("Table 2 - Machine part numbers and factory/field options.")
orows = [
    ("Part number", "Order code", "Description", "Compatible models", "Notes"),
    ("400-2C01", "ARV-2C-1P", "Arvina 2 Compact, 2 groups, 230 V 1~", "-", "Matt black standard"),
    ("400-2001", "ARV-2-1P", "Arvina 2, 2 groups, 230 V 1~", "-", "Stainless standard"),
    ("400-2003", "ARV-2-3P", "Arvina 2, 2 groups, 400 V 3N~", "-", "Stainless standard"),
    ("400-3003", "ARV-3-3P", "Arvina 3, 3 groups, 400 V 3N~", "-", "Stainless standard"),
    ("MZ-OPT-TC", "TC", "Tall cup kit, raises cup height to 140 mm", "ARV-2, ARV-3", "Factory or field fit"),
    ("MZ-OPT-AS", "AS", "Autosteam wand with temperature probe, default stop 65 °C (adjustable 40 - 75 °C)", "ARV-2, ARV-3", "Replaces left steam wand"),
    ("MZ-OPT-TK", "TK", "Water tank kit 2.5 L with level sensor", "ARV-2C", "Enables error E17"),
    ("MZ-OPT-TLM", "TLM", "Telemetry module, LTE-M and Wi-Fi", "ARV-2C, ARV-2, ARV-3", "Requires controller firmware 2.3.0 or later"),
    ("MZ-OPT-CW", "CW", "Active cup warmer, 150 W", "ARV-2, ARV-3", "Factory fit only"),
    ("MZ-OPT-RAL", "RAL", "Custom RAL colour finish", "ARV-2C, ARV-2, ARV-3", "Adds 15 working days to lead time"),
]
t2 = doc.add_table(rows=len(orows), cols=5)
t2.style = "Table Grid"
for i, r in enumerate(orows):
    for j, v in enumerate(r):
        t2.cell(i, j).text = v
        if i == 0:
            t2.cell(i, j).paragraphs[0].runs[0].bold = True

# 5 Compliance & warranty
doc.add_heading("5 Compliance and warranty", level=1)
doc.add_paragraph(
    "All models carry CE and UKCA marking and are rated IPX4. The ARV-2 and ARV-3 are certified to NSF/ANSI 4; "
    "the ARV-2C is not NSF-certified. Boilers are designed to the Pressure Equipment Directive 2014/68/EU, "
    "Article 4(3)."
)
doc.add_paragraph(
    "Warranty: 24 months on parts and 12 months on labour from the commissioning date. Wear parts such as group "
    "gaskets and shower screens are excluded. The warranty is void if the machine is operated without water "
    "treatment or if the safety valve has been adjusted or blocked."
)

# 6 Revision history
doc.add_heading("6 Revision history", level=1)
hrows = [
    ("Revision", "Date", "Author", "Change"),
    ("A", "2023-06-12", "L. Bernasconi", "Initial release covering ARV-2 and ARV-3."),
    ("B", "2023-11-20", "L. Bernasconi", "Added ARV-2C (controller firmware 2.2.1). Added water tank option MZ-OPT-TK."),
    ("C", "2024-03-08", "G. Colombo", "ARV-3 rated power corrected from 7.2 kW to 7.4 kW. Added telemetry option MZ-OPT-TLM."),
    ("D", "2024-09-16", "G. Colombo", "ARV-2C steam boiler default pressure changed from 1.3 bar to 1.2 bar (firmware 2.4.0). Added eco standby feature."),
]
t3 = doc.add_table(rows=len(hrows), cols=4)
t3.style = "Table Grid"
for i, r in enumerate(hrows):
    for j, v in enumerate(r):
        t3.cell(i, j).text = v
        if i == 0:
            t3.cell(i, j).paragraphs[0].runs[0].bold = True

for para in doc.paragraphs:
    for run in para.runs:
        if run.font.size is None and para.style.name == "Normal":
            run.font.size = Pt(10)

doc.save(OUT)
print("wrote", OUT)
