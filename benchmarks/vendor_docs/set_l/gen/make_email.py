"""Write docs/arvina_steam_pressure_case.eml (multipart/alternative support thread).

Run from set_l/:  python3 gen/make_email.py
The HTML part is derived from the plain-text part (quote levels become nested blockquotes).
"""
import html

OUT = "docs/arvina_steam_pressure_case.eml"

SIG_MARCO = """--
Marco Ferretti
Field Service Engineer - South West & Wales
Marzetti Tecnica UK Ltd
Unit 7, Avonside Trade Park, Bristol BS2 0XX
Service line: +44 117 496 0000 | Mobile: +44 7700 900412"""

DISCLAIMER = """This e-mail and any attachments are confidential and intended solely for the addressee. If you have
received it in error, please notify the sender and delete it. Marzetti Tecnica UK Ltd is a subsidiary of
Marzetti Caffè Tecnica S.r.l. Registered in England and Wales."""

SIG_PRIYA = """Priya Nair
Operations Manager | Harbour Lane Coffee Ltd
Wapping Wharf & Clifton, Bristol"""

TOP = f"""Hi Priya,

As promised, here is the summary of yesterday's visit (Wednesday 16 October) to the Wapping Wharf site,
ticket SR-24-1187.

Findings
- With my reference gauge on the steam boiler I measured 1.62 bar while the display showed 1.30 bar.
  The steam pressure transducer (MZ-PT-25) was reading about 0.3 bar low, so the controller kept heating
  until it "saw" 1.3 bar. That is why the front gauge sat at 1.6 bar, why the safety valve hissed under
  load, and why the machine logged E12 (the signal jumped when the faulty transducer flexed).
- I tested the safety valve (MZ-SV-20): it opened at 2.0 bar, inside the ±0.1 bar tolerance, so it did
  not need replacing.

Work done
- Replaced the pressure transducer with a new MZ-PT-25 from van stock. Display and reference gauge now
  agree within 0.02 bar.
- Updated the controller firmware from 2.4.0 to 2.4.1. The main fix in 2.4.1 is for machines with the
  old MZ-FLM-110 flowmeter, which yours does not have (it has MZ-FLM-120), but we keep every machine on
  the current release. P-21 is set to 120.
- Steam setpoint P-07 left at 1.3 bar, the factory default for the ARV-3.

Your questions
1. Warranty: the machine was commissioned on 26 March 2024, so it is inside both the 24-month parts
   warranty and the 12-month labour warranty. This visit is fully covered - no charge.
2. Safety: yes, it was safe to keep using it. The safety valve did exactly what it is there for, and
   switching the steam boiler off when it vented was the right call.
3. Clifton: yes, the Autosteam wand (MZ-OPT-AS) fits the ARV-2 at Clifton; it replaces the left steam
   wand. It is a chargeable option, and our office will send you a quote. The stop temperature is 65 °C
   as standard and can be set between 40 and 75 °C.

Going forward
- Please ask the baristas to compare the front gauge with the display once a week. If they differ by
  more than 0.1 bar, give us a call.
- I will drop by on Tuesday 10 December for a short follow-up check. Your next preventive maintenance
  (the 12-month tasks) is due in March 2025.

Best regards,
Marco

{SIG_MARCO}

{DISCLAIMER}"""

MSG3 = f"""Hi Marco,

Photo attached - the front gauge says 1.6 bar and the display says 1.3 bar at the same moment.

Two questions:
1. The machine was only installed at the end of March. Is this covered by the warranty?
2. Is it safe for us to keep using it until Wednesday? Yesterday the valve vented for about
   10 seconds, so we switched the steam boiler off for 20 minutes as you suggested and turned it back
   on for the afternoon.

Also, unrelated: could the Autosteam wand you showed us at the demo be fitted to the ARV-2 at our
Clifton shop?

Thanks,
Priya

{SIG_PRIYA}"""

