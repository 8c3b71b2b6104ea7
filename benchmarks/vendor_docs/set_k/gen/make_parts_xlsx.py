"""Generate docs/sentinel_gx400_parts_and_pricing.xlsx (fictional Farrowdale Instruments workbook).

Three sheets: "Parts" (price list PL-2024-2), "Register map" (Modbus), "Calibration intervals".
Run from set_k/:  /work/main/.venv/bin/python gen/make_parts_xlsx.py
"""
import datetime
from pathlib import Path

import xlsxwriter

OUT = Path(__file__).resolve().parent.parent / "docs" / "sentinel_gx400_parts_and_pricing.xlsx"
OUT.parent.mkdir(parents=True, exist_ok=True)

wb = xlsxwriter.Workbook(str(OUT))
wb.set_properties({
    "title": "Sentinel GX-400 parts, pricing and service data",
    "author": "Farrowdale Instruments Ltd - Customer Service",
    "company": "Farrowdale Instruments Ltd",
    "comments": "Price list PL-2024-2, valid from 1 July 2024",
    "created": datetime.datetime(2024, 6, 24, 10, 30),
})

hdr = wb.add_format({"bold": True, "bg_color": "#1F4E78", "font_color": "#FFFFFF", "text_wrap": True,
                     "valign": "top", "border": 1})
txt = wb.add_format({"text_wrap": True, "valign": "top"})
money = wb.add_format({"num_format": "#,##0.00", "valign": "top"})
intf = wb.add_format({"num_format": "0", "valign": "top"})
dec1 = wb.add_format({"num_format": "0.0", "valign": "top"})
note = wb.add_format({"italic": True, "text_wrap": True, "valign": "top", "font_color": "#404040"})
centre = wb.add_format({"align": "center", "valign": "top", "text_wrap": True})

# ---------------------------------------------------------------- Parts
ws = wb.add_worksheet("Parts")
cols = ["Category", "Part number", "Description", "Compatible models", "List price (GBP)",
        "Lead time (working days)", "Notes"]
widths = [16, 15, 52, 26, 14, 14, 55]
for i, (c, w) in enumerate(zip(cols, widths)):
    ws.write(0, i, c, hdr)
    ws.set_column(i, i, w)
ws.freeze_panes(1, 0)

