"""Which-variant questions over a variant table: the variants whose cells hold what is asked, quoted with the rows."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.variants import asks_which_variant
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

TABLE = """Zephyr Gate variants
The Zephyr Gate family has three variants for different needs of each application.
Name | Zephyr Gate Lite | Zephyr Gate Serial | Zephyr Gate Air
SKU | ZG001 | ZG002 | ZG003
RS-485 | N/A | Half-duplex | Half-duplex
Wi-Fi | N/A | N/A | 802.11 b/g/n
Ethernet | 10/100BASE-T | 10/100BASE-T | 10/100BASE-T"""
MANUAL = """Zephyr Gate serial bus
Modbus RTU communication is supported using the Zephyr Gate's RS-485 physical interface."""


def _answer(question: str, replies: list[str] | None = None) -> tuple[str, str]:
    items = [ContextItem("chunk", text, 0.5, f"c{n}", f"d{n}", {"path": f"{n}.pdf", "title": "Zephyr Gate"})
             for n, text in enumerate((TABLE, MANUAL), 1)]
    context = Context(question=question, strategy="test", items=items, tokens=300, budget=2000)
    answer = generate_answer(FakeLLM(replies=replies or []), question, context, mode="auto", focus_tokens=300)
    return answer.text, str(answer.context.info.get("answer_path"))


def test_the_variants_whose_cell_is_filled_are_the_answer_with_the_row() -> None:
    text, path = _answer("Which Zephyr Gate variants can I use for Modbus RTU over RS-485?")
    assert path == "variant table"
    assert text.startswith("The Zephyr Gate Serial and the Zephyr Gate Air [1]. Name: RS-485; Zephyr Gate Lite: N/A;")
    assert "Zephyr Gate Lite [" not in text.split("Name:")[0]


def test_every_row_the_question_names_must_be_filled() -> None:
    text, path = _answer("Which Zephyr Gate variant has both RS-485 and Wi-Fi?")
    assert path == "variant table" and text.startswith("The Zephyr Gate Air [1].")
    assert "Name: RS-485;" in text and "Name: Wi-Fi;" in text  # both rows, so the user sees why


def test_a_row_every_variant_fills_singles_none_out() -> None:
    text, path = _answer("Which Zephyr Gate versions have Ethernet?", replies=["All three variants have Ethernet [1]."])
    assert path != "variant table"


def test_only_a_pick_among_variants_asks_for_the_table() -> None:
    assert asks_which_variant("Which Opta variant should I buy, and why not the others?")
    assert asks_which_variant("which of the three versions has Wi-Fi?")
    assert not asks_which_variant("Which connector carries RS-485 on the Zephyr Gate Serial?")
