"""Question shapes the extractive path must read right: the asked head, counts, sibling products, row labels."""

from __future__ import annotations

import numpy as np

from kgrag.answer import generate_answer
from kgrag.answering.extract import try_extract
from kgrag.answering.graph_lists import try_list
from kgrag.answering.select import Scored, variant_of
from kgrag.answering.terms import analyse
from kgrag.answering.units import Unit, block_units
from kgrag.answering.values import has_value, value_dimensions
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

RANGER = """Zephyr Ranger
The Zephyr Ranger uses a time-of-flight principle to detect objects from 0 to 1200 mm.
Nominal operating voltage | 3.3 V"""
CLIMATE = """Zephyr Climate
SKU | Name | Function | Quantity
ZX00103 | Zephyr Climate | Measure temperature and humidity | 1"""
PANEL = """Display
The panel resolution is 480 x 800 with a pixel size of 0.108 mm.
Board size | 45 x 18 mm"""
STRIP = """Features
The Zephyr Strip carries eight QL2020 RGB LEDs.
Max current per LED | 20 mA"""
SENSORS = """Zephyr Eye
Humidity range | 0-100 % RH, -40 °C to +125 °C
Relative humidity range | 0-100 %"""


def _context(question: str, *blocks: tuple[str, str]) -> Context:
    items = [ContextItem("chunk", text, 0.5, f"c{n}", f"d{n}", {"path": f"{n}.pdf", "title": title})
             for n, (title, text) in enumerate(blocks, 1)]
    return Context(question=question, strategy="test", items=items, tokens=300, budget=2000)


def _answer(question: str, *blocks: tuple[str, str], replies: list[str] | None = None) -> str:
    llm = FakeLLM(replies=replies or [])  # raises if called without replies
    return generate_answer(llm, question, _context(question, *blocks), mode="auto", focus_tokens=300).text


def test_a_word_that_is_both_asked_and_part_of_the_name_stays_an_attribute() -> None:
    q = analyse("What is the maximum distance the Zephyr Distance can measure?")
    assert "distance" in q.attributes and q.names == ["Zephyr", "Distance"]


def test_the_asked_head_is_never_a_name_and_a_kind_of_part_asks_for_a_name() -> None:
    sram = analyse("How much SRAM does the Zephyr 2560 Rev3 have?")
    assert sram.attributes == {"sram"} and "SRAM" not in sram.names and not sram.wants_name
    camera = analyse("What camera sensor does the Zephyr Eye have?")
    assert camera.attributes == {"camera", "sensor"} and camera.wants_name
    count = analyse("How many RGB LEDs does the Zephyr Strip have?")
    assert count.count_of == "led" and not count.wants_name
    assert not analyse("What is the clock speed of the Zephyr Core?").wants_name


def test_an_asked_head_of_two_things_joined_by_and_is_never_a_name() -> None:
    q = analyse("How much RAM and flash storage is on board the Zephyr X9?")
    assert {"ram", "flash", "storage"} <= q.attributes and q.names == ["Zephyr", "X9"]
    assert ["ram", "flash"] in q.together  # a quote must give both


def test_a_sibling_product_is_a_variant_unless_the_asked_name_is_written_whole() -> None:
    q = analyse("What is the maximum distance the Zephyr Ranger can measure?")
    assert variant_of(q, "ZX00103 | Zephyr Climate | Measure temperature and humidity")
    assert not variant_of(q, "The Zephyr Ranger uses a time-of-flight principle")
    assert not variant_of(q, "Zephyr Climate and Zephyr Ranger share one bus")
    assert not variant_of(q, "Zephyr boards are small")
    two = analyse("Do the Zephyr Ranger and Zephyr Climate share a bus?")
    assert not variant_of(two, "The Zephyr Climate has an I2C bus")  # the other asked product, not a sibling


def test_a_sibling_products_row_is_not_quoted_for_the_asked_product() -> None:
    question = "What is the maximum distance the Zephyr Ranger can measure?"
    reply = "The Zephyr Ranger detects objects from 0 to 1200 mm [1]."
    text = _answer(question, ("Zephyr Climate", CLIMATE), ("Zephyr Ranger", RANGER), replies=[reply])
    assert "Climate" not in text


def _best(question: str, rows: list[str]) -> str:
    """The row try_extract quotes when every row scores the same on the asked words and names, the first row
    ranked highest."""
    units = [Unit(block=1, pos=n, text=row, kind="row") for n, row in enumerate(rows)]
    ranked = [Scored(u, score=1.0 - 0.1 * n, attributes=1.0, names=1.0) for n, u in enumerate(units)]
    found = try_extract(analyse(question), ranked, {1: "Zephyr Core"})
    assert found is not None
    return found.unit.text


def test_the_row_whose_label_asks_no_more_than_the_question_is_quoted() -> None:
    rows = ["Secured flash user memory | 50 kB", "Flash | 2 MB"]
    assert _best("What is the flash memory size of the Zephyr Core?", rows) == "Flash | 2 MB"


def test_a_which_part_question_is_answered_by_the_part_not_by_a_quantity_its_words_suggest() -> None:
    """"the battery" in "Which chip charges the battery" asks no capacity: the charger's row, not the 5Ah battery's."""
    rows = ["Power | Low power, runs for 34 months on a 12V/5Ah battery, RTC CR2032 Lithium Battery back up",
            "Battery | LT3652 Solar Panel Battery Charger"]
    assert _best("Which chip charges the battery from the solar panel on the Zephyr Core?", rows) == rows[1]


def test_a_unit_or_quantity_word_the_question_writes_asks_a_value() -> None:
    """"(in dBm)", "in nits", "wavelength", "how bright": the quantity asked, so a quote must state it."""
    assert analyse("How sensitive is the Zephyr Core's receiver (in dBm)?").dimensions == {"power", "level"}
    assert analyse("How bright is the Zephyr Panel, in nits?").dimensions == {"light"}
    assert "length" in analyse("What wavelength does the Zephyr Ranger's laser emit?").dimensions
    assert not analyse("Is the Zephyr Core firmware written in C?").dimensions  # one letter is too ambiguous
    rows = ["Laser | Class 1 laser emitter", "Laser wavelength | 940 nm"]
    assert _best("What wavelength is the laser emitter of the Zephyr Core?", rows) == rows[1]


def test_the_row_at_the_condition_the_question_writes_is_quoted() -> None:
    """Rows that tie on every asked word: the one at the asked temperature, not the table's first row."""
    rows = ["Temperature -10 °C | Output voltage 0.2 V", "Temperature 0 °C | Output voltage 0.4 V",
            "Temperature 10 °C | Output voltage 0.6 V"]
    question = "What output voltage does the Zephyr Core's temperature sensor give at 0 °C?"
    assert _best(question, rows) == rows[1]
    assert _best("What output voltage does the Zephyr Core's temperature sensor give?", rows) == rows[0]


def test_a_row_mixing_other_quantities_loses_to_one_stating_only_the_asked_one() -> None:
    rows = ["Humidity range | 0-100 % RH, -40 °C to +125 °C", "Relative humidity range | 0-100 %"]
    assert _best("What is the humidity range of the Zephyr Core?", rows) == "Relative humidity range | 0-100 %"


def test_a_pixel_grid_is_a_resolution_and_a_size_in_mm_is_not() -> None:
    assert value_dimensions("480x800") == {"resolution"} and has_value("1920×1080")
    assert "resolution" not in value_dimensions("45 x 18 mm")
    text = _answer("What is the resolution of the Zephyr Panel?", ("Zephyr Panel", PANEL))
    assert "480 x 800" in text


def test_a_how_many_question_is_answered_only_by_a_count() -> None:
    text = _answer("How many RGB LEDs does the Zephyr Strip have?", ("Zephyr Strip", STRIP))
    assert "eight QL2020 RGB LEDs" in text
    reply = "The documents do not contain the answer."
    refused = _answer("How many relays does the Zephyr Strip have?", ("Zephyr Strip", STRIP + "\nMax current per relay | 10 A"),
                      replies=[reply])
    assert "10 A" not in refused.split(";")[0]  # "10 A" is no count of relays: not quoted as the answer


def test_a_list_question_about_a_narrower_kind_is_not_answered_with_the_whole_type() -> None:
    facts = {1: "Zephyr Core (Product)\nhas microcontroller | QRF52832 [2]\nhas microcontroller | QX-10CL016 [3]"}
    assert try_list(analyse("Which microcontrollers does the Zephyr Core have?"), facts) is not None
    assert try_list(analyse("Which FPGA does the Zephyr Core have?"), facts) is None


def test_a_list_question_may_qualify_the_named_thing_and_narrow_the_list() -> None:
    facts = {1: "ZetaLink (Interface)\nin product | Zephyr Mini [2]\nin product | Orbit Carrier [3]\nin product | Zephyr Max [4]"}
    # "a ZetaLink radio": the radio is the named ZetaLink; "Acme" names no listed product and narrows nothing
    assert try_list(analyse("Which Acme boards have a ZetaLink radio?"), facts) == (
        "ZetaLink – in product: Zephyr Mini [2]; Orbit Carrier [3]; Zephyr Max [4].")
    # a word before the asked class that listed products carry keeps those
    listed = try_list(analyse("Which Zephyr boards have a ZetaLink radio?"), facts)
    assert listed is not None and "Orbit Carrier" not in listed and "Zephyr Max [4]" in listed
    assert try_list(analyse("Which boards have a ZetaLink radio with the longest range?"), facts) is None

def test_each_fact_line_belongs_to_its_own_subject_not_to_the_first_one_of_the_block() -> None:
    from kgrag.answering.blocks import GRAPH_FACTS, build_blocks

    facts = [ContextItem("relation", "Zephyr Mini (Product)\nhas module | QB306 [2]", 1.0, None, "d1", {"title": "Zephyr Mini"}),
             ContextItem("relation", "Zephyr Vidor (Product)\nbluetooth | QW102 module", 1.0, None, "d2", {"title": "Zephyr Vidor"})]
    chunk = ContextItem("chunk", "The Zephyr Mini carries the QB306 Bluetooth module.", 0.5, "c1", "d1", {"title": "Zephyr Mini"})
    blocks = build_blocks(Context(question="", strategy="test", items=[*facts, chunk], tokens=50, budget=2000))
    assert blocks[0].header() == GRAPH_FACTS  # not "Zephyr Mini": the facts come from both documents
    rows = {u.text: u.heading for u in block_units(1, blocks[0].text) if u.kind == "row"}
    assert rows == {"has module | QB306": "Zephyr Mini (Product)", "bluetooth | QW102 module": "Zephyr Vidor (Product)"}


def test_a_sentence_with_the_asked_quantity_beats_one_with_no_value_of_it() -> None:
    rows = ["U8 communicates with the host over an I2C bus.", "The QX300 measures relative humidity from 0 to 100 %RH."]
    assert _best("What is the humidity range of the QX300?", rows).startswith("The QX300 measures")


def test_a_fact_of_another_subject_is_never_quoted_and_a_fact_is_led_by_its_subject() -> None:
    from kgrag.answer import build_blocks

    facts = [ContextItem("relation", "Zephyr Core (Product)\ninput voltage from vin pad | 4 to 20 V\n"
                         "input voltage from usb connector | 4.75 to 5.25 V", 1.0, None, "d1", {"title": "Zephyr Core"}),
             ContextItem("relation", "Orbit Mini (Product)\nmaximum input voltage from vin pad | -0.3 to 21 V\n"
                         "maximum input voltage from usb connector | -0.3 to 21 V", 1.0, None, "d2", {"title": "Orbit Mini"})]
    rows = [u for u in block_units(1, build_blocks(Context("", "test", facts, 50, 2000))[0].text) if u.kind == "row"]
    assert all(not u.header for u in rows)  # a fact line is a pair of its own, never the header of the next one
    question = "What is the maximum input voltage from the VIN pad of the Zephyr Core?"
    text = _answer(question, ("Zephyr Core", facts[0].text), ("Orbit Mini", facts[1].text))
    assert "4 to 20 V" in text and "21 V" not in text
    context = Context(question, "test", facts, 50, 2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300)
    assert answer.text.startswith("Zephyr Core: input voltage from vin pad: 4 to 20 V")  # led by the fact's subject


def test_which_kind_of_part_is_answered_by_a_part_number_next_to_that_kind() -> None:
    overview = ("The Zephyr Core is a module containing a QM21 processor, a Wi-Fi module based on QX32, a crypto chip "
                "which can store keys and a 6 axis IMU.")
    rows = ["U1 | QM21G18A Controller | U3 | QS6DSOX IMU Sensor"]
    units = [Unit(block=1, pos=0, text=overview, kind="sentence"), Unit(block=1, pos=1, text=rows[0], kind="row")]
    ranked = [Scored(units[0], score=0.9, attributes=1.0, names=1.0), Scored(units[1], score=0.5, attributes=1.0, names=1.0)]
    found = try_extract(analyse("Which IMU is on the Zephyr Core?"), ranked, {1: "Zephyr Core"})
    assert found is not None and "QS6DSOX" in found.text
    crypto = analyse("Which crypto chip stores keys on the Zephyr Core?")  # "based on QX32, a crypto chip": QX32 is
    assert try_extract(crypto, ranked[:1], {1: "Zephyr Core"}) is None  # the item before, not the crypto chip
    named = Unit(block=1, pos=2, text="Keys are stored in the QE608A crypto chip.", kind="sentence")
    found = try_extract(crypto, [Scored(named, score=0.9, attributes=1.0, names=1.0)], {1: "Zephyr Core"})
    assert found is not None and "QE608A" in found.text


class _Unrelated:
    """An embedder under which the question and every passage are orthogonal (cosine 0): nothing is about it."""

    model_name, dim = "unrelated", 2

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.0]] + [[0.0, 1.0]] * (len(texts) - 1), dtype=np.float32)


class _Topical:
    """An embedder under which every text naming conductivity is the same point: the question and its passage meet."""

    model_name, dim = "topical", 2

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.0] if "conductivity" in t.lower() else [0.0, 1.0] for t in texts], dtype=np.float32)


def test_a_reworded_question_is_shown_the_close_passages_not_refused() -> None:
    """"The conductivity value keeps rising. What can I do?" shares one word of four with the FAQ entry "Why does the
    conductivity reading drift upwards? …": below the near-miss coverage, yet a passage is close by the dense score,
    so the closest passages are shown. With no close passage it is still refused."""
    faq = "Why does the conductivity reading drift upwards?\nUsually the electrodes are fouled. Clean them with a brush."
    question = "The conductivity value keeps rising. What can I do?"
    for embedder, shown in ((_Topical(), True), (_Unrelated(), False)):
        answer = generate_answer(FakeLLM(replies=[]), question, _context(question, ("Zephyr Probe FAQ", faq)),
                                 mode="auto", focus_tokens=300, embedder=embedder, min_relevance=0.4)
        assert ("electrodes are fouled" in answer.text) == shown and not answer.grounded, answer.text


