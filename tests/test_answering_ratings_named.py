"""One quantity, several ratings: a storage temperature is no operating temperature, an output voltage no input
voltage. The row rating another than the asked one is no extractive answer, and a reply giving its values under the
asked name is set aside."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.grounding import other_ratings
from kgrag.answering.values import asked_dimensions
from kgrag.answering.words import opposed_qualifier
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

RATINGS = ("The Zephyr Uno keeps its sketches in 32 kB of flash storage.\nRecommended Operating Conditions\nSymbol | Description | Min | Typ | Max | Unit\n"
           "T OP | Operating temperature | -20 | - | 80 | °C\nVIN | Input voltage from VIN pad | 4 | 5 | 20 | V")


def test_a_qualifier_of_a_pair_asked_and_only_the_other_written_is_another_rating() -> None:
    assert opposed_qualifier({"storage", "temperature"}, "T OP | Operating temperature | -20 | - | 80 | °C")
    assert not opposed_qualifier({"storage", "temperature"}, "Storage temperature | -40 | 85 | °C")
    assert not opposed_qualifier({"temperature"}, "Operating temperature | -20 | 80 | °C")  # no rating asked
    assert opposed_qualifier({"output", "voltage"}, "VIN | Input voltage from VIN pad | 4 | 5 | 20 | V")
    assert not opposed_qualifier({"storage", "temperature", "range"},  # "operation" qualifies no temperature here
                                 "Temperature range: -40 °C to +85 °C; test the board's operation in full temperature range")
    assert asked_dimensions({"storage", "temperature"}) == {"temperature"}  # a storage temperature is no memory


def _answer(question: str, text: str, reply: str) -> tuple[str, dict[str, object]]:
    items = [ContextItem("chunk", text, 0.5, "c1", "d1", {"path": "uno.pdf", "title": "Zephyr Uno"})]
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=[reply]), question, context, mode="auto", focus_tokens=200)
    return answer.text, context.info


def test_the_operating_temperature_is_no_answer_for_the_storage_temperature() -> None:
    reply = "The storage temperature of the Zephyr Uno is -20 to 80 °C [1]."
    text, info = _answer("What is the storage temperature of the Zephyr Uno?", RATINGS, reply)
    assert info.get("answer_path") != "extractive"  # the operating row is not quoted as the answer
    assert info.get("other_rating") and not text.startswith(reply[:30])  # the relabelled reply is set aside
    stored = RATINGS + "\nT ST | Storage temperature | -40 | - | 85 | °C"
    text, info = _answer("What is the storage temperature of the Zephyr Uno?", stored, "unused")
    assert info.get("answer_path") == "extractive" and "-40" in text.split("[1]")[0]


def test_a_reply_giving_another_ratings_values_under_the_asked_name_is_flagged() -> None:
    reply = "The storage temperature is -20 to 80 °C."
    assert other_ratings("What is the storage temperature?", reply, [RATINGS])
    assert not other_ratings("What is the operating temperature?", reply.replace("storage", "operating"), [RATINGS])
    assert not other_ratings("What is the storage temperature?", reply, [RATINGS + "\nStorage temperature: -20 to 80 °C"])
