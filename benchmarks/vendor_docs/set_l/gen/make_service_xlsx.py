"""Generate docs/arvina_service_parts.xlsx (fictional service workbook MCT-SP-0415).

Run from set_l/:  /work/main/.venv/bin/python gen/make_service_xlsx.py
"""
import xlsxwriter

OUT = "docs/arvina_service_parts.xlsx"

wb = xlsxwriter.Workbook(OUT)
wb.set_properties({"title": "MCT-SP-0415 Arvina Spare Parts and Service Data",
                   "author": "Marzetti Caffè Tecnica S.r.l. - After Sales",
                   "comments": "Issue 7, 2024-11-28"})
hdr = wb.add_format({"bold": True, "bg_color": "#DDEBF7", "border": 1, "text_wrap": True})
txt = wb.add_format({"text_wrap": True, "valign": "top"})
eur = wb.add_format({"num_format": "#,##0.00", "valign": "top"})
num = wb.add_format({"valign": "top"})
dec = wb.add_format({"num_format": "0.00", "valign": "top"})


def sheet(name, headers, rows, widths, fmts):
    ws = wb.add_worksheet(name)
    for j, h in enumerate(headers):
        ws.write(0, j, h, hdr)
        ws.set_column(j, j, widths[j])
    for i, r in enumerate(rows, start=1):
        for j, v in enumerate(r):
            if v is None or v == "":
                ws.write_blank(i, j, None, fmts[j])
            else:
                ws.write(i, j, v, fmts[j])
    ws.freeze_panes(1, 0)
    ws.autofilter(0, 0, len(rows), len(headers) - 1)
    return ws


# ---- Sheet 1: spare parts
parts_h = ["Part number", "Description", "Compatible models", "Unit price (EUR)",
           "Lead time (working days)", "Min order qty", "Status", "Notes"]
parts = [
    ("MZ-GSK-8.5B", "Group head gasket 8.5 mm, high-temperature EPDM", "ARV-2C, ARV-2, ARV-3", 4.80, 3, 10, "Active", "Supersedes MZ-GSK-8.5 from January 2024"),
    ("MZ-GSK-8.5", "Group head gasket 8.5 mm (original)", "ARV-2C, ARV-2, ARV-3", 4.20, None, 10, "Superseded", "Superseded by MZ-GSK-8.5B - do not fit, scrap old stock"),
    ("MZ-SHW-58", "Shower screen 58 mm, 200 µm mesh", "ARV-2C, ARV-2, ARV-3", 9.50, 3, 5, "Active", ""),
    ("MZ-FLM-110", "Flowmeter, 0.45 ml/pulse (legacy)", "ARV-2, ARV-3", 34.00, None, 1, "Superseded", "Superseded by MZ-FLM-120. Fitted to ARV-2 up to serial A2-23-01399 and ARV-3 up to serial A3-23-00034; set P-21 = 110 if still fitted (fw 2.4.1+)"),
    ("MZ-FLM-120", "Flowmeter, 0.90 ml/pulse", "ARV-2, ARV-3", 38.00, 5, 1, "Active", "Set P-21 = 120 after fitting"),
    ("MZ-FLM-115", "Flowmeter, compact, 0.90 ml/pulse", "ARV-2C", 36.50, 5, 1, "Active", "Set P-21 = 115 after fitting"),
    ("MZ-HTR-2400", "Steam boiler heating element 2.4 kW, 230 V", "ARV-2C", 118.00, 10, 1, "Active", ""),
    ("MZ-HTR-3600", "Steam boiler heating element 3.6 kW, 230/400 V", "ARV-2", 142.00, 10, 1, "Active", ""),
    ("MZ-HTR-4800", "Steam boiler heating element 4.8 kW, 400 V", "ARV-3", 176.00, 14, 1, "Active", ""),
    ("MZ-HTR-G055", "Group boiler heating element 550 W", "ARV-2C", 58.00, 7, 1, "Active", ""),
    ("MZ-HTR-G080", "Group boiler heating element 800 W", "ARV-2, ARV-3", 64.00, 7, 1, "Active", ""),
    ("MZ-SV-18", "Steam boiler safety valve, opens at 1.8 bar", "ARV-2C", 32.00, 5, 1, "Active", "Sealed - never adjust"),
    ("MZ-SV-20", "Steam boiler safety valve, opens at 2.0 bar", "ARV-2, ARV-3", 32.00, 5, 1, "Active", "Sealed - never adjust"),
    ("MZ-PT-25", "Steam boiler pressure transducer 0 - 2.5 bar", "ARV-2C, ARV-2, ARV-3", 89.00, 7, 1, "Active", "Check against reference gauge, see PM-06"),
    ("MZ-VB-01", "Vacuum breaker valve 1/4\"", "ARV-2C, ARV-2, ARV-3", 21.00, 3, 1, "Active", ""),
    ("MZ-NTC-50", "NTC temperature probe 50 kOhm", "ARV-2C, ARV-2, ARV-3", 14.50, 3, 5, "Active", ""),
    ("MZ-SOL-3W", "3-way group solenoid valve 24 V DC", "ARV-2C, ARV-2, ARV-3", 46.00, 5, 1, "Active", ""),
    ("MZ-PMP-R150", "Rotary pump 150 L/h with motor", "ARV-2C", 245.00, 21, 1, "Active", ""),
    ("MZ-PMP-R200", "Rotary pump 200 L/h with motor", "ARV-2, ARV-3", 268.00, 21, 1, "Active", ""),
    ("MZ-CTRL-5D", "Controller board MZ-CTRL-5 rev D (firmware 2.4.1 loaded)", "ARV-2C, ARV-2, ARV-3", 395.00, 28, 1, "Active", "Replacement by Level 2 technicians only"),
    ("MZ-DSP-7", "7-inch touch display assembly", "ARV-2C, ARV-2, ARV-3", 310.00, 28, 1, "Active", ""),
    ("MZ-WND-CT", "Cool-touch steam wand assembly", "ARV-2C, ARV-2, ARV-3", 72.00, 10, 1, "Active", ""),
    ("MZ-CLN-900", "Group cleaning powder, 900 g tub", "ARV-2C, ARV-2, ARV-3", 18.90, 2, 6, "Active", "For daily backflush (PM-01)"),
]
sheet("Spare Parts", parts_h, parts, [14, 46, 22, 14, 14, 10, 12, 50],
      [txt, txt, txt, eur, num, num, txt, txt])