def test_when_no_passage_is_about_the_question_the_closest_passages_are_shown_without_the_llm() -> None:
    question = "What is the max current per LED of the Zephyr Strip?"
    answer = generate_answer(FakeLLM(replies=[]), question, _context(question, ("Zephyr Strip", STRIP)), mode="auto",
                             focus_tokens=300, embedder=_Unrelated(), min_relevance=0.4)
    assert not answer.grounded and answer.context.info["relevance"] == 0.0
    assert answer.text.startswith("The documents do not contain a direct answer")
    kept = generate_answer(FakeLLM(replies=[]), question, _context(question, ("Zephyr Strip", STRIP)), mode="auto",
                           focus_tokens=300, embedder=_Unrelated(), min_relevance=0.0)  # 0: the gate is off
    assert kept.grounded and "20 mA" in kept.text


def test_a_reply_adding_only_the_document_title_to_the_question_is_an_echo() -> None:
    from kgrag.answering.on_topic import echoes

    question = "Which temperature sensor is on the DIN Thermo?"
    assert echoes(question, "The temperature sensor is on the Acme DIN Thermo. [1]", "Acme DIN Thermo")
    assert not echoes(question, "The DIN Thermo uses the QT236 sensor [1].", "Acme DIN Thermo")
    lift = "What is the maximum suction lift?"  # a value is said, though "2" alone is no content word
    assert not echoes(lift, "The maximum suction lift is 2 m. [1]") and echoes(lift, "The maximum suction lift is [1].")


def test_a_reply_repeating_the_prompts_label_of_the_graph_facts_is_an_echo() -> None:
    from kgrag.answering.on_topic import echoes

    question = "What ATEX zone is the Zephyr Core certified for?"
    assert echoes(question, "The Zephyr Core certified for ATEX zone is [1] (knowledge graph facts, each line citing "
                            "its source).", "Acme Zephyr Core")
    assert not echoes(question, "The Zephyr Core is certified for ATEX zone 2 with gas groups IIA and IIB [1].",
                      "Acme Zephyr Core")


def test_a_reply_must_give_the_asked_unit_year_or_part_number() -> None:
    """A fourth probe of questions the documents do not answer, read after its blind run: "How bright are its LEDs, in
    mcd?" answered "rated at 4.1", "Until which year …?" answered with an MTBF table, "What's the manufacturer part
    number of the toggle switch?" answered with the switches' 0-10 V output, and a torque borrowed from another
    product's "0.80 Nm"."""
    from kgrag.answering.extract import states_value
    from kgrag.answering.grounding import lacks_asked_value
    from kgrag.answering.values import value_dimensions

    assert lacks_asked_value("How bright are the Zephyr Pixels LEDs, in mcd?", "The LEDs are rated at 4.1 [3].")
    assert not lacks_asked_value("How bright are the Zephyr Pixels LEDs, in mcd?", "Each LED gives 120 mcd [3].")
    year = "Until which year will the Zephyr H7 stay in production?"
    assert lacks_asked_value(year, "The MTBF figure for the Zephyr H7 can be found in the table below [2].")
    assert not lacks_asked_value(year, "Production is guaranteed until 2035 [2].")
    part = "What's the manufacturer part number of the toggle switch on the Zephyr Simul8?"
    assert lacks_asked_value(part, "It uses an SPST toggle switch [1].")
    assert not lacks_asked_value(part, "The switch is a 100SP1T1B4M2QE [1].")
    assert not states_value(analyse(part), Unit(1, 0, "8 screw connectors link to the toggle switches output (0 - 10 V)"))
    assert value_dimensions("Torque: 0.80 Nm") == {"torque"}  # a value of its own quantity: checked like the others


def test_a_version_a_section_number_writes_backs_no_version_in_a_reply() -> None:
    """"The firmware supports the Matter specification 2.1" was backed by the header "section: 2 Features > 2.1 General
    Specifications Overview"; a question writing "version" has its reply's versions checked, whatever it asks of."""
    from kgrag.answering.grounding import reply_problems

    question = "Which version of the Matter specification does the Zephyr Matter firmware support?"
    source = ("Zephyr Matter, p. 4, section: 2 Features > 2.1 General Specifications Overview\n"
              "2.1 General Specifications Overview\nThe board supports the Matter standard over Thread.")
    made_up = reply_problems(question, "The firmware supports the Matter specification 2.1 [1].", [("Zephyr Matter", source)])
    assert made_up.get("unsupported_values") == ["2.1"]
    written = source + "\nMatter 1.3 is supported."
    assert not reply_problems(question, "The firmware supports Matter 1.3 [1].", [("Zephyr Matter", written)])



def test_a_reply_naming_what_no_source_names_is_no_answer() -> None:
    """A small model lists "English, Spanish, Portuguese and Catalan" as the languages a board understands when no
    datasheet names a language; names the sources write, and any sentence's first word, pass."""
    from kgrag.answering.grounding import reply_problems

    question = "Which spoken languages does the Zephyr Voice's speech recognition understand?"
    source = "Zephyr Voice overview\nThe QN120 runs always-on speech recognition, e.g. voice commands in English."
    reply = "The Zephyr Voice understands English, Spanish, Portuguese and Catalan [1]."
    assert reply_problems(question, reply, [("Zephyr Voice", source)]).get("unsupported_names") == [
        "Spanish", "Portuguese", "Catalan"]
    said = "Yes. Speech recognition runs on the QN120 [1]. Commands are spoken in English [1]."
    assert "unsupported_names" not in reply_problems(question, said, [("Zephyr Voice", source)])

def test_a_reply_giving_only_values_of_other_quantities_or_no_asked_designation_is_no_answer() -> None:
    """"-40 - +85 °C" is no operating altitude and "5V compatible" no IP rating; a value of the asked quantity, or
    the asked code with its number, is an answer."""
    from kgrag.answering.grounding import lacks_asked_value

    question = "What is the maximum operating altitude of the Zephyr Ranger?"
    assert lacks_asked_value(question, "The maximum operating altitude of the Zephyr Ranger is -40 - +85 °C [1].")
    assert not lacks_asked_value(question, "Up to 2000 m above sea level [1].")
    assert not lacks_asked_value("What is the supply current of the Zephyr Ranger at 5 V?", "25 mA at 5 V [1].")
    assert lacks_asked_value("What IP rating does the Zephyr Core have?", "The Zephyr Core is 5V compatible [2].")
    assert not lacks_asked_value("What IP rating does the Zephyr Core have?", "The Zephyr Core is rated IP20 [2].")
    assert not lacks_asked_value("What is the ingress protection of the Zephyr Core?", "IP 65 with its cover [2].")
    question = "How long does the Zephyr X8 take to boot after power is applied?"  # "how long" asks a time, not a power
    assert lacks_asked_value(question, "The Zephyr X8 takes 2350 mW to boot after power is applied [1].")
    assert not lacks_asked_value(question, "About 20 s [1].")
    question = "How many switching cycles are the toggle switches of the Zephyr Simul8 rated for?"  # a count, no unit
    assert lacks_asked_value(question, "The toggle switches are rated for 28 V [1].")
    assert not lacks_asked_value(question, "They are rated for 10000 cycles at 28 V [1].")
    assert not lacks_asked_value("How many bits does the Zephyr ADC have?", "A 12 bit ADC [1].")  # the counted unit
    assert lacks_asked_value(question, "The 28 V toggle switches are ZT-5NU-L parts [1].")  # a part's digits count none
    assert not lacks_asked_value(question, "The panel has 2x toggle switches rated for 28 V [1].")  # "2x": a count
    question = "How many switching cycles are the two relays of the Zephyr Carrier rated for?"
    assert lacks_asked_value(question, "The two relays rated for 2 A are 2x ZT-5NU-L relays [1].")  # the asked two
    question = "We flip them many times a day. How many switching cycles are the Zephyr Simul8's switches rated for?"
    assert analyse(question).count_of == "cycle"  # a how-many question after the user's situation
    assert lacks_asked_value(question, "The toggle switches are rated for 28 V [1].")
    question = "For the volume control, roughly how many pulses per turn does the Zephyr Knob give?"
    assert analyse(question).count_of == "pulse"
    assert not analyse("Which FPGA is on the Zephyr Core, and how many logic elements does it have?").count_of  # a name
    question = "What firmware version comes preloaded on the Zephyr Link's radio module?"  # a version answers it
    assert lacks_asked_value(question, "The firmware version comes preloaded with a certified software stack [1].")
    assert lacks_asked_value(question, "See section: 2 Features > 2.1 General [1].")  # a section number is none
    assert not lacks_asked_value(question, "It ships with v1.4.8 [1].")
    assert not lacks_asked_value("What version of the board has the new regulator?", "The Rev2 board [1].")  # a variant


def test_a_count_is_looked_for_deeper_than_other_values() -> None:
    rows = [f"Max current per relay {n} | {n + 10} A" for n in range(5)] + ["Number of outputs | 4x relays (NO)"]
    units = [Unit(block=1, pos=n, text=row, kind="row") for n, row in enumerate(rows)]
    ranked = [Scored(u, score=1.0 - 0.1 * n, attributes=1.0, names=1.0) for n, u in enumerate(units)]
    found = try_extract(analyse("How many relays does the Zephyr Core have?"), ranked, {1: "Zephyr Core"})
    assert found is not None and "4x relays" in found.text


def test_a_quoted_list_keeps_each_items_source_number() -> None:
    from kgrag.answer import Plan, build_blocks, finish_plan

    items = [ContextItem("relation", "Zephyr Mini (Product)\nhas interface | UART", 1.0, None, "d1", {"title": "Zephyr Mini"}),
             ContextItem("chunk", "Digital peripherals of the Zephyr Mini: I2C, SPI and PWM on every header pin.", 0.5,
                         "c2", "d1", {"title": "Zephyr Mini"})]
    context = Context("Which interfaces does the Zephyr Mini have?", "test", items, 50, 2000)
    text = "Zephyr Mini – has interface: UART [1]; I2C [2]; SPI [2]; PWM [2]."
    answer = finish_plan(context.question, context, Plan(build_blocks(context), "quote", text))
    assert answer.text == text  # the markers are the items' own, not pruned as if one sentence cited them all


def test_a_stated_quantity_no_source_gives_is_made_up() -> None:
    from kgrag.answering.grounding import unsupported_values

    sources = ["The Zephyr Core has four 1.12 mm mounting holes.", "Deep sleep | Typ = 86 | Unit = µA", "VIN | 6 to 21 V"]
    assert unsupported_values("The Zephyr Core weighs about 1.12 kg [1].", sources) == ["1.12"]  # a length, not a mass
    assert unsupported_values("The Zephyr Core costs $1,000 [1].", sources) == ["1000"]
    assert unsupported_values("It draws 86 µA in deep sleep and takes 6.0 V to 21 V on VIN [2] [3].", sources) == []
    assert unsupported_values("Its Bluetooth range is 260 meters [1].", ["Pressure range | 260 to 1260 hPa"]) == ["260"]
    assert unsupported_values("It measures from 260 hPa [1].", ["Pressure range | 260 to 1260 hPa"]) == []  # a range's
    # first end is written in the range's unit
    kinds = ["Ranging | 2-way ranging with a 2D angle of arrival", "3-axis accelerometer; 12-bit ADC; 480x800 display"]
    assert unsupported_values("Anchors work 2 meters apart, 3 m high [1].", kinds) == ["2", "3"]  # names of kinds
    assert unsupported_values("It has a 12 bit ADC and 480 pixels [1].", kinds) == []  # a unit joined by a hyphen
    versions = ["Interfaces | UART, SPI, USB 2.0", "TLS 1.2 and 1.3 handshakes (see Section 3.8)"]
    assert unsupported_values("It reaches 2 meters at 1.2 mm pitch, 3.8 V [1].", versions) == ["2", "1.2", "3.8"]
    assert unsupported_values("It costs $1.00 at 1 k pieces [1].", ["MTBF | 639717 h", "1 x USB"]) == ["1"]  # a price
    assert unsupported_values("It costs $12.90 [1].", ["Price | 12.90 USD"]) == []  # is backed by a price only
    sleep = ["Current consumption in deep sleep mode (@3.7V): 0.67 mA"]  # a unit spelled out is a unit
    assert unsupported_values("It draws 0.67 microamps in deep sleep [1].", sleep) == ["0.67"]
    assert unsupported_values("It draws 0.67 milliamperes in deep sleep [1].", sleep) == []
    lists = ["ETH | RJ45 (10/100 M)", "24/30/110/220V | 10/4/0.3/0.12 A"]  # a slash list shares its last word
    assert unsupported_values("The warranty is 10 years [1].", lists) == ["10"]
    assert unsupported_values("It switches 110 V at 0.3 A [2].", lists) == []
    assert unsupported_values("It switches 110 mm [2].", lists) == ["110"]


def test_a_reply_naming_no_part_does_not_answer_which_part() -> None:
    """"What battery connector does the Zephyr Eye have?" answered "The Zephyr Eye has a connector [1]" says not which
    one: the closest passages are shown instead; a part number, an acronym or a name not in the question answers."""
    from kgrag.answering.grounding import names_no_part, reply_problems

    question = "What battery connector does the Zephyr Eye have? I need a cable for my LiPo."
    vague = "The Zephyr Eye has a connector that is described in the documents [1]. The source explains its role."
    assert names_no_part(question, vague) and reply_problems(question, vague, [("Zephyr Eye", "J4 | battery")])
    for named in ("It has a QM03B-ACHSS connector [1].", "A 3-pin JST connector [1].", "It uses the Qwiic connector [1]."):
        assert not names_no_part(question, named)
    assert not names_no_part("What type of USB connector does the Zephyr Eye have?", "A micro connector [1].")  # a kind
    assert not names_no_part("Which board has a QX688?", "The board with it is listed [1].")  # products: their own check


def test_a_reply_naming_only_a_technology_or_a_kind_names_no_part() -> None:
    """"What camera sensor does the Zephyr Eye use?" answered "a 2 Megapixel CMOS camera" says which kind of sensor,
    not which one; with its part number it answers."""
    from kgrag.answering.grounding import names_no_part

    question = "What camera sensor does the Zephyr Eye use for inspection?"
    assert names_no_part(question, "The Zephyr Eye uses a 2 Megapixel CMOS camera [1].")
    assert names_no_part("What display does the Zephyr Eye carry?", "It carries a 3.5 inch TFT LCD [2].")
    assert not names_no_part(question, "The Zephyr Eye uses the QV2145 2 Megapixel CMOS camera [1].")
    assert not names_no_part(question, "It uses an OmniSense camera sensor [1].")


