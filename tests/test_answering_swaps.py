"""A reply sentence copied from one product's source with another product's name put in: set aside."""

from __future__ import annotations

from kgrag.answering.grounding import reply_problems
from kgrag.answering.swaps import swapped_subjects

SOURCES = [
    ("Zephyr Max R2", "The Zephyr Max R2 brings the power of the QX-900 to the classic form factor, being the first "
                      "board of the line to include onboard Wi-Fi and Bluetooth connectivity. It has 76 digital pins."),
    ("Zephyr Classic 2560", "The Zephyr Classic 2560 has 54 digital input/output pins and a 16 MHz crystal."),
]


def test_a_copied_sentence_under_another_products_name_is_found() -> None:
    reply = ("The Zephyr Classic 2560 brings the power of the QX-900 to the classic form factor, being the first board "
             "of the line to include onboard Wi-Fi and Bluetooth connectivity [1].")
    assert swapped_subjects(reply, SOURCES)
    assert "swapped_subject" in reply_problems("How many more pins does the Zephyr Max R2 have than the Zephyr "
                                               "Classic 2560?", reply, SOURCES)


def test_a_copy_under_its_own_name_or_a_sentence_of_its_own_is_no_swap() -> None:
    own = ("The Zephyr Max R2 brings the power of the QX-900 to the classic form factor, being the first board of the "
           "line to include onboard Wi-Fi and Bluetooth connectivity [1].")
    assert swapped_subjects(own, SOURCES) == []
    assert swapped_subjects("The Zephyr Classic 2560 has 54 digital pins and the Zephyr Max R2 has 76 [1][2].",
                            SOURCES) == []
    assert swapped_subjects(own.replace("Zephyr Max R2", "board"), SOURCES) == []  # a name dropped, none put in
    both = [*SOURCES, ("Zephyr Classic 2560", own.replace("Zephyr Max R2", "Zephyr Classic 2560"))]
    assert swapped_subjects(own.replace("Zephyr Max R2", "Zephyr Classic 2560"), both) == []  # its own source too
