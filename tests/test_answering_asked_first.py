"""A question of several sentences whose asked one refers to the product an earlier one names is read from the asked
sentence, its "on it" named, the sentences before it after it; a sentence after it stays if it writes a value."""

from __future__ import annotations

from conftest import offline_answer
from kgrag.answering.asked_first import asked_first


def test_the_asked_sentence_comes_first_with_its_product_named() -> None:
    assert asked_first("I have the Zephyr Mini Rev2. Which IMU chips are on it? I know the older one differs.") == (
        "Which IMU chips are on the Zephyr Mini Rev2? I have the Zephyr Mini Rev2.")  # a remark after it: left out
    assert asked_first("Our rig runs on a Zephyr Mega 2560. How much EEPROM does that board have?") == (
        "How much EEPROM does the Zephyr Mega 2560 have? Our rig runs on a Zephyr Mega 2560.")
    assert asked_first("We bought a Zephyr Mini. What is its VIN range? Our host runs at 1.8 V.") == (
        "What is the Zephyr Mini's VIN range? We bought a Zephyr Mini. Our host runs at 1.8 V.")  # a value stays


def test_a_question_naming_its_product_or_referring_to_none_is_read_as_written() -> None:
    for question in ("My sensor outputs 5 V logic. Can I wire it into a pin on the Zephyr Mini?",  # named
                     "We bought a Zephyr Mini Rev2. Will that channel handle it?",  # "handle it" is no product
                     "We compare the Zephyr Mega and the Zephyr Giga. What is on it?",  # two products before
                     "Which IMU is on the Zephyr Mini?",
                     "Does the Zephyr Mini have Wi-Fi? And which IMU does it use?"):  # two questions
        assert asked_first(question) == question


def test_a_question_after_a_sentence_naming_its_product_is_quoted() -> None:
    text = "The Zephyr Mini Rev2 provides IMU capabilities through a combination of the QMI270 and QMM150 ICs."
    question = "I have the Zephyr Mini Rev2. Which IMU chips are on it? I know the older version used something else."
    answer, path = offline_answer(question, text, "Zephyr Mini Rev2", "mini.pdf")
    assert path == "extractive" and "QMI270 and QMM150" in answer.split("[1]")[0]
