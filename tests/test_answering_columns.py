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
