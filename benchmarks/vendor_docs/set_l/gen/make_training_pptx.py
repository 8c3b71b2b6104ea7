"""Generate docs/arvina_training_deck.pptx (fictional vendor document).

Run from set_l/:  /work/main/.venv/bin/python gen/make_training_pptx.py
"""
from pptx import Presentation
from pptx.util import Inches, Pt

OUT = "docs/arvina_training_deck.pptx"

prs = Presentation()
prs.slide_width = Inches(13.333)
prs.slide_height = Inches(7.5)
TITLE_ONLY = prs.slide_layouts[5]
BULLETS = prs.slide_layouts[1]


def notes(slide, text):
    slide.notes_slide.notes_text_frame.text = text


def bullet_slide(title, items, note=None):
    s = prs.slides.add_slide(BULLETS)
    s.shapes.title.text = title
    body = s.placeholders[1]
    body.left, body.top, body.width, body.height = Inches(0.7), Inches(1.6), Inches(12), Inches(5.4)
    tf = body.text_frame
    tf.clear()
    first = True
    for it in items:
        level = 0
        if isinstance(it, tuple):
            level, it = it
        para = tf.paragraphs[0] if first else tf.add_paragraph()
        first = False
        para.text = it
        para.level = level
        para.font.size = Pt(20 if level == 0 else 17)
    if note:
        notes(s, note)
    return s


def table_slide(title, rows, col_widths, note=None, intro=None):
    s = prs.slides.add_slide(TITLE_ONLY)
    s.shapes.title.text = title
    top = Inches(1.6)
    if intro:
        tb = s.shapes.add_textbox(Inches(0.7), Inches(1.4), Inches(12), Inches(0.6))
        tb.text_frame.text = intro
        tb.text_frame.paragraphs[0].font.size = Pt(16)
        top = Inches(2.1)
    shape = s.shapes.add_table(len(rows), len(rows[0]), Inches(0.7), top,
                               Inches(sum(col_widths)), Inches(0.45 * len(rows)))
    tbl = shape.table
    for j, w in enumerate(col_widths):
        tbl.columns[j].width = Inches(w)
    for i, r in enumerate(rows):
        for j, v in enumerate(r):
            c = tbl.cell(i, j)
            c.text = v
            for p in c.text_frame.paragraphs:
                p.font.size = Pt(14)
                p.font.bold = (i == 0)
    if note:
        notes(s, note)
    return s


# 1 Title
s = prs.slides.add_slide(prs.slide_layouts[0])
s.shapes.title.text = "Arvina Series - Service Technician Training, Level 1"
s.placeholders[1].text = ("Marzetti Tecnica UK Ltd - Technical Training\n"
                          "Course TR-ARV-L1, version 3.1, October 2024")
notes(s, "Welcome participants. The course runs over 2 days at the Bristol training centre "
         "(Unit 7, Avonside Trade Park) with a maximum of 8 participants. Each participant must bring "
         "a digital multimeter and a calibrated reference pressure gauge with a 0 - 4 bar range. "
         "Reference documents: product specification MCT-SPEC-0412 and service workbook MCT-SP-0415.")

# 2 Agenda
bullet_slide("Agenda", [
    "Day 1: the Arvina family, hydraulics, controller and firmware",
    "Day 1: service menu and error codes",
    "Day 2: preventive maintenance and safety",
    "Day 2: case study, hands-on practice and assessment",
], note="Day 1 is classroom-based and ends at 16:30. Day 2 starts in the workshop at 08:30 with "
        "three practice machines: one ARV-2C, one ARV-2 and one ARV-3.")

# 3 Family overview
table_slide("The Arvina family", [
    ("Model", "Groups", "Steam boiler", "Supply", "Typical volume"),
    ("ARV-2C", "2", "7.5 L / 2.4 kW", "230 V 1~", "up to 250 drinks/day"),
    ("ARV-2", "2", "11.0 L / 3.6 kW", "230 V 1~ or 400 V 3N~", "up to 400 drinks/day"),
    ("ARV-3", "3", "16.0 L / 4.8 kW", "400 V 3N~ only", "up to 700 drinks/day"),
], [1.6, 1.2, 2.6, 3.4, 3.0],
    note="Quick identification from the front: the ARV-2C has only one steam wand, the ARV-2 has two. "
         "Serial number prefixes are C2- for ARV-2C, A2- for ARV-2 and A3- for ARV-3, followed by the "
         "two-digit build year and a five-digit sequence (for example A3-24-00098). The rating plate "
         "is behind the drip tray.")

# 4 Hydraulics
bullet_slide("Hydraulic circuit", [
    "Mains water inlet -> rotary pump -> group boilers (one per group)",
    "Flowmeter per group for volumetric dosing",
    "3-way solenoid valve per group discharges the puck pressure to the drip tray",
    "Steam boiler filled automatically through the autofill solenoid and level probe",
    "Vacuum breaker on the steam boiler prevents vacuum after cooling",
], note="The pump bypass is set at the factory to 9.0 bar at the group, measured with a blind filter and "
        "the portafilter pressure gauge; the static pressure at the pump outlet reads about 0.5 bar higher. "
        "The steam boiler autofill has a timeout of 120 seconds, after which error E05 is raised. Low inlet "
        "pressure (below 1.5 bar) is the most common cause.")