groups = [
    ("Sensor cells", [
        ("GXS-410-O2", "Replacement O2 sensor cell, lead-free galvanic", "GX-410", 118.00, 5,
         "Expected life 2 years; shelf life 6 months"),
        ("GXS-420-CO", "Replacement CO sensor cell, 3-electrode", "GX-420", 142.00, 5,
         "Expected life 3 years; shelf life 6 months"),
        ("GXS-430-H2S", "Replacement H2S sensor cell, 3-electrode", "GX-430", 156.00, 10,
         "Expected life 2 years; store at 0-20 °C; shelf life 6 months"),
        ("GXS-440-IR", "NDIR methane sensor module, factory calibrated", "GX-440", 389.00, 15,
         "Supplied with calibration certificate"),
    ]),
    ("Accessories", [
        ("GXA-SG-01", "Splash guard, PPS, with hydrophobic PTFE membrane", "GX-410, GX-420, GX-430", 34.50, 3, ""),
        ("GXA-SG-02", "Splash guard, 316 stainless steel, with sintered mesh", "GX-440", 48.00, 3,
         "Part of the Ex db certification - use no other guard on GX-440"),
        ("GXA-RMK-05", "Remote sensor kit, 5 m cable, wall bracket", "GX-410, GX-420, GX-430", 212.00, 10,
         "Firmware 2.3.0 or later"),
        ("GXA-RMK-15", "Remote sensor kit, 15 m cable, wall bracket", "GX-410, GX-420, GX-430", 268.00, 10,
         "Firmware 2.3.0 or later; do not shorten or extend the cable (max. 15 m)"),
        ("GXA-SUN-01", "Sun/rain shield, 316 stainless steel", "All", 74.00, 5, ""),
        ("GXA-PM-01", "Pipe mounting kit, 1\" to 2\" pipe", "All", 41.00, 5, ""),
        ("GXA-DUC-01", "Duct mounting kit with sampling tube", "GX-410, GX-420, GX-430", 88.00, 15, ""),
    ]),
    ("Calibration & service", [
        ("GXA-CAL-01", "Calibration flow cap, 0.5 L/min", "GX-410, GX-420, GX-430", 27.00, 3, ""),
        ("GXA-CAL-02", "Calibration flow cap, 1.0 L/min", "GX-440", 29.50, 3, ""),
        ("GXA-MAG-01", "Magnetic calibration wand", "All", 12.50, 2, ""),
        ("GXA-USB-02", "GX-Link USB service cable (for GX Service Tool)", "All", 65.00, 2,
         "GX Service Tool 3.1 or later needed for firmware 2.6.x"),
    ]),
    ("Spare parts", [
        ("GXP-MB-C", "Main board, revision C (service exchange)", "All", 245.00, 20,
         "Exchange only - old board must be returned; runs firmware 2.4.0 or later only"),
        ("GXP-TB-01", "Terminal board with surge protection", "All", 96.00, 10, ""),
        ("GXP-DSP-01", "Display module, 128 x 64 backlit LCD", "All", 110.00, 10, ""),
        ("GXP-SEAL-K", "Seal kit: lid O-ring, 2 gland seals, 2 certified blanking plugs", "All", 18.00, 2,
         "Replace at every sensor change"),
    ]),
    ("Calibration gas", [
        ("GXG-N2-ZERO", "Nitrogen 99.99 % zero gas, 34 L cylinder", "GX-410", 58.00, 5, "O2 zero calibration"),
        ("GXG-CO-100", "100 ppm CO in air, 34 L cylinder", "GX-420", 79.00, 5, ""),
        ("GXG-H2S-25", "25 ppm H2S in nitrogen, 34 L cylinder", "GX-430", 92.00, 10, "Gas shelf life 12 months"),
        ("GXG-CH4-50", "50 %LEL methane (2.2 %VOL) in air, 34 L cylinder", "GX-440", 71.00, 5, ""),
        ("GXG-REG-05", "Fixed-flow regulator, 0.5 L/min", "GX-410, GX-420, GX-430", 96.00, 5, ""),
        ("GXG-REG-10", "Fixed-flow regulator, 1.0 L/min", "GX-440", 96.00, 5, ""),
    ]),
]
row = 1
for cat, items in groups:
    first = True
    for pn, desc, models, price, lead, notes in items:
        if first:  # category only on the first row of a group; the rest are left blank
            ws.write_string(row, 0, cat, txt)
        ws.write_string(row, 1, pn)
        ws.write_string(row, 2, desc, txt)
        ws.write_string(row, 3, models, txt)
        ws.write_number(row, 4, price, money)
        ws.write_number(row, 5, lead, intf)
        if notes:
            ws.write_string(row, 6, notes, txt)
        first = False
        row += 1
last_data = row - 1
ws.autofilter(0, 0, last_data, len(cols) - 1)
row += 1  # blank row
ws.merge_range(row, 0, row, 6,
               "Price list PL-2024-2, valid from 1 July 2024 until further notice (supersedes PL-2024-1). Prices in "
               "GBP, ex works Sheffield, excluding VAT and carriage. Lead times in working days from order "
               "acknowledgement.", note)
ws.set_row(row, 32)
row += 1
ws.merge_range(row, 0, row, 6,
               "Sensor cells and calibration gas are not returnable. Transmitter warranty 24 months; sensor cells "
               "12 months from shipment.", note)

# ---------------------------------------------------------------- Register map
rm = wb.add_worksheet("Register map")
rcols = ["Register", "Protocol address (hex)", "Name", "Access", "Data type", "Scaling / unit",
         "Default GX-410", "Default GX-420", "Default GX-430", "Default GX-440", "Range / values",
         "Since firmware", "Notes"]
rwidths = [10, 11, 30, 7, 10, 34, 10, 10, 10, 10, 44, 9, 50]
for i, (c, w) in enumerate(zip(rcols, rwidths)):
    rm.write(0, i, c, hdr)
    rm.set_column(i, i, w)
rm.freeze_panes(1, 3)