def test_an_llm_reply_with_a_made_up_value_gives_way_to_the_closest_passages() -> None:
    question = "How does the Zephyr Ranger detect objects, and how heavy is it?"
    llm = FakeLLM(replies=["The Zephyr Ranger uses time-of-flight and weighs about 1.2 kg [1]."])
    answer = generate_answer(llm, question, _context(question, ("Zephyr Ranger", RANGER)), mode="auto", focus_tokens=300)
    assert llm.calls == 1 and "1.2 kg" not in answer.text and answer.context.info["answer_path"] == "evidence"
    assert not answer.grounded and "time-of-flight principle" in answer.text  # the closest passages instead
    assert answer.context.info["unsupported_values"] == ["1.2"]
    assert "1.2 kg" in answer.context.info["set_aside_reply"]  # what the model said stays inspectable
    llm = FakeLLM(replies=["The Zephyr Ranger uses time-of-flight to detect objects from 0 to 1200 mm [1]."])
    answer = generate_answer(llm, question, _context(question, ("Zephyr Ranger", RANGER)), mode="auto", focus_tokens=300)
    assert llm.calls == 1 and "1200 mm" in answer.text  # the sources give it


def test_a_reply_keeping_one_end_of_a_range_is_no_answer() -> None:
    """"The supply voltage is 9 V" over "9 to 36 V" tells a user the one voltage it takes; a value the sources also
    write alone, or the reply giving the other end too, is an answer."""
    from kgrag.answering.grounding import cut_ranges

    rows = ["Supply voltage | 9 to 36 V", "Pressure range | 260 to 1260 hPa"]
    assert cut_ranges("The supply voltage of the Zephyr Core is 9 V [1].", rows) == ["9"]
    assert cut_ranges("It takes 9 to 36 V [1].", rows) == []
    assert cut_ranges("It takes 9 V at least, up to 36 V [1].", rows) == []
    assert cut_ranges("The supply voltage is 9 V [1].", [*rows, "Logic supply | 9 V"]) == []
    assert cut_ranges("The mains wire is 1.5 mm² [1].", ["X1 | Mains | 1.5 to 2.5 mm²"]) == ["1.5"]  # a cross-section
    question = "What is the supply voltage of the Zephyr Core?"
    llm = FakeLLM(replies=["The supply voltage of the Zephyr Core is 9 V [1]."])
    answer = generate_answer(llm, question, _context(question, ("Zephyr Core", "Zephyr Core power\n" + "\n".join(rows))),
                             mode="generative", focus_tokens=300)
    assert answer.context.info.get("cut_range") == ["9"]


def test_a_how_many_question_without_an_auxiliary_verb_still_counts_its_thing() -> None:
    q = analyse("How many Zephyr nodes come in the Starter Kit?")
    assert q.count_of == "node" and "Zephyr" in q.names  # the name before the counted word stays a name
    units = [Unit(block=1, pos=0, text="Every Zephyr node talks over I2C to the kit's main board.", kind="sentence"),
             Unit(block=1, pos=1, text="This kit includes a selection of seven Zephyr nodes.", kind="sentence")]
    ranked = [Scored(u, score=1.0 - 0.1 * n, attributes=1.0, names=1.0) for n, u in enumerate(units)]
    found = try_extract(q, ranked, {1: "Starter Kit"})
    assert found is not None and "seven Zephyr nodes" in found.text  # not the sentence with a part-like "I2C"


def test_a_converted_table_is_cut_into_rows_whose_values_carry_their_unit() -> None:
    text = ("Current consumption\nDeep sleep current, Symbol = I DS. Deep sleep current, Typ = 86. "
            "Deep sleep current, Unit = µA. Normal mode current, Typ = 180. Normal mode current, Unit = mA")
    rows = [u for u in block_units(1, text) if u.kind == "row"]
    assert [u.text for u in rows] == ["Deep sleep current | I DS | 86 | µA", "Normal mode current |  | 180 | mA"]
    assert "86 µA" in rows[0].value_text() and rows[0].display() == "Deep sleep current; Symbol: I DS; Typ: 86 µA"


def test_a_yes_no_question_that_also_asks_what_is_not_only_yes_or_no() -> None:
    assert analyse("Can I power the Zephyr Hat from 24 V?").yes_no
    both = analyse("Can I power the Zephyr Hat from 24 V on its terminal, and what input range does it accept?")
    assert not both.yes_no and both.wants_value
    assert analyse("Will the Zephyr Hat keep logging outdoors, when it gets down to -10 °C at night?").yes_no
    assert analyse("Can the Zephyr Hat stay in the cabinet, where it reaches 60 °C?").yes_no  # "when", "where": a setting
    assert not analyse("Can I power the Zephyr Hat from 24 V, and when does its regulator cut out?").yes_no
    assert not analyse("Is the Zephyr Hat rated for 24 V, which connector takes it?").yes_no



def test_a_request_worded_as_a_question_is_no_yes_no_question() -> None:
    assert not analyse("Can you give me the key specs of the Zephyr Core?").yes_no  # it asks for the facts
    assert not analyse("Could you please summarize the power options of the Zephyr Hat?").yes_no
    assert not analyse("Can you tell me which sensor the Zephyr Core uses?").yes_no
    assert analyse("Can you tell me whether the Zephyr Core takes 12 V?").yes_no  # still a yes or a no
    assert analyse("Can I get video out over USB-C on the Zephyr Core?").yes_no  # what the user can do
    assert analyse("Would you pick the Zephyr Core or the Zephyr Hat?").yes_no  # a choice: its own path

def test_a_code_in_brackets_after_a_name_is_another_name_of_it_not_a_word_of_it() -> None:
    q = analyse("What supply voltage can I feed into the Zephyr Core (ZX00042)?")
    assert q.phrases == [["Zephyr", "Core"]] and q.parts == ["ZX00042"]
    core = "Power\nThe board takes a 7-15 V unregulated supply voltage on VIN."  # the datasheet never repeats its code
    text = _answer("What supply voltage can I feed into the Zephyr Core (ZX00042)?",
                   ("Zephyr Core", core), ("Zephyr Core", "Ordering\nZephyr Core | ZX00042 | kit"))
    assert "7-15 V" in text


def test_a_reply_giving_no_number_for_a_question_asking_a_quantity_gives_way_to_the_closest_passages() -> None:
    from kgrag.answering.grounding import lacks_asked_value

    assert lacks_asked_value("How much does the Zephyr Ranger cost?", "The Zephyr Ranger costs approximately [1] USD.")
    assert lacks_asked_value("How heavy is the Zephyr Ranger?", "The Zephyr Ranger is a lightweight sensor [1].")
    assert not lacks_asked_value("How many relays does the Zephyr Core have?", "It has two relays [1].")
    assert not lacks_asked_value("Why does the Zephyr Ranger use time-of-flight?", "It measures distance [1].")
    question = "How bright is the Zephyr 20 Display's backlight, in nits?"  # a unit the question writes asks a value
    assert lacks_asked_value(question, "The Zephyr 20 Display's backlight is driven by the LED driver (U3) [2].")
    assert not lacks_asked_value(question, "The backlight reaches 350 nits [2].") and not lacks_asked_value(
        "How sensitive is the Zephyr 20 receiver (in dBm)?", "It receives down to -96 dBm [1].")
    question = "How heavy is the Zephyr Ranger?"
    llm = FakeLLM(replies=["The Zephyr Ranger is a light sensor for robots [1]."])
    answer = generate_answer(llm, question, _context(question, ("Zephyr Ranger", RANGER)), mode="auto", focus_tokens=300)
    assert llm.calls == 1 and "closest passages" in answer.text and not answer.grounded


def test_a_question_word_meets_the_same_word_stem_in_the_context() -> None:
    from kgrag.answering.terms import question_coverage

    context = 'The Zephyr Panel TFT display has a 3.97" diagonal size; measurements in mm.'
    assert question_coverage("How big is the Zephyr Panel measured diagonally?", context) == 1 - 1 / 5  # all but "big"
    units = [Unit(block=1, pos=0, text="The panel connects over DSI.", kind="sentence"),
             Unit(block=1, pos=1, text='The TFT display has a 3.97" diagonal size.', kind="sentence")]
    from kgrag.answering.select import score_units

    scored = score_units("How big is the Zephyr Panel measured diagonally?", units, {1: "Zephyr Panel"})
    assert [s.attributes > 0 for s in sorted(scored, key=lambda s: s.unit.pos)] == [False, True]
    # a rating written as its code: "IP rating" meets "IP30", and the row labelled "Ingress protection" ranks first
    rows = "Parameter | Value\nWeight | 420 g\nIngress protection | IP30"
    assert question_coverage("What is the IP rating of the Zephyr Panel?", rows + " Zephyr Panel") == 1 - 1 / 4
    specs = [Unit(block=1, pos=0, text="Weight | 420 g", kind="row", header="Parameter | Value"),
             Unit(block=1, pos=1, text="Ingress protection | IP30", kind="row", header="Parameter | Value")]
    best = score_units("What is the IP rating of the Zephyr Panel?", specs, {1: "Zephyr Panel"})[0]
    assert best.unit.text == "Ingress protection | IP30"
    q = analyse("What IP rating does the Zephyr Panel have?")  # the kind of rating asked, not a name
    assert q.names == ["Zephyr", "Panel"] and {"ip", "rating"} <= q.attributes
    item = ContextItem("chunk", "Zephyr Panel specifications\n" + rows, 0.5, "c1", "d-c1", {"path": "c1.pdf", "title": "Zephyr Panel"})
    answer = generate_answer(FakeLLM(replies=[]), q.text, Context(question=q.text, strategy="test", items=[item],
                                                                  tokens=40, budget=2000), mode="auto", focus_tokens=300)
    assert answer.text.startswith("Zephyr Panel: Parameter: Ingress protection; Value: IP30 [1]"), answer.text


def test_a_value_only_a_sibling_models_document_gives_is_not_an_answer_for_the_asked_model() -> None:
    """No document is about the QT-40, one is about the QT-20 of its series: the QT-20's "9 Hz" is no frame rate
    of the QT-40; asked of the QT-20 it is, and a source about neither decides nothing."""
    from kgrag.answering.grounding import values_of_other_products

    sources = [("Application Note 12: Reading the QT-20 over Modbus", "The camera updates its frame at 9 Hz."),
               ("Accessory compatibility", "Accessory | QT-20 | QT-40\nWall bracket | yes | no")]
    assert values_of_other_products("The QT-40 frame rate is 9 Hz [1].", "frame rate of the QT-40?", sources) == ["9"]
    assert values_of_other_products("The QT-20 frame rate is 9 Hz [1].", "frame rate of the QT-20?", sources) == []
    assert values_of_other_products("It is 9 Hz [1].", "frame rate of the QT-40?", sources[1:]) == []
    series = [("QT-400 Series parts and prices", "Part | QT-440 | 48.00 GBP")]  # a series' document is the model's
    assert values_of_other_products("It costs 48.00 GBP [1].", "price of the QT-440?", series + sources) == []


def test_a_value_only_another_products_document_gives_is_not_an_answer_for_the_asked_product() -> None:
    from kgrag.answering.grounding import values_of_other_products

    sources = [("Zephyr Eye", "The Zephyr Eye has a 2 MP camera."), ("Zephyr Scope", "Its camera runs at 60 fps.")]
    assert values_of_other_products("The Zephyr Eye camera runs at 60 fps [2].",
                                    "What frame rate does the Zephyr Eye camera reach?", sources) == ["60"]
    assert values_of_other_products("The Shield runs at 60 fps [2].",  # both asked: either may give it
                                    "Which is faster, the Zephyr Eye or the Zephyr Scope?", sources) == []
    assert values_of_other_products("It runs at 60 fps [2].", "What frame rate does the Zephyr Eye Pro reach?",
                                    sources) == []  # no source is about the asked product: nothing to judge
    ratings = [("Zephyr Eye", "The Zephyr Eye has a 2 MP camera."), ("Zephyr Scope", "Its enclosure is rated IP20.")]
    assert values_of_other_products("The Zephyr Eye is rated IP20 [2].", "What IP rating does the Zephyr Eye have?",
                                    ratings) == ["IP20"]  # a rating or chip name borrowed from another product
    facts = "Zephyr Scope (Product)\nreceiver sensitivity | -139 dBm (Min)\ntransmit power | 27 dBm (Max)"
    assert values_of_other_products("The Zephyr Eye receives down to -139 dBm [1].",  # "(Min)" ends a fact line
                                    "What is the receiver sensitivity of the Zephyr Eye (in dBm)?",
                                    [("", facts), sources[0]]) == ["139"]
    part = "QX9 (Component, in Zephyr Scope)\nrx sensitivity | -139 dBm (Min)"  # a part of another product
    assert values_of_other_products("The Zephyr Eye receives down to -139 dBm [1].",
                                    "What is the receiver sensitivity of the Zephyr Eye (in dBm)?",
                                    [("", part), sources[0]]) == ["139"]
    question = "What frame rate does the Zephyr Eye camera reach?"
    llm = FakeLLM(replies=["The Zephyr Eye camera runs at 60 fps [2]."])
    context = _context(question, *((t, f"{t}\n{x}") for t, x in sources))
    answer = generate_answer(llm, question, context, mode="auto", focus_tokens=300)
    assert "closest passages" in answer.text and answer.context.info["values_of_other_products"] == ["60"]


def test_a_comparison_quotes_both_products_and_says_which_is_larger() -> None:
    question = "Which has more flash memory, the Zephyr Core or the Zephyr Mini?"
    q = analyse(question)
    assert q.compares == [["Zephyr", "Core"], ["Zephyr", "Mini"]]
    core = "Zephyr Core memory\nFlash memory | 256 KB\nSRAM | 32 KB"
    mini = "Zephyr Mini memory\nFlash memory | 48 KB\nSRAM | 6 KB"
    text = _answer(question, ("Zephyr Mini", mini), ("Zephyr Core", core))  # no LLM: both sides are quoted
    assert "256 KB [2]" in text and "48 KB [1]" in text
    assert text.endswith("Zephyr Core: 256 KB, more than Zephyr Mini (48 KB).")
    assert not analyse("What is the flash memory of the Zephyr Core?").compares


def test_a_comparison_of_ranges_quotes_both_without_a_verdict() -> None:
    question = "Which is rated for the lower operating temperature, the Zephyr Core or the Zephyr Mini?"
    core = "Zephyr Core ratings\nOperating temperature | -20 to +70 °C"
    mini = "Zephyr Mini ratings\nOperating temperature | -40 to +85 °C"
    text = _answer(question, ("Zephyr Core", core), ("Zephyr Mini", mini))
    assert "-20 to +70 °C [1]" in text and "-40 to +85 °C [2]" in text and "lower than" not in text


