"""A small model's correct reply is kept as the answer, not set aside for the closest passages: prices whose currency
is in a column header, dotted versions, a bare value the question does not write, remedies and "how long" questions;
and the passages after it carry what the reply left unsaid around its own words."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.grounding import lacks_asked_value, reply_problems, unsupported_designations, unsupported_values
from kgrag.answering.numbers import MONEY, number_uses
from kgrag.answering.on_topic import echoes
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

PARTS = ("Parts\nCategory | Part number | Description | List price (GBP) | Lead time (working days) | Notes\n"
         "Sensor cells | ZX-410-O2 | Replacement O2 cell | 118.00 | 5 | Expected life 2 years\n"
         " | ZX-440-IR | NDIR methane module | 389.00 | 15 | Factory calibrated")


def test_a_price_under_a_currency_column_backs_a_price_and_nothing_else() -> None:
    """"389.00" under "List price (GBP)" is a price: "389.00 GBP" is what the sources say, "389 mA" is not; the same
    for a label naming its unit in brackets ("List price (EUR): 1,250.00")."""
    uses = number_uses(PARTS)
    assert uses["389"] == {MONEY} and uses["118"] == {MONEY}
    assert uses["15"] == {"time@days"}  # "(working days)" names the column's unit: the lead time is in days
    short = number_uses(PARTS + "\n | ZX-CH4-50 | Methane test gas | 71.00 | 5")  # its empty last cell left out
    assert short["71"] == {MONEY}
    assert number_uses(PARTS + "\nSee the ordering guide.\n | ZX-9 | 64.00")["64"] == {""}  # prose ends the table
    assert unsupported_values("The ZX-440-IR costs 389.00 GBP and ships in 15 working days [1].", [PARTS]) == []
    assert unsupported_values("The ZX-440-IR draws 389 mA [1].", [PARTS]) == ["389"]
    assert unsupported_values("The ZX-440-IR ships in 15 weeks [1].", [PARTS]) == ["15"]  # days, not weeks
    label = "Spare kit. List price (EUR): 1,250.00; Supply current (mA): 12"
    assert number_uses(label)["1250"] == {MONEY} and number_uses(label)["12"] == {"current@mA"}
    assert unsupported_values("The kit costs €1,250 [1].", [label]) == []
    assert unsupported_values("The kit costs $12 [1].", [label]) == ["12"]


def test_a_bare_number_backs_a_unit_only_when_no_source_writes_it_with_another() -> None:
    """A reply's "20 mA" over a processor "running at up to 20 MHz" and a bare "Max = 20" borrows the clock's number;
    "180 µA" over "180 mA" is another scale. A number the sources only write bare (its unit in a header the table
    reader did not find) still backs the reply's unit."""
    board = "The main processor is an ATmega328P running at up to 20 MHz.\nVINMax, Max = 20\nPMax, Max = xx mA"
    assert unsupported_values("The board draws at most 20 mA [1].", [board]) == ["20"]
    assert unsupported_values("The processor runs at 20 MHz [1].", [board]) == []
    sleep = "Current consumption, fully active: 180 mA. Deep sleep: 86 µA. Measured over 180 cycles of the loop."
    assert unsupported_values("It draws 180 µA when fully active [1].", [sleep]) == ["180"]
    assert unsupported_values("It draws 180 mA when fully active and 86 µA asleep [1].", [sleep]) == []
    bare = "Output current | Min | Max\nPer channel | 4 | 25"
    assert unsupported_values("Each channel delivers up to 25 mA [1].", [bare]) == []


def test_a_dotted_version_is_backed_by_its_number_however_the_sources_name_it() -> None:
    """"version 3.1" where the changelog writes "Service Tool 3.1 or later"; a version no source writes ("version
    3.2") or a bare major ("version 3") is still made up."""
    source = "Firmware 2.6.0: images are signed. Service Tool 3.1 or later is required; Service Tool 3.0.x aborts."
    question = "Which Service Tool version is needed to load firmware 2.6.0?"
    ok = "The Service Tool version 3.1 or later is required to load 2.6.x images [1]."
    assert "unsupported_values" not in reply_problems(question, ok, [("Changelog", source)])
    assert reply_problems(question, "Service Tool version 3.2 is required [1].", [("Changelog", source)])[
        "unsupported_values"] == ["version 3.2"]
    assert reply_problems(question, "Service Tool version 3 is required [1].", [("Changelog", source)])[
        "unsupported_values"] == ["version 3"]