# ---- Sheet 2: error codes
err_h = ["Code", "Title", "Models", "Trigger condition", "Machine reaction",
         "Operator action", "Technician action", "Since firmware"]
errs = [
    ("E01", "Flowmeter group 1 - no pulses", "All", "No flowmeter pulses for 5 s while group 1 is dispensing", "Dose stops; group usable in manual mode", "Use manual brew button, call service", "Check connector J11 and flowmeter; replace flowmeter if no signal", "2.2.1"),
    ("E02", "Flowmeter group 2 - no pulses", "All", "No flowmeter pulses for 5 s while group 2 is dispensing", "Dose stops; group usable in manual mode", "Use manual brew button, call service", "Check connector J12 and flowmeter", "2.2.1"),
    ("E03", "Flowmeter group 3 - no pulses", "ARV-3", "No flowmeter pulses for 5 s while group 3 is dispensing", "Dose stops; group usable in manual mode", "Use manual brew button, call service", "Check connector J13 and flowmeter", "2.2.1"),
    ("E05", "Steam boiler fill timeout", "All", "Autofill solenoid open for more than 120 s without reaching level probe", "Steam boiler heating disabled", "Check water tap is open, switch off and on", "Measure inlet pressure (min 1.5 bar), check autofill solenoid and level probe", "2.2.1"),
    ("E08", "Steam boiler overtemperature", "All", "Steam boiler NTC above 135 °C", "All heating disabled, lockout", "Switch off, call service", "Check pressure transducer and NTC; inspect element relay for welded contacts", "2.2.1"),
    ("E10", "Group boiler probe fault", "All", "Group boiler NTC open or short circuit", "Affected group disabled", "Use other groups, call service", "Measure NTC (about 50 kOhm at 25 °C), replace MZ-NTC-50", "2.2.1"),
    ("E12", "Steam pressure transducer fault", "All", "Transducer signal out of range 0.5 - 4.5 V or jump greater than 0.4 bar in 1 s", "Steam heating switches to NTC back-up control", "Continue with care, call service", "Check cable J7; compare with reference gauge; replace MZ-PT-25 if deviation above 0.05 bar", "2.2.1"),
    ("E14", "Flowmeter pulse rate implausible", "All", "Pulse rate above limit: 20 pulses/s (fw 2.4.0, all flowmeters); from fw 2.4.1 40 pulses/s for MZ-FLM-110 and 20 pulses/s for MZ-FLM-115/120", "Dose stops", "Retry; if repeated call service", "Check P-21 matches the fitted flowmeter; check for air in circuit", "2.2.1"),
    ("E17", "Water tank low", "ARV-2C with MZ-OPT-TK", "Tank level sensor below minimum (about 0.3 L left)", "Pump and heating blocked", "Refill tank", "Check level sensor if error persists with full tank", "2.2.1"),
    ("E21", "Heating timeout", "All", "Steam or group boiler setpoint not reached within 35 min of switch-on", "Affected heater disabled", "Switch off and on, call service", "Check all supply phases and fuses, element resistance and heater relays", "2.4.0"),
    ("E30", "Display communication lost", "All", "No data from controller for more than 3 s", "Machine keeps last state, dispensing disabled", "Switch off and on", "Check display cable and connector J2; replace MZ-DSP-7 if needed", "2.2.1"),
]
sheet("Error Codes", err_h, errs, [7, 32, 20, 52, 34, 32, 56, 10],
      [txt, txt, txt, txt, txt, txt, txt, txt])

