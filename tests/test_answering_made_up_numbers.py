"""A port, register or code number no source writes is made up: "The default MQTT port is 8083" where the
configuration reference writes "mqtts://ingest.example:8883"."""

from __future__ import annotations

from kgrag.answering.grounding import made_up_numbers, reply_problems

CONFIG = ("Key | Default | Description\nendpoint | mqtts://ingest.example:8883 | Cloud ingest endpoint\n"
          "Register 40045 counts down from the interval. Replace the fan every 40,000 hours.")


def test_a_long_number_no_source_writes_is_made_up() -> None:
    assert made_up_numbers("The default MQTT port is 8083.", [CONFIG]) == ["8083"]
    assert made_up_numbers("The default MQTT port is 8883 [1].", [CONFIG]) == []  # inside the address
    assert made_up_numbers("Read register 40045 [1].", [CONFIG]) == []
    assert made_up_numbers("The fan lasts 40000 of them.", [CONFIG]) == []  # "40,000" written with its separator
    assert made_up_numbers("It reads 8083.5 ppm.", [CONFIG]) == []  # a value with its unit is checked as a value
    assert made_up_numbers("Use 2 of the 3 channels.", [CONFIG]) == []  # short numbers: counts, not identifiers


def test_a_made_up_port_is_a_problem_of_the_reply() -> None:
    problems = reply_problems("What is the default MQTT port?", "The default MQTT port is 8083 [1].",
                              [("Config reference", CONFIG)])
    assert "8083" in problems.get("unsupported_values", [])


def test_a_number_with_an_inch_mark_is_a_length_not_a_brightness() -> None:
    """'3.97" diagonal' is 3.97 inches: a reply "the screen gets 3.97 nits" states a brightness no source gives; a
    number in quotes ('mode "2"') is no length."""
    from kgrag.answering.grounding import unsupported_values

    display = ['The ZX-40 TFT panel has a 3.97" diagonal size and a 480 x 800 resolution.']
    assert unsupported_values("The screen gets 3.97 nits (cd/m²) [1].", display) == ["3.97"]
    assert unsupported_values("The panel is 3.97 inches across [1].", display) == []
    assert unsupported_values("The panel is 3.97 inches across [1].", ["A 3.97″ panel."]) == []  # the double prime
    assert unsupported_values("Set it to 2 V [1].", ['Set the mode to "2" first.']) == []  # a quoted value: bare
