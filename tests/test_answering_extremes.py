"""Which column of a table holds the larger or largest value of the asked quantity, when the question names no sides."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.extremes import asked_extreme, column_values
from kgrag.answering.units import Unit
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

PUMPS = """1 Technical data
The QP dosing pumps come in two models, the QP-6 and the QP-12.

Parameter | QP-6 | QP-12
Maximum flow | 6 l/h | 12 l/h
Maximum back pressure | 10 bar | 7 bar
Stroke frequency | 0-180 strokes/min | 0-180 strokes/min
Power consumption | 18 W | 22 W"""


def _ask(question: str) -> str:
    item = ContextItem("chunk", PUMPS, 0.5, "c1", "d-c1", {"path": "c1.pdf", "title": "QP Dosing Pump Manual",
                                                           "section": "1 Technical data"})
    context = Context(question=question, strategy="test", items=[item], tokens=80, budget=2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300)  # no LLM call
    assert answer.context.info["answer_path"] == "comparison"
    return answer.text


def test_the_side_with_the_higher_or_lower_value_is_named_after_the_quoted_row() -> None:
    assert _ask("Which QP model has the higher back pressure?").endswith("[1]. QP-6: 10 bar, higher than QP-12 (7 bar).")
    assert _ask("Which QP pump has the highest flow?").endswith("QP-12: 12 l/h, the highest (QP-6: 6 l/h).")
    assert _ask("Which QP model uses less power?").endswith("QP-6: 18 W, less than QP-12 (22 W).")


def test_only_which_questions_over_rows_of_sides_with_one_value_each() -> None:
    assert asked_extreme("Which model has the higher back pressure?") == ("higher", {"back", "pressure"})
    assert asked_extreme("What is the highest flow of the QP-12?") is None  # a value of a named product
    assert asked_extreme("Which model is heavier?") == ("heavier", {"weight"})
    limits = Unit(1, 0, "Supply voltage | 3.0 V | 3.3 V | 3.6 V", "row", header="Parameter | Min | Typ | Max")
    assert column_values(limits) is None  # one product's limits, not sides
    ranged = Unit(1, 0, "Stroke frequency | 0-180 strokes/min | 0-180 strokes/min", "row", header="Parameter | A | B")
    assert column_values(ranged) is None  # a range has two ends
    cold = Unit(1, 0, "Lowest operating temperature | -40 °C | -20 °C", "row", header="Parameter | QP-6 | QP-12")
    assert column_values(cold) == [("QP-6", -40.0, "-40 °C"), ("QP-12", -20.0, "-20 °C")]  # signed: -40 is lower
