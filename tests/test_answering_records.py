"""A question naming one record of a log ("ticket 4502") is answered from that record's paragraph only."""

from __future__ import annotations

from kgrag.answering.records import asked_records
from kgrag.answering.select import focus_units

LOG = """Support log — resolved tickets

Ticket 4411 — Problem: the gateway rebooted every three weeks. Cause: a memory leak in the Modbus driver. Resolution: \
upgraded the firmware to 4.1.

Ticket 4502 — Problem: meter values read as huge numbers. Cause: swapped word order of 32-bit floats. Resolution: set \
the register word order to little-endian in the device profile.

Ticket 4530 — Problem: TLS handshake error. Cause: an 8192-bit RSA key. Resolution: the customer issued a 4096-bit key."""

MANUAL = """Troubleshooting
Modbus devices time out. Increase the poll interval and check the termination resistor."""


def test_a_question_names_a_record_by_a_word_and_a_number_not_by_a_quantity() -> None:
    assert asked_records("How was ticket 4502 resolved?") == [("ticket", "4502")]
    assert asked_records("What does alarm E17 indicate?") == [("alarm", "E17")]
    assert asked_records("Can it measure from 300 to 1100 hPa?") == []
    assert asked_records("Can it measure 300 hPa?") == []
    assert asked_records("What is the 24 V output of the Nano 33?") == []
    assert asked_records("Which interface was removed in firmware 4.0?") == [("firmware", "4.0")]
    assert asked_records("Does it support Bluetooth 5.0?") == []  # no release: a board may have another version


def test_the_focus_keeps_the_asked_record_and_drops_the_logs_other_records() -> None:
    """The other tickets read alike ("Resolution: upgraded …"): a small model given them answers with the wrong one."""
    focus = focus_units("How was ticket 4502 resolved?", {1: LOG, 2: MANUAL}, {1: "Support log", 2: "Manual"}, 600)
    text = "\n".join(focus.blocks_text().values())
    assert "little-endian" in text and "Ticket 4502" in text
    assert "4411" not in text and "upgraded the firmware" not in text and "4096-bit" not in text
    both = focus_units("Compare ticket 4411 and ticket 4502.", {1: LOG}, {1: "Support log"}, 600)
    assert "upgraded the firmware" in "\n".join(both.blocks_text().values())  # two records asked: both kept
    unknown = focus_units("How was ticket 9999 resolved?", {1: LOG}, {1: "Support log"}, 600)
    assert "4411" in "\n".join(unknown.blocks_text().values())  # the asked record is not there: nothing dropped


NOTES = """Firmware 4.1
- Fixed a memory leak in the Modbus TCP driver.

Firmware 4.0
- Removed support for the legacy HTTP push interface.

Firmware 3.8
- Added support for the LTE module."""


def test_a_question_on_one_release_reads_that_release_notes_section() -> None:
    focus = focus_units("Which interface was removed in firmware 4.0?", {1: NOTES}, {1: "Release notes"}, 600)
    text = "\n".join(focus.blocks_text().values())
    assert "legacy HTTP push" in text and "memory leak" not in text and "LTE" not in text


LOG_BY_CUSTOMER = """Ticket 4411 — Customer: Hydro Nord. Problem: reboots. Resolution: upgraded the firmware to 4.1.

Ticket 4588 — Customer: Vela Logistics. Problem: ERR LED blinking red. Resolution: buffer raised to 2048 MB.

Ticket 4530 — Customer: Cerro Mining. Problem: TLS handshake error. Resolution: a 4096-bit key."""


def test_a_record_named_by_what_only_it_names_is_read_alone() -> None:
    """"What was the resolution … at Vela Logistics?" names no ticket number, but only ticket 4588 names Vela Logistics: the log's
    other records (paragraphs opening with "Ticket" and a number) leave the focus. A name in several records keeps all."""
    focus = focus_units("What was the resolution of the problem at Vela Logistics?", {1: LOG_BY_CUSTOMER},
                        {1: "Support log"}, 600)
    text = "\n".join(focus.blocks_text().values())
    assert "2048 MB" in text and "Hydro Nord" not in text and "Cerro Mining" not in text
    every = focus_units("Which customers upgraded the firmware of the Hydro Nord or Cerro Mining gateways?",
                        {1: LOG_BY_CUSTOMER}, {1: "Support log"}, 600)
    assert "Cerro Mining" in "\n".join(every.blocks_text().values())
