"""What a question asks: the words saying what a named model is ("the VM-5 vibration monitor") are not asked of it,
and an acronym it asks ("What MTBF …") must be written by the passage that answers."""

from __future__ import annotations

from kgrag.answering.grounding import reply_problems
from kgrag.answering.terms import analyse


def test_the_words_saying_what_a_named_model_is_are_not_asked() -> None:
    """"the VM-5 vibration monitor": every passage of its datasheet says "Vibration Monitor", so those words would make
    any of its rows look like an answer; a gas ("the h2s unit") or a part's kind ("the TMP117 sensor") stays asked."""
    assert analyse("What MTBF does Lumisk specify for the VM-5 vibration monitor?").attributes == {"mtbf", "specify"}
    assert analyse("What is the operating temperature of the TS-30 temperature node?").attributes == {
        "operating", "temperature"}
    assert "unit" in analyse("what rma did support give for the blackmoor h2s unit").attributes
    assert "sensor" in analyse("Which products use the TMP117 sensor?").attributes


def test_an_acronym_asked_that_no_source_writes_is_not_answered() -> None:
    """"What MTBF …" over passages that never write MTBF: no quote answers it and a model's reply is set aside;
    "RMA-24-0873" writes "RMA"."""
    from kgrag.answering.extract import try_extract
    from kgrag.answering.grounding import acronyms_unstated
    from kgrag.answering.select import focus_units

    question = "What MTBF does Zephyr specify for the ZX-5 monitor?"
    rows = "Parameter | Value\nFrequency range | 2 Hz - 1 kHz\nSampling rate | 4 kHz per axis"
    focus = focus_units(question, {1: rows}, {1: "ZX-5 Datasheet"}, 300, None, {1: "ZX-5 Monitor Datasheet"})
    assert try_extract(analyse(question), focus.ranked, {1: "ZX-5 Monitor Datasheet"}) is None
    assert acronyms_unstated(question, [rows]) == ["mtbf"]
    assert acronyms_unstated(question, [rows + "\nMTBF | 200,000 h"]) == []
    assert acronyms_unstated("what rma did support give?", ["Returned under RMA-24-0873."]) == []
    assert "acronym_unstated" in reply_problems(question, "The MTBF of the ZX-5 is 4 kHz [1].", [("ZX-5", rows)])


def test_an_acronym_between_the_and_of_is_what_is_asked() -> None:
    """"What is the MTBF of the VM-5?": the acronym is what is asked of the VM-5, not a second name."""
    q = analyse("What is the MTBF of the VM-5?")
    assert q.names == ["VM-5"] and q.attributes == {"mtbf"}
    assert analyse("What is the ADC resolution of the Nano?").names == ["ADC", "Nano"]  # not right before "of"