SCALED = "As register 30001 (GX-410 0.1 %VOL, GX-420 1 ppm, GX-430 0.1 ppm, GX-440 1 %LEL)"
# defaults: None = blank (read-only/not applicable); scalar = same for all models (merged); list = per model
regs = [
    (30001, "Gas concentration (integer)", "R", "INT16", SCALED, None, "", "2.2.0",
     "Zero deadband (40031) applied. Example: GX-430 value 125 = 12.5 ppm"),
    (30002, "Status word", "R", "UINT16", "Bit field", None,
     "bit0 Alarm 1 active, bit1 Alarm 2 active, bit2 fault, bit3 warm-up, bit4 calibration in progress, "
     "bit5 calibration due", "2.2.0", ""),
    ("30003-30004", "Gas concentration (float)", "R", "FLOAT32", "Engineering units (%VOL, ppm or %LEL)", None,
     "IEEE 754, word order per 40022", "2.2.0", "Word order setting effective from 2.5.1; deadband applied from 2.5.2"),
    (30005, "Sensor temperature", "R", "INT16", "0.1 °C", None, "", "2.2.0", "Example: 548 = 54.8 °C"),
    (30006, "Active fault code", "R", "UINT16", "Code", None,
     "0 = none; 4 = supply low (E04); 9 = sensor communication lost (E09); 17 = under-range (E17); "
     "21 = sensor end of life (E21); 30 = NDIR lamp fault (E30, GX-440 only)", "2.2.0", ""),
    (30007, "Sensor remaining life", "R", "UINT16", "%", None, "0-100", "2.2.0", ""),
    (30008, "Firmware version", "R", "UINT16", "MAJOR×100 + MINOR×10 + PATCH", None, "Example: 252 = 2.5.2",
     "2.2.0", ""),
    (30009, "Model code", "R", "UINT16", "-", None, "410, 420, 430, 440", "2.2.0", ""),
    (30010, "Analog output, actual", "R", "UINT16", "µA", None, "Example: 3600 = 3.6 mA (fault)", "2.2.0", ""),
    (40001, "Modbus address", "R/W", "UINT16", "-", 1, "1-247", "2.2.0",
     "Addresses 100-247 retained after power cycle only from 2.3.1"),
    (40002, "Baud rate", "R/W", "UINT16", "Code", 1, "0 = 9600, 1 = 19200, 2 = 38400, 3 = 57600", "2.2.0",
     "Code 3 (57600) from firmware 2.5.0"),
    (40003, "Parity", "R/W", "UINT16", "Code", 1, "0 = none (2 stop bits), 1 = even, 2 = odd", "2.2.0", ""),
    (40010, "Alarm 1 set point", "R/W", "INT16", SCALED, [195, 30, 50, 10], "Within measuring range", "2.2.0",
     "GX-410 Alarm 1 is a falling alarm (19.5 %VOL); all others rising"),
    (40011, "Alarm 2 set point", "R/W", "INT16", SCALED, [235, 100, 100, 20], "Within measuring range", "2.2.0",
     "GX-410 Alarm 2 rising (23.5 %VOL). Note: 100 means 100 ppm on GX-420 but 10.0 ppm on GX-430"),
    (40012, "Alarm latching", "R/W", "UINT16", "Bit mask", 2, "bit0 Alarm 1, bit1 Alarm 2 (1 = latching)",
     "2.2.0", "Writing the Alarm 2 bit over Modbus works from 2.5.2"),
    (40020, "Fault current level", "R/W", "UINT16", "Code", 0, "0 = 3.6 mA, 1 = 3.5 mA (legacy), 2 = 21.5 mA",
     "2.5.0", "Before 2.5.0 the fault level is fixed at 3.5 mA"),
    (40022, "Float word order", "R/W", "UINT16", "Code", 0, "0 = ABCD, 1 = CDAB", "2.2.0", ""),
    (40031, "Zero deadband", "R/W", "INT16", SCALED, ["n/a", 2, 5, 1], "0 to 5 % of full scale", "2.2.0",
     "Readings within ± deadband of zero are reported as 0. Not used on GX-410"),
    (40033, "Relay hysteresis", "R/W", "INT16", SCALED, [2, 2, 10, 3], "0 to 10 % of full scale", "2.5.0",
     "GX-440 default 3 %LEL from 2.6.0 (2 %LEL in 2.5.x). Before 2.5.0 fixed at 1 % of full scale"),
    (40040, "Calibration interval", "R/W", "UINT16", "days", [180, 180, 180, 365], "0-730 (0 = reminder off)",
     "2.2.0", "GX-430: set to 90 days per SB-GX-2024-02 (see sheet Calibration intervals)"),
    (40045, "Days until calibration due", "R", "UINT16", "days", None, "0-730", "2.6.0",
     "Counts down from 40040; write rejected (exception 02)"),
    (40050, "Command", "W", "UINT16", "Code", None,
     "1 = zero calibration, 2 = span calibration, 3 = reset latched alarms, 4 = start bump test, 99 = reboot",
     "2.2.0", "Calibration commands rejected during warm-up from 2.4.0"),
    (40051, "Span gas concentration", "R/W", "INT16", SCALED, [209, 100, 250, 50], "Within measuring range",
     "2.2.0", "GX-410 spans in clean air (20.9 %VOL)"),
    ("40100-40163", "Calibration log", "R", "UINT16 x 64", "16 entries x 4 registers", None,
     "Date, type, result, as-found value", "2.4.0", ""),
]
r = 1
for reg, name, acc, dtype, scale, dflt, rng, since, notes in regs:
    first_reg = int(str(reg).split("-")[0])
    base = 30001 if first_reg < 40000 else 40001
    rm.write_string(r, 0, str(reg)) if isinstance(reg, str) else rm.write_number(r, 0, reg, intf)
    rm.write_string(r, 1, "0x%04X" % (first_reg - base))
    rm.write_string(r, 2, name, txt)
    rm.write_string(r, 3, acc)
    rm.write_string(r, 4, dtype)
    rm.write_string(r, 5, scale, txt)
    if dflt is None:
        for c in range(6, 10):
            rm.write_blank(r, c, None)
    elif isinstance(dflt, list):
        for c, v in zip(range(6, 10), dflt):
            if isinstance(v, str):
                rm.write_string(r, c, v, centre)
            else:
                rm.write_number(r, c, v, intf)
    else:
        rm.merge_range(r, 6, r, 9, dflt, centre)
    rm.write_string(r, 10, rng, txt)
    rm.write_string(r, 11, since)
    if notes:
        rm.write_string(r, 12, notes, txt)
    r += 1