# 5 Controller & firmware
bullet_slide("Controller and firmware", [
    "Controller board MZ-CTRL-5, revision D in production since March 2024",
    "Current firmware release: 2.4.1 (8 October 2024)",
    "Update through the USB-C service port with Arvina Service Tool (AST) 3.2",
    "Always check the bootloader version before updating",
    (1, "AST shows it on the Device tab"),
], note="Revision D boards cannot run firmware older than 2.3.0, so never downgrade a rev D board below "
        "2.3.0. Firmware 2.4.x needs bootloader BL 1.6; a board still on BL 1.5 shows 'BL MISMATCH' and the "
        "update aborts - update the bootloader first from the Bootloader tab of AST 3.2. The AST log file "
        "is saved under Documents/AST/logs and must be attached to the service report.")

# 6 Service menu
table_slide("Service menu - key parameters", [
    ("Parameter", "Function", "Range / values"),
    ("P-03", "Brew temperature setpoint (per group)", "88.0 - 96.0 °C"),
    ("P-07", "Steam boiler pressure setpoint", "0.8 - 1.5 bar (ARV-2C: 0.8 - 1.4 bar)"),
    ("P-12", "Eco standby delay", "15 - 120 min, default 45 min"),
    ("P-21", "Flowmeter type", "110 / 115 / 120"),
], [1.6, 5.4, 5.0],
    intro="Access: machine in standby, hold STEAM + HOT WATER for 5 s, then enter the technician PIN.",
    note="The default technician PIN is 4512 and must be changed at commissioning; never give it to the "
         "customer. The menu exits automatically after 120 seconds without input. Parameter P-21 only "
         "appears from firmware 2.4.1 onwards.")

# 7 Error codes
table_slide("Most frequent error codes", [
    ("Code", "Meaning", "First check"),
    ("E01", "Flowmeter group 1 - no pulses", "Connector J11, flowmeter"),
    ("E05", "Steam boiler fill timeout", "Inlet pressure at least 1.5 bar"),
    ("E12", "Steam pressure transducer fault", "Cable J7; compare with reference gauge"),
    ("E14", "Flowmeter pulse rate implausible", "P-21 matches fitted flowmeter"),
    ("E21", "Heating timeout", "All phases present, fuses, elements"),
], [1.4, 5.0, 5.6],
    note="In 2024 about 40 % of E05 call-outs were caused by low inlet pressure, not by a machine fault. "
         "After the 2.4.0 update, false E14 reports came from ARV-2 and ARV-3 machines still fitted with the "
         "old MZ-FLM-110 flowmeter. The fix is firmware 2.4.1 with P-21 set to 110; before 2.4.1 was released "
         "the approved workaround was a downgrade to 2.3.2. Full code list: sheet 'Error Codes' of MCT-SP-0415.")

# 8 Preventive maintenance
bullet_slide("Preventive maintenance", [
    "Daily (operator): backflush each group with detergent",
    "Every 6 months: group gaskets and shower screens, pump pressure check",
    "Every 12 months: safety valve test, pressure transducer check, brew temperature check, flowmeter dose check",
    "Every 24 months: vacuum breaker replacement, steam boiler and element inspection",
    "Record every visit in the service log with the firmware version",
], note="Always fit the B-version group gasket MZ-GSK-8.5B. The original MZ-GSK-8.5 is superseded and any old "
        "stock must be scrapped, because it hardens early when brew temperature is above 95 °C. Allow 15 minutes "
        "per group for gasket and shower screen replacement.")

# 9 Safety
bullet_slide("Safety first", [
    "Isolate and lock out the electrical supply before opening panels",
    "Depressurise the steam boiler through the steam wand",
    "Never adjust, plug or remove the safety valve",
    "Hot surfaces: group heads, boilers and steam wands",
], note="Wait until the steam boiler gauge reads 0 bar before opening any fitting - the water can still be around "
        "120 °C. Required PPE: heat-resistant gloves rated to 250 °C (EN 407) and safety glasses. An adjusted or "
        "blocked safety valve voids the warranty.")

# 10 Case study
bullet_slide("Case study: steam pressure too high on an ARV-3", [
    "Customer: café in Bristol, ARV-3, firmware 2.4.0",
    "Symptoms: steam gauge at 1.6 bar, safety valve hissing, intermittent E12",
    "Setpoint P-07 was correct",
    "Root cause: steam pressure transducer drift",
    "Fix: replace transducer, test safety valve, update firmware",
], note="The MZ-PT-25 transducer was reading 0.3 bar low, so the controller kept heating to show 1.3 bar while the "
        "real pressure was about 1.6 bar. Always compare the displayed pressure with a reference gauge; the allowed "
        "deviation is 0.05 bar (maintenance task PM-06). The safety valve was tested and opened at 2.0 bar as "
        "specified.")

# 11 Assessment
bullet_slide("Assessment and certification", [
    "Written test: 25 multiple-choice questions",
    "Practical test: gasket change and pressure check on an ARV-2",
    "Successful participants receive Arvina Service Level 1 certification",
], note="The pass mark for the written test is 80 %. Certification is valid for 24 months; the one-day refresher "
        "course TR-ARV-R renews it. Level 1 technicians may commission and service all three models, but only "
        "Level 2 technicians may replace the controller board MZ-CTRL-5D.")

prs.save(OUT)
print("wrote", OUT, len(prs.slides), "slides")