def test_a_comparison_of_range_widths_says_which_range_is_wider() -> None:
    """"Between the A and the B, which one is rated for the wider operating temperature range?": both ranges quoted,
    then the wider one, also when a datasheet writes its limits in words and with "℃"."""
    question = "Between the Zephyr Core and the Zephyr Mini, which one is rated for the wider operating temperature range?"
    assert analyse(question).compares == [["Zephyr", "Core"], ["Zephyr", "Mini"]]
    core = "Zephyr Core ratings\nOperating temperature | -20 to +70 °C"
    mini = "Zephyr Mini notes\nThe operating temperature can't exceed 85℃ and shouldn't be lower than -40℃."
    text = _answer(question, ("Zephyr Core", core), ("Zephyr Mini", mini))
    assert "-20 to +70 °C [1]" in text and text.endswith("Zephyr Mini: -40 to 85 °C, wider than Zephyr Core (-20 to 70 °C)."), text
    narrower = _answer(question.replace("wider", "narrower"), ("Zephyr Core", core), ("Zephyr Mini", mini))
    assert narrower.endswith("Zephyr Core: -20 to 70 °C, narrower than Zephyr Mini (-40 to 85 °C)."), narrower


def test_a_request_to_compare_or_a_value_compared_with_another_quotes_both() -> None:
    """"Compare the operating temperature of the A and the B" and "… of the A compared with the B" ask each side's
    value, as "which is lower" does, though neither asks for a verdict."""
    core = "Zephyr Core ratings\nOperating temperature | -20 to +70 °C"
    mini = "Zephyr Mini ratings\nOperating temperature | -40 to +85 °C"
    for question in ("Compare the operating temperature of the Zephyr Core and the Zephyr Mini",
                     "What is the operating temperature of the Zephyr Core compared with the Zephyr Mini?"):
        assert analyse(question).compares == [["Zephyr", "Core"], ["Zephyr", "Mini"]]
        text = _answer(question, ("Zephyr Core", core), ("Zephyr Mini", mini))
        assert "-20 to +70 °C [1]" in text and "-40 to +85 °C [2]" in text


def test_an_asked_word_no_passage_has_does_not_count_against_a_unit() -> None:
    from kgrag.answering.select import score_units

    units = [Unit(block=1, pos=0, text="Humidity sensor | QH221", kind="row"),
             Unit(block=1, pos=1, text="The board is small.", kind="sentence")]
    best = score_units("Which humidity sensor is fitted on the Zephyr Core?", units, {1: "Zephyr Core"})[0]
    assert best.unit.pos == 0 and best.attributes == 1.0  # "fitted" is in no passage


def test_conversational_function_words_are_not_asked_terms() -> None:
    from kgrag.answering.words import content_terms

    terms = content_terms("If I run the Zephyr Core off a battery, roughly how long can it keep going?")
    assert not terms & {"if", "off", "roughly", "going"} and {"battery", "zephyr", "core"} <= terms


def test_a_lead_in_sentence_before_a_table_says_what_its_rows_are_about() -> None:
    text = "Below is a summary of the board's buzzer features.\n\nFeature | Description\nModel | QB-5020\nSound Level | 75 dB at 10 cm"
    rows = [u for u in block_units(1, text) if u.kind == "row"]
    assert rows and all("buzzer features" in u.scoped() for u in rows)
    answer = _answer("How loud is the buzzer on the Zephyr Tag?", ("Zephyr Tag", "Zephyr Tag\n\n" + text))
    assert "75 dB" in answer  # "loud" asks a sound level; the row is about the buzzer by its lead-in


def test_the_greek_mu_is_the_micro_sign_of_a_unit() -> None:
    assert value_dimensions("UWB DPD mode | typ 30 μA") == {"current"} == value_dimensions("30 µA")


def test_gathered_facts_are_judged_by_the_product_each_group_is_about() -> None:
    from kgrag.answering.grounding import values_of_other_products

    facts = "Zephyr Scope (Product)\nip rating | IP20\nQM270 (Sensor)\nin product | Zephyr Eye Rev2 [3]"
    sources = [("Zephyr Eye", "The Zephyr Eye has a 9-axis IMU."), ("", facts)]
    assert values_of_other_products("The Zephyr Eye is rated IP20 and uses the QM270 [1].",
                                    "What IP rating and IMU does the Zephyr Eye have?", sources) == ["IP20", "QM270"]
    own = "Zephyr Eye (Product)\nip rating | IP20"
    assert values_of_other_products("The Zephyr Eye is rated IP20 [2].", "What IP rating does the Zephyr Eye have?",
                                    [("Zephyr Eye", "The Zephyr Eye has a 9-axis IMU."), ("", own)]) == []


def test_a_hyphenated_count_counts_its_thing_and_a_range_does_not() -> None:
    from kgrag.answering.extract import states_count

    assert states_count("point", "5-point and gesture support")
    assert not states_count("input", "4-20mA input 3")
    assert not states_count("output", "Relay response time: 6 ms for relay output")  # a number with a unit measures
    assert states_count("relay", "The board has 4 relays") and states_count("led", "8× LC8822-2020 RGB LEDs")


def test_a_fact_subject_without_the_vendor_word_names_the_asked_product() -> None:
    from kgrag.answering.names import title_names

    assert title_names(["Arduino", "Stella"], "Stella") and title_names(["Nicla", "Vision"], "Arduino Nicla Vision")
    assert not title_names(["Nano", "33", "BLE"], "Arduino Nano 33 BLE Sense")
    assert title_names(["Zephyr", "Breakout"], "Arduino Zephyr Breakout Board")  # a kind word after the name
    assert not title_names(["Zephyr", "Mid"], "Arduino Zephyr Mid Carrier Proto Shield")  # another product's words


def test_a_title_naming_a_product_by_its_name_and_model_codes_names_it() -> None:
    """"Zephyr Analog Expansion A0602" is the "Zephyr Analog Expansion" a question asks about by its order code: its
    passages came after another product's on the asked topic. A chip or a generation after a name is another product."""
    from kgrag.answering.names import title_names

    assert title_names(["Zephyr", "Analog", "Expansion"], "Zephyr Analog Expansion A0602")
    assert title_names(["Zephyr", "Digital", "Expansion"], "Zephyr Digital Expansion D1608E - D1608S")
    assert not title_names(["Zephyr"], "Zephyr ESP32") and not title_names(["Zephyr"], "Zephyr C33")


def test_a_value_question_naming_nothing_is_not_quoted() -> None:
    units = [Unit(block=1, pos=0, text="Encoder range | 360° (continuous rotation)", kind="row")]
    ranked = [Scored(units[0], score=1.0, attributes=1.0, names=0.0)]
    assert try_extract(analyse("What parameters influence how the rotation behaves?"), ranked, {1: "Zephyr Knob"}) is None


def test_a_comparison_after_a_long_preamble_is_read_by_its_compared_quantity() -> None:
    from kgrag.answering.compare import compared_quantity

    question = ("I need a board that survives a cold outdoor enclosure. Which is rated for the lower operating "
                "temperature, the Zephyr Core or the Zephyr Mini?")
    assert compared_quantity(question) == {"operating", "temperature"}
    core = ("The Zephyr Core board fits an outdoor enclosure.\n\nZephyr Core ratings\n"
            "Operating temperature | -20 to +70 °C")
    mini = "The Zephyr Mini board is rated for cold rooms.\n\nZephyr Mini ratings\nOperating temperature | -40 to +85 °C"
    text = _answer(question, ("Zephyr Core", core), ("Zephyr Mini", mini))  # no LLM: both sides quoted
    assert "-20 to +70 °C [1]" in text and "-40 to +85 °C [2]" in text


def test_a_name_the_question_sets_aside_is_not_asked_and_a_revision_is_no_part() -> None:
    q = analyse("What IMU part does the original Zephyr Core (ZX00030, not the Rev2) use?")
    assert q.phrases == [["Zephyr", "Core"]] and "Rev2" not in q.names and q.parts == ["ZX00030"]
    units = [Unit(block=1, pos=0, text="The IMU section is shared with the Zephyr Core Rev2.", kind="sentence"),
             Unit(block=1, pos=1, text="It carries an Arm Cortex-M4F and a 9-axis IMU.", kind="sentence")]
    ranked = [Scored(u, score=1.0, attributes=1.0, names=1.0) for u in units]
    assert try_extract(q, ranked, {1: "Zephyr Core"}) is None  # "Rev2" names no IMU; the M4F is four words away


def test_a_count_of_the_asked_thing_needs_fewer_of_the_asked_words() -> None:
    q = analyse("How many simultaneous touch points does the Zephyr Panel's capacitive screen support?")
    unit = Unit(block=1, pos=0, text="5-point and gesture support", kind="sentence")
    found = try_extract(q, [Scored(unit, score=1.0, attributes=0.25, names=0.67)], {1: "Zephyr Panel"})
    assert found is not None and "5-point" in found.text


def test_a_count_of_a_thing_no_source_names_is_no_answer() -> None:
    """"How many detents …" over passages that never say "detent": the reply's "360" counts something else."""
    from kgrag.answering.grounding import count_unstated, reply_problems

    sources = [("Zephyr Knob", "The rotary encoder turns 360° (continuous rotation). It has 2 push switches.")]
    question = "How many detents per full turn does the rotary encoder on the Zephyr Knob have?"
    assert reply_problems(question, "It has 360° (continuous rotation) [1].", sources)["count_unstated"]
    assert not count_unstated("How many push switches does the Zephyr Knob have?", [sources[0][1]])
    assert not count_unstated("How many touch points does it support?", ["5-point touch and gestures"])
    assert not count_unstated("What is the rotation range?", [sources[0][1]])
    assert not count_unstated("How many lanes does J5 route, and what size is the display?", [sources[0][1]])  # more


def test_a_value_the_question_writes_names_a_pin_and_is_no_answer() -> None:
    from kgrag.answering.grounding import lacks_asked_value

    question = "What is the maximum input voltage on the 24V IN pin of the Zephyr Control?"
    rows = ["1 | 24V IN | - | Input voltage: not isolated from the board input",
            "V INMax | Input voltage on the 24V IN pin | 0 | - | 35 | V"]
    assert _best(question, rows).startswith("V INMax")
    assert lacks_asked_value(question, "The 24V IN pin is not galvanically isolated [1].")
    assert not lacks_asked_value(question, "The 24V IN pin accepts up to 35 V [1].")


def test_a_question_asking_a_type_wants_a_name_not_a_measured_value() -> None:
    q = analyse("What is the USB connector type of the Zephyr Mini?")
    assert q.wants_name and not analyse("What type of voltage regulator output voltage does it have?").wants_name
    unit = Unit(block=1, pos=0, text="input voltage from usb connector | 4.8 to 5.5 V", kind="row")
    assert try_extract(q, [Scored(unit, score=1.0, attributes=1.0, names=1.0)], {1: "Zephyr Mini"}) is None


def test_a_word_opening_a_second_sentence_and_a_gas_formula_are_not_names() -> None:
    q = analyse("Which is more accurate: the Zephyr Core or the Zephyr Mini? Give both accuracies.")
    assert "Give" not in q.names and q.compares == [["Zephyr", "Core"], ["Zephyr", "Mini"]]
    gas = analyse("Which sensor chip on the Zephyr Air measures indoor air quality (TVOC, CO2)?")
    assert "CO2" not in gas.names and not gas.parts and "co2" in gas.attributes
    assert analyse("What is the flash of the Zephyr H7?").names == ["Zephyr", "H7"]  # a designator is no formula


def test_the_unit_of_a_value_the_question_writes_is_not_a_name() -> None:
    """"60 V / 2.5 A relays", "its 24 V DC plug": the letters measure a value; as names they halved every passage's
    name score (a passage without a "V" near it counted as about another product)."""
    relays = analyse("Which board comes with four isolated 60 V / 2.5 A solid-state relays at 24 V DC?")
    assert relays.names == [] and relays.phrases == []
    jack = analyse("What size barrel jack does the Zephyr Max use for its 24 V power plug?")
    assert jack.names == ["Zephyr", "Max"] and jack.phrases == [["Zephyr", "Max"]]
    assert analyse("Does the Zephyr C33 run at 5 V?").names == ["Zephyr", "C33"]


def test_units_after_a_range_or_a_data_rate_and_names_in_a_list_are_read_as_written() -> None:
    """"in the 863-870 MHz band", "1000 Mbit/s": units, not names; "each UART, SPI and CAN header": three names, not
    one of three words; "the Oplà Kit": the accented word whole."""
    band = analyse("What output power is listed for the Zephyr Max in the 863-870 MHz band?")
    assert band.names == ["Zephyr", "Max"] and "power" in band.dimensions
    assert analyse("I need 1000 Mbit/s wired networking on the Zephyr Max.").phrases == [["Zephyr", "Max"]]
    listed = analyse("On the Zephyr Max, each UART, SPI and CAN header holds two channels.")
    assert listed.phrases == [["Zephyr", "Max"], ["UART"], ["SPI"], ["CAN"]]
    assert analyse("How accurate is the Oplà Kit?").phrases == [["Oplà", "Kit"]]


def test_an_acronym_with_a_small_linking_letter_is_vocabulary_not_a_name() -> None:
    """"What SoC is it built on?", "its ToF sensor", "PoE": acronyms of the trade written with a small "o" for "on" or
    "of", which datasheets spell out ("system on chip"); a product name such a question writes is still checked."""
    from kgrag.answering.unknown_names import missing_names

    text = "zephyr max\nthe zephyr max is built on a qx-9 system on chip with a time-of-flight sensor."
    for question in ("What SoC is the Zephyr Max built on?", "How far does the ToF sensor of the Zephyr Max reach?"):
        q = analyse(question)
        assert missing_names(q.text, q, text) == [], question
    q = analyse("What SoC is the Zephyr Mega built on?")
    assert missing_names(q.text, q, text) == ["Zephyr Mega"]


def test_a_plural_acronym_after_a_name_is_the_products_kind() -> None:
    """"the Zephyr Opta PLCs": the Zephyr Opta products, a kind the documents write ("a secure micro PLC"); the name
    before it is still checked."""
    from kgrag.answering.unknown_names import missing_names

    plc = "zephyr opta\nthe zephyr opta is a secure micro plc with 8 inputs."
    q = analyse("What MTBF do you publish for the Zephyr Opta PLCs?")
    assert missing_names(q.text, q, plc) == []
    q = analyse("What MTBF do you publish for the Zephyr Mega PLCs?")
    assert missing_names(q.text, q, plc) == ["Zephyr Mega"]


