"""Generate docs/sentinel_gx400_support_email_thread.eml (fictional customer <-> support thread).

multipart/alternative (text/plain + text/html), latest reply on top, earlier messages quoted below with
"On ... wrote:" and "> " quoting. Run from set_k/:  /work/main/.venv/bin/python gen/make_email_eml.py
"""
import html
import textwrap
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, parsedate_to_datetime
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "docs" / "sentinel_gx400_support_email_thread.eml"

TOM = ("Tom Ashworth", "tom.ashworth@hallamwater.example")
PRIYA = ("Priya Nandakumar", "p.nandakumar@farrowdale-instruments.example")
SUPPORT = ("Farrowdale Support", "support@farrowdale-instruments.example")

SIG_TOM = """Tom Ashworth
Senior Instrument Technician - Blackmoor STW
Hallam Water Services Ltd
M 07700 900412

CONFIDENTIALITY: This message and any attachments are intended only for the
named recipient and may contain confidential information. If you are not
the intended recipient, please delete it and tell the sender. Hallam Water
Services Ltd, registered in England and Wales no. 04417730. Please consider
the environment before printing this e-mail."""

SIG_PRIYA = """--
Priya Nandakumar
Applications Support Engineer, Gas Detection
Farrowdale Instruments Ltd | Unit 7 Holbrook Park, Sheffield S20 3FJ, UK
T +44 114 496 0738 | support@farrowdale-instruments.example

This e-mail and any attachments are confidential and intended solely for the
addressee. If you have received it in error, please notify the sender and
delete it. Farrowdale Instruments Ltd is registered in England and Wales,
company no. 08817452. Registered office: Unit 7 Holbrook Park, Sheffield
S20 3FJ."""

BASE_SUBJECT = "GX-430 zero drifting negative / E17 faults - Blackmoor STW"

