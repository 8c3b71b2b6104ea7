"""A question naming a table row's key ("How fast is an express repair and what does it cost?"): the row is quoted,
whatever words its column names use ("Turnaround", "Charge"), without an LLM call."""

from __future__ import annotations

from conftest import offline_answer
from kgrag.answer import generate_answer
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

POLICY = ("Repair services\nService | Turnaround | Charge\n"
          "Standard repair (DPX-220, DPX-240) | 10 working days | Free under warranty, otherwise per quotation\n"
          "Express repair (DPX-220, DPX-240) | 3 working days | Surcharge EUR 180 per unit\n"
          "DPX-260 repair including Ex routine test | 15 working days | Express repair not available")


def _answer(question: str) -> tuple[str, str]:
    return offline_answer(question, POLICY, "Warranty and RMA Policy", "policy.html")


def test_the_row_a_question_names_is_quoted_with_its_cells() -> None:
    text, path = _answer("How fast is an express repair and what does it cost?")
    assert path == "extractive"
    assert text.startswith("Warranty and RMA Policy: Service: Express repair (DPX-220, DPX-240); Turnaround: 3 working "
                           "days; Charge: Surcharge EUR 180 per unit [1].")
    text, _ = _answer("what does a standard repair cost")
    assert "Standard repair (DPX-220, DPX-240); Turnaround: 10 working days" in text.split("[1]")[0]


def test_a_named_row_without_the_asked_quantity_is_no_answer() -> None:
    """"What air pressure does an express repair need?" asks a pressure the row does not state."""
    items = [ContextItem("chunk", POLICY, 0.5, "c1", "d1", {"path": "policy.html", "title": "Warranty and RMA Policy"})]
    question = "What air pressure does an express repair need?"
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), question, context, mode="auto",
                    focus_tokens=200)
    assert context.info.get("answer_path") != "extractive"


PARTS = ("Spare parts\nCategory | Part number | Description | List price (GBP) | Lead time (working days) | Notes\n"
         "Sensor cells | ZX-S-01 | Replacement CO sensor cell, 3-electrode | 142.00 | 5 | Expected life 3 years\n"
         "Spare parts | ZX-MB-C | Main board, revision C (service exchange) | 245.00 | 20 | Exchange only\n"
         "Spare parts | ZX-TB-01 | Terminal board with surge protection | 96.00 | 10 | -")


def test_a_parts_list_row_is_named_by_its_item_before_the_qualifiers() -> None:
    """"the lead time for a replacement main board": the row's description "Main board, revision C (service
    exchange)" names the item before its qualifiers, and its lead time is in working days, the column's unit."""
    from kgrag.answering.units import Unit
    from kgrag.answering.values import value_dimensions

    row = Unit(block=1, pos=0, kind="row", text="Spare parts | ZX-MB-C | Main board | 245.00 | 20 | -",
               header="Category | Part number | Description | List price (GBP) | Lead time (working days) | Notes")
    assert "20 days" in row.value_text() and "time" in value_dimensions(row.value_text())
    items = [ContextItem("chunk", PARTS, 0.5, "c1", "d1", {"path": "parts.xlsx", "title": "ZX parts and pricing"})]
    question = "what's the lead time for a replacement main board"
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=200)  # no LLM call
    assert context.info.get("answer_path") == "extractive"
    assert answer.text.split("[1]")[0].endswith("Lead time (working days): 20; Notes: Exchange only ")


def test_a_numbered_item_spelled_out_finds_the_row_of_its_letter_code() -> None:
    """"What does erratum 3 say?" over an errata table writing "E3": the E3 row, not the document's title line (which
    carries a version number and the names), nor the E1 row ranked above it."""
    from kgrag.answering.terms import analyse

    assert {"e3", "erratum"} <= analyse("what does erratum 3 on the Zephyr M4 say").attributes
    assert "e17" in analyse("What does error 17 mean?").attributes and "t85" not in analyse("temperature 85").attributes
    errata = ("ZEPHYR M4 MICROCONTROLLER - SILICON ERRATA Document ES-0042, version 5 (2026-02-11)\n"
              "Erratum | Title | Affected revisions | Fixed in\nE1 | ADC offset below -20 °C | A, B | C\n"
              "E3 | SPI clock glitch at 48 MHz | A, B, C | not fixed\nE4 | Flash write fails below 1.8 V | A, B, C | not fixed")
    items = [ContextItem("chunk", errata, 0.5, "c1", "d1", {"path": "errata.txt", "title": "Zephyr M4 errata"})]
    question = "what does erratum 3 on the Zephyr M4 say"
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=200)
    assert "E3; Title: SPI clock glitch at 48 MHz" in answer.text.split("[1]")[0], answer.text


def test_an_faqs_question_is_no_answer_and_takes_no_candidates_place() -> None:
    """"How long does the Zephyr Tag battery last?" over an FAQ: its question "How long does the battery last if I
    report every 5 minutes?" writes every asked word and a value, but it asks, it does not answer; the datasheet's
    "Battery life" row does."""
    faq = ("How long does the battery last if I report every 5 minutes?\n"
           "It depends on the spreading factor; see the datasheet.")
    sheet = ("Parameter | Value\nRadio | LoRaWAN 1.0.4\nReporting interval | 1 to 60 minutes\nBattery | 3.6 V Li-SOCl2\n"
             "Battery life | 7 years\nWeight | 85 g")
    items = [ContextItem("chunk", faq, 0.6, "c1", "d1", {"path": "faq.html", "title": "Zephyr Tag FAQ"}),
             ContextItem("chunk", sheet, 0.5, "c2", "d2", {"path": "tag.pdf", "title": "Zephyr Tag Datasheet"})]
    question = "How long does the Zephyr Tag battery last?"
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=200)
    assert "Battery life; Value: 7 years" in answer.text.split("\n")[0], answer.text
