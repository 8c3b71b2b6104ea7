"""Power-budget questions: a supply's capacity the question writes against the largest draw the product's passages
state; "No." when the product draws more, never a rating verdict that reads the capacity as a rating to meet."""

from __future__ import annotations

from conftest import offline_answer
from kgrag.answering.budget import supplied_current

STRIP = ("The Zephyr Strip is an LED node.\nPower\nUp to 40 mA per RGB LED at full brightness * 6 LEDs (240 mA total), "
         "plus ~3 mA for the microcontroller.\nSpecifications\nParameter | Value\nPower consumption | ~60 mA")


def _answer(question: str) -> tuple[str, str]:
    return offline_answer(question, STRIP, "Zephyr Strip", "strip.pdf")


def test_a_product_drawing_more_than_the_supply_gives_is_a_no() -> None:
    text, path = _answer("My port can supply about 150 mA. Is that enough to run the Zephyr Strip at full brightness?")
    assert path == "rating" and text.startswith("No. ") and "240 mA total" in text
    assert "It draws more than the 150 mA available [1]." in text


def test_a_supply_larger_than_the_draw_gets_no_verdict_from_a_smaller_rating() -> None:
    text, path = _answer("My USB port can supply 900 mA. Is that enough to power the Zephyr Strip?")
    assert path != "rating" and not text.startswith("No.")  # 900 mA is no rating the strip's ~60 mA misses
    assert supplied_current("My USB port can supply 900 mA. Is that enough?") == (0.9, "900 mA")
    assert supplied_current("It draws 900 mA. Is that a lot?") is None  # a draw, not a supply, and no "enough"