def test_a_name_written_without_its_hyphen_or_as_a_plural_acronym_is_found() -> None:
    """"my LiPo" where the datasheet writes "Li-Po", "VOCs" for "VOC", a "USB-C-to-HDMI adapter" where it names
    USB-C and HDMI: the documents mention them; a name they never write is still missing."""
    from kgrag.answering.unknown_names import missing_names

    text = "zephyr max\nsingle-cell li-ion/li-po battery. the voc index. usb-c port with hdmi output over an adapter."
    for question in ("Which connector takes my LiPo on the Zephyr Max?", "Does the Zephyr Max report VOCs?",
                     "Can I use a USB-C-to-HDMI adapter with the Zephyr Max?"):
        q = analyse(question)
        assert missing_names(q.text, q, text) == [], question
    q = analyse("Does the Zephyr Max speak CANopen?")
    assert missing_names(q.text, q, text) == ["CANopen"]
    from kgrag.answering.names import name_found

    assert name_found("LiPo", "a li-po cell") and not name_found("Wi-Fi", "the wifi module")  # a written hyphen stays
    assert name_found("QX-220", "acme_qx220_user_manual") and name_found("QX-220", "qx 220 spare set")  # a model code
    assert not name_found("QX-220", "acme_qx_22_manual")  # as a file name writes it, not another number


def test_a_family_code_with_x_for_its_last_digits_names_each_model_of_the_family() -> None:
    from kgrag.answering.names import name_found

    assert name_found("QX-340", "qx-3xx room controllers") and name_found("QX-340", "reads qx3xx.cfg")
    assert name_found("QX-340", "the qx-34x series") and name_found("ZF407", "zf4xx reference manual")
    assert not name_found("QX-340", "the qx-35x series") and not name_found("QX-340", "qx-3xxx")  # another family
    assert not name_found("QX-340", "qx-xxx")  # no digit of the code kept: every product would be one


def test_how_long_a_name_may_be_is_answered_in_characters_not_by_a_time() -> None:
    cli = ("QX command reference", "system name <text>\nSets the device tag name shown on the display.\n"
           "Range : 1 to 32 characters\nDefault : QX")
    warranty = ("QX warranty policy", "The warranty of the QX can be extended by a further 24 months with the Plus extension.")
    assert _answer("How long can the QX tag name be?", cli, warranty).startswith(
        "QX command reference: Range : 1 to 32 characters [1].")


def test_the_size_limit_of_a_file_is_quoted_for_a_model_its_family_code_covers() -> None:
    reference = ("QX-3xx configuration file reference: qx3xx.cfg",
                 "QX-3xx room controllers (QX-310, QX-340) read their settings from the file /cfg/qx3xx.cfg.\n"
                 "File rules:\n- Comments start with ';' or '#'.\n- Maximum file size is 16 KB.")
    manual = ("QX-340 installation manual", "The QX-340 weighs 140 g. Mount the QX-340 on a wall box.")
    assert _answer("How big can qx3xx.cfg be?", reference, manual).startswith(  # a size in KB answers "how big"
        "QX-3xx configuration file reference: qx3xx.cfg: - Maximum file size is 16 KB [1].")
    # the family's reference is about the QX-340: its limit is among the passages, not left for the other manual
    assert "16 KB" in _answer("What is the largest config file the QX-340 accepts?", reference, manual)


def test_words_of_the_trade_and_hyphen_free_spellings_are_no_missing_names() -> None:
    """"from my PC", "the RTC battery", "a USB-A stick", "5V": acronyms and values a user writes, which documents spell
    out ("real-time clock") or never need, do not make the context "not mention" the question's subject; "Li-Po" and
    "Micro-USB" are found where the datasheet writes "LiPo" and "micro USB". A product's name is still checked."""
    from kgrag.answering.unknown_names import missing_names

    text = "zephyr max\nsingle-cell lipo battery. real-time clock with a coin cell. micro usb port for programming."
    for question in ("Which port of the Zephyr Max do I use to program it from my PC?",
                     "Which coin cell keeps the RTC of the Zephyr Max running?", "Can the Zephyr Max read a USB-A stick?",
                     "Can I feed 5V into the Zephyr Max?", "Which Li-Po fits the Zephyr Max?",
                     "Where is the Micro-USB port on the Zephyr Max?"):
        q = analyse(question)
        assert missing_names(q.text, q, text) == [], question
    q = analyse("What's the difference between the two Zephyr Max SKUs?")
    assert missing_names(q.text, q, text) == []  # a catalogue word after the name names nothing
    q = analyse("Can the Zephyr Max drive an Alvik robot?")
    assert missing_names(q.text, q, text) == ["Alvik"]
    q = analyse("Is the Zephyr Max ME more accurate?")
    assert missing_names(q.text, q, text) == ["Zephyr Max ME"]  # an acronym inside a product's name still counts


def test_a_slash_joined_pair_of_words_is_also_each_word() -> None:
    """"2x 8-bit Timer/Counter" answers "how many hardware timers"; "I/O" stays one term (single letters are no words)."""
    from kgrag.answering.words import content_terms, term_list

    assert {"timer", "counter", "timer/counter"} <= set(term_list("2x 8-bit Timer/Counter with compare channels"))
    assert "timer" in content_terms("1x 16-bit Timer/Counter") and "i/o" in content_terms("14 digital I/O pins")
    assert "o" not in term_list("I/O")


def test_an_identifier_of_software_documents_is_also_its_words() -> None:
    """"default apdu timeout" meets the key "bacnet.apdu_timeout_ms" and "read points" the method
    "Session.read_points()"; a value ("3.3V", "v3.1.2") is no identifier and stays whole."""
    from kgrag.answering.words import content_terms, term_list

    assert {"bacnet", "apdu", "timeout", "ms"} <= set(term_list("bacnet.apdu_timeout_ms = 6000"))
    assert {"session", "read", "point"} <= content_terms("Call Session.read_points() with a list")
    assert term_list("3.3V rail, firmware v3.1.2") == ["3.3v", "rail", "firmware", "v3.1.2"]


def test_a_name_written_with_a_slash_is_found_when_each_side_is() -> None:
    from kgrag.answering.unknown_names import missing_names

    question = "Which microcontroller drives the onboard J-Link/Blackmagic debugger of the Zephyr Max?"
    text = "zephyr max\nthe j-link debugger is compatible with segger j-link ob and blackmagic probes."
    assert missing_names(question, analyse(question), text) == []


def test_a_tables_abbreviation_is_the_word_a_question_writes_in_full() -> None:
    """"Power consumption (max.)" answers "maximum power consumption", "hardware rev A/B" "hardware revision B";
    "15 min" stays minutes (no "min" -> "minimum")."""
    from kgrag.answering.words import content_terms

    assert {"maximum", "revision", "typical", "firmware"} <= content_terms("Power (max.), rev A, typ. 3 V, fw update")
    assert "minimum" not in content_terms("warm-up 15 min")


def test_a_pair_joined_by_to_is_found_when_each_side_is() -> None:
    """"the v3-to-v2 rollback": the guide writes "roll back from v3 to v2", never "v3-to-v2"; the question is not
    refused for naming a part the documents lack."""
    from kgrag.answering.names import name_found

    text = "rollback from v3 to v2: load the v2 image. the rs-232 port and the rs-485 port"
    assert name_found("v3-to-v2", text) and name_found("RS-232-to-RS-485", text)
    assert not name_found("v3-to-v4", text)
    question = "Summarize the v3-to-v2 rollback procedure and its limitations."
    answer = generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), question, Context(
        question=question, strategy="test", items=[ContextItem("chunk", "8 Rollback procedure\nThe rollback from v3 to "
                                                               "v2 has limitations: settings are reset. To roll back, "
                                                               "load the v2 image in the tool.", 0.5,
                                                               "c1", "d-c1", {"title": "Migration guide"})],
        tokens=40, budget=2000), mode="auto", focus_tokens=300)
    assert "missing_parts" not in answer.context.info and "load the v2 image" in answer.text, answer.text


def test_a_row_reads_its_numbers_with_their_unit_cell() -> None:
    headed = Unit(block=1, pos=0, text="I 3V3 | 3.3V output current | - | - | 800 | mA", kind="row",
                  header="Symbol | Description | Min | Typ | Max | Unit")
    assert headed.display() == "Symbol: I 3V3; Description: 3.3V output current; Min: -; Typ: -; Max: 800 mA"
    bare = Unit(block=1, pos=0, text="Average current during image capture | 105 | mA", kind="row")
    assert bare.display() == "Average current during image capture: 105 mA"


def test_an_order_code_is_no_answer_to_which_part() -> None:
    q = analyse("Which time-of-flight sensor chip does the Zephyr Ranger use?")
    unit = Unit(block=1, pos=0, text="ZX00102 | Zephyr Ranger | Time-of-flight sensor | 1", kind="row",
                header="SKU | Name | Purpose | Quantity")
    assert try_extract(q, [Scored(unit, score=1.0, attributes=1.0, names=1.0)], {1: "Zephyr Ranger"}) is None


def test_two_products_asked_each_are_quoted_side_by_side() -> None:
    question = "How much EEPROM do the Zephyr Core and the Zephyr Mini each have?"
    core = "Zephyr Core memory\nThe Zephyr Core has 1 kB EEPROM."
    mini = "Zephyr Mini memory\nThe Zephyr Mini has 4 kB EEPROM."
    text = _answer(question, ("Zephyr Core", core), ("Zephyr Mini", mini))  # no LLM: both sides quoted
    assert "1 kB EEPROM [1]" in text and "4 kB EEPROM [2]" in text
    same = analyse("The Zephyr Core and the Zephyr Mini look alike. Do they take the same supply voltage?")
    assert same.compares == [["Zephyr", "Core"], ["Zephyr", "Mini"]]  # both sides are asked: no one-sided quote
    q = analyse("What supply voltage does the Zephyr Core take?")
    assert not q.compares


def test_a_product_the_documents_only_list_is_not_answered_from_other_products() -> None:
    question = "Which microcontroller is on the Zephyr Max WiFi?"
    listing = ("Related Products\nArduino Zephyr Max WiFi (SKU: ZX00087)\nArduino Zephyr Mini (SKU: ZX00012)\n\n"
               "Host boards (e.g., Arduino Zephyr Max WiFi) read the knob over I2C.")
    knob = "Zephyr Knob\nThe on-board MCU (QX32C011) reads the encoder."
    text = _answer(question, ("Zephyr Knob", listing), ("Zephyr Knob", knob))  # no LLM reply: it is not asked
    assert text.startswith("The documents found do not describe (they only list) Zephyr Max WiFi")
    described = _answer("Which microcontroller is on the Zephyr Mini?", ("Zephyr Mini", "Zephyr Mini\nMCU | QX32C011"),
                        replies=["The Zephyr Mini uses the QX32C011 [1]."])
    assert "QX32C011" in described and "do not describe" not in described


def test_a_product_named_after_its_chip_is_not_found_by_the_chip_alone() -> None:
    from kgrag.answering.unknown_names import missing_names

    question = "How much flash does the Arduino Zephyr QX32 have?"
    assert missing_names(question, analyse(question), "the qx32 module is used on the zephyr mini.") == [
        "Arduino Zephyr QX32"]
    vendor = "Which crypto chip is the Microchip QX608A?"
    assert missing_names(vendor, analyse(vendor), "crypto | qx608a") == []


def test_a_sentence_cut_by_a_line_break_stays_one_unit() -> None:
    text = ("3.3 Debugger\nThe debugger is compatible with J-Link OB probes, driven by the\n"
            "QX405 controller (U15). Firmware updates go over SWD.\nUp to 16 MIPS at 16 MHz\n4k bytes EEPROM")
    sentences = [u.text for u in block_units(1, text) if u.kind == "sentence"]
    assert "The debugger is compatible with J-Link OB probes, driven by the QX405 controller (U15)." in sentences
    assert "Up to 16 MIPS at 16 MHz" in sentences and "4k bytes EEPROM" in sentences  # list lines stay apart


def test_a_passage_listing_two_parts_values_gives_the_first_listed_the_main_part() -> None:
    assert has_value("8k bytes Internal SRAM") and value_dimensions("4k bytes EEPROM") == {"memory"}
    q = analyse("How much SRAM does the Zephyr 2560 have?")
    units = [Unit(block=1, pos=3, text="8k bytes Internal SRAM", kind="sentence"),
             Unit(block=1, pos=9, text="512 bytes SRAM", kind="sentence")]  # the USB bridge chip, listed after
    ranked = [Scored(units[1], score=0.9, attributes=1.0, names=0.5), Scored(units[0], score=0.6, attributes=1.0, names=0.5)]
    found = try_extract(q, ranked, {1: "Zephyr 2560"})
    assert found is not None and found.unit.text == "8k bytes Internal SRAM"


def test_the_closest_passages_shown_instead_of_an_answer_are_the_six_best() -> None:
    """Six, so the closest passages are about as long as a model's answer with its four key passages."""
    from kgrag.answer import quote_answer

    units = [Unit(block=n, pos=0, text=f"The Zephyr Core detail number {n} is documented here.", kind="sentence")
             for n in range(1, 9)]
    ranked = [Scored(u, score=1.0 - 0.1 * n, attributes=0.5, names=0.5) for n, u in enumerate(units)]
    text = quote_answer(ranked)
    assert all(f"[{n}]" in text for n in range(1, 7)) and "[7]" not in text


def test_a_quoted_sentence_travels_with_its_neighbours_on_the_same_line() -> None:
    from kgrag.answer import quote_answer

    line = ["Pins closer to the edge of the board are CAN0.", "Pins close to the center are CAN1.",
            "When used with the Zephyr H7, only CAN1 is available.", "Here are its pins:"]
    units = [Unit(block=1, pos=i, text=t, kind="sentence", line=0) for i, t in enumerate(line)]
    units.append(Unit(block=1, pos=4, text="The Zephyr Breakout ships without any headers fitted.", kind="sentence", line=1))
    scores = [0.2, 0.9, 0.8, 0.1, 0.5]  # the best sentence is the middle one of its line; its neighbour ranks next
    ranked = sorted((Scored(u, score=s) for u, s in zip(units, scores, strict=True)), key=lambda s: -s.score)
    text = quote_answer(ranked)
    assert text.startswith("Pins closer to the edge of the board are CAN0. Pins close to the center are CAN1. "
                           "When used with the Zephyr H7, only CAN1 is available [1].")
    assert text.count("CAN1 is available") == 1  # the neighbour already quoted is not quoted again
    assert "Here are its pins" not in text  # a lead-in whose list is elsewhere stays out
    assert "The Zephyr Breakout ships without any headers fitted [1]." in text  # another line: a quote of its own


def test_a_list_of_asked_things_is_not_answered_by_one_quote() -> None:
    q = analyse("How much Flash, SRAM and EEPROM does the QX328P on the Zephyr Core provide?")
    assert ["flash", "sram", "eeprom"] in q.together and {"flash", "sram", "eeprom"} <= q.attributes and "Flash" not in q.names
    unit = Unit(block=1, pos=0, text="32 kB Flash", kind="sentence")
    assert try_extract(q, [Scored(unit, score=1.0, attributes=0.75, names=0.75)], {1: "Zephyr Core"}) is None
    assert not analyse("How much SRAM does the Zephyr Core have?").together


