"""What to do about a problem is the Resolution of the record that describes it, not the passages its words find."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.asks import asks_remedy
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

CLOCK = """KB-1071 Clock resets to 2000-01-01 after a power outage
Applies to: all RC-3xx models.

Symptoms
After power is restored, the controller time shows 2000-01-01 and schedules run at the wrong time.

Cause
The backup battery of the real-time clock is empty.

Resolution
1. Check the event log for E-BAT-LOW.
2. Replace the battery with part number NB-BAT-2032.
3. Set ntp_server so the time is restored automatically."""

CO2 = """KB-1042 CO2 value stuck near 400 ppm
Symptoms
The CO2 value stays near 400 ppm in an occupied room after a power outage.

Resolution
1. Upgrade the controller to firmware 3.1.0 or later."""


def _ask(question: str, *texts: tuple[str, str]) -> tuple[str, str]:
    items = [ContextItem("chunk", text, 0.5, f"c{i}", f"d-c{i}", {"title": "Knowledge Base", "section": section})
             for i, (section, text) in enumerate(texts, 1)]
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=["The battery is empty [1]."]), question, context, mode="auto",
                             focus_tokens=400)
    return answer.context.info.get("answer_path", ""), answer.text


def test_the_resolution_of_the_record_describing_the_problem_answers_what_to_do() -> None:
    question = "The controller clock shows 2000-01-01 after a power outage. What should I do?"
    path, text = _ask(question, ("KB-1071 Clock resets to 2000-01-01 after a power outage", CLOCK),
                      ("KB-1042 CO2 value stuck near 400 ppm", CO2))
    assert path == "remedy", text
    assert text.startswith("Knowledge Base – KB-1071 Clock resets to 2000-01-01 after a power outage: Resolution: "
                           "1. Check the event log for E-BAT-LOW. 2. Replace the battery"), text
    assert "Upgrade the controller" not in text  # the other record's remedy


def test_why_and_what_to_do_is_the_records_cause_then_its_resolution() -> None:
    question = "After a power outage the controller clock shows 2000-01-01. Why, and what can be done?"
    path, text = _ask(question, ("KB-1071 Clock resets to 2000-01-01 after a power outage", CLOCK))
    assert path == "remedy", text
    assert ": Cause: The backup battery of the real-time clock is empty [1]. Resolution: 1. Check" in text, text


def test_why_a_problem_happens_is_the_cause_of_the_record_describing_it() -> None:
    path, text = _ask("Why does the controller clock show 2000-01-01 after a power outage?",
                      ("KB-1071 Clock resets to 2000-01-01 after a power outage", CLOCK),
                      ("KB-1042 CO2 value stuck near 400 ppm", CO2))
    assert path == "remedy" and text.endswith("after a power outage: Cause: The backup battery of the real-time clock is "
                                              "empty [1]."), text


def test_a_problem_told_in_the_users_words_finds_the_record_of_the_closest_passage() -> None:
    """"the controller clock goes wrong after every power outage" writes too few of the article's words to pick it by
    them; its closest passage is still the article's symptom."""
    path, text = _ask("the controller clock goes wrong after every power outage, what now",
                      ("KB-1071 Clock resets to 2000-01-01 after a power outage", CLOCK),
                      ("KB-1042 CO2 value stuck near 400 ppm", CO2))
    assert path == "remedy" and "Replace the battery" in text, text


def test_a_section_path_naming_the_problem_finds_a_resolution_cut_from_its_symptoms() -> None:
    """The Resolution chunk of a long article is cut from its Symptoms; its section path still names the problem."""
    resolution = "Resolution\n1. Upgrade the controller to firmware 3.1.0 or later.\n2. Check co2_abc_period_h = 168."
    symptoms = "KB-1042 CO2 value stuck near 400 ppm\nSymptoms\nThe CO2 value stays near 400 ppm in a full room."
    path, text = _ask("How do I fix a CO2 value stuck near 400 ppm?", ("KB-1042 CO2 value stuck near 400 ppm", symptoms),
                      ("KB-1071 Clock resets to 2000-01-01 after a power outage", CLOCK),
                      ("KB-1042 CO2 value stuck near 400 ppm > Resolution", resolution))
    assert path == "remedy" and "1. Upgrade the controller to firmware 3.1.0 or later. 2. Check" in text, text


def test_no_remedy_unless_asked_or_when_no_record_describes_the_problem() -> None:
    assert asks_remedy("What should I do when E12 appears?") and asks_remedy("how to fix a stuck co2 value")
    assert asks_remedy("The fan keeps stopping. Is there a workaround?") and asks_remedy("logger offline again, what now")
    assert asks_remedy("Readings drift after an hour – how can this be fixed?")
    assert not asks_remedy("What does the Resolution section say about batteries?")
    assert not asks_remedy("What does alarm E12 mean?") and not asks_remedy("How do I install the driver?")
    assert _ask("What is the battery part number?", ("KB-1071 Clock resets", CLOCK))[0] != "remedy"
    assert _ask("The display flickers after a firmware update. What should I do?",
                ("KB-1071 Clock resets to 2000-01-01 after a power outage", CLOCK))[0] != "remedy"


TROUBLE = """6. Troubleshooting
The gateway does not connect to the broker. Check that mqtt.broker is set and that port 1883 is open.

Modbus devices time out. Increase poll.interval_ms, check the termination resistor and make sure every device uses
the same baud rate.

The ERR LED blinks red. The store-and-forward buffer is full. Restore the broker connection or increase
buffer.max_mb."""


def test_a_troubleshooting_paragraph_led_by_the_problem_answers_what_to_do() -> None:
    """A manual's troubleshooting list writes each problem as the first sentence of its paragraph, then the cause
    and what to do: the paragraph starting with every word of the problem is quoted whole; a problem told in other
    words, or a question asking no remedy, goes the usual way."""
    path, text = _ask("Modbus devices time out, what should I do?", ("6. Troubleshooting", TROUBLE))
    assert path == "remedy" and "Increase poll.interval_ms, check the termination resistor" in text, text
    assert "ERR LED" not in text and "broker" not in text  # the other entries
    path, text = _ask("The ERR LED blinks red. How do I fix it?", ("6. Troubleshooting", TROUBLE))
    assert path == "remedy" and text.endswith("The store-and-forward buffer is full. Restore the broker connection "
                                              "or increase buffer.max_mb [1]."), text
    assert _ask("My readings arrive late, what now?", ("6. Troubleshooting", TROUBLE))[0] != "remedy"
    assert _ask("Why do Modbus devices time out?", ("6. Troubleshooting", TROUBLE))[0] != "remedy"
