"""Counts a small model gives: "the (maximum) number of X" asks a count as "how many X" does, and a count no source
writes as a count (only as "6 W", or as a heading's "6. Troubleshooting") is made up."""

from __future__ import annotations

from kgrag.answering.extract import states_value
from kgrag.answering.grounding import reply_problems, unsupported_counts
from kgrag.answering.numbers import number_uses
from kgrag.answering.terms import analyse
from kgrag.answering.units import block_units

MANUAL = "6. Troubleshooting\nParameter | Value\nPower consumption | 6 W typical, 9 W maximum\nIt has two RS-485 ports and 4 relays."


def test_the_number_of_a_thing_is_a_count_question_unless_it_names_a_number() -> None:
    assert analyse("what is the max number of modbus devices on the gw500").count_of == "device"
    assert analyse("What is the total number of relays on the board?").count_of == "relay"
    assert analyse("What is the part number of the cables?").count_of == ""  # a part number, no count


def test_a_count_no_source_writes_as_a_count_is_made_up() -> None:
    question = "How many Modbus devices can the GW-500 poll?"
    assert unsupported_counts(question, "The GW-500 has 6 modbus devices [1].", [MANUAL]) == ["6"]  # only "6 W", "6."
    assert unsupported_counts("How many relays does it have?", "It has 4 relays [1].", [MANUAL]) == []
    assert unsupported_counts("How many RS-485 ports?", "It has 2 RS-485 ports [1].", [MANUAL]) == []  # "two"
    assert "unsupported_values" in reply_problems(question, "The GW-500 has 6 modbus devices [1].", [("GW-500", MANUAL)])
    assert "6" not in number_uses("6. Troubleshooting\nSee the log.")  # a numbered heading holds no value


def test_a_number_that_numbers_a_row_or_a_thing_is_no_count() -> None:
    """A pin table's "10 | A10 | Analog input 10" numbers a pin and an input: "10 analog inputs" is made up; the
    table's own count ("16 analog inputs") and a count leading its thing are not."""
    pins = "Pin | Function | Description\n10 | A1 | Analog input 1\n19 | A10 | Analog input 10"
    question = "How many analog inputs does the board have?"
    assert unsupported_counts(question, "The board has 10 analog inputs [1].", [pins]) == ["10"]
    assert unsupported_counts(question, "It has 16 analog inputs [1].", [pins + "\nIt offers 16 analog inputs."]) == []
    assert unsupported_counts(question, "It has 16 analog inputs [1].", [pins + "\nAnalog inputs | 16"]) == []


def test_a_row_labelled_with_the_counted_thing_counts_it_by_times() -> None:
    """"serial ports | 2 × RS-485, 1 × RS-232" counts ports; "10x10 mm" is a size, not ten of anything."""
    from kgrag.answering.extract import states_count

    assert states_count("port", "serial ports | 2 × RS-485, 1 × RS-232")
    assert not states_count("port", "Ports | 10x10 mm") and not states_count("relay", "serial ports | 2 × RS-485")


def test_a_passage_naming_the_asked_product_with_its_hyphen_names_no_new_part() -> None:
    """"gw500" asks about the GW-500: a sentence naming it and no value states nothing asked."""
    unit = block_units(1, "The EdgeLink GW-500 is a DIN-rail gateway that collects data from Modbus devices.")[0]
    assert not states_value(analyse("what is the max number of modbus devices on the gw500"), unit)


def test_a_which_question_about_the_largest_number_of_things_asks_no_count() -> None:
    assert analyse("Which interface is used by the largest number of products?").count_of == ""


def test_a_sentence_only_about_the_sources_is_dropped_from_a_reply() -> None:
    """"The source number is [1]." and "The data is provided in [1]." say nothing about the product."""
    from kgrag.answering.tidy import tidy_reply

    assert tidy_reply("It costs 389.00 GBP [2]. The source number is [1].", False) == "It costs 389.00 GBP [2]."
    assert tidy_reply("It draws 0.67 mA [1]. The data is provided in [1] [1].", False) == "It draws 0.67 mA [1]."
    assert tidy_reply("The source number is [1].", False) == "The source number is [1]."  # nothing else said
    assert tidy_reply("See the pinout for the number of pins [1]. It has 14 pins [2].", False).startswith("See the")