def test_a_passage_repeating_one_already_quoted_is_passed_over() -> None:
    from kgrag.answer import quote_answer

    texts = ["has power component | QX2322", "has power component | QX2322GQH",
             "The Zephyr Core runs from 5 V over USB-C.", "The Zephyr Core has an I2C bus on its header."]
    units = [Unit(block=n, pos=0, text=t, kind="row" if "|" in t else "sentence") for n, t in enumerate(texts, 1)]
    text = quote_answer([Scored(u, score=1.0 - 0.1 * n, attributes=0.5, names=0.5) for n, u in enumerate(units)])
    assert "[1]" in text and "[2]" not in text and "[3]" in text and "[4]" in text


def test_two_asked_things_need_a_quote_giving_both_and_a_price_question_a_price() -> None:
    q = analyse("What are the dimensions and the weight of the Zephyr Mini?")
    assert q.together == [["dimension", "weight"]]
    assert analyse("What current does the Zephyr Mini draw in sleep, idle and active modes?").together == [
        ["sleep", "idle", "active"]]  # the words listed before "and", after commas, are asked too
    weight = Unit(block=1, pos=0, text="weight | 4 g", kind="row")
    assert try_extract(q, [Scored(weight, score=1.0, attributes=1.0, names=1.0)], {1: "Zephyr Mini"}) is None
    ratings = analyse("What are the current and voltage ratings of the Zephyr Relay's outputs?")
    both = Unit(block=1, pos=0, text="The Zephyr Relay has four 10A relays rated for 250 VAC.", kind="sentence")
    assert try_extract(ratings, [Scored(both, score=1.0, attributes=1.0, names=1.0)], {1: "Zephyr Relay"}) is not None
    assert not analyse("What input voltage does the Zephyr Mini accept, and through which connector?").together
    cost = analyse("How much does the Zephyr Breakout cost?")
    code = Unit(block=1, pos=0, text="Related products: Zephyr Max Carrier (ZX00043)", kind="sentence")
    assert try_extract(cost, [Scored(code, score=1.0, attributes=1.0, names=1.0)], {1: "Zephyr Breakout"}) is None


def test_a_british_spelling_meets_the_datasheets_american_one() -> None:
    from kgrag.answer import question_coverage

    assert analyse("How many colours can the Zephyr Panel show?").count_of == "color"
    assert question_coverage("Which colours and what grey levels does the Zephyr Panel show?",
                             "The Zephyr Panel shows 16.7 million colors and 256 gray levels.") == 1.0


def test_a_question_asking_a_version_needs_a_version_number_next_to_the_asked_thing() -> None:
    from kgrag.answering.grounding import reply_problems

    q = analyse("Which Linux kernel version does the Zephyr X8 ship with?")
    linux = Unit(block=1, pos=0, text="The Zephyr X8 hosts an embedded Linux OS for Industry 4.0 deployments.",
                 kind="sentence")
    assert try_extract(q, [Scored(linux, score=1.0, attributes=1.0, names=1.0)], {1: "Zephyr X8"}) is None
    kernel = Unit(block=1, pos=1, text="The Zephyr X8 ships with the Linux kernel 5.10.72.", kind="sentence")
    found = try_extract(q, [Scored(kernel, score=1.0, attributes=1.0, names=1.0)], {1: "Zephyr X8"})
    assert found is not None and "5.10.72" in found.text
    made_up = reply_problems(q.text, "The Zephyr X8 ships with Linux 5.15 [1].", [("Zephyr X8", linux.text)])
    assert made_up["unsupported_values"] == ["5.15"]
    from kgrag.answering.values import ASKS_VERSION

    assert ASKS_VERSION.search("Does it support Bluetooth Low Energy, and if so, which version?")
    assert not ASKS_VERSION.search("Which version of the Zephyr Carrier measures higher pressure?")  # a variant
    assert ASKS_VERSION.search("Which gateway firmware supports Zephyr Tag payload v2?")  # a release, the kind named
    notes = Unit(block=1, pos=0, kind="row", text="Zephyr Tag Rev B | LoRaWAN | 3.2.0 | payload v2",
                 header="Device | Connection | Supported since | Remarks")
    faq = Unit(block=2, pos=0, kind="sentence",
               text="For the Zephyr ZG-410 gateway, decoders for the Zephyr Tag are built into the gateway firmware.")
    which = analyse("Which gateway firmware supports Zephyr Tag payload v2?")
    ranked = [Scored(faq, score=1.0, attributes=1.0, names=1.0), Scored(notes, score=0.9, attributes=1.0, names=1.0)]
    found = try_extract(which, ranked, {1: "Gateway release notes", 2: "Zephyr FAQ"})
    assert found is not None and "3.2.0" in found.text  # the release, not the gateway a sentence names


def test_a_rating_the_reply_writes_and_no_source_does_is_made_up() -> None:
    from kgrag.answering.grounding import reply_problems

    sources = [("Zephyr PLC", "certifications: cULus, ENEC, FCC, CE\nProtection degree: IP20\nSupports 13 relays")]
    question = "Which SIL functional-safety level is the Zephyr PLC certified to?"
    assert reply_problems(question, "The Zephyr PLC is certified to SIL 13 [1].", sources)["unsupported_values"] \
        == ["SIL 13"]
    assert reply_problems("What IP rating does the Zephyr PLC have?", "It is rated IP 20 [1].", sources) == {}
    assert reply_problems("Which Wi-Fi standard does it support?", "It supports IEEE 802.11 b/g/n [1].",
                          [("Zephyr PLC", "Wi-Fi 802.11 b/g/n")]) == {}  # the number alone names the standard


def test_each_clause_of_a_two_part_question_gets_its_own_quote() -> None:
    """"…, and how much internal memory does it have?": one row answered half the question; each clause is quoted."""
    from kgrag.answering.clauses import joined, quote_each_clause, two_clauses

    rows = ["Microcontroller | 78 MHz Arm Cortex-M33", "Internal memory | 1536 kB Flash and 256 kB RAM",
            "Operating temperature | -40 to 85 °C"]
    units = [Unit(block=1, pos=n, text=row, kind="row") for n, row in enumerate(rows)]
    question = "What clock speed does the Zephyr Core's microcontroller run at, and how much internal memory does it have?"
    found = quote_each_clause(question, units, {1: "Zephyr Core"}, {1: "Zephyr Core"})
    assert found is not None and [f.unit.text for f in found] == rows[:2]
    assert joined(found).count("Zephyr Core: ") == 1 and "1536 kB" in joined(found)
    assert two_clauses("What chip is inside the LoRa module of the Zephyr Core LoRa, and what output power does it give?") == (
        "What chip is inside the LoRa module of the Zephyr Core LoRa?",
        "What output power does it give, on the Zephyr Core LoRa?")  # a word of a longer name is that name
    assert two_clauses("Which module is on the Zephyr Core, and what CPU does that module contain?") is None  # the
    assert two_clauses("What is the Zephyr Core's clock speed?") is None  # first answer is what the second asks about


def test_a_second_question_after_a_bare_and_is_a_clause_of_its_own_when_it_has_its_own_verb() -> None:
    """"Which radio chip is inside the QX-30 and how sensitive is its receiver?" has no comma before "and"; elliptical
    second questions, a doubled question word and an overview stay one question."""
    from kgrag.answering.clauses import two_clauses

    assert two_clauses("Which radio chip is inside the QX-30 and how sensitive is its receiver?") == (
        "Which radio chip is inside the QX-30?", "How sensitive is its receiver, on the QX-30?")
    assert two_clauses("Which channel is on the edge side of the QX-30 and which toward the center?") is None
    assert two_clauses("How cold and how hot can the QX-30 run?") is None
    assert two_clauses("Summarize how the QX-30 can be powered and what it consumes.") is None


def test_words_asked_together_get_a_quote_each_when_no_one_row_gives_them_all() -> None:
    """"the measuring range and accuracy": the range row and the accuracy row, each quoted; a tolerance written from
    one value to another ("±7 mm to ±3 %") says how exact, not the range; a quote must give the word it answers."""
    from kgrag.answering.clauses import asked_apart, joined, quote_each_word

    rows = ["Accuracy | ±7 mm to ±3 %", "Range | 0 to 1200 mm", "Interface | I2C at 400 kHz"]
    units = [Unit(block=1, pos=n, text=row, kind="row") for n, row in enumerate(rows)]
    question = "What's the measuring range and accuracy of the Zephyr Ranger?"
    q = analyse(question)
    best = Scored(units[0], score=1.0, attributes=1.0, names=1.0)
    assert try_extract(q, [best], {1: "Zephyr Ranger"}) is None  # the accuracy row alone is half the answer
    found = quote_each_word(question, units, {1: "Zephyr Ranger"}, {1: "Zephyr Ranger"})
    assert found is not None and {f.unit.text for f in found} == set(rows[:2])
    assert joined(found).count("Zephyr Ranger") == 1
    assert asked_apart("How much Flash, SRAM and EEPROM does the QX328P have?", ["flash", "sram", "eeprom"]) == [
        "How much Flash does the QX328P have?", "How much SRAM does the QX328P have?", "How much EEPROM does the QX328P have?"]
    pins = [Unit(block=1, pos=0, text="Pin | PA2 | Button", kind="row")]
    question = "Which pins carry the encoder A/B signals and the push button on the Zephyr Knob?"
    assert quote_each_word(question, pins, {1: "Zephyr Knob"}, {1: "Zephyr Knob"}) is None  # no quote gives "signals"


def test_names_listed_in_a_question_get_a_quote_each_that_names_them() -> None:
    """"… for Wi-Fi, Bluetooth EDR and Bluetooth LE?": each mode's row, found by the words that set it apart from the
    other items as the datasheet writes them ("BT EDR", "BT BLE", "WiFi"); no quote when one item has no row."""
    from kgrag.answering.clauses import joined, listed_names, quote_each_item
    from kgrag.answering.names import names_item

    rows = ["Band | Wi-Fi (2412-2472 MHz); Maximum output power (EIRP) | 14.5 dBm",
            "Band | BT EDR (2402-2480 MHz); Maximum output power (EIRP) | 2.2 dBm",
            "Band | BT BLE (2402-2480 MHz); Maximum output power (EIRP) | 1.2 dBm",
            "Supply | Maximum power consumption | 500 mW"]
    units = [Unit(block=1, pos=n, text=row, kind="row") for n, row in enumerate(rows)]
    question = "What maximum EIRP output power does the Zephyr Radio list for Wi-Fi, Bluetooth EDR and Bluetooth LE?"
    assert [item for item, _ in listed_names(question, analyse(question).phrases)] == [
        "Wi-Fi", "Bluetooth EDR", "Bluetooth LE"]  # the product named before is no item of the list
    items = ["Wi-Fi", "Bluetooth EDR", "Bluetooth LE"]
    assert [names_item(i, [o for o in items if o != i], rows[2]) for i in items] == [False, False, True]
    assert names_item("EDR", ["LE"], "Bluetooth BR/EDR: 79 channels")  # one of the modes a slash joins
    assert names_item("Wi-Fi", ["Bluetooth"], "Frequency bands: WiFi(2412-2472MHz)")  # written without its hyphen
    assert not names_item("LE", ["EDR"], "Maximum output power | 2 dBm")
    found = quote_each_item(question, units, {1: "Zephyr Radio"}, {1: "Zephyr Radio"})
    assert found is not None and [f.unit.text for f in found] == rows[:3]
    assert joined(found).count("Zephyr Radio") == 1
    question = "What maximum EIRP output power does the Zephyr Radio list for Wi-Fi, Bluetooth EDR and Thread?"
    assert quote_each_item(question, units, {1: "Zephyr Radio"}, {1: "Zephyr Radio"}) is None  # no row for Thread
    assert listed_names("What output power does the Zephyr Radio list for Bluetooth?", [["Zephyr", "Radio"], ["Bluetooth"]]) == []


def test_a_clause_left_without_a_quote_leads_the_passages_after_the_other_clauses_quote() -> None:
    """"How much current can the carrier deliver, and which card is it available for?": one row answers the first
    clause; the passage that answers the second ("available only for the Mini PCIe card") comes first after it."""
    from kgrag.answering.clauses import other_clause_units
    from kgrag.answering.extract import Extraction

    text = ("Power\nCurrent delivered by the carrier | max 2.0 A\n"
            "The Zephyr Carrier can deliver current from its USB-C port to the carrier.\n"
            "The delivered current is available only for the Mini PCIe card connected to the carrier.\n"
            "The carrier has two mounting holes.\nThe carrier ships in a recycled box.")
    question = "How much current can the Zephyr Carrier deliver, and which card is it available for?"
    context = _context(question, ("Zephyr Carrier", text))
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300, passages=1)
    head, _, tail = answer.text.partition("From the documents: ")
    assert "2.0 A" in head and tail.startswith("Zephyr Carrier: The delivered current is available only for the Mini")
    units = block_units(1, text)
    row = next(u for u in units if u.kind == "row")
    one = [Extraction(row, row.text, 1.0)]
    scopes = {1: "Zephyr Carrier"}
    ranked = other_clause_units(question, one, units, scopes, scopes)
    assert ranked and ranked[0].unit.text.startswith("The delivered current is available only for the Mini PCIe card")
    assert other_clause_units("How much current can the Zephyr Carrier deliver?", one, units, scopes, scopes) == []


def test_a_chained_second_clause_is_asked_of_what_the_first_clauses_quote_names() -> None:
    """"Which module …, and what CPU does that module contain?": the second clause is asked of the part the first
    quote names; "Which board …, and what microcontroller does it use?" of the product whose document answers."""
    from kgrag.answering.clauses import quote_each_clause

    rows = ["Wireless module | The QN-W102 module is based on the QSP32 chip", "QSP32 | dual-core CPU clocked at 240 MHz",
            "Operating temperature | -40 to 85 °C"]
    units = [Unit(block=1, pos=n, text=row, kind="row") for n, row in enumerate(rows)]
    question = "Which wireless module is on the Zephyr Core, and what clock speed does that module run at?"
    found = quote_each_clause(question, units, {1: "Zephyr Core"}, {1: "Zephyr Core"})
    assert found is None  # the first quote names two parts (QN-W102, QSP32): which one is meant is not known
    question = "Which chip is the QN-W102 module of the Zephyr Core based on, and what clock speed does that chip run at?"
    found = quote_each_clause(question, units, {1: "Zephyr Core"}, {1: "Zephyr Core"})
    assert found is not None and [f.unit.text for f in found] == rows[:2]
    boards = [Unit(block=1, pos=0, text="Time-of-flight sensor | QL53L1 ranging sensor up to 4 m", kind="row"),
              Unit(block=1, pos=1, text="Microcontroller | QMX32H747 dual-core at 480 MHz", kind="row"),
              Unit(block=2, pos=0, text="Microcontroller | QRF52840 at 64 MHz", kind="row")]
    titles = {1: "Zephyr Eye", 2: "Zephyr Ear"}
    question = "Which Zephyr board includes a time-of-flight sensor, and what microcontroller does it use?"
    found = quote_each_clause(question, boards, titles, titles)
    assert found is not None and [f.unit.text for f in found] == [boards[0].text, boards[1].text]
    shield = [Unit(block=1, pos=0, text="The QMX270 IMU talks to the Zephyr Core over a common I2C connection.", kind="sentence"),
              Unit(block=1, pos=1, text="Display | QKD040WV 3.97 inch TFT display with 480x800 resolution", kind="row"),
              Unit(block=2, pos=0, text="The Zephyr Core has a QMX270 IMU socket.", kind="sentence")]
    titles = {1: "Zephyr Display Shield", 2: "Zephyr Core"}
    question = "Which add-on board for the Zephyr Core contains a QMX270 IMU, and what display does it carry?"
    assert quote_each_clause(question, shield, titles, titles) is None  # no unit says which board
    found = quote_each_clause(question, shield, titles, titles, bridge="Zephyr Display Shield")  # retrieval's answer
    assert found is not None and [f.unit.text for f in found] == [shield[0].text, shield[1].text]
    assert found[0].text.startswith("Zephyr Display Shield: ")


