"""Generate zoneloom_maintenance_safety_manual.pdf (3 pages) with fpdf2.

Run with:  /tmp/pdfgen/bin/python gen/make_manual_pdf.py   (from set_i/)
Only core fonts (Helvetica) and latin-1 characters are used.
"""
import os

from fpdf import FPDF
from fpdf.fonts import FontFace

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "docs", "zoneloom_maintenance_safety_manual.pdf")

DOC_NO = "NBC-MAN-340-EN rev 4"


class Manual(FPDF):
    def header(self):
        self.set_font("Helvetica", "", 8)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, "Norrbeck Controls - ZoneLoom RC-340 / RC-360 Installation and Maintenance Manual (excerpt)",
                  new_x="LMARGIN", new_y="NEXT")
        self.set_draw_color(27, 94, 122)
        self.line(self.l_margin, self.get_y(), self.w - self.r_margin, self.get_y())
        self.ln(3)
        self.set_text_color(0, 0, 0)

    def footer(self):
        self.set_y(-13)
        self.set_font("Helvetica", "", 8)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, f"{DOC_NO}  |  2025-02", align="L")
        self.cell(0, 5, f"Page {self.page_no()} of {{nb}}", align="R")
        self.set_text_color(0, 0, 0)

    def h1(self, text):
        self.ln(1)
        self.set_font("Helvetica", "B", 13)
        self.set_text_color(27, 94, 122)
        self.cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(0, 0, 0)
        self.ln(1)

    def h2(self, text):
        self.set_font("Helvetica", "B", 10.5)
        self.cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")

    def para(self, text, style=""):
        self.set_font("Helvetica", style, 9)
        self.multi_cell(0, 4.4, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(1.2)

    def notice(self, label, text):
        # boxed WARNING / CAUTION paragraph
        self.set_font("Helvetica", "B", 9)
        self.set_fill_color(255, 243, 205)
        self.multi_cell(0, 4.4, f"{label}: {text}", border=1, fill=True,
                        new_x="LMARGIN", new_y="NEXT")
        self.ln(1.5)

    def steps(self, items):
        self.set_font("Helvetica", "", 9)
        for i, item in enumerate(items, 1):
            self.set_x(self.l_margin + 2)
            self.cell(7, 4.4, f"{i}.")
            self.multi_cell(0, 4.4, item, new_x="LMARGIN", new_y="NEXT")
            self.ln(0.6)
        self.ln(1)

    def grid(self, rows, widths):
        self.set_font("Helvetica", "", 8.5)
        self.set_fill_color(255, 255, 255)
        head = FontFace(emphasis="BOLD", fill_color=(220, 232, 238))
        with self.table(col_widths=widths, headings_style=head, line_height=4.6,
                        text_align="LEFT", padding=1) as table:
            for r in rows:
                row = table.row()
                for c in r:
                    row.cell(c)
        self.ln(2)


pdf = Manual(format="A4")
pdf.set_margins(18, 14, 18)
pdf.set_auto_page_break(True, margin=18)
pdf.alias_nb_pages()
pdf.set_title("ZoneLoom RC-340 / RC-360 Installation and Maintenance Manual (excerpt)")
pdf.set_author("Norrbeck Controls")

# ---------------- Page 1 ----------------
pdf.add_page()
pdf.set_font("Helvetica", "B", 17)
pdf.multi_cell(0, 8, "ZoneLoom RC-340 / RC-360 Room Controller", new_x="LMARGIN", new_y="NEXT")
pdf.set_font("Helvetica", "", 11)
pdf.multi_cell(0, 6, "Installation and Maintenance Manual - excerpt: chapters 2, 3 and 5\n"
               f"Document {DOC_NO}, February 2025, valid for firmware 3.1.2",
               new_x="LMARGIN", new_y="NEXT")
pdf.ln(3)

pdf.h1("2 Safety instructions")
pdf.h2("2.1 Intended use")
pdf.para("The RC-340 and RC-360 room controllers are intended for measuring and controlling temperature, "
         "humidity and CO2 in rooms of commercial buildings, installed indoors on a wall or a standard flush box. "
         "Any other use is not intended. Norrbeck Controls accepts no liability for damage caused by improper use.")
pdf.h2("2.2 Qualified personnel")
pdf.para("Installation, wiring, commissioning and maintenance may only be carried out by qualified electricians "
         "or HVAC technicians who know the applicable local regulations and have read this manual.")
pdf.h2("2.3 Electrical safety")
pdf.notice("WARNING", "Supply the controller only with 24 VAC/DC from a safety isolating transformer (SELV/PELV, "
           "Class 2). Never connect 230 VAC to any terminal. Doing so destroys the device and can cause electric shock.")
pdf.para("The relay outputs are rated for a maximum of 3 A at 24 VAC. Do not switch mains voltage directly; use "
         "interposing relays or contactors.")
pdf.notice("WARNING", "The controller can also be powered by PoE through the Ethernet cable. Before opening the "
           "housing, disconnect BOTH the 24 V supply (terminals 1 and 2) AND the Ethernet/PoE cable, then wait 30 seconds.")
pdf.h2("2.4 Battery")
pdf.notice("CAUTION", "Risk of explosion if the battery is replaced by an incorrect type. Use only the CR2032 "
           "lithium cell, part number NB-BAT-2032. Do not recharge, short-circuit, open or heat the cell.")
pdf.para("Dispose of used cells according to local regulations for batteries. Do not dispose of them with "
         "household waste.")
pdf.h2("2.5 Electrostatic discharge (ESD)")
pdf.para("The electronics are sensitive to electrostatic discharge. Wear a grounded wrist strap whenever the front "
         "cover is removed. Do not touch the optical window of the CO2 sensor module.")
pdf.h2("2.6 Cleaning agents")
pdf.para("Do not use solvents, spray cleaners or compressed air on or in the controller. Compressed air can "
         "damage the optical chamber of the CO2 sensor. Clean the housing with a dry or slightly damp cloth only.")

# ---------------- Page 2 ----------------
pdf.add_page()
pdf.h1("3 Technical data")
pdf.h2("3.1 Device data")
tech = [
    ("Parameter", "RC-340", "RC-360"),
    ("Supply voltage", "24 VAC/DC +/-15 % or PoE (IEEE 802.3af)", "24 VAC/DC +/-15 % or PoE (IEEE 802.3af)"),
    ("Power consumption (max.)", "4.5 W", "6.0 W"),
    ("PoE class", "Class 2", "Class 2"),
    ("Temperature sensor", "0 to 50 deg C, +/-0.3 K (15 to 30 deg C)", "0 to 50 deg C, +/-0.3 K (15 to 30 deg C)"),
    ("Humidity sensor", "0 to 100 % RH, +/-3 % RH (20 to 80 % RH)", "0 to 100 % RH, +/-3 % RH (20 to 80 % RH)"),
    ("CO2 sensor", "NDIR, 0 to 5000 ppm, +/-(40 ppm + 3 % of reading)", "NDIR, 0 to 5000 ppm, +/-(40 ppm + 3 % of reading)"),
    ("CO2 warm-up time", "15 min", "15 min"),
    ("Occupancy sensor", "-", "PIR, 110 deg, range 5 m"),
    ("Display", "LED status ring", "3.5 in colour touchscreen"),
    ("Relay outputs", "4 x 3 A at 24 VAC", "4 x 3 A at 24 VAC"),
    ("Analog outputs", "2 x 0-10 V (AO1, AO2)", "2 x 0-10 V (AO1, AO2)"),
    ("Communication", "Ethernet 10/100, BACnet/IP, Local API (HTTPS 8443)", "Ethernet 10/100, BACnet/IP, Local API (HTTPS 8443)"),
    ("RTC backup battery", "CR2032, NB-BAT-2032, typ. 5 years", "CR2032, NB-BAT-2032, typ. 5 years"),
    ("Operating conditions", "0 to 50 deg C, 5 to 95 % RH, non-condensing", "0 to 50 deg C, 5 to 95 % RH, non-condensing"),
    ("Storage temperature", "-20 to 70 deg C", "-20 to 70 deg C"),
    ("Degree of protection", "IP30", "IP30"),
    ("Dimensions (W x H x D)", "86 x 86 x 28 mm", "86 x 120 x 30 mm"),
    ("Weight", "140 g", "210 g"),
    ("Firmware at publication", "3.1.2", "3.1.2"),
]
pdf.grid(tech, (44, 65, 65))
pdf.h2("3.2 Status LED indications")
leds = [
    ("LED pattern", "Meaning"),
    ("Steady green", "Normal operation"),
    ("Flashing green", "Controller starting (up to 90 seconds after power-up or restart)"),
    ("Flashing blue", "Firmware update in progress - do not remove power"),
    ("Double-flash amber", "Event E-BAT-LOW: RTC backup battery below 2.6 V (see 5.2)"),
    ("Steady red", "Hardware fault - contact Norrbeck Controls support"),
]
pdf.grid(leds, (44, 130))
pdf.para("Chapter 4 (Mounting and wiring) is not part of this excerpt.", style="I")

# ---------------- Page 3 ----------------
pdf.add_page()
pdf.h1("5 Maintenance")
pdf.h2("5.1 Maintenance schedule")
pdf.para("The intervals apply to normal office environments. In dusty environments (for example workshops or "
         "rooms under renovation) replace the dust filter every 6 months.")
sched = [
    ("Interval", "Task", "Part number"),
    ("6 months", "Visual check of housing, vents and status LED", "-"),
    ("12 months", "Replace dust filter at the sensor inlet (see 5.3)", "NB-FLT-340"),
    ("12 months", "Check room temperature against a calibrated reference; correct with temp_offset_k if the deviation exceeds 0.5 K", "-"),
    ("24 months", "Re-tighten terminal screws to 0.5 Nm", "-"),
    ("5 years", "Replace RTC backup battery (see 5.2)", "NB-BAT-2032"),
    ("8 years", "Replace CO2 sensor module", "NB-CO2-M5"),
    ("As needed", "Replace front cover gasket if damaged", "NB-GSK-34"),
]
pdf.grid(sched, (24, 118, 32))

pdf.h2("5.2 Replacing the RTC backup battery")
pdf.para("The battery keeps the real-time clock running while the controller is without power. When the cell voltage "
         "drops below 2.6 V, the controller logs event E-BAT-LOW and the status LED double-flashes amber. "
         "Tools: flat screwdriver (blade max. 3 mm), ESD wrist strap, new cell NB-BAT-2032. Time required: about 10 minutes.")
pdf.steps([
    "Export a configuration backup in ZoneLoom Configurator (File > Export backup). The configuration is kept in flash memory, but a backup is recommended.",
    "Disconnect the 24 V supply and the Ethernet/PoE cable. Wait 30 seconds.",
    "Put on the ESD wrist strap.",
    "Insert the screwdriver into the two release slots on the bottom edge, press gently and lift the front cover off the mounting base.",
    "Locate battery holder BT1 at the top left of the main board.",
    "Push the retaining clip aside and remove the old cell. Do not use metal tweezers.",
    "Insert the new NB-BAT-2032 cell with the + side facing up (towards you).",
    "Refit the front cover until both latches click; check that gasket NB-GSK-34 is seated correctly.",
    "Reconnect power. The status LED flashes green within 90 seconds when the controller has started.",
    "Check the clock. It is set automatically via NTP (key network.ntp_server); otherwise use Configurator: Device > Date/Time > Sync with PC.",
    "Confirm that E-BAT-LOW is no longer active and dispose of the old cell (see 2.4).",
])

pdf.h2("5.3 Cleaning the sensor inlet and replacing the dust filter")
pdf.steps([
    "Disconnect power and put on the ESD wrist strap as in 5.2, steps 2 and 3, then remove the front cover.",
    "Pull the filter frame out of the sensor inlet on the right side of the cover.",
    "Remove dust from the inlet grille with a soft, dry brush. Do not use compressed air or solvents (see 2.6).",
    "Insert a new filter NB-FLT-340 with the arrow pointing towards the sensor, refit the cover and reconnect power.",
    "Wait 15 minutes for the CO2 sensor to warm up before checking readings; during warm-up the quality of ai:co2 is 'uncertain'.",
])

pdf.output(OUT)
print("written", os.path.abspath(OUT), "pages:", pdf.page_no())
