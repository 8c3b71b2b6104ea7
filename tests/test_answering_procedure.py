"""A "How do I …?" question over a manual's numbered procedure is answered by the section's steps, in order."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.procedure import asked_task
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

MANUAL = """2 Installation
1. Mount the pump on a wall bracket at least 0.5 m above the tank.
2. Connect the suction line to the lower valve.

3 Priming the pump
1. Open the bleed valve by turning it one turn counter-clockwise.
2. Press and hold the PRIME key until liquid flows without bubbles.
3. Close the bleed valve.
Priming takes 30 to 60 seconds with an empty suction line.

5 Maintenance
Replace the diaphragm every 8,000 operating hours or once a year.

6 Factory reset
Hold the MENU key for 10 seconds until the display flashes. All settings return to their defaults.

7 Rollback procedure
1. Select Firmware > Roll back and load the rollback image.
2. Wait for the restart.

8 Calibration
Press CAL for 3 seconds with the suction hose in a measuring cylinder. Enter the volume drawn with the arrow keys."""


def _ask(question: str) -> tuple[str, str]:
    item = ContextItem("chunk", MANUAL, 0.5, "c1", "d-c1", {"path": "c1.md", "title": "QP-20 Dosing Pump Manual"})
    context = Context(question=question, strategy="test", items=[item], tokens=120, budget=2000)
    answer = generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), question, context,
                             mode="auto", focus_tokens=300)
    return answer.context.info.get("answer_path", ""), answer.text


def test_the_steps_under_the_heading_naming_the_task_are_quoted_in_order() -> None:
    path, text = _ask("How do I prime the pump?")
    assert path == "procedure", text
    first, second, third = (text.index(s) for s in ("1. Open the bleed", "2. Press and hold", "3. Close the bleed"))
    assert first < second < third and "30 to 60 seconds" in text and text.endswith("[1].")
    assert "Mount the pump" not in text  # another section's steps


def test_no_procedure_without_a_task_its_heading_names_or_without_steps() -> None:
    assert asked_task("How do I prime the pump?") == {"prime", "pump"}
    assert asked_task("What is the priming time?") == set()
    assert _ask("How do I replace the diaphragm?")[0] != "procedure"  # "Maintenance" names no replacing, no steps
    assert _ask("How do I flush the pump?")[0] != "procedure"


def test_a_task_typed_as_a_keyword_before_steps_is_asked_even_when_the_title_names_it() -> None:
    """"priming steps for the qp20", "pump installation procedure": the task typed before "steps" / "procedure";
    "pump" is in the manual's title, so only the other words must be in the heading, unless no other is asked."""
    assert asked_task("priming steps for the qp20") == {"priming"}
    path, text = _ask("priming steps for the qp20 pump")
    assert path == "procedure" and text.index("1. Open the bleed") < text.index("3. Close the bleed"), text
    path, text = _ask("pump installation procedure")
    assert path == "procedure" and "1. Mount the pump" in text and "bleed" not in text, text
    assert asked_task("the steps") == set()


def test_a_task_asked_after_the_users_situation_and_a_short_section_its_heading_names() -> None:
    """"The dial is stuck, how do I prime the pump?": the task follows the situation; "How do I reset the pump to
    factory defaults?": "6 Factory reset" names it in two of its words and says how in prose; one word
    ("Maintenance") names no task."""
    assert asked_task("The suction line ran dry, how do I prime the pump?") == {"prime", "pump"}
    path, text = _ask("The suction line ran dry, how do I prime the pump?")
    assert path == "procedure" and text.index("1. Open the bleed") < text.index("3. Close the bleed"), text
    path, text = _ask("How do I reset the pump to factory defaults?")
    assert path == "procedure" and "6 Factory reset: Hold the MENU key for 10 seconds" in text, text
    assert _ask("How do I service the pump during maintenance?")[0] != "procedure"  # "Maintenance": one word


def test_a_task_written_apart_meets_its_heading_written_joined_and_a_target_is_no_task_word() -> None:
    """"How do I roll back to 2.6.4?": "7 Rollback procedure" writes "roll back" as one word, and the release is
    where to, not what to do."""
    assert asked_task("How do I roll back to 2.6.4?") == {"roll", "back"}
    path, text = _ask("How do I roll back to 2.6.4?")
    assert path == "procedure" and "7 Rollback procedure: 1. Select Firmware > Roll back" in text, text


def test_a_one_word_heading_that_is_the_whole_task_is_its_procedure_in_prose() -> None:
    """"How do I calibrate the pump?" under "8 Calibration" (the pump is the manual's): the section says how in
    prose; "Maintenance" is still no answer to "service the pump during maintenance", which asks more."""
    path, text = _ask("How do I calibrate the pump?")
    assert path == "procedure" and "8 Calibration: Press CAL for 3 seconds" in text, text
    assert _ask("How do I service the pump during maintenance?")[0] != "procedure"