MESSAGES = [
    dict(
        frm=TOM, date="Tue, 01 Oct 2024 08:42:17 +0100", msgid="<a81c0e2f-77d4-4c1e@hallamwater.example>",
        subject=BASE_SUBJECT, sig=SIG_TOM,
        body="""Hello,

We have three GX-430-S-R-M20 H2S transmitters in the digester building at Blackmoor STW (serials GX430-2203-01187, GX430-2203-01190 and GX430-2203-01214), all on firmware 2.5.1, installed in March 2023.

Since the start of September unit 01187 drifts below zero during the day - the display shows -1.5 to -3 ppm - and several times a night it goes into E17 and the 4-20 mA output drops to 3.6 mA, which raises a fault alarm in the control room. The other two units read 0.0 to 0.3 ppm in clean air and are fine.

01187 is mounted on the gantry about 1 m above the digester heating-water pipework. Its last calibration was on 14 June with GXG-H2S-25 and it passed.

Can you advise? This is a P1 for us because the operators are starting to ignore the fault alarm.

Regards,
Tom""",
    ),
    dict(
        frm=PRIYA, date="Tue, 01 Oct 2024 15:10:44 +0100", msgid="<FI-GXT10857-1.8841@farrowdale-instruments.example>",
        subject="RE: [GXT-10857] " + BASE_SUBJECT, sig=SIG_PRIYA,
        body="""Hi Tom,

Thanks for the detailed report - I have logged it as ticket GXT-10857 with priority 1.

Negative drift on a single H2S unit usually points to the cell rather than the electronics. Could you please:

1. Log input register 30005 (sensor temperature, 0.1 °C) on 01187 for 24 hours, and on one of the good units for comparison.
2. Check that the splash guard GXA-SG-01 is fitted and its membrane is not blocked.
3. Read register 30007 (sensor remaining life, %) on all three units.

Please do not re-zero 01187 in the meantime - a zero taken on a drifting cell only moves the error.

Best regards,
Priya""",
    ),
    dict(
        frm=TOM, date="Mon, 07 Oct 2024 10:05:09 +0100", msgid="<5d2e9b41-0c8a-4f7e@hallamwater.example>",
        subject="RE: [GXT-10857] " + BASE_SUBJECT, sig=SIG_TOM,
        body="""Hi Priya,

Results:

- 30005 on 01187: 548 to 561 over the day (54.8 to 56.1 °C), never below 52 °C at night. Unit 01190 on the wall by the door reads 21 to 24 °C.
- The splash guard on 01187 is missing - it looks like it was knocked off when the pipework was lagged in August. 01190 and 01214 have theirs.
- 30007 remaining life: 01187 31 %, 01190 68 %, 01214 66 %.

When I opened 01187 I also found green-black corrosion on the terminal board, and the second cable entry had no blanking plug, just tape over it.

Can the cell be saved? And can you quote for fixing this properly - we would probably do all three units the same way.

Tom""",
    ),
    dict(
        frm=PRIYA, date="Wed, 09 Oct 2024 16:31:02 +0100", msgid="<FI-GXT10857-2.9127@farrowdale-instruments.example>",
        subject="RE: [GXT-10857] " + BASE_SUBJECT, sig=SIG_PRIYA,
        body="""Hi Tom,

Thanks, that explains it.

Root cause (preliminary): 01187 is running continuously at about 55 °C. Revision D of the product specification (FI-PS-GX400, September 2024) limits the GX-430 to +50 °C continuous, with +55 °C allowed for a maximum of 24 hours; Revision C still said +55 °C. At that temperature the electrolyte in the H2S cell dries out, the zero drifts negative and the sensitivity falls, and the missing splash guard makes it worse. When the reading falls below -2 ppm, firmware 2.5.1 declares E17 (under-range) and drives the output to the 3.6 mA fault level - hence the night-time fault alarms. The cell cannot be recovered.

Recommended actions:

1. Replace the cell with a new GXS-430-H2S and fit a new splash guard GXA-SG-01.
2. Move the sensor head off the gantry with the remote sensor kit GXA-RMK-05 (5 m cable). Mount the head 0.3 to 0.6 m above the walkway (H2S is heavier than air) and away from the heating pipework; the transmitter itself can stay where it is.
3. Set the zero deadband, holding register 40031, to 10 (= 1.0 ppm; the factory default is 5 = 0.5 ppm) on all three units so that small excursions around zero read 0.0.
4. Upgrade to firmware 2.5.2 when it is released (planned for the end of October). It moves the GX-430 E17 threshold from -2 ppm to -5 ppm.
5. After a new cell has been in for 24 hours, calibrate it with GXG-H2S-25 at 0.5 L/min through the flow cap GXA-CAL-01.

For the terminal board corrosion, please return transmitter GX430-2203-01187 for inspection under RMA-24-0873. Ship it to Farrowdale Instruments Ltd, Returns Dept., Unit 7 Holbrook Park, Sheffield S20 3FJ, with the RMA number on the outside of the box. Customer Service will send you a loan unit to fit in the meantime, and we will fit the new cell and splash guard to 01187 during the repair.

Best regards,
Priya""",
    ),
    dict(
        frm=TOM, date="Fri, 25 Oct 2024 14:02:51 +0100", msgid="<e0b7f3aa-91c2-4b0d@hallamwater.example>",
        subject="RE: [GXT-10857] " + BASE_SUBJECT, sig=SIG_TOM,
        body="""Hi Priya,

01187 went back to you yesterday by DPD with RMA-24-0873 on the box, and the loan unit is installed. The deadband is set to 10 on all three.

Management has approved doing all three heads the same way. Please quote 3 x GXS-430-H2S and 3 x GXA-RMK-05 (the cells for 01190, 01214 and the spare).

Is 2.5.2 out yet? And does anything change for our calibration routine - we calibrate every 6 months.

Thanks,
Tom""",
    ),
    dict(
        frm=PRIYA, date="Wed, 30 Oct 2024 11:18:36 +0000", msgid="<FI-GXT10857-3.1402@farrowdale-instruments.example>",
        subject="RE: [GXT-10857] " + BASE_SUBJECT, sig=SIG_PRIYA,
        body="""Hi Tom,

Thanks for getting the unit back so quickly. Updates:

- Lab result for 01187: the terminal board corrosion is sulfide attack from H2S that entered through the open second cable entry (tape instead of the certified blanking plug). The terminal board has been replaced with a new GXP-TB-01 under warranty, together with a new cell and splash guard, and the unit has passed final test. It ships back to you tomorrow. Please close unused entries with the blanking plugs from seal kit GXP-SEAL-K - I have added two kits to the quote at no charge.
- Firmware 2.5.2 was released yesterday, 29 October. Besides the new E17 threshold it also lets you set the Alarm 2 latching bit (register 40012) over Modbus.
- Calibration: Service Bulletin SB-GX-2024-02 (September 2024) shortened the GX-430 calibration interval from 6 to 3 months. Please calibrate every 3 months and set register 40040 to 90 (days) so the calibration-due reminder matches.
- Quotation Q-24-1412 for 3 x GXS-430-H2S and 3 x GXA-RMK-05 follows separately from Customer Service, at price list PL-2024-2 less your 10 % framework discount. Lead time is 10 working days for both items.

I will close GXT-10857 once 01187 is back in service.

Best regards,
Priya""",
    ),
]