r += 1
rm.merge_range(r, 0, r, 12,
               "Register numbers use the 1-based Modbus convention: 3xxxx = input registers (function 04), "
               "4xxxx = holding registers (functions 03/06/16). Protocol address = register - 30001 or - 40001. "
               "Defaults are raw register values, scaled as register 30001 where noted. Up to 64 registers per "
               "read request (firmware 2.4.3 and later).", note)
rm.set_row(r, 45)

# ---------------------------------------------------------------- Calibration intervals
cs = wb.add_worksheet("Calibration intervals")
ccols = ["Model", "Gas", "Bump test interval (days)", "Calibration interval (months)",
         "Warm-up before calibration (min)", "Zero gas", "Span gas", "Span concentration", "Unit",
         "Span gas part no.", "Flow rate (L/min)", "Flow cap part no.", "Zero pass limit (±)",
         "Span pass limit (±)", "Notes"]
cwidths = [9, 6, 11, 12, 12, 26, 16, 11, 7, 13, 9, 12, 10, 10, 60]
for i, (c, w) in enumerate(zip(ccols, cwidths)):
    cs.write(0, i, c, hdr)
    cs.set_column(i, i, w)
cs.freeze_panes(1, 1)
cal = [
    ("GX-410", "O2", 30, 6, 10, "Nitrogen 99.99 % (GXG-N2-ZERO)", "Clean air", 20.9, "%VOL", "-", 0.5,
     "GXA-CAL-01", 0.3, 0.3, "Span in clean outdoor air; zero with nitrogen through the flow cap."),
    ("GX-420", "CO", 30, 6, 15, "Clean air", "CO in air", 100, "ppm", "GXG-CO-100", 0.5, "GXA-CAL-01", 2, 5,
     "Hydrogen in the span or zero air gives a positive CO error."),
    ("GX-430", "H2S", 30, 3, 15, "Clean air", "H2S in nitrogen", 25, "ppm", "GXG-H2S-25", 0.5, "GXA-CAL-01", 1,
     2.5, "Interval shortened from 6 to 3 months by Service Bulletin SB-GX-2024-02 (September 2024); "
     "the register 40040 default of 180 days must be changed to 90 days."),
    ("GX-440", "CH4", 90, 12, 30, "Clean air", "Methane in air", 50, "%LEL", "GXG-CH4-50", 1.0, "GXA-CAL-02", 2,
     3, "50 %LEL = 2.2 %VOL CH4. Use only the 1.0 L/min flow cap on GX-440."),
]
for i, rowv in enumerate(cal, start=1):
    for c, v in enumerate(rowv):
        if isinstance(v, str):
            cs.write_string(i, c, v, txt)
        elif isinstance(v, float) and v != int(v):
            cs.write_number(i, c, v, dec1)
        elif c == 10:
            cs.write_number(i, c, v, dec1)
        else:
            cs.write_number(i, c, v, intf)
n = len(cal) + 2
cs.merge_range(n, 0, n, 14,
               "Superseded value: until SB-GX-2024-02 (September 2024) the GX-430 calibration interval was "
               "6 months, as for GX-410 and GX-420.", note)
cs.merge_range(n + 1, 0, n + 1, 14,
               "Intervals are maxima for normal duty. Shorten them for sites with continuous background gas, "
               "ambient above 40 °C or after any over-range exposure. Bump test pass: reading reaches at least "
               "80 % of the applied gas within 2 x T90.", note)
cs.set_row(n + 1, 30)

wb.close()
print("wrote", OUT)
