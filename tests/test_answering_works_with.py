"""Yes/no questions decided by a note in words: a feature another product rules out ("compatible with the B except
for the camera"), a denial of the asked value written for the board's I/Os when the question says "pin", and a
product written by its chip ("the QAM3X8E-based Due") or with its order code that is no unknown name."""

from __future__ import annotations

from conftest import offline_answer
from kgrag.answering.terms import analyse
from kgrag.answering.unknown_names import missing_names

SHIELD = ("The Zephyr Vision Shield adds a camera, a microphone and an Ethernet port to Zephyr boards.\n"
          "Note: the Zephyr Vision Shields (Ethernet and LoRa variants) are compatible with the Zephyr C30 except for "
          "the camera, which is not supported by the Zephyr C30 microcontroller.\nThe shield is powered from the host "
          "board's 3.3 V pins.\nThe Zephyr C30 board is not compatible with the onboard camera of the Zephyr Vision "
          "Shield.")


def test_a_note_ruling_out_the_asked_feature_with_the_other_product_decides_no() -> None:
    question = "Will the camera on the Zephyr Vision Shield work if I put the shield on a Zephyr C30?"
    text, path = offline_answer(question, SHIELD, "Zephyr Vision Shield", "shield.pdf")
    notes = "[1]".join(text.split("[1]")[:2])  # each note that rules it out, first
    assert path == "rating" and text.startswith("No. ") and "except for the camera" in notes
    assert "not compatible with the onboard camera" in notes


def test_a_feature_the_note_does_not_rule_out_gets_no_verdict_from_it() -> None:
    question = "Will the Ethernet on the Zephyr Vision Shield work if I put the shield on a Zephyr C30?"
    text, _ = offline_answer(question, SHIELD, "Zephyr Vision Shield", "shield.pdf")
    assert not text.startswith("No.")


def test_a_variant_named_by_its_last_word_and_a_feature_a_compound_names_are_ruled_out_too() -> None:
    """"camera-based object detection with a Zephyr C30 and the Zephyr Vision Shield LoRa": the note names "the Zephyr
    Vision Shields (Ethernet and LoRa variants)" and rules the camera out; a variant word the unit does not write
    (Zephyr Vision Shield Wave) is not that product."""
    question = ("I want to do camera-based object detection with a Zephyr C30 and the Zephyr Vision Shield LoRa. "
                "Will that work?")
    variants = SHIELD + "\nIt comes in two variants: the Zephyr Vision Shield Ethernet and the Zephyr Vision Shield LoRa."
    text, path = offline_answer(question, variants, "Zephyr Vision Shield LoRa", "shield.pdf")
    assert path == "rating" and text.startswith("No. ") and "except for the camera" in text.split("[1]")[0]
    from kgrag.answering.works_with import _names

    assert not _names(["Zephyr", "Vision", "Shield", "Wave"], SHIELD.lower())


BOARD = ("The Zephyr WiFi 1020 is a compact IoT board.\nNOTE: Zephyr WiFi 1020 only supports 3.3 V I/Os and is NOT 5 V "
         "tolerant.\n| Pin | Function | Type | Description |\n|---|---|---|---|\n| 28 | +5V | Power Out | +5V power rail |\n"
         "| 9 | D0 | Digital | GPIO, can be used as PWM |")


def test_a_denial_written_for_the_boards_ios_answers_a_question_about_a_digital_pin() -> None:
    question = "Is it OK to wire a 5 V sensor's output straight into a digital pin on the Zephyr WiFi 1020?"
    text, path = offline_answer(question, BOARD, "Zephyr WiFi 1020", "wifi.pdf")
    assert path == "rating" and text.startswith("No. ") and "NOT 5 V tolerant" in text.split("[1]")[0]


def test_a_board_written_by_its_chip_is_no_unknown_name() -> None:
    text = "the zephyr due is built around the qam3x8e arm cortex-m3 cpu."
    question = "Can the QAM3X8E-based Due take 5 V on its I/O pins?"
    assert missing_names(question, analyse(question), text, ["Zephyr Due"]) == []
    question = "Can the Due QAM3X8E take 5 V on its I/O pins?"  # a product named after its chip: still unknown
    assert missing_names(question, analyse(question), text, ["Zephyr Due"]) != []


def test_a_product_written_with_its_order_code_is_no_unknown_name() -> None:
    text = "the zephyr vision shield comes in two variants.\nethernet variant (sku: zsx00021)."
    question = "Is the Zephyr Vision Shield ZSX00021 the Ethernet variant?"
    assert missing_names(question, analyse(question), text, ["Zephyr Vision Shield"]) == []
    question = "Is the Zephyr Vision Shield ZSX00099 the Ethernet variant?"  # a code the documents do not write
    assert missing_names(question, analyse(question), text, ["Zephyr Vision Shield"]) != []
