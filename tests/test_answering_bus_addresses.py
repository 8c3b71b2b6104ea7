"""Whether two of one device can share a bus, decided by its address row: editable addresses say yes, a fixed
address says no, and a question about one device on its bus asks nothing of the kind."""

from __future__ import annotations

from conftest import offline_answer

TABLE = ("The Zephyr Tilt node acts as an I2C target device on the Qwiic bus.\n"
         "Board Silk Name | Sensor | Default I2C Address (HEX) | Editable Addresses (HEX)\n"
         "ZEPHYR TILT | QSM6DSO | 0x6A | {editable}\n")


def _answer(question: str, editable: str) -> tuple[str, str]:
    return offline_answer(question, TABLE.format(editable=editable), "Zephyr Tilt", "tilt.pdf")


def test_editable_addresses_let_two_devices_share_a_bus() -> None:
    text, path = _answer("Can I chain two Zephyr Tilt nodes on the same I2C bus?", "0x6A, 0x6B (via solder jumper)")
    assert path == "rating" and text.startswith("Yes. ") and "0x6B (via solder jumper)" in text.split("[1]")[0]


def test_a_fixed_address_keeps_two_devices_off_one_bus() -> None:
    text, path = _answer("Can I run two Zephyr Tilt nodes on one Qwiic bus?", "-")
    assert path == "rating" and text.startswith("No. ")


def test_one_device_on_its_bus_gets_no_such_verdict() -> None:
    text, _ = _answer("Does the Zephyr Tilt work on the Qwiic bus?", "0x6A, 0x6B (via solder jumper)")
    assert not text.startswith(("Yes.", "No."))