def test_a_chained_question_whose_second_clause_has_no_quote_is_answered_by_its_first_and_passages_about_it() -> None:
    """"Which Zephyr board includes a time-of-flight sensor, and what antenna does it use?": no unit states an antenna,
    but the board found is quoted, and the passages after it are ranked for the second clause asked of that board."""
    from kgrag.answering.clauses import other_clause_units, quote_each_clause

    boards = [Unit(block=1, pos=0, text="Time-of-flight sensor | QL53L1 ranging sensor up to 4 m", kind="row"),
              Unit(block=1, pos=1, text="The radio is routed to a U.FL connector for an external antenna.", kind="sentence"),
              Unit(block=2, pos=0, text="The Zephyr Ear routes its radio to a chip antenna.", kind="sentence")]
    titles = {1: "Zephyr Eye", 2: "Zephyr Ear"}
    question = "Which Zephyr board includes a time-of-flight sensor, and which antenna part does it use?"
    found = quote_each_clause(question, boards, titles, titles)
    assert found is not None and [f.unit.text for f in found] == [boards[0].text]
    rest = other_clause_units(question, found, boards, titles, titles)
    assert rest and rest[0].unit is boards[1]  # the Zephyr Eye's antenna passage first, not the Zephyr Ear's


def test_a_vendor_word_before_the_asked_kind_is_no_product_with_variants() -> None:
    q = analyse("Which Acme sensor on the Zephyr Eye measures outdoor air quality?")
    assert variant_of(q, "Onboard Outdoor Air Quality Sensor | Acme QZ4510AI1V") is False  # the asked part
    acme = analyse("What is the flash size of the Acme board?")
    assert variant_of(acme, "Acme RX24 memory") is True  # a one-word product name still has variants
    question = "Which Acme sensor on the Zephyr Eye measures outdoor air quality?"
    eye = "Zephyr Eye features\nOnboard Outdoor Air Quality Sensor | Acme QZ4510AI1V\nOnboard Humidity Sensor | Acme QH4001"
    assert "QZ4510AI1V [1]" in _answer(question, ("Zephyr Eye", eye))  # quoted, no LLM


def test_a_board_position_does_not_answer_which_part() -> None:
    question = "Which solid-state relay IC drives the four isolated relays on the Zephyr Core?"
    core = ("Zephyr Core relays\nThe board features four 60V 2.5A solid state relays with galvanic isolation on J11.\n\n"
            "Ref. | Description\nU18 | QS13102 solid state relay IC")
    text = _answer(question, ("Zephyr Core", core), replies=["The relays are driven by the QS13102 [1]."])
    assert "J11" not in text and "QS13102" in text  # the connector J11 is no relay IC: not quoted as the answer


def test_page_numbers_and_reference_marks_are_no_values_of_a_source() -> None:
    from kgrag.answering.grounding import number_uses, values_of_other_products

    assert "7" not in number_uses("Zephyr Core, p. 7, section: 1 The Board\nSee the project hub [7].")
    sources = [("Zephyr Core", "Zephyr Core, p. 7, section: Board\nThe Zephyr Core runs at 16 MHz [7]."),
               ("Zephyr Tag", "Zephyr Tag, p. 8\nNormal mode with BLE advertising | I NM1 | - | 7 | - | mA")]
    reply = "The Zephyr Core draws 7 mA in normal mode [2]."
    assert values_of_other_products(reply, "How much current does the Zephyr Core draw?", sources) == ["7"]


def test_a_certification_notice_answers_certification_questions_only() -> None:
    """"This radio transmitter has been approved by Innovation, Science and Economic Development Canada … maximum
    permissible gain" shares "maximum", "radio", "transmitter" and "operate" with a question about the transmit power;
    the row that states the power ranks first, and for a question about approvals the notice does."""
    from kgrag.answering.select import score_units
    from kgrag.answering.units import Unit

    notice = Unit(block=1, pos=0, text="NOTE: This radio transmitter has been approved by Innovation, Science and Economic "
                  "Development Canada to operate with the antenna types listed below, with the maximum permissible gain.")
    spec = Unit(block=2, pos=0, text="Output power (ERP): 0.73 dBm")
    scopes = {1: "Zephyr LoRa", 2: "Zephyr LoRa"}
    question = "What maximum transmit power does the Zephyr LoRa radio transmitter operate with?"
    assert score_units(question, [notice, spec], scopes)[0].unit is spec
    question = "Which approvals does the Zephyr LoRa radio transmitter have in Canada?"
    assert score_units(question, [notice, spec], scopes)[0].unit is notice


def test_a_number_in_a_table_row_measures_what_its_unit_column_says() -> None:
    """"Symbol | Description | Min | Typ | Max | Unit" then "V IN | Input voltage | 6 | 7.0 | 32 | V": 7.0 and 32 are
    volts, so a reply giving "32 nits" of brightness from that row states a value no source holds; a table without a
    unit column keeps its numbers bare (a count, a cell whose unit is elsewhere)."""
    from kgrag.answering.grounding import number_uses, unsupported_values

    table = "Zephyr Screen ratings\nSymbol | Description | Min | Typ | Max | Unit\nV IN | Input voltage | 6 | 7.0 | 32 | V"
    assert number_uses(table)["32"] == {"voltage@V"}  # the quantity, in the unit written
    assert unsupported_values("The screen's maximum brightness is 32 nits [1].", [table]) == ["32"]
    assert unsupported_values("It accepts up to 32 V on VIN [1].", [table]) == []
    assert unsupported_values("It accepts up to 32 volts on VIN [1].", [table]) == []  # the unit spelled out
    pins = "Pin | Function\n32 | GPIO"
    assert unsupported_values("The screen's maximum brightness is 32 nits [1].", [pins]) == []
    rohs = "Substance | Maximum limit (ppm)\nLead (Pb) | 1000\nCadmium (Cd) | 100"  # the header's unit, in brackets
    assert number_uses(rohs)["100"] == {"concentration@ppm"}
    assert unsupported_values("The backlight brightness is 100 cd/m² [2].", [rohs]) == ["100"]


def test_a_number_written_in_another_unit_of_the_same_quantity_is_another_value() -> None:
    """"100 mil" (a pin pitch) does not give "100 meters" of Wi-Fi range; "100 m", "100 metres" and "16KB" for
    "16 kB" do."""
    from kgrag.answering.grounding import unsupported_values

    source = "Pins are on a 100 mil grid. Flash | 16 kB"
    assert unsupported_values("Its Wi-Fi range outdoors is 100 meters [1].", [source]) == ["100"]
    assert unsupported_values("It has 16KB of flash [1].", [source]) == []
    assert unsupported_values("Up to 100 meters [1].", ["range up to 100 m"]) == []
    assert unsupported_values("Up to 100 m [1].", ["range up to 100 metres"]) == []
    legend = "Board topology\n9 Reset button\n10 USB-C Connector"  # a figure's numbered parts: labels, no values
    assert unsupported_values("It boots in 10 µs [1].", [legend]) == ["10"]
    assert unsupported_values("It boots in 10 µs [1].", ["Boot | 10"]) == []  # a table cell: its unit may be elsewhere
    assert unsupported_values("Its LoRa range is 2.5 kilometers [1].", ["Charger: 2.5-A Fast Charging"]) == ["2.5"]
    assert unsupported_values("A 12 bit ADC [1].", ["12-bit ADC"]) == []  # a unit joined by a hyphen
    header = "Zephyr X8, pp. 14-15, section: 10 USB-C Connector\n2.5 HS3003 Sensor"  # a block header's section number
    assert unsupported_values("It boots in 10 µs, 2.5 s at most [1].", [header]) == ["10", "2.5"]


def test_spec_lines_after_a_paragraph_ending_with_a_colon_belong_to_what_it_names() -> None:
    text = ("3 Temperature Sensor\nThe temperature sensor is the QT236A2 from Acme, look for the QT236 and not the "
            "QT235. Here you can see its main characteristics:\n\n400 mV at 0 °C\n-10 °C to 125 °C Vdd 3.1 V to 5.5 V")
    vdd = [u for u in block_units(1, text) if "Vdd" in u.text][0]
    assert "QT236" in vdd.heading  # the list line is about the part the lead-in names
    question = "What supply voltage range does the QT236 temperature sensor on the Zephyr Core accept?"
    assert analyse(question).dimensions == {"voltage"}  # "temperature sensor" names the part's kind, not the quantity
    assert analyse("What is the accuracy of the temperature sensor?").dimensions == {"temperature", "ratio"}
    board = "Zephyr Core power\nThe Zephyr Core accepts a supply voltage range of 12 to 24 V on its screw terminals."
    assert "3.1 V to 5.5 V [2]" in _answer(question, ("Zephyr Core", board), ("Zephyr Core", text))  # the sensor's Vdd


def test_how_exact_a_measurement_is_may_be_a_tolerance_in_the_unit_of_what_it_measures() -> None:
    """"What ranging accuracy …" names no measured quantity: "<±10 cm" answers it; "the temperature accuracy" still
    wants a ± value in °C, never the humidity row's %RH or another quantity's ± value."""
    tag = ("Zephyr Tag", "Feature | Description\nRanging | 2-way ranging, achieving an accuracy of <±10 cm\n"
                         "Frequency Range | 6.24–8.24 GHz")
    text = _answer("What ranging accuracy does the Zephyr Tag achieve, and what frequency range does it cover?", tag)
    assert "<±10 cm" in text and "6.24–8.24 GHz" in text
    climate = ("Zephyr Climate", "Parameter | Value\nHumidity accuracy | ±1.5 %RH\nPressure accuracy | ±1 hPa")
    assert "±1 hPa" not in _answer("What is the temperature accuracy of the Zephyr Climate?", climate,
                                   replies=["The documents do not say."])


def test_rows_of_one_table_saying_the_same_for_other_pins_are_quoted_once() -> None:
    from kgrag.answer import quote_answer

    header = "Pin | Channel | Description"
    rows = ["6 | 04 | Digital programmable Input/Output", "8 | 06 | Digital programmable Input/Output",
            "2 | 00 | Digital output, high-side switch", "9 | 07 | Digital programmable Input/Output"]
    units = [Unit(block=3, pos=n, text=t, kind="row", header=header) for n, t in enumerate(rows)]
    other_table = Unit(block=5, pos=0, text="4 | 02 | Digital programmable Input/Output", kind="row", header=header)
    text = quote_answer([Scored(u, score=1.0 - 0.1 * n) for n, u in enumerate([*units, other_table])])
    assert "Pin: 6;" in text and "Pin: 8;" not in text and "Pin: 9;" not in text  # one stands for its siblings
    assert "high-side switch" in text and "Pin: 4;" in text  # another description, another table: quoted


def test_a_graph_fact_restating_a_quoted_row_of_its_source_is_passed_over() -> None:
    from kgrag.answer import quote_answer

    row = Unit(block=4, pos=2, text="Max Output Power (EIRP) | 14.7 dBm", kind="row", header="Feature | Description")
    fact = Unit(block=1, pos=1, text="max output power eirp | 14.7 dBm", kind="row", heading="Zephyr Tag (Product)",
                source=4)  # the graph's fact, read from that row: it cites the same block
    other = Unit(block=4, pos=3, text="Max Output Power (EIRP) | 14.1 dBm @ CH9", kind="row", header="Feature | Description")
    ranked = [Scored(u, score=1.0 - 0.1 * n) for n, u in enumerate([row, fact, other])]
    text = quote_answer(ranked)
    assert text.count("14.7 dBm") == 1 and "14.1 dBm @ CH9" in text


def test_key_passages_reach_down_to_a_third_of_the_best_score() -> None:
    from kgrag.answering.quotes import KEY_SCORE, key_passages

    q = analyse("What is the input voltage of the Zephyr Core?")
    units = [Unit(block=1, pos=n, text=t, kind="sentence") for n, t in enumerate(
        ["The Zephyr Core input voltage is 7 to 12 V.", "Its USB input voltage is 5 V.", "The input voltage pin is VIN."])]
    scores = [1.0, 0.45, 0.25]  # a second passage far below the best is still on what is asked
    ranked = [Scored(u, score=s, attributes=1.0, names=1.0) for u, s in zip(units, scores, strict=True)]
    kept = key_passages(q, ranked, {1})
    assert KEY_SCORE == 0.3 and [s.unit.pos for s in kept] == [0, 1]


def test_the_asked_products_own_passages_follow_the_answer_when_another_name_is_rarer() -> None:
    """"What battery connector does the Zephyr Eye have? … for my LiPo": every block is the Zephyr Eye's own, so
    only "LiPo" tells units apart; the Eye's passages that never write "LiPo" still follow the model's answer."""
    eye = ("Zephyr Eye", "Zephyr Eye\nThe Zephyr Eye can be powered from a single-cell LiPo battery.\n"
                         "The battery connector J4 is a 3-pin ZX03B connector with a 1.2 mm pitch.\n"
                         "Pin 1 of the battery connector is VBAT and pin 3 is GND.")
    pins = ("Zephyr Eye", "Zephyr Eye\nThe Zephyr Eye battery input is rated 3.5 V to 4.7 V.\n"
                          "The USB connector is prioritized over the battery connector.")
    question = "What battery connector does the Zephyr Eye have? I need to order a cable for my LiPo."
    llm = FakeLLM(replies=["The Zephyr Eye has a ZX03B connector [1]."])
    text = generate_answer(llm, question, _context(question, eye, pins), mode="auto", focus_tokens=300,
                           passages=4).text
    assert "From the documents:" in text and "1.2 mm pitch" in text


