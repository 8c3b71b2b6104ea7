"""Yes/no questions asking for two functions at once, decided by a note that they cannot run simultaneously, and the
question shapes that reach it: a leading phrase before the yes/no words, a product title made from a file name."""

from __future__ import annotations

from conftest import offline_answer
from kgrag.answering.asks import yes_no_wording
from kgrag.answering.names import title_names

TRACKER = ("The Zephyr Tracker is a cellular asset tracker.\nFeatures\nThe Zephyr Tracker reports positions from GPS, "
           "GLONASS and Galileo and sends them over LTE-M or NB-IoT.\nNote: GNSS and cellular services cannot be used "
           "simultaneously.\nA physical nano-SIM is required.")


def _answer(question: str) -> tuple[str, str]:
    return offline_answer(question, TRACKER, "Zephyr Tracker", "tracker.pdf")


def test_a_note_that_two_functions_cannot_run_at_once_decides_no() -> None:
    text, path = _answer("With the Zephyr Tracker, can I keep a GPS fix running while uploading over LTE-M at the "
                         "same time?")
    assert path == "rating" and text.startswith("No. ") and "cannot be used simultaneously [1]" in text
    text, path = _answer("Can the Zephyr Tracker send positions over NB-IoT?")  # not asked at once: no such verdict
    assert "simultaneously [1]" not in text.split(".")[0]


def test_a_yes_no_question_may_open_with_a_phrase() -> None:
    assert yes_no_wording("With the Zephyr Tracker, can I use GPS?")
    assert yes_no_wording("When powered from USB, does the Zephyr Tracker charge its battery?")
    assert not yes_no_wording("If I use the Zephyr Tracker, which SIM do I need?")
    assert not yes_no_wording("With the Zephyr Tracker, what SIM do I need?")


def test_a_title_from_a_file_name_names_the_product_written_with_a_slash_and_a_dot() -> None:
    assert title_names(["Portenta", "Cat", "M1/NB", "IoT", "GNSS", "Shield"], "Portenta Cat. M1_NB IoT GNSS Shield")
    assert not title_names(["Portenta", "Cat", "M1/NB", "IoT", "GNSS", "Shield"], "Portenta Cat. M1 GNSS Shield")