MSG2 = f"""Hi Priya,

Thanks for the detailed description - I have logged it as SR-24-1187.

First, please do not try to adjust, block or tighten the safety valve. It is doing its job by
releasing pressure before the boiler reaches an unsafe level, and any tampering voids the warranty.

A front gauge reading clearly higher than the display, together with E12, points to the steam pressure
transducer rather than a wrong setpoint. Until I can come out: if the valve vents for more than a few
seconds, switch the steam boiler off from the barista menu (Settings > Boilers > Steam OFF). The groups
keep working for espresso.

I have booked a visit for Wednesday 16 October between 08:00 and 10:00. Could you send me a photo of
the front gauge and the display side by side?

Regards,
Marco

{SIG_MARCO}

{DISCLAIMER}"""

MSG1 = f"""Hello,

Our Arvina 3 at Wapping Wharf (serial A3-24-00098) has been running hot on the steam side since the
weekend. The gauge on the front sits at about 1.6 bar, the safety valve hisses when the lunch rush
starts, and the display showed E12 twice on Sunday. The display says firmware 2.4.0. The baristas say
the steam is very wet and aggressive.

Could someone come out? We are open 07:00 to 18:00, seven days a week.

Kind regards,

{SIG_PRIYA}"""


def quote(text, prefix="> "):
    return "\n".join((prefix + line).rstrip() for line in text.split("\n"))


H2 = "On Mon, 14 Oct 2024 at 11:40, Marco Ferretti <marco.ferretti@marzetti-tecnica.example> wrote:"
H1 = "On Mon, 14 Oct 2024 at 08:52, Priya Nair <priya.nair@harbourlanecoffee.example> wrote:"
H3 = "On Tue, 15 Oct 2024 at 07:58, Priya Nair <priya.nair@harbourlanecoffee.example> wrote:"

thread_msg2 = MSG2 + "\n\n" + H1 + "\n" + quote(MSG1)
thread_msg3 = MSG3 + "\n\n" + H2 + "\n" + quote(thread_msg2)
plain = TOP + "\n\n" + H3 + "\n" + quote(thread_msg3) + "\n"


def to_html(text):
    out, depth = [], 0
    for line in text.split("\n"):
        d = 0
        while line.startswith(">"):
            d += 1
            line = line[1:]
            if line.startswith(" "):
                line = line[1:]
        while depth < d:
            out.append('<blockquote type="cite" style="margin:0 0 0 .8ex;border-left:1px solid #ccc;padding-left:1ex">')
            depth += 1
        while depth > d:
            out.append("</blockquote>")
            depth -= 1
        out.append(html.escape(line) + "<br>" if line else "<br>")
    out += ["</blockquote>"] * depth
    return ('<html><head><meta charset="utf-8"></head>\n<body style="font-family:Calibri,Arial,sans-serif;font-size:11pt">\n'
            + "\n".join(out) + "\n</body></html>\n")


headers = """Return-Path: <marco.ferretti@marzetti-tecnica.example>
Message-ID: <20241017150512.4471.mf@marzetti-tecnica.example>
In-Reply-To: <CAHLC-20241015065801-pn@harbourlanecoffee.example>
References: <CAHLC-20241014075210-pn@harbourlanecoffee.example> <20241014104005.3318.mf@marzetti-tecnica.example> <CAHLC-20241015065801-pn@harbourlanecoffee.example>
Date: Thu, 17 Oct 2024 16:05:12 +0100
From: Marco Ferretti <marco.ferretti@marzetti-tecnica.example>
To: Priya Nair <priya.nair@harbourlanecoffee.example>
Cc: UK Service Desk <service.uk@marzetti-tecnica.example>
Subject: RE: Arvina 3 Wapping Wharf - steam pressure high, safety valve hissing [SR-24-1187]
MIME-Version: 1.0
X-Mailer: Microsoft Outlook 16.0
Content-Type: multipart/alternative; boundary="=_arv_b0undary_1187"
"""

body = (headers + "\nThis is a multi-part message in MIME format.\n\n"
        + "--=_arv_b0undary_1187\nContent-Type: text/plain; charset=\"utf-8\"\nContent-Transfer-Encoding: 8bit\n\n"
        + plain + "\n"
        + "--=_arv_b0undary_1187\nContent-Type: text/html; charset=\"utf-8\"\nContent-Transfer-Encoding: 8bit\n\n"
        + to_html(plain) + "\n"
        + "--=_arv_b0undary_1187--\n")

with open(OUT, "w", encoding="utf-8", newline="\r\n") as f:
    f.write(body)
print("wrote", OUT)
