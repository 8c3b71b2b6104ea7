"""A record's labelled line ("Workaround: …") answers "What is the workaround for …?" for the record it names."""

from __future__ import annotations

from kgrag.answering.labelled import try_labelled
from kgrag.answering.select import focus_units
from kgrag.answering.terms import analyse

ERRATA = ("E1 - ADC offset below -20 °C\n\n"
          "Description: Below -20 °C the ADC reads up to 8 LSB too high. Workaround: Run the offset calibration "
          "after every power-up.\n\n"
          "E2 - Flash write fails below 1.8 V\n\n"
          "Description: Writing to flash can fail when the supply is below 1.8 V. Workaround: Check the supply with "
          "the brown-out detector first. Then verify the written data.\n\n"
          "E3 - SPI clock glitch\n\n"
          "Description: A glitch can appear on SCK. Workaround: Limit the SPI clock to 24 MHz.")
TITLE = "QX-9 silicon errata"


def _answer(question: str) -> str | None:
    ranked = focus_units(question, {1: ERRATA}, {1: TITLE}, 400).ranked
    return try_labelled(analyse(question), ranked, {1: TITLE})


def test_the_named_records_labelled_line_is_quoted_with_the_records_title() -> None:
    """The label may follow a sentence the splitter kept whole ("… below 1.8 V. Workaround: …"); the sentences
    after it, up to the next label, belong to it."""
    assert _answer("What is the workaround for the ADC offset erratum?") == (
        "QX-9 silicon errata – E1 - ADC offset below -20 °C: Workaround: Run the offset calibration after every "
        "power-up [1].")
    assert _answer("What is the workaround for erratum E2?") == (
        "QX-9 silicon errata – E2 - Flash write fails below 1.8 V: Workaround: Check the supply with the brown-out "
        "detector first. Then verify the written data [1].")


def test_no_labelled_answer_when_the_record_is_not_singled_out_or_no_line_has_the_label() -> None:
    assert _answer("What is the workaround for erratum E7?") is None  # no record writes E7
    assert _answer("What is the workaround?") is None  # every record has one
    assert _answer("What is the cause of the SPI clock glitch?") is None  # no "Cause:" line


LOG = ("Support log\n\n"
       "Ticket 4530 - Customer: Cerro Mining. Problem: TLS connection to the broker failed. Cause: the broker "
       "certificate used an 8192-bit RSA key. Fix: a 4096-bit key.\n\n"
       "Ticket 4411 - Customer: Hydro Nord. Problem: the gateway rebooted every three weeks. Cause: a memory leak in "
       "the Modbus driver. Fix: firmware 4.1.")


def test_why_a_record_happened_is_its_cause_line_and_its_title_is_said_once() -> None:
    """"Why did the TLS connection fail for Cerro Mining?" is answered by that ticket's "Cause:" line; a why
    question no record's words single out is not; a record whose title line is the document's title leads once."""
    titles = {1: "Support log"}

    def answer(question: str) -> str | None:
        ranked = focus_units(question, {1: LOG}, titles, 400).ranked
        return try_labelled(analyse(question), ranked, titles)

    assert answer("Why did the TLS connection fail for Cerro Mining?") == (
        "Support log: Cause: the broker certificate used an 8192-bit RSA key [1].")
    assert answer("Why did the gateway reboot at Hydro Nord?") == (
        "Support log: Cause: a memory leak in the Modbus driver [1].")
    assert answer("Why did it fail?") is None  # every record has a cause
    assert _answer("Why is the ADC offset high below -20 °C?") is None  # the errata write no "Cause:" line
