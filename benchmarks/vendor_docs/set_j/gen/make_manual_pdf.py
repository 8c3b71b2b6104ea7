"""Generate the QML-820 / QML-1600 maintenance and calibration manual excerpt (3 pages).

Run with: /tmp/pdfgen_h/bin/python make_manual_pdf.py
Output:   ../docs/qml820_qml1600_maintenance_calibration_manual.pdf
Only core fonts and latin-1 characters are used.
"""
import os

from fpdf import FPDF
from fpdf.fonts import FontFace

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "docs", "qml820_qml1600_maintenance_calibration_manual.pdf")

DOC_ID = "QM-MAN-0820-EN  Rev. D  (2025-01)"


class Manual(FPDF):
    def header(self):
        self.set_font("Helvetica", "B", 9)
        self.set_text_color(60, 60, 60)
        self.cell(0, 5, "Quillmoor Instruments Ltd.", align="L")
        self.set_font("Helvetica", "", 9)
        self.cell(0, 5, "QML-820 / QML-1600 Maintenance and Calibration Manual", align="R",
                  new_x="LMARGIN", new_y="NEXT")
        self.set_draw_color(29, 58, 82)
        self.line(self.l_margin, self.get_y() + 1, self.w - self.r_margin, self.get_y() + 1)
        self.ln(5)
        self.set_text_color(0, 0, 0)

    def footer(self):
        self.set_y(-14)
        self.set_font("Helvetica", "", 8)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, DOC_ID + "   -   Excerpt, chapters 7 and 8", align="L")
        self.cell(0, 5, f"Page {self.page_no()} of {{nb}}", align="R")

    def h1(self, text):
        self.set_font("Helvetica", "B", 14)
        self.set_text_color(29, 58, 82)
        self.cell(0, 8, text, new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(0, 0, 0)
        self.ln(1)

    def h2(self, text):
        self.ln(1)
        self.set_font("Helvetica", "B", 11)
        self.cell(0, 6.5, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(0.5)

    def para(self, text, size=9.5):
        self.set_font("Helvetica", "", size)
        self.multi_cell(0, 4.8, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(1.2)

    def note(self, label, text):
        self.set_font("Helvetica", "B", 9.5)
        w = self.get_string_width(label + "  ")
        self.cell(w, 4.8, label)
        self.set_font("Helvetica", "", 9.5)
        self.multi_cell(0, 4.8, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(1.2)

    def steps(self, items, size=9.5):
        self.set_font("Helvetica", "", size)
        for i, text in enumerate(items, 1):
            self.cell(7, 4.8, f"{i}.")
            self.multi_cell(0, 4.8, text, new_x="LMARGIN", new_y="NEXT")
            self.ln(0.8)
        self.ln(0.8)

    def grid(self, rows, widths, size=8.5):
        self.set_font("Helvetica", "", size)
        head = FontFace(emphasis="BOLD", fill_color=(220, 230, 238))
        with self.table(col_widths=widths, text_align="LEFT", line_height=4.4,
                        headings_style=head, borders_layout="ALL", padding=1) as table:
            for r in rows:
                row = table.row()
                for c in r:
                    row.cell(c)
        self.ln(2)


pdf = Manual(format="A4")
pdf.set_margins(18, 14, 18)
pdf.set_auto_page_break(True, margin=18)
pdf.set_title("QML-820 / QML-1600 Maintenance and Calibration Manual (excerpt)")
pdf.set_author("Quillmoor Instruments Ltd.")

# ---------------------------------------------------------------- page 1
pdf.add_page()
pdf.set_font("Helvetica", "B", 16)
pdf.cell(0, 8, "QML-820 and QML-1600 Data Loggers", new_x="LMARGIN", new_y="NEXT")
pdf.set_font("Helvetica", "", 11)
pdf.cell(0, 6, "Maintenance and Calibration Manual - excerpt (chapters 7 and 8)",
         new_x="LMARGIN", new_y="NEXT")
pdf.set_font("Helvetica", "I", 9)
pdf.cell(0, 5, "Document " + DOC_ID + ". Valid for firmware 3.0.2 and later and Capture Studio 5.1.",
         new_x="LMARGIN", new_y="NEXT")
pdf.ln(3)

pdf.h1("7  Safety and Technical Data")
pdf.h2("7.1  Safety notes")
pdf.note("WARNING", "The maximum permissible voltage between any input terminal and chassis ground is "
         "±60 V DC. The inputs are rated for measurement category CAT I only. Never connect the "
         "inputs to mains circuits.")
pdf.note("WARNING", "The QML-820 contains a lithium-ion battery pack. Do not short-circuit, puncture or "
         "heat it above 60 °C. Charge only at ambient temperatures between 0 °C and +40 °C. Replace it "
         "only with battery pack QSP-820-BAT.")
pdf.note("CAUTION", "Disconnect all input cables and the DC supply before cleaning the unit or opening "
         "the battery cover or the filter cover.")
pdf.note("CAUTION", "Wear an ESD wrist strap while the battery compartment or the fan filter cover is open.")
pdf.note("NOTE", "Apart from the parts described in chapter 8 there are no user-serviceable parts. "
         "Opening the main enclosure breaks the calibration seal and voids the calibration certificate "
         "and the warranty. Keep at least 50 mm of free space at the fan intake and exhaust of the QML-1600.")

pdf.h2("7.2  Technical data")
tech = [
    ("Parameter", "QML-820", "QML-1600"),
    ("Analog input channels", "8, simultaneous sampling", "16, simultaneous sampling"),
    ("ADC resolution", "24 bit", "24 bit"),
    ("Max. sample rate per channel", "50 kS/s", "100 kS/s"),
    ("Input ranges", "±0.1 V, ±1 V, ±10 V, ±50 V", "±0.1 V, ±1 V, ±10 V, ±50 V"),
    ("DC accuracy (23 °C ±5 °C, 1 year)", "±(0.05 % of reading + 0.02 % of range)",
     "±(0.05 % of reading + 0.02 % of range)"),
    ("Input impedance", "1 MOhm", "1 MOhm"),
    ("Internal storage", "32 GB", "64 GB"),
    ("Interfaces", "USB-C, Gigabit Ethernet", "Gigabit Ethernet, USB-C (service only)"),
    ("Power supply", "12 to 24 V DC, 15 W typical", "12 to 24 V DC, 28 W typical"),
    ("Internal battery", "Li-ion 7.2 V / 6.8 Ah, approx. 6 h", "none"),
    ("Operating temperature", "-10 °C to +55 °C", "0 °C to +45 °C"),
    ("Ingress protection", "IP54", "IP20"),
    ("Cooling", "passive", "fan with replaceable intake filter"),
    ("Weight", "1.4 kg", "3.1 kg"),
]
pdf.grid(tech, (62, 54, 58))

# ---------------------------------------------------------------- page 2
pdf.add_page()
pdf.h1("8  Maintenance and Calibration")
pdf.h2("8.1  General")
pdf.para("Maintenance intervals assume laboratory use for up to 2 000 operating hours per year. "
         "In dusty environments or during continuous operation, halve the intervals for cleaning and "
         "for the fan intake filter. Record every maintenance task in the unit log together with the "
         "serial number (for example QM820-24A1173) and the firmware version shown under "
         "Device > Info in Capture Studio.")
pdf.para("Clean the enclosure and connectors with a lint-free cloth moistened with isopropyl alcohol "
         "(at least 70 %). Do not use solvents containing acetone and do not spray liquid onto the unit.")

pdf.h2("8.2  Maintenance and calibration schedule")
sched = [
    ("Interval", "Task", "Model", "Part number / accuracy"),
    ("Before each use", "Visual check of input connectors, cables and enclosure", "both", "-"),
    ("Every 3 months", "Clean enclosure and connectors (see 8.1)", "both", "-"),
    ("Every 6 months", "Replace fan intake filter", "QML-1600", "QSP-1600-FLT"),
    ("Every 12 months", "Calibration verification (procedure 8.4)", "both",
     "±(0.05 % of reading + 0.02 % of range)"),
    ("Every 24 months", "Replace real-time clock backup cell", "both", "QSP-RTC-02"),
    ("Every 24 months, or earlier if battery runtime < 4 h",
     "Replace battery pack (procedure 8.5)", "QML-820", "QSP-820-BAT"),
    ("Every 36 months", "Replace cooling fan", "QML-1600", "QSP-1600-FAN"),
    ("Every 36 months", "Factory calibration and adjustment (accredited laboratory)", "both",
     "Quillmoor Service Centre, order code QSV-CAL-ACC"),
]
pdf.grid(sched, (36, 64, 22, 52))

pdf.h2("8.3  Calibration equipment")
equip = [
    ("Item", "Order code", "Specification"),
    ("Precision DC calibrator", "QCAL-5", "0 to ±50 V DC, accuracy ±0.005 % of setting"),
    ("Calibration cable set, 8 channels", "QAC-CAL-8", "for QML-820"),
    ("Calibration cable set, 16 channels", "QAC-CAL-16", "for QML-1600"),
    ("Shorting plug set", "QAC-SHORT", "for the 0 V test point"),
]
pdf.grid(equip, (58, 34, 82))
pdf.para("The calibrator must itself hold a valid calibration certificate. Calibration verification "
         "(8.4) may be carried out by the user. Adjustment of gain is reserved for the Quillmoor Service "
         "Centre; only the offset may be corrected in the field.")

# ---------------------------------------------------------------- page 3
pdf.add_page()
pdf.h2("8.4  Procedure: calibration verification")
pdf.para("Duration: approx. 45 minutes for a QML-820 and 80 minutes for a QML-1600, plus warm-up.")
pdf.steps([
    "Keep the logger at an ambient temperature of 18 °C to 28 °C for at least 2 hours. Switch it on "
    "and let it warm up for 30 minutes.",
    "Connect the QCAL-5 output to channel 1 using cable set QAC-CAL-8 (QML-820) or QAC-CAL-16 (QML-1600).",
    "In Capture Studio 5.1 open Tools > Calibration > Verify and select the range to be tested.",
    "Apply the test points 0 V (shorting plug), +90 % and -90 % of the range, for example +9.000 V and "
    "-9.000 V on the ±10 V range or +45.00 V and -45.00 V on the ±50 V range. The tool averages "
    "10 000 samples at 10 kS/s per test point.",
    "Compare each deviation with the limit ±(0.05 % of reading + 0.02 % of range). Example: at "
    "+9.000 V on the ±10 V range the limit is ±(4.5 mV + 2.0 mV) = ±6.5 mV.",
    "Repeat steps 3 to 5 for all four ranges and then for every channel.",
    "If all results are within the limits, save the Verification Report, attach it to the unit log and "
    "set the next due date to 12 months later.",
    "If only the 0 V test point is outside the limit, run Tools > Calibration > Zero Offset for that "
    "channel and repeat the verification. If a +90 % or -90 % test point is still outside the limit, do not "
    "use the unit for measurements: label it \"Out of calibration\" and return it to the Quillmoor Service "
    "Centre.",
])

pdf.h2("8.5  Procedure: replacing the battery pack (QML-820 only)")
pdf.steps([
    "Stop any recording, switch the logger off and disconnect the DC supply and all input cables.",
    "Turn the unit over and remove the four T10 screws of the battery cover.",
    "Unplug the battery connector by pressing its latch; do not pull on the wires.",
    "Insert the new battery pack QSP-820-BAT, plug in the connector and refit the cover (tightening "
    "torque 0.4 Nm).",
    "Connect the DC supply and charge to 100 % before first use (approx. 3.5 hours with the unit switched off).",
    "Dispose of the old battery pack according to local regulations for lithium-ion batteries.",
])
pdf.para("The calibration data is stored in non-volatile memory and is not affected by replacing the "
         "battery pack or the real-time clock backup cell. After replacing the backup cell, set the clock "
         "via Device > Time in Capture Studio or enable PTP synchronisation.", size=9)

pdf.output(OUT)
print("pages:", pdf.page_no(), "->", os.path.abspath(OUT))
