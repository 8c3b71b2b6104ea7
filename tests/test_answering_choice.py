"""Choice questions ("the A or the B for …?"): the option the documents' evidence picks, quoted with the other's."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.choose import asked_value, bare_pick, interfaces_in
from kgrag.answering.ratings import fit
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

CORE = """Zephyr Core overview
The Zephyr Core is a general purpose board with a QX40 microcontroller running at 64 MHz.
The board can be powered from USB or from the VIN pin."""
VOICE = """Zephyr Voice overview
The QN120 neural processor runs always-on keyword spotting with minimal power consumption.
The board carries two MEMS microphones."""


def _context(question: str, *blocks: tuple[str, str]) -> Context:
    items = [ContextItem("chunk", text, 0.5, f"c{n}", f"d{n}", {"path": f"{n}.pdf", "title": title})
             for n, (title, text) in enumerate(blocks, 1)]
    return Context(question=question, strategy="test", items=items, tokens=300, budget=2000)


def _answer(question: str, *blocks: tuple[str, str], replies: list[str] | None = None) -> tuple[str, str]:
    llm = FakeLLM(replies=replies or [])  # raises if called without replies
    answer = generate_answer(llm, question, _context(question, *blocks), mode="auto", focus_tokens=300)
    return answer.text, str(answer.context.info.get("answer_path"))


def test_the_option_whose_documents_state_the_need_is_chosen_without_the_llm() -> None:
    question = "Which board is better suited for always-on keyword spotting: the Zephyr Core or the Zephyr Voice?"
    text, path = _answer(question, ("Zephyr Core", CORE), ("Zephyr Voice", VOICE))
    assert path == "choice" and text.startswith("The Zephyr Voice.")
    assert "always-on keyword spotting with minimal power consumption [2]" in text


def test_the_asked_value_inside_one_rated_range_and_outside_the_other_decides() -> None:
    question = ("A sensor node must run outdoors where temperatures drop to -20 °C. Based on rated operating "
                "temperature, should I pick the Zephyr Core or the Zephyr Mini?")
    core = "Zephyr Core ratings\nThe Zephyr Core runs a sensor node indoors.\nRated operating temperature | 0 to 70 °C"
    mini = "Zephyr Mini ratings\nThe Zephyr Mini runs a sensor node outdoors.\nRated operating temperature | -40 to +85 °C"
    text, path = _answer(question, ("Zephyr Core", core), ("Zephyr Mini", mini))
    assert path == "choice" and text.startswith("The Zephyr Mini.")
    assert "-40 to +85 °C [2]" in text and "0 to 70 °C [1]" in text  # the other option's range is shown too
    assert "-40 to +85 °C [2]. -20 °C is within this rating [2]." in text  # and the asked value against each
    assert text.endswith("0 to 70 °C [1]. -20 °C is below this rating [1].")


def test_an_option_whose_documents_deny_the_need_loses() -> None:
    question = "My old sensors output 5 V logic signals. Should I use the Zephyr Core or the Zephyr Mini, and why?"
    core = "Zephyr Core pins\nThe Zephyr Core I/O pins accept 5 V logic signals from older sensors."
    mini = "Zephyr Mini pins\nThe Zephyr Mini only supports 3.3 V I/Os and is NOT 5 V tolerant: 5 V logic signals damage it."
    text, path = _answer(question, ("Zephyr Core", core), ("Zephyr Mini", mini))
    assert path == "choice" and text.startswith("The Zephyr Core.")
    assert "NOT 5 V tolerant" in text


def test_no_choice_without_clear_evidence_or_without_the_other_options_documents() -> None:
    even = "Which board is better suited for keyword spotting: the Zephyr Core or the Zephyr Voice?"
    core = "Zephyr Core audio\nThe Zephyr Core runs keyword spotting models on its QX40."
    voice = "Zephyr Voice audio\nThe Zephyr Voice runs keyword spotting models on its QN120."
    _, path = _answer(even, ("Zephyr Core", core), ("Zephyr Voice", voice),
                      replies=["Both boards run keyword spotting models [1] [2]."])
    assert path != "choice"  # both sides hold the same words: the model answers
    unknown = "Which board is better suited for always-on keyword spotting: the Zephyr Voice or the Zephyr Nova?"
    _, path = _answer(unknown, ("Zephyr Voice", VOICE), replies=["The Zephyr Voice [1]."])
    assert path != "choice"  # nothing was found about the Nova: its absence proves nothing


def test_an_alternative_without_a_choice_word_is_not_a_choice() -> None:
    question = "Does the Zephyr Core or the Zephyr Voice run always-on keyword spotting?"
    _, path = _answer(question, ("Zephyr Core", CORE), ("Zephyr Voice", VOICE),
                      replies=["The Zephyr Voice runs always-on keyword spotting [2]."])
    assert path != "choice"


def test_a_value_fits_a_range_by_its_ends_a_limit_or_an_amount_from_below_and_a_nominal_value_only_when_equal() -> None:
    load = asked_value("I need to switch a 230 VAC load: the Zephyr Relay or the Zephyr Core?")
    assert load == (230.0, "V", False)
    assert fit("Relay rated voltage | 250 VAC", load) is True  # a limit
    assert fit("Digital outputs | 24 V DC", load) is False
    assert fit("Clock | 64 MHz", load) is None  # rates nothing in volts
    supply = asked_value("The cabinet only provides a 12 V DC supply: the Zephyr Relay or the Zephyr Core?")
    assert fit("The Zephyr Core is powered with a 24V DC power supply.", supply) is False  # nominal, not a limit
    assert fit("Supply voltage | 12 to 24 V", supply) is True
    cold = asked_value("It must run at -20 °C: the A1 or the B2?")
    assert cold is not None and fit("-40 to +85 °C", cold) and fit("0 to 70 °C", cold) is False
    sketch = asked_value("My sketch needs about 40 kB of program memory: the A1 or the B2?")
    assert fit("Flash memory | 48 KB", sketch) is True and fit("Flash memory | 32 KB", sketch) is False
    assert fit("Flash | 1 MB", asked_value("It needs roughly 1.2 MB of flash: the A1 or the B2?")) is False
    small = asked_value("The node must draw less than 10 mA: which is better, the A1 or the B2?")
    assert small is not None and small[1:] == ("A", True) and abs(small[0] - 0.01) < 1e-9
    assert fit("Sleep current | 2 mA", small) and fit("Run | 25 mA", small) is False


def test_a_limit_word_after_the_value_bounds_it() -> None:
    """"1024 mAh Minimum", "12 V max": the word after a value makes it a floor or a ceiling (a battery's capacity is
    otherwise an amount offered as enough); a word that leads the next value ("5 V max 500 mA") does not."""
    cell = asked_value("Can I run the Zephyr Core from a 500 mAh LiPo?")
    assert fit("Supported battery | Li-Po Single Cell, 3.7 V, 1024 mAh Minimum", cell) is False
    assert fit("Supported battery | Li-Po Single Cell, 3.7 V, 400 mAh Minimum", cell) is True
    supply = asked_value("Can I feed the Zephyr Core 15 V on VIN?")
    assert fit("VIN | 12 V max", supply) is False and fit("VIN | 18 V maximum", supply) is True
    assert fit("VIN | 15 V max 500 mA", supply) is True  # nominal 15 V: the "max" is the current's
    hot = asked_value("Will the Zephyr Core survive 75 °C?")
    assert fit("Operating Temperature | -20 °C | +25 °C | +70 °C", hot) is False  # a min / typ / max row is a range
    assert fit("Operating Temperature | -40 °C | 25 °C | 85 °C", hot) is True


def test_a_limit_sentence_is_no_denial() -> None:
    question = "A sensor node must run outdoors at -20 °C. Should I pick the Zephyr Core or the Zephyr Mini?"
    core = ("Zephyr Core notes\nImportant: the operating temperature of the device can't exceed 85 °C and shouldn't be "
            "lower than -40 °C.\nThe Zephyr Core runs a sensor node outdoors.")
    mini = "Zephyr Mini notes\nThe Zephyr Mini runs a sensor node outdoors with its operating temperature sensor."
    _, path = _answer(question, ("Zephyr Core", core), ("Zephyr Mini", mini), replies=["The Zephyr Core [1]."])
    assert path != "choice"  # "can't exceed 85 °C" rates a range: the Zephyr Core is not ruled out by it


def test_the_unit_of_a_written_value_is_no_need_word() -> None:
    """"… a 24 V wall adapter with a 2.1 x 5.5 mm barrel plug": "mm" is in every passage giving a length (a DIN-rail
    holder "- 72 mm"), so it names no need; the value is checked as a value."""
    from kgrag.answering.choose import need_terms
    from kgrag.answering.terms import analyse

    q = analyse("I bring in 24 V with a 2.1 x 5.5 mm barrel plug. Should I use the Zephyr Core or the Zephyr Voice?")
    need = need_terms(q, q.phrases)
    assert {"barrel", "plug"} <= need and not need & {"mm", "v"}



def test_a_choice_is_followed_by_the_key_passages_of_the_options() -> None:
    question = "Which board is better suited for always-on keyword spotting: the Zephyr Core or the Zephyr Voice?"
    context = _context(question, ("Zephyr Core", CORE), ("Zephyr Voice", VOICE))
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300, passages=4)
    assert answer.context.info["answer_path"] == "choice" and answer.text.startswith("The Zephyr Voice.")
    verdict, tail = answer.text.split("\n\nFrom the documents: ")
    assert "QX40 microcontroller running at 64 MHz [1]" in tail  # what the other option is, in its own words
    assert "always-on keyword spotting" in verdict and "always-on keyword spotting" not in tail  # no quote twice


def test_the_option_whose_documents_name_every_asked_interface_is_chosen() -> None:
    """"I need CAN bus and RS-485": one option's documents name both (a connector row), the other's neither; the
    need words alone (CAN, bus, RS-485) were too few to tell the two apart."""
    question = "I need CAN bus and RS-485 links to field devices. Is the Zephyr Control or the Zephyr Edge the better choice?"
    control = ("Zephyr Control connectors\nRef. | Description\nJ5 | Comm protocols (RS-232, RS-485, CAN)\n"
               "The Zephyr Control runs industrial machines in factories.")
    edge = ("Zephyr Edge overview\nThe Zephyr Edge is a low power board for irrigation in fields.\n"
            "The Zephyr Edge talks to a phone over Bluetooth Low Energy.")
    text, path = _answer(question, ("Zephyr Control", control), ("Zephyr Edge", edge))
    assert path == "choice" and text.startswith("The Zephyr Control.")
    assert "RS-485, CAN" in text
    assert "The passages found on the Zephyr Edge name no CAN or RS-485." in text  # said, not an unrelated quote


def test_a_question_ending_in_the_two_options_alone_asks_to_pick() -> None:
    """"…, without any gateway. Zephyr Voice or Zephyr Vision?" has no choice word, yet asks which one; an option
    named WiFi is no Wi-Fi of its own."""
    question = "My node must send its data straight to a Wi-Fi access point, no gateway. Zephyr Voice or Zephyr Vision?"
    voice = "Zephyr Voice radio\nThe Zephyr Voice talks over Bluetooth Low Energy only."
    vision = "Zephyr Vision radio\nThe Wi-Fi interface of the Zephyr Vision can join an access point as a station."
    text, path = _answer(question, ("Zephyr Voice", voice), ("Zephyr Vision", vision))
    assert path == "choice" and text.startswith("The Zephyr Vision.")
    assert bare_pick(question, [["Zephyr", "Voice"], ["Zephyr", "Vision"]])
    assert not bare_pick("Does the Zephyr Voice or the Zephyr Vision have Wi-Fi?", [["Zephyr", "Voice"], ["Zephyr", "Vision"]])
    assert interfaces_in("The Zephyr WiFi 1010 has RS485 and BLE", [["Zephyr", "WiFi", "1010"]]) == {"rs485", "bluetoothlowenergy"}
