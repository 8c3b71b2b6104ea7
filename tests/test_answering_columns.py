"""A table setting two compared things side by side; a revision letter as part of a name; a use at a temperature."""

from __future__ import annotations

from kgrag.answering.aspects import label_terms
from kgrag.answering.columns import side_by_side
from kgrag.answering.select import focus_units
from kgrag.answering.terms import analyse
from kgrag.answering.units import block_units

CHANGES = ("Changes from Rev A\nParameter | Rev A | Rev B\nRadio | SX1276 | SX1262\nSleep current | 4.5 µA | 1.8 µA\n"
           "Enclosure | IP65 | IP67")


def test_a_revision_letter_is_part_of_the_name() -> None:
    q = analyse("Can our TS-30 Rev A nodes run in a freezer at −35 °C?")
    assert ["TS-30", "Rev", "A"] in q.phrases  # "A" after "Rev" is no article
    assert label_terms("Can our TS-30 Rev A nodes run in a freezer at −35 °C?") == ["operating", "temperature"]
    assert label_terms("What is the accuracy at 25 °C?") == []  # a condition of a spec, not a use at a temperature
    # a choice at a written temperature reads the same rating as a yes/no question does
    assert label_terms("At -30 °C, which would still work, the TS-30 or the TS-40?") == ["operating", "temperature"]


def test_a_table_of_the_two_compared_things_is_the_summary_of_their_differences() -> None:
    question = "Summarise what changed between hardware Rev A and Rev B."
    q = analyse(question)
    assert q.compares == [["Rev", "A"], ["Rev", "B"]]
    assert all(side_by_side(q.compares, u) for u in block_units(1, CHANGES) if u.kind == "row")
    texts = {1: "The Rev B node was introduced in 2023 and ships from the Tampere factory.\n\n"
                "Rev A and Rev B nodes can share one network.", 2: CHANGES}
    focus = focus_units(question, texts, {1: "FAQ", 2: "Datasheet"}, 120)
    top = {s.unit.text for s in focus.ranked[:3]}  # the rows first, before sentences naming both revisions
    assert top == {"Radio | SX1276 | SX1262", "Sleep current | 4.5 µA | 1.8 µA", "Enclosure | IP65 | IP67"}


def test_a_value_compared_with_another_products_is_the_row_setting_both_side_by_side() -> None:
    """"… of the RC-360 compared with the RC-340" compares two products; over "Parameter | RC-340 | RC-360" each cell
    is about both, so the row is quoted whole, not one product's value."""
    from kgrag.answer import generate_answer
    from kgrag.models.fake import FakeLLM
    from kgrag.types import Context, ContextItem

    question = "What is the maximum power consumption of the RC-360 compared with the RC-340?"
    assert analyse(question).compares == [["RC-360"], ["RC-340"]]
    data = ("3.1 Device data\nParameter | RC-340 | RC-360\nSupply voltage | 24 VAC/DC | 24 VAC/DC\n"
            "Power consumption (max.) | 4.5 W | 6.0 W\nWeight | 140 g | 210 g")
    context = Context(question=question, strategy="test", items=[ContextItem(
        "chunk", data, 0.5, "c1", "d-c1", {"title": "RC-340 / RC-360 Installation Manual"})], tokens=60, budget=2000)
    answer = generate_answer(FakeLLM(replies=["The RC-360 uses 6.0 W [1]."]), question, context, mode="auto",
                             focus_tokens=300)
    assert answer.context.info.get("answer_path") == "comparison", answer.text
    assert "Power consumption (max.); RC-340: 4.5 W; RC-360: 6.0 W [1]" in answer.text, answer.text
