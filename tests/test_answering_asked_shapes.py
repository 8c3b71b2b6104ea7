"""Question shapes read as what they ask: "How often should it be calibrated?" asks an interval."""

from __future__ import annotations

from kgrag.answering.terms import analyse


def test_how_often_should_asks_an_interval_not_advice() -> None:
    assert analyse("How often should the ZX-400 be calibrated?").wants_value
    assert analyse("How long should the ZX-420 warm up before calibration?").wants_value
    assert not analyse("Should I calibrate the ZX-400 with the lid open?").wants_value  # advice, a yes/no
    assert not analyse("Why should the ZX-400 be calibrated?").wants_value
