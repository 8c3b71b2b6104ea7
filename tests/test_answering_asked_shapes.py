"""Question shapes read as what they ask: "How often should it be calibrated?" asks an interval, "List the sensors
on the A" asks which sensors."""

from __future__ import annotations

from kgrag.answering.terms import analyse


def test_how_often_should_asks_an_interval_not_advice() -> None:
    assert analyse("How often should the ZX-400 be calibrated?").wants_value
    assert analyse("How long should the ZX-420 warm up before calibration?").wants_value
    assert not analyse("Should I calibrate the ZX-400 with the lid open?").wants_value  # advice, a yes/no
    assert not analyse("Why should the ZX-400 be calibrated?").wants_value


def test_a_request_for_a_list_of_a_kind_asks_which_ones() -> None:
    listed = analyse("List the sensors on the Zephyr Env")
    which = analyse("Which sensors does the Zephyr Env have?")
    assert listed.wants_name and listed.attributes == which.attributes == {"sensor"}
    assert listed.text == "List the sensors on the Zephyr Env"  # the question as written
    assert analyse("Name all interfaces of the Zephyr Env").wants_name
    steps = analyse("List the steps to update the firmware")  # a procedure, not a kind of thing
    assert not steps.wants_name and "step" in steps.attributes