# ---- Sheet 3: maintenance plan and test limits
mh = ["Task ID", "Task", "Models", "Interval (months)", "Interval (cycles per group)", "Performed by",
      "Nominal", "Tolerance (±)", "Unit", "Parts", "Time (min)"]
maint = [
    ("PM-01", "Backflush each group with detergent", "All", 0, None, "Operator", None, None, "", "MZ-CLN-900", 10, ),
    ("PM-02", "Replace group gaskets and shower screens", "ARV-2, ARV-3", 6, 30000, "Technician L1", None, None, "", "MZ-GSK-8.5B, MZ-SHW-58 (one each per group)", 15),
    ("PM-03", "Replace group gaskets and shower screens", "ARV-2C", 6, 20000, "Technician L1", None, None, "", "MZ-GSK-8.5B, MZ-SHW-58 (one each per group)", 15),
    ("PM-04", "Check brew pump pressure at group (blind filter)", "All", 6, None, "Technician L1", 9.0, 0.2, "bar", "", 10),
    ("PM-05", "Test safety valve opening pressure", "ARV-2C", 12, None, "Technician L1", 1.8, 0.1, "bar", "MZ-SV-18 if out of tolerance", 20),
    ("PM-06", "Check steam pressure transducer against reference gauge", "All", 12, None, "Technician L1", 0.0, 0.05, "bar (deviation)", "MZ-PT-25 if out of tolerance", 15),
    ("PM-07", "Test safety valve opening pressure", "ARV-2, ARV-3", 12, None, "Technician L1", 2.0, 0.1, "bar", "MZ-SV-20 if out of tolerance", 20),
    ("PM-08", "Check brew temperature with thermofilter", "ARV-2, ARV-3", 12, None, "Technician L1", 93.0, 0.5, "°C", "", 20),
    ("PM-09", "Check brew temperature with thermofilter", "ARV-2C", 12, None, "Technician L1", 93.0, 0.8, "°C", "", 20),
    ("PM-10", "Flowmeter dose check (programmed 40 ml double)", "All", 12, None, "Technician L1", 40.0, 2.0, "ml", "", 15),
    ("PM-11", "Replace vacuum breaker valve", "All", 24, None, "Technician L1", None, None, "", "MZ-VB-01", 15),
    ("PM-12", "Inspect and descale steam boiler and heating element (12 months if hardness above 7 °dH)", "All", 24, None, "Technician L1", None, None, "", "", 90),
]
ws = sheet("Maintenance Plan", mh, maint, [8, 48, 14, 11, 13, 14, 9, 10, 14, 40, 9],
           [txt, txt, txt, num, num, txt, dec, dec, txt, txt, num])
ws.write(len(maint) + 2, 0, "Interval 0 = daily. Nominal 93.0 °C refers to the default brew setpoint; test against the actual setpoint P-03.", txt)

wb.close()
print("wrote", OUT)