def test_a_bare_value_the_question_does_not_write_is_an_answer_not_an_echo() -> None:
    """"The factory Modbus address of the AS-200 is 7" gives a value; a reply of markers only, or cut inside one
    ("[1] [1"), still restates the question, and so does a number of the product's name."""
    question = "What is the factory Modbus address of the AS-200?"
    assert not echoes(question, "The factory Modbus address of the AS-200 is 7 [1].")
    assert not echoes("How many serial ports does the GW-500 have?", "The GW-500 has 2 serial ports [1].")
    assert echoes(question, "The factory Modbus address of the AS-200 is [1] [1]. [1")
    assert echoes(question, "The factory Modbus address of the AS-200 is [2].")  # its name's number is the question's


def test_a_remedy_or_a_duration_question_needs_no_other_value() -> None:
    """A question asking what to do about a value ("The conductivity value keeps rising. What can I do?") is answered
    by a remedy; "How long does the display show the firmware version?" by a time, not a version."""
    assert not lacks_asked_value("The conductivity value keeps rising. What can I do?",
                                 "The electrodes are fouled. Clean them with citric acid [2].")
    question = "How long does the display show the firmware version after power-up?"
    assert not lacks_asked_value(question, "It shows the firmware version for 3 seconds after power-up [1].")
    assert lacks_asked_value(question, "It shows the firmware version after power-up [1].")
    assert lacks_asked_value("What firmware version comes preloaded?", "The latest firmware comes preloaded [1].")
    lead = "what's the lead time for a replacement main board"  # a release number measures no time
    assert lacks_asked_value(lead, "The lead time for a replacement main board is revision C, which only runs "
                                   "firmware 2.4.0 or later [1].")
    assert lacks_asked_value(lead, "It depends on v3.1 of the service tool [1].")
    assert not lacks_asked_value(lead, "The lead time is 10 working days [1].")
    assert not lacks_asked_value("How long is the warm-up?", "About 2.5 [1].")  # a bare decimal may be the value


def test_a_version_family_is_no_designation() -> None:
    """"bootloader BL-3.x" names a family of versions the source writes, not a "BL 3" rating made up."""
    source = ["Rollback is not possible on controllers with bootloader BL-3.x."]
    assert unsupported_designations("Units with bootloader BL-3.x cannot roll back [1].", source) == []
    assert unsupported_designations("It is rated SIL 3 [1].", ["Rated SIL 2."]) == ["SIL 3"]


def test_a_kept_reply_is_followed_by_what_it_left_unsaid_around_its_own_words() -> None:
    """The reply copies one sentence of a changelog entry; the sentence before it (the reason asked) follows, and it
    takes no other passage's place."""
    entry = ("Changelog\n[2.6.0] - 2025-02-18: Firmware images are now signed with a new signature format. Service Tool "
             "3.1 or later is required to load 2.6.x images; Service Tool 3.0.x aborts the transfer at about 40 %.")
    other = "Firmware is loaded with the Service Tool over the USB service cable, part ZA-USB-02, on every model."
    items = [ContextItem(chunk_id="c1", text=entry, score=1.0, kind="chunk", source={"title": "Zeta firmware changelog"}),
             ContextItem(chunk_id="c2", text=other, score=0.9, kind="chunk", source={"title": "Zeta service manual"})]
    question = "Which Service Tool version is needed to load firmware 2.6.0, and why?"
    context = Context(question=question, strategy="test", items=items, tokens=80, budget=2000)
    reply = "Service Tool 3.1 or later is required to load 2.6.x images; Service Tool 3.0.x aborts at about 40 % [1]."
    answer = generate_answer(FakeLLM(replies=[reply]), question, context, mode="auto", focus_tokens=200, passages=1)
    head, _, tail = answer.text.partition("\n\nFrom the documents: ")
    assert head == reply and answer.grounded
    assert "Firmware images are now signed with a new signature format" in tail
    assert "USB service cable" in tail  # the one passage asked for still follows


def test_a_singular_time_unit_states_a_value() -> None:
    """"runs for 1 hour per charge" states a runtime as "8 hours" does: a small model made it up over sources giving
    only the battery's type and voltage, and the singular was read as no value at all. One unit, either number."""
    battery = "The robot is powered by a single 18650 Li-Ion battery (3.7 V)."
    assert unsupported_values("The robot runs for 1 hour per charge [1].", [battery]) == ["1"]
    assert unsupported_values("It runs for 1 hour [1].", ["Runtime: 1 h per charge."]) == []
    assert unsupported_values("The warranty is 1 year [1].", ["Warranty: 2 years."]) == ["1"]
    assert unsupported_values("It is rated 2 volt [1].", ["Input: 2 V"]) == []