def wrap_text(body):
    out = []
    for para in body.split("\n"):
        if not para.strip():
            out.append("")
            continue
        indent = ""
        if para[:2] == "- ":
            indent = "  "
        elif para[:1].isdigit() and para[1:3] == ". ":
            indent = "   "
        out.extend(textwrap.wrap(para, width=76, subsequent_indent=indent) or [""])
    return "\n".join(out)


def attribution(m):
    dt = parsedate_to_datetime(m["date"])
    return "On %s, %s <%s> wrote:" % (dt.strftime("%a, %d %b %Y at %H:%M"), m["frm"][0], m["frm"][1])


def quote(text):
    return "\n".join(">" + ("" if line.startswith(">") or not line else " ") + line for line in text.split("\n"))


def plain(i):
    m = MESSAGES[i]
    t = wrap_text(m["body"]) + "\n\n" + m["sig"]
    if i > 0:
        t += "\n\n" + attribution(MESSAGES[i - 1]) + "\n" + quote(plain(i - 1))
    return t


def body_html(text):
    out = []
    for p in text.split("\n\n"):
        lines = p.split("\n")
        if all(l.startswith("- ") for l in lines):
            out.append("<ul>\n%s</ul>\n" % "".join("<li>%s</li>\n" % html.escape(l[2:]) for l in lines))
        elif all(l[:1].isdigit() and l[1:3] == ". " for l in lines):
            out.append("<ol>\n%s</ol>\n" % "".join("<li>%s</li>\n" % html.escape(l[3:]) for l in lines))
        else:
            out.append("<p>%s</p>\n" % "<br>\n".join(html.escape(l) for l in lines))
    return "".join(out)


def rich(i):
    m = MESSAGES[i]
    h = '<div dir="ltr">\n' + body_html(m["body"])
    h += '<div class="signature" style="color:#555555;font-size:9pt">' + body_html(m["sig"]) + "</div>\n</div>\n"
    if i > 0:
        prev = MESSAGES[i - 1]
        h += ('<div class="gmail_quote"><div class="gmail_attr">%s<br></div>\n'
              '<blockquote class="gmail_quote" style="margin:0 0 0 .8ex;border-left:1px solid #ccc;'
              'padding-left:1ex">\n%s</blockquote></div>\n') % (html.escape(attribution(prev)), rich(i - 1))
    return h


top = MESSAGES[-1]
msg = EmailMessage()
msg["From"] = "%s <%s>" % top["frm"]
msg["To"] = "%s <%s>" % TOM
msg["Cc"] = "%s <%s>" % SUPPORT
msg["Subject"] = top["subject"]
msg["Date"] = top["date"]
msg["Message-ID"] = top["msgid"]
msg["In-Reply-To"] = MESSAGES[-2]["msgid"]
msg["References"] = " ".join(m["msgid"] for m in MESSAGES[:-1])
msg["Thread-Topic"] = BASE_SUBJECT
msg["X-Mailer"] = "Microsoft Outlook 16.0"
msg["X-Farrowdale-Ticket"] = "GXT-10857"
msg.set_content(plain(len(MESSAGES) - 1) + "\n", cte="quoted-printable")
msg.add_alternative(
    "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head>\n<body style=\"font-family:Calibri,Arial,"
    "sans-serif;font-size:11pt\">\n" + rich(len(MESSAGES) - 1) + "</body></html>\n",
    subtype="html", cte="quoted-printable",
)

OUT.parent.mkdir(parents=True, exist_ok=True)
OUT.write_bytes(msg.as_bytes(policy=SMTP.clone(max_line_length=100)))
print("wrote", OUT)
