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