def test_a_key_passage_close_to_the_best_needs_no_asked_word() -> None:
    """A unit scoring near the best says what is asked in its own words ("not to be confused with" for "the same
    as"): it follows the answer; one far below without an asked word does not."""
    from kgrag.answering.quotes import CLOSE_SCORE, key_passages

    q = analyse("Is the earth terminal of the Zephyr Core the same as its ground?")
    units = [Unit(block=1, pos=n, text=t, kind="sentence") for n, t in enumerate(
        ["The earth terminal sits near the Ethernet jack.", "Earth is not to be confused with GND on this board.",
         "Tighten each screw to 0.5 Nm."])]
    scores, asked = [1.0, CLOSE_SCORE + 0.05, CLOSE_SCORE - 0.1], [1.0, 0.0, 0.0]
    ranked = [Scored(u, score=s, attributes=a, names=1.0) for u, s, a in zip(units, scores, asked, strict=True)]
    assert [s.unit.pos for s in key_passages(q, ranked, {1})] == [0, 1]


def test_a_quote_for_a_named_product_comes_from_its_own_documents_when_they_are_found() -> None:
    """"How loud is the Modulo Buzzer, in dB?": another board's "Sound Level | 75 dB" row under "a summary of the
    board's buzzer features" carries one of the two names ("buzzer"); with the Buzzer's own datasheet in the context,
    it is not quoted as the Buzzer's loudness (it was, as "Stylo Tag: … 75 dB")."""
    question = "How loud is the Modulo Buzzer, in dB?"
    row = Unit(block=2, pos=1, text="Sound Level | 75 dB at 10 cm", kind="row", header="Feature | Description",
               heading="Below is a summary of the board's buzzer features.")
    own = Unit(block=1, pos=1, text="The Modulo Buzzer node receives tone commands over I2C.", kind="sentence")
    ranked = [Scored(row, score=0.5, attributes=1.0, names=0.5, own=False),
              Scored(own, score=0.4, attributes=0.0, names=1.0, own=True)]
    titles = {1: "Modulo Buzzer", 2: "Stylo Tag"}
    assert try_extract(analyse(question), ranked, titles) is None
    assert try_extract(analyse(question), ranked[:1], titles) is not None  # no own document found: quoted as before


def test_a_kind_of_part_the_products_own_documents_never_name_is_said_to_be_missing() -> None:
    """"What is the camera frame rate of the Zephyr Control?" over the Control's datasheet, which names no camera, and
    another board's camera passage: no quote of the Control's "data rate", but "do not mention a camera on the …"."""
    control = "Zephyr Control\nThe Zephyr Control is an industrial controller.\nRS-485 | nominal data rate: 20 Mbps"
    vision = "Zephyr Vision\nThe Zephyr Vision camera records at 60 fps."
    items = [ContextItem("chunk", control, 0.6, "c1", "d1", {"path": "control.pdf", "title": "Zephyr Control"}),
             ContextItem("chunk", vision, 0.5, "c2", "d2", {"path": "vision.pdf", "title": "Zephyr Vision"})]
    question = "What is the camera frame rate of the Zephyr Control?"
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=["It is 20 Mbps [1]."]), question, context, mode="auto", focus_tokens=200)
    assert answer.text.startswith("The documents found do not mention a camera on the Zephyr Control")
    question = "What is the camera frame rate of the Zephyr Vision?"  # its own passage names the camera
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=["It records at 60 fps [2]."]), question, context, mode="auto",
                             focus_tokens=200)
    assert "do not mention a camera" not in answer.text
    question = "Which add-on board for the Zephyr Control carries a camera, and what frame rate does it record at?"
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)  # another product asked
    answer = generate_answer(FakeLLM(replies=["The Zephyr Vision records at 60 fps [2]."]), question, context,
                             mode="auto", focus_tokens=200)
    assert "do not mention a camera" not in answer.text


def test_an_overview_of_listed_things_none_of_which_the_products_documents_name_is_said_to_be_missing() -> None:
    """"Summarize the Zephyr Nano's SMT guidance: reflow profile, moisture sensitivity level and tape packaging" over a
    datasheet that only says the board may be soldered by its castellated pads: no overview made up by the model, but
    "do not mention …"; a list of which one item is there goes the usual way."""
    nano = ("Zephyr Nano\nSMT assembly guidance: the Zephyr Nano can be mounted as an SMT component, soldered via its "
            "castellated pads.\nIts low profile fits thin enclosures.\nThe microphone sensitivity is -26 dBFS at logic "
            "level 3.3 V.\nThe packaging holds one board.\nMemory | 48 kB flash, 6 kB SRAM\n"
            "The microcontroller runs at 20 MHz.")
    items = [ContextItem("chunk", nano, 0.6, "c1", "d1", {"path": "nano.pdf", "title": "Zephyr Nano"})]
    question = ("Can you summarize the SMT assembly guidance for the Zephyr Nano: reflow profile, moisture sensitivity "
                "level, and tape packaging?")
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=["Reflow at 245 °C peak [1]."]), question, context, mode="auto",
                             focus_tokens=200)
    assert answer.text.startswith("The documents found do not mention reflow profile, moisture sensitivity level or "
                                  "tape packaging; the closest passages:")
    question = "Give me an overview of the Zephyr Nano: its microcontroller, reflow profile and tape packaging."
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=["It runs at 20 MHz [1]."]), question, context, mode="auto",
                             focus_tokens=200)
    assert "do not mention" not in answer.text


def test_a_polite_request_after_the_users_situation_checks_no_quantity() -> None:
    asked = "My node runs off a 12 V battery. Can it take that on VIN?"
    assert "voltage" in analyse(asked).dimensions  # a yes/no question about the value written
    request = "My node runs off a 12 V battery. Can you tell me the maximum VIN current?"
    assert "voltage" not in analyse(request).dimensions  # a request for another value: the 12 V is the situation


def test_rows_that_only_their_heading_ties_to_an_explanation_question_rank_below_a_sentence_that_answers_it() -> None:
    """Pin rows under "RS-485 Modbus Communication Port (J5)" carry the asked words through their heading only, and
    short rows win BM25; for "how does … affect … communication?" the sentence about the bus ranks first. A
    question asking a row's value still gets the rows."""
    from kgrag.answering.select import score_units

    heading = "RS-485 Modbus Communication Port (J5)"
    rows = [Unit(block=1, pos=i, text=text, kind="row", heading=heading, header="Pin | Signal")
            for i, text in enumerate(["1 | GND", "2 | TXP 485", "3 | TXN 485", "4 | RXP 485"])]
    prose = Unit(block=2, pos=0, text="The port runs Modbus communication over RS-485 half-duplex: each request waits "
                                      "for the reply on the shared pair of wires.", kind="sentence", heading="Fieldbus")
    scopes = {1: "QX-7 Controller", 2: "QX-7 Controller"}
    why = score_units("How does the RS-485 port affect Modbus communication?", [*rows, prose], scopes)
    assert why[0].unit is prose
    which = score_units("Which signal is on pin 1 of the RS-485 Modbus communication port?", [*rows, prose], scopes)
    assert which[0].unit.text == "1 | GND"


def test_how_often_asks_an_interval_or_a_rate_and_degrees_celsius_is_a_unit_not_a_name() -> None:
    """"How often should the filter mat be replaced?" is answered by "12 months", "How often does the barometer give
    a reading?" by "1 Hz to 75 Hz"; "… to degrees Celsius?" names no product the documents lack ("°C" is how they
    write it), while "the DIN Celsius" still names one."""
    q = analyse("How often should the filter mat of the Zephyr Core be replaced?")
    assert q.dimensions == {"time", "frequency"}
    units = [Unit(block=1, pos=0, text="Replace the filter mat once a year.", kind="sentence"),
             Unit(block=1, pos=1, text="Filter mat | ZF-01 | 12 months", kind="row", header="Part | Part number | Interval")]
    from kgrag.answering.select import score_units

    row = next(s for s in score_units(q.text, units, {1: "Zephyr Core"}) if s.unit.kind == "row")
    assert row.parts["unit"] == 1.0  # its months are the asked quantity
    assert analyse("How do I convert the register value to degrees Celsius?").names == []
    assert analyse("What's the operating temp of the Zephyr Core?").dimensions == {"temperature"}  # as users write it
    assert analyse("What is the supply voltage of the DIN Celsius?").names == ["DIN", "Celsius"]


def test_a_row_stating_a_number_is_not_quoted_when_a_sibling_row_names_the_asked_setting_better() -> None:
    """"the Zephyr Core's default parity": the Parity row answers in words ("Even"); the Baud rate row of the same
    table has a number and only the asked word "default" (its header's), so it is no quote."""
    q = analyse("What is the default parity of the Zephyr Core?")
    header = "Setting | Default | Range"
    units = [Unit(block=1, pos=0, text="Parity | Even | None, Even, Odd", kind="row", header=header),
             Unit(block=1, pos=1, text="Baud rate | 19200 bit/s | 9600 to 115200 bit/s", kind="row", header=header)]
    ranked = [Scored(units[0], score=0.8, attributes=1.0, names=1.0), Scored(units[1], score=0.6, attributes=0.5, names=1.0)]
    assert try_extract(q, ranked, {1: "Zephyr Core"}) is None


def test_a_voltage_written_letter_for_point_is_the_value_a_user_types() -> None:
    """Pin tables and schematics write "+3V3" and "1V8" where a user asks for "3.3V": the row naming that rail
    answers "which pin gives 3.3V", not a note that merely mentions 3.3V I/Os."""
    from kgrag.answering.select import focus_units
    from kgrag.answering.words import fold

    assert (fold("3V3"), fold("1V8"), fold("5V"), fold("v3")) == ("3.3v", "1.8v", "5v", "v3")
    assert "3.3v" in analyse("Which pin gives 3.3V on the Zephyr Mini?").attributes
    assert "2" not in analyse("Is firmware 2.5 on the Zephyr Mini?").attributes  # a version still splits
    note = "NOTE: Zephyr Mini only supports 3.3V I/Os and is not 5V tolerant, unlike boards with a 5V pin."
    pins = ("Pin | Function | Type | Description\n1 | D13 | Digital | GPIO\n"
            "2 | +3V3 | Power Out | Internally generated power output to external devices\n3 | GND | Power | Ground")
    texts, scopes = {1: note, 2: pins}, {1: "Zephyr Mini", 2: "Zephyr Mini"}
    question = "Which pin gives 3.3V on the Zephyr Mini?"
    ranked = focus_units(question, texts, scopes, 120).ranked
    found = try_extract(analyse(question), ranked, {1: "Zephyr Mini", 2: "Zephyr Mini"})
    assert found is not None and "+3V3" in found.text


def test_a_pin_number_or_a_chips_digits_are_no_value_of_the_asked_product() -> None:
    """The UNO's pin table row "16 | AREF" and its "ATMega 16U2" give no "16 mA": that is the Zephyr Scope's typical
    current, and a small model borrowed it for the asked product."""
    from kgrag.answering.grounding import values_of_other_products
    from kgrag.answering.numbers import number_uses

    assert "16" not in number_uses("equipped with the ATmega328P and the ATMega 16U2 Processor")
    assert number_uses("+3V3 pin: 3V3 output")  # "3V3" stays a value notation
    own = ("Zephyr Uno", "Pin | Function | Type\n15 | GND | Power\n16 | AREF | Digital\n"
                         "The board carries the ATMega 16U2 as its USB bridge.")
    other = ("Zephyr Scope", "Parameter | Symbol | Min | Typ | Max | Unit\nTypical current | I | - | 16 | - | mA")
    question = "What is the max current of the 3.3V pin on the Zephyr Uno?"
    assert values_of_other_products("The max current of the 3.3V pin is 16mA [2].", question, [own, other]) == ["16"]
    own_current = (own[0], own[1] + "\nDC current per I/O pin: 16 mA")
    assert values_of_other_products("It is 16mA [1].", question, [own_current, other]) == []


def test_a_bus_name_in_a_support_table_is_no_part_that_answers_which_product() -> None:
    """"Which Zephyr boards support Ethernet?" over a carrier's support table: the row "RS232/422/485: Yes; Yes"
    names a bus the boards support, not a part; before, its "RS232" read as a part number made it the quoted answer.
    A row naming a chip still states one."""
    from kgrag.answering.extract import states_value

    question = analyse("Which Zephyr boards support Ethernet?")
    assert not states_value(question, Unit(1, 0, "RS232/422/485: Yes; Yes"))
    assert not states_value(analyse("Which transceiver does the Zephyr carrier use?"), Unit(1, 0, "RS485: Yes"))
    assert states_value(analyse("Which transceiver does the Zephyr carrier use?"),
                        Unit(1, 0, "The RS-485 transceiver is an SP335EER1-L."))


def test_a_chained_question_whose_answer_another_products_document_names_is_asked_of_it() -> None:
    """"Which board sits at the heart of the A, and what microcontroller does it use?": the A's unit naming the board
    retrieval found (`bridge`) answers the first clause, and the second is asked of that board."""
    from kgrag.answering.clauses import quote_each_clause

    units = [Unit(block=1, pos=0, text="A Zephyr Nano Core sits at the heart of the Zephyr Arm Carrier.", kind="sentence"),
             Unit(block=2, pos=0, text="Microcontroller | QRP2040 dual-core at 133 MHz", kind="row"),
             Unit(block=3, pos=0, text="The primary processor of the Zephyr Nano board is the QMEGA328.", kind="sentence")]
    titles = {1: "Zephyr Arm Carrier", 2: "Zephyr Nano Core", 3: "Zephyr Nano"}
    question = "Which board sits at the heart of the Zephyr Arm Carrier, and what microcontroller does that board use?"
    found = quote_each_clause(question, units, titles, titles, bridge="Zephyr Nano Core")
    assert found is not None and [f.unit.text for f in found] == [units[0].text, units[1].text]


def test_a_chained_clause_left_open_is_asked_of_the_bridge_the_quote_names() -> None:
    """"Which board acts as the Zephyr Rover's main controller, and what CPU does that board use?": the quote is the
    Rover's ("a Zephyr Nano acts as the main controller"); the passages after it are ranked for the Zephyr Nano's
    CPU, not the Rover's."""
    from kgrag.answering.clauses import other_clause_units
    from kgrag.answering.extract import Extraction

    rover = block_units(1, "At the top a Zephyr Nano acts as the main controller of the robot.\n"
                           "The Zephyr Rover's own core is a QM32 CPU that drives the motors.")
    nano = block_units(2, "The Zephyr Nano has a dual-core QX7 CPU running at up to 240 MHz.")
    titles = {1: "Zephyr Rover", 2: "Zephyr Nano"}
    question = "Which board acts as the Zephyr Rover's main controller, and what CPU does that board use?"
    one = [Extraction(rover[0], rover[0].text, 1.0)]
    ranked = other_clause_units(question, one, rover + nano, titles, titles, bridge="Zephyr Nano")
    assert ranked and ranked[0].unit.block == 2
