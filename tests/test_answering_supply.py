"""A supply rating as datasheets write it: a range with dots ("12...24 VDC"), in a product view's "Item | Feature"
table whose item labels ("3A") are no currents, asked for in a user's words ("Can it be powered with 24V AC?")."""

from __future__ import annotations

from kgrag.answering.aspects import label_terms
from kgrag.answering.select import focus_units
from kgrag.answering.units import Unit
from kgrag.answering.values import value_dimensions

VIEW = ("Zephyr Hub Product View\nItem | Feature | Item | Feature\n"
        "3A | Power Supply Terminals 12...24 VDC | 3H | Ethernet Port Status LEDs\n"
        "3B | I1...I8 digital/analog input terminals (0-10V) | 3I | Label Holder\n"
        "3F | Relay Output Terminals 1...4, NO contact (SPST) 10A 250 VAC | 3N | Port for expansion modules")
RELAYS = ("The Zephyr Hub has four relays which switch loads at a rated voltage of 250 VAC and up to a maximum "
          "switching voltage of 400 VAC. With 24V, the switched current must be at least 12.5mA.")


def test_a_range_written_with_dots_is_of_its_units_quantity() -> None:
    assert value_dimensions("Power Supply Terminals 12...24 VDC") == {"voltage"}
    assert value_dimensions("Operating range 1.7...3.6 V") == {"voltage"}
    assert value_dimensions("-40...+85 °C") == {"temperature"}


def test_an_item_label_of_a_product_view_is_no_value() -> None:
    row = Unit(block=1, pos=0, kind="row", text="3A | Power Supply Terminals 12...24 VDC | 3H | Ethernet Port Status LEDs",
               header="Item | Feature | Item | Feature")
    assert value_dimensions(row.value_text()) == {"voltage"}  # "3A" and "3H" name items, not 3 amperes
    fuse = Unit(block=1, pos=0, kind="row", text="F1 | 3A", header="Fuse | Rating")
    assert value_dimensions(fuse.value_text()) == {"current"}  # a rating column's "3A" still is a current


def test_a_voltage_to_power_it_with_asks_its_supply_rating() -> None:
    assert label_terms("Can the Zephyr Hub be powered with 24V AC?") == ["supply", "voltage"]
    assert label_terms("Can I power it from 5 V?") == ["supply", "voltage"]
    assert label_terms("Which MCU is the Zephyr Hub powered by?") == []  # a part it is built on, not a supply
    assert label_terms("Is the Zephyr Hub powered by an STM32?") == []
    question = "Can the Zephyr Hub be powered with 24V AC?"
    titles = {1: "Zephyr Hub", 2: "Zephyr Hub"}
    ranked = focus_units(question, {1: VIEW, 2: RELAYS}, {1: "Zephyr Hub 5 Functional Overview",
                                                        2: "Zephyr Hub 5.9 Relay Outputs"}, 200, titles=titles).ranked
    top = [s.unit.text for s in ranked[:2]]  # the relays' rated voltage shares its words; the supply row follows it
    assert any(t.startswith("3A | Power Supply Terminals 12...24 VDC") for t in top)


def _answer(question: str) -> tuple[str, str]:
    from kgrag.answer import generate_answer
    from kgrag.models.fake import FakeLLM
    from kgrag.types import Context, ContextItem

    meta = {"path": "zephyr_hub.pdf", "title": "Zephyr Hub"}
    items = [ContextItem("chunk", VIEW, 0.5, "c1", "d1", meta), ContextItem("chunk", RELAYS, 0.4, "c2", "d1", meta)]
    context = Context(question=question, strategy="test", items=items, tokens=300, budget=2000)
    answer = generate_answer(FakeLLM(replies=["Yes, it can."]), question, context, mode="auto", focus_tokens=300)
    return answer.text, str(context.info.get("answer_path"))


def test_a_supply_rated_for_dc_is_no_ac_supply() -> None:
    """"24V AC" lies inside "12...24 VDC" by number, but not by kind; the relays' 250 VAC rates what they switch."""
    text, path = _answer("Can the Zephyr Hub be powered with 24V AC?")
    assert path == "rating" and text.startswith("No. ")
    assert "12...24 VDC" in text.split("[1]")[0] and "This rating is DC, not AC [1]." in text
    text, _ = _answer("Can the Zephyr Hub be powered with 24 V DC?")
    assert not text.startswith("No.")  # the asked kind is the rated one


def test_a_cells_last_number_takes_no_unit_from_the_next_cell() -> None:
    pins = Unit(block=1, pos=0, kind="row", text="1,3,5,7,9 | V BAT | Power | Gated voltage battery for wake up",
                header="Pin | Function | Type | Description")
    assert value_dimensions(pins.value_text()) == set()  # pins 1 to 9 and a "V BAT" function: no 9 V
    rated = Unit(block=1, pos=0, kind="row", text="Input voltage | 6 | 7 | 36 | V", header="Name | Min | Typ | Max | Unit")
    assert value_dimensions(rated.value_text()) == {"voltage"}  # a unit cell still gives each number its unit
