"""A yes/no question writing one release is decided by the bound a passage about the asked feature gives."""

from __future__ import annotations

from kgrag.answering.releases import release_verdict, version_key
from kgrag.answering.select import focus_units
from kgrag.answering.suits import try_suits
from kgrag.answering.terms import analyse

SPEC = ("Serial interface\nSupported baud rates are 9600, 19200, 38400 and 57600 baud (57600 baud from firmware 2.5.0). "
        "Maximum bus length is 1200 m at 19200 baud.")
SERVICE = ("Service\nRev C main boards cannot be downgraded below 2.4.0. Firmware is loaded with the Service Tool over "
           "the USB cable.")
FORUM = "Forum\nWe upgraded three controllers (HW rev C) from 2.6.4 to 3.1.2 last night with the Configurator."
TITLES = {1: "Zeta ZX-400 specification", 2: "Zeta ZX-400 service notes", 3: "Zeta community forum"}


def _verdict(question: str) -> tuple[str, str] | None:
    ranked = focus_units(question, {1: SPEC, 2: SERVICE, 3: FORUM}, TITLES, 400).ranked
    found = release_verdict(analyse(question), ranked)
    return None if found is None else (found[0], found[2])


def test_a_release_before_the_one_a_feature_needs_is_a_no_and_after_it_a_yes() -> None:
    assert _verdict("can i set 57600 baud on fw 2.4.3") == ("No.", "2.4.3 is before 2.5.0")
    assert _verdict("Can I use 57600 baud with firmware 2.6.1?") == ("Yes.", "2.6.1 is at or after 2.5.0")
    assert version_key("2.5") == version_key("2.5.0") < version_key("2.10.1")


def test_nothing_below_a_release_decides_only_the_releases_below_it() -> None:
    assert _verdict("A rev C board came back from repair. Can it be downgraded to 2.3.1?") == (
        "No.", "2.3.1 is before 2.4.0")
    assert _verdict("Can a rev C board be downgraded to 2.4.2?") is None  # not below: the passage does not say yes


def test_no_verdict_from_an_upgrades_path_two_releases_or_another_feature() -> None:
    assert _verdict("Can a rev B controller be upgraded to firmware 3.1.2?") is None  # "from 2.6.4 to 3.1.2": a path
    assert _verdict("Can firmware 2.4.3 be loaded with Service Tool 3.0.4?") is None  # two releases written
    assert _verdict("Does firmware 2.4.3 measure the bus length?") is None  # no bound near "bus length"
    assert _verdict("Which baud rates does firmware 2.4.3 support?") is None  # no yes/no question


def test_the_verdict_quotes_the_deciding_passage_and_says_how_the_releases_stand() -> None:
    question = "can i set 57600 baud on fw 2.4.3"
    ranked = focus_units(question, {1: SPEC, 2: SERVICE, 3: FORUM}, TITLES, 400).ranked
    answer = try_suits(analyse(question), ranked, TITLES)
    assert answer is not None and answer.startswith("No. Zeta ZX-400 specification: ")
    assert "(57600 baud from firmware 2.5.0) [1]. 2.4.3 is before 2.5.0 [1]." in answer


NOTES = """Firmware 4.1 (2026-09-14)
- Added OPC UA client support.
- The default MQTT QoS is now 1 (it was 0)

Firmware 4.1.2 (2026-10-01)
- Fixed the web login on Safari.

Firmware 4.0 (2026-05-02)
- Removed the RS-232 port."""


def test_what_changed_in_a_release_is_its_sections_lines() -> None:
    """"What changed in firmware 4.1?" quotes the lines under "Firmware 4.1 (…)", in order and told apart, not
    4.1.2's; a question asking a thing ("Which customer was affected by the bug fixed in 4.1?") or no release does not."""
    from kgrag.answering.releases import try_release_notes

    titles = {1: "Zeta release notes"}

    def notes(question: str) -> str | None:
        ranked = focus_units(question, {1: NOTES}, titles, 400).ranked
        return try_release_notes(analyse(question), ranked, titles)

    assert notes("What changed in firmware 4.1?") == (
        "Zeta release notes – Firmware 4.1 (2026-09-14): - Added OPC UA client support. - The default MQTT QoS is now "
        "1 (it was 0) [1].")
    assert notes("Summarise what firmware 4.0 changed.") == (
        "Zeta release notes – Firmware 4.0 (2026-05-02): - Removed the RS-232 port [1].")
    assert notes("Which customer was affected by the bug fixed in firmware 4.1?") is None
    assert notes("What changed in the latest firmware?") is None
    assert notes("Did firmware 4.1 change the QoS?") is None  # yes/no: the verdict paths read it
    from kgrag.answering.releases import _listed

    assert _listed(["Fault current now 3.6 mA", "New 57600 baud rate.", "Free upgrade"]) == (
        "Fault current now 3.6 mA; New 57600 baud rate. Free upgrade")  # a slide's lines told apart
