"""Generate docs/sentinel_gx400_support_tickets_export.csv (fictional ticket-system export).

Run from set_k/:  /work/main/.venv/bin/python gen/make_tickets_csv.py   (any Python 3 works)
"""
import csv
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "docs" / "sentinel_gx400_support_tickets_export.csv"

FIELDS = ["ticket_id", "opened", "closed", "customer", "product", "firmware", "category", "priority",
          "subject", "resolution", "status"]

ROWS = [
    ("GXT-10233", "2022-10-04", "2022-12-14", "Carrow Chemicals", "GX-420", "2.2.0", "Configuration", "P3",
     "Modbus address 112 lost after power cycle, unit returns on address 1",
     "Known defect: addresses 100-247 were not stored permanently. Fixed in firmware 2.3.1. Workaround until the "
     "upgrade: use addresses 1-99. Customer upgraded to 2.3.1 and confirmed.", "Closed"),
    ("GXT-10258", "2022-11-21", "2022-11-29", "Hallam Water Services", "GX-430", "2.3.0", "Installation", "P2",
     "Remote sensor head shows E09 (sensor communication lost)",
     "Installer had extended the remote kit cable to 22 m with a junction box; maximum is 15 m. Reinstalled "
     "with a GXA-RMK-15 kit (15 m) without a joint; E09 cleared.", "Closed"),
    ("GXT-10301", "2023-01-17", "2023-01-18", "Northgate Cold Stores", "GX-410", "2.3.1", "Calibration", "P3",
     "O2 span calibration fails, reading stays at 19.6 %VOL",
     "Span was started with the magnet wand within 2 minutes of power-up in a plant room. Advised to let the "
     "cell stabilise for 10 minutes and span in clean outdoor air (20.9 %VOL). Span passed.", "Closed"),
    ("GXT-10377", "2023-03-09", "2023-09-12", "Northgate Cold Stores", "GX-420", "2.3.1", "Accuracy", "P2",
     "CO reads +4 ppm in clean air after calibration in the -18 °C store",
     "Defect: temperature compensation applied twice when calibrated below 0 °C. Interim workaround: "
     "calibrate the sensor head at above +5 °C. Fixed in firmware 2.4.3 (released 2023-09-05).", "Closed"),
    ("GXT-10402", "2023-04-02", "2023-04-06", "Pennine Biogas Ltd", "GX-430", "2.3.1", "Hardware", "P2",
     "Condensation and water droplets inside the enclosure",
     "M20 cable gland was hand-tight only and the lid O-ring was pinched. Fitted seal kit GXP-SEAL-K, tightened "
     "glands to 5 Nm. Enclosure dry at follow-up.", "Closed"),
    ("GXT-10455", "2023-06-19", "2024-02-02", "Pennine Biogas Ltd", "GX-440", "2.4.0", "Relay", "P2",
     "Alarm 1 relay chattering around the 10 %LEL set point",
     "Firmware 2.4.x has a fixed hysteresis of 1 % of full scale (1 %LEL). Workaround: raise Alarm 1 to 12 %LEL "
     "with site approval. Configurable relay hysteresis (register 40033) added in firmware 2.5.0; customer "
     "upgraded in January 2024 and set 2 %LEL.", "Closed"),
    ("GXT-10489", "2023-07-28", "2023-08-01", "Lindqvist Brewery", "GX-410", "2.4.0", "Sensor", "P3",
     "O2 reading low and sensor remaining life at 12 %",
     "Cell installed 23 months earlier; expected life of the O2 cell is 2 years. Replaced with GXS-410-O2 and "
     "recalibrated.", "Closed"),
    ("GXT-10514", "2023-08-30", "2023-08-30", "Carrow Chemicals", "GX-420", "2.4.0", "Firmware", "P3",
     "Cannot downgrade from 2.4.0 to 2.3.1 after main board replacement",
     "Replacement main board is revision C (GXP-MB-C), which only runs firmware 2.4.0 or later - see changelog "
     "2.4.0. Not a defect; customer stays on 2.4.0.", "Closed"),
    ("GXT-10560", "2023-10-11", "2024-01-25", "Hallam Water Services", "GX-430", "2.4.3", "Output", "P3",
     "DCS expects 3.6 mA on fault, transmitter gives 3.5 mA",
     "Firmware before 2.5.0 has a fixed fault level of 3.5 mA. Firmware 2.5.0 (2024-01-22) changes the default "
     "to 3.6 mA per NAMUR NE 43 and adds register 40020. Customer upgraded.", "Closed"),
    ("GXT-10601", "2023-11-27", "2023-12-04", "Moorside Farm Energy", "GX-440", "2.4.3", "Installation", "P2",
     "GX-440 stays in fault E04 on 15 V solar-powered supply",
     "GX-440 needs at least 18 V DC for the NDIR lamp (other models 12 V). Customer fitted a 24 V DC-DC "
     "converter; unit starts normally.", "Closed"),
    ("GXT-10644", "2024-01-30", "2024-02-01", "Carrow Chemicals", "GX-420", "2.5.0", "Integration", "P2",
     "After upgrade DCS shows under-range instead of fault",
     "From 2.5.0 the default fault current is 3.6 mA; the DCS was configured to detect 3.5 mA. Set register "
     "40020 = 1 to restore the legacy 3.5 mA level until the DCS is reconfigured.", "Closed"),
    ("GXT-10671", "2024-02-20", "2024-04-10", "Severn Vale Utilities", "GX-430", "2.5.0", "Modbus", "P2",
     "Float concentration (30003-30004) meaningless in Siemens PLC",
     "PLC reads CDAB word order; register 40022 = 1 was ignored for the float registers. Workaround: read the "
     "integer register 30001 (0.1 ppm). Fixed in firmware 2.5.1.", "Closed"),
    ("GXT-10688", "2024-03-05", "2024-04-10", "Moorside Farm Energy", "GX-440", "2.5.0", "Output", "P2",
     "Output stuck at 3.6 mA after a supply dip, gas reading normal on display",
     "Supply dipped below 10 V during generator changeover; output latched at the fault level. Workaround: "
     "power cycle. Fixed in firmware 2.5.1.", "Closed"),
    ("GXT-10720", "2024-04-22", "2024-04-23", "Lindqvist Brewery", "GX-410", "2.5.1", "Calibration", "P3",
     "O2 zero calibration rejected",
     "Customer tried to zero in ambient air. GX-410 zero needs nitrogen 99.99 % zero gas (GXG-N2-ZERO) at "
     "0.5 L/min through the flow cap GXA-CAL-01; span is done in clean air.", "Closed"),
    ("GXT-10745", "2024-05-16", "2024-05-17", "Cityline Parking", "GX-420", "2.5.1", "Sensor", "P3",
     "CO alarms near EV charging bays with no combustion source",
     "Hydrogen from lead-acid battery charging; the CO cell reads about 20 ppm per 100 ppm H2. Recommended moving "
     "the transmitter at least 5 m from the charging bays. Informational.", "Closed"),
    ("GXT-10782", "2024-06-25", "2024-09-18", "Arctic Gas Storage AS", "GX-440", "2.5.1", "Power", "P2",
     "Loop supply overloaded at -38 °C",
     "Measured 176 mA per GX-440 at -38 °C cold start, above the 165 mA maximum in spec Rev C. Engineering "
     "confirmed lamp heater current; specification corrected to 180 mA maximum in Rev D (2024-09-16). Customer "
     "resized the supply.", "Closed"),
    ("GXT-10803", "2024-07-18", "2024-07-22", "Pennine Biogas Ltd", "GX-430", "2.5.1", "Sensor", "P3",
     "New H2S cells read 0 ppm and fail bump test",
     "Cells had been stored in a service van at up to 40 °C for 3 months. H2S cells must be stored at 0-20 °C "
     "and used within the 6-month shelf life. Replaced two GXS-430-H2S cells at customer cost.", "Closed"),
    ("GXT-10830", "2024-08-27", "2024-10-31", "Severn Vale Utilities", "GX-430", "2.5.1", "Relay", "P3",
     "Cannot make Alarm 2 latching via Modbus",
     "Write to register 40012 with the Alarm 2 bit set was ignored; setting works from the front-panel menu. "
     "Fixed in firmware 2.5.2.", "Closed"),
    ("GXT-10857", "2024-09-30", "2024-11-04", "Hallam Water Services", "GX-430", "2.5.1", "Sensor", "P1",
     "Zero drifts negative, E17 under-range faults at Blackmoor STW digester building",
     "Root cause: H2S cell electrolyte dried out by continuous ambient of about 55 °C (spec Rev D: +50 °C "
     "continuous). Cell replaced, head relocated with remote kit GXA-RMK-05, zero deadband set to 1.0 ppm, "
     "firmware 2.5.2. Unit GX430-2203-01187 returned under RMA-24-0873 (terminal board corrosion). See e-mail "
     "thread.", "Closed"),
    ("GXT-10866", "2024-10-08", "2024-10-08", "Severn Vale Utilities", "GX-430", "2.5.1", "Documentation", "P3",
     "Which calibration interval applies to GX-430 now?",
     "Service Bulletin SB-GX-2024-02 shortened the GX-430 calibration interval from 6 to 3 months. Set register "
     "40040 to 90 days so the calibration-due reminder matches.", "Closed"),
    ("GXT-10902", "2024-11-14", "2025-02-20", "Moorside Farm Energy", "GX-440", "2.5.2", "Display", "P4",
     "Display backlight stays on permanently",
     "Known defect: backlight not switched off after the menu timeout. Fixed in firmware 2.6.0 (2025-02-18); "
     "no workaround other than a power cycle.", "Closed"),
    ("GXT-10935", "2024-12-10", "2024-12-16", "Carrow Chemicals", "GX-420", "2.5.2", "Modbus", "P2",
     "CRC errors on RS-485 bus at 57600 baud",
     "Bus length about 900 m with no termination. At 57600 baud the maximum is 600 m. Fitted 120 ohm "
     "terminations at both ends and changed to 19200 baud (maximum 1200 m). Errors cleared.", "Closed"),
    ("GXT-10961", "2025-01-13", "2025-01-15", "Pennine Biogas Ltd", "GX-440", "2.5.2", "Relay", "P3",
     "Relay chatter again at 10 %LEL with hysteresis 2 %LEL",
     "Site has fluctuating background methane. Set relay hysteresis register 40033 to 3 (3 %LEL). Firmware "
     "2.6.0 makes 3 %LEL the GX-440 default.", "Closed"),
    ("GXT-10988", "2025-02-24", "2025-02-25", "Severn Vale Utilities", "GX-430", "2.6.0", "Feature request",
     "P4", "Calibration due date in SCADA",
     "Available from firmware 2.6.0: read-only register 40045 gives the days remaining until calibration is "
     "due.", "Closed"),
    ("GXT-11004", "2025-03-11", "2025-03-19", "Cityline Parking", "GX-420", "2.6.0", "Hardware", "P3",
     "Display blank, 4-20 mA and Modbus working",
     "Display module failed after 14 months. Replaced GXP-DSP-01 under the 24-month transmitter warranty.",
     "Closed"),
    ("GXT-11019", "2025-03-27", "2025-03-28", "Arctic Gas Storage AS", "GX-440", "2.5.2", "Firmware", "P3",
     "Upgrade to 2.6.0 aborts at about 40 %",
     "Customer used GX Service Tool 3.0.4; 2.6.x images need Service Tool 3.1 or later. Updated to Service Tool "
     "3.2.0 and the upgrade completed.", "Closed"),
    ("GXT-11027", "2025-04-01", "", "Lindqvist Brewery", "GX-410", "2.6.0", "Calibration", "P3",
     "Bump test passes but BUMP DUE message does not clear",
     "Asked customer for the calibration log (registers 40100-40163) and the Service Tool diagnostic file.",
     "Waiting on customer"),
    ("GXT-11032", "2025-04-02", "", "Hallam Water Services", "GX-430", "2.6.0", "Sensor", "P3",
     "Sensor remaining life reads 0 % on a new cell",
     "Engineering investigating; new cell not detected as new. Workaround: reset the life counter in GX "
     "Service Tool > Sensor > Reset life counter.", "Open"),
]

with open(OUT, "w", newline="", encoding="utf-8") as f:
    w = csv.writer(f, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    w.writerow(FIELDS)
    for r in ROWS:
        assert len(r) == len(FIELDS), r[0]
        w.writerow(r)
print("wrote", OUT, len(ROWS), "rows")
