"""Question-focused answers: unit splitting, sentence/row selection, extractive answers, citation repair, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.answer import (
    NO_ANSWER,
    answer_options,
    build_blocks,
    generate_answer,
    stream_answer,
)
from kgrag.answering.cite import repair_citations
from kgrag.answering.quotes import NO_DIRECT_ANSWER, STATED_LEAD, evidence_lead, quote_answer
from kgrag.answering.refusal import is_refusal
from kgrag.answering.select import focus_units
from kgrag.answering.terms import analyse, asks_product
from kgrag.answering.tidy import loops, tidy_reply
from kgrag.answering.units import block_units
from kgrag.answering.unknown_names import missing_names, unknown_names
from kgrag.answering.values import asked_dimensions, has_value, part_numbers, value_dimensions, without_tolerances
from kgrag.config import Settings
from kgrag.errors import ConfigError
from kgrag.evaluate.answer_metrics import Corpus, answer_scores, cited_support, summarize
from kgrag.index import Index
from kgrag.models.fake import FakeLLM
from kgrag.types import Answer, Context, ContextItem

SENSOR_SHEET = """2.5 QX-700 Humidity and Temperature Sensor
The QX-700 is a capacitive sensor for relative humidity and temperature.

Parameter | Min | Typ | Max | Unit
Humidity accuracy | - | ±1.5 | - | %RH
Temperature accuracy | - | ±0.1 | - | °C
Humidity range | 0 | - | 100 | %RH
Response time | - | 4 | - | s"""

CARRIER_SHEET = """ZR-90 Pressure Sensor
260 to 1260 hPa absolute pressure range
Temperature accuracy: ± 0.5 °C, 15 to +40 °C
I2C interface to the host board"""

MANUAL = """Getting started
Connect the board to your computer with a USB-C cable. The power LED turns on when the board is powered.
Install the board package from the boards manager before uploading a sketch."""


def _item(text: str, cid: str, title: str, section: str = "") -> ContextItem:
    source = {"path": f"{cid}.pdf", "title": title, "page_start": 3, "page_end": 3, "section": section}
    return ContextItem("chunk", text, 0.5, cid, f"d-{cid}", source)


def _context(question: str) -> Context:
    items = [
        _item(CARRIER_SHEET, "c1", "Orbit Carrier", "Features"),
        _item(SENSOR_SHEET, "c2", "Zephyr Board", "2 Functional Overview > 2.5 QX-700"),
        _item(MANUAL, "c3", "Zephyr Board", "Getting started"),
    ]
    return Context(question=question, strategy="test", items=items, tokens=300, budget=2000)


def _no_llm() -> FakeLLM:
    return FakeLLM(replies=[])  # raises if called


# --- values and question analysis -------------------------------------------------------------


def test_value_patterns_and_part_numbers() -> None:
    assert has_value("260 to 1260 hPa absolute pressure range") and has_value("accuracy ±0.1 °C")
    assert has_value("Supply 1.7-3.6 V") and not has_value("I2C interface to the host board")
    assert has_value("IEEE 802.11n up to 72MBit") and has_value("up to 11Mbit")  # a unit in either capitalisation
    assert part_numbers("nRF52832 with Cortex-M4 at 64MHz, 3μT, ABX00042") == ["nRF52832", "Cortex-M4", "ABX00042"]
    assert asked_dimensions({"temperature", "accuracy"}) == {"temperature", "ratio"}
    assert asked_dimensions({"real-time", "clock", "chip"}) == set()  # an RTC is a part, not a clock speed
    assert asked_dimensions({"clock", "speed"}) == {"frequency"}  # a clock's speed is no data rate (a QSPI's 532 Mbps)
    assert asked_dimensions({"speed"}) == {"frequency", "data_rate"}
    assert asked_dimensions({"clock", "baud", "rate"}) == {"frequency", "data_rate"}  # a baud rate asked too
    assert asked_dimensions({"memory", "leak", "firmware"}) == set()  # a memory leak asks no memory size
    assert asked_dimensions({"field", "view", "camera"}) == {"angle"}  # a camera's field of view is an angle
    assert asked_dimensions({"magnetic", "field", "range"}) == {"magnetic"}
    assert asked_dimensions({"maximum", "file", "size"}) == {"memory"}  # a file's size is in bytes, not in mm
    assert asked_dimensions({"big", "cfg"}) == {"memory"}  # "How big can rc3xx.cfg be?"
    # a key's name asks nothing: "What happens if max_file_size_mb is set to 0?" (words_of splits it)
    assert "memory" not in asked_dimensions({"max_file_size_mb", "max", "file", "size", "mb", "happen", "set"})
    assert asked_dimensions({"board", "size"}) == {"length"} and asked_dimensions({"hex", "key", "size"}) == {"length"}
    assert asked_dimensions({"long", "tag", "name"}) == {"text_length"}  # "How long can the tag name be?": characters
    assert asked_dimensions({"maximum", "password", "length"}) == {"text_length"}
    assert asked_dimensions({"long", "take", "name"}) == {"time"}  # "How long does the name change take?"
    assert asked_dimensions({"cable", "length"}) == {"length"}
    assert value_dimensions("Range : 1 to 32 characters") == {"text_length"}


def test_question_analysis_separates_names_from_attributes() -> None:
    q = analyse("What is the temperature accuracy of the QX-700 on the Zephyr Board?")
    assert q.parts == ["QX-700"] and {"Zephyr", "Board"} <= set(q.names)
    assert q.attributes == {"temperature", "accuracy"} and q.wants_value and not q.yes_no
    assert not analyse("Why does the sensor need calibration?").wants_value
    # a consequence or a meaning is asked, not a value: "Position 00 starts the module in LSS mode" answers it
    assert not analyse("What happens if both rotary switches of the QX-700 are at 00 at power-up?").wants_value
    assert not analyse("The QX-700 blinks its red LED twice, pause, twice. What is it telling me?").wants_value
    assert not analyse("What does a steady red ERR LED on the QX-700 mean?").wants_value
    assert analyse("What output current can the QX-700 supply?").wants_value
    assert analyse("Which board has a magnetometer?").wants_name
    assert analyse("Does the QX-700 measure pressure?").yes_no


# --- units and selection ----------------------------------------------------------------------


def test_table_rows_keep_their_header_and_paragraph_heading() -> None:
    units = block_units(1, SENSOR_SHEET)
    rows = [u for u in units if u.kind == "row"]
    assert len(rows) == 4 and all(u.header.startswith("Parameter | Min") for u in rows)
    assert all(u.heading == "2.5 QX-700 Humidity and Temperature Sensor" for u in rows)
    assert rows[1].display() == "Parameter: Temperature accuracy; Min: -; Typ: ±0.1 °C; Max: -"
    sentences = [u for u in units if u.kind == "sentence"]
    assert sentences[0].text.startswith("The QX-700 is a capacitive sensor")


def test_a_header_of_model_codes_names_the_columns_of_a_comparison_table() -> None:
    """"Characteristic | QX-10 | QX-10L" has more digits than a header was allowed, so the comparison's rows were
    quoted without saying which value is which product's; part names followed by more names stay data."""
    text = ("Characteristic | QX-10 | QX-10L\nOrder code | QX-10-24D | QX-10L-D\n"
            "Supply range | 18–32 VDC | 9–32 VDC\nOperating temperature | −25 °C to +60 °C | −40 °C to +70 °C")
    rows = [u for u in block_units(1, text) if u.kind == "row"]
    assert [u.text.split(" |")[0] for u in rows] == ["Order code", "Supply range", "Operating temperature"]
    assert rows[2].display() == "Characteristic: Operating temperature; QX-10: −25 °C to +60 °C; QX-10L: −40 °C to +70 °C"
    names = "Security | ATECC608 | SE050C2\nConnectivity | Ethernet / Wi-Fi | Ethernet"
    assert [u.header for u in block_units(1, names) if u.kind == "row"] == ["", ""]


def test_a_label_line_inside_a_table_keeps_the_header_of_the_rows_after_it() -> None:
    """"Preview" (an image cell a converter writes on a line of its own) between two rows of a variant table had
    ended it: "Security | … | ATECC608" lost the header naming the three variants, and scored below every
    certification row for "What security features … differ between the Zephyr H7, H7 Lite and H7 Lite Connected?"."""
    text = ("Name | Zephyr H7 | Zephyr H7 Lite | Zephyr H7 Lite Connected\nSKU | ZX042 | ZX045 | ZX046\nPreview\n"
            "Security | ATECC608 NXP SE050C2 | ATECC608 | ATECC608\nConnectivity | Ethernet / Wi-Fi | Ethernet | Wi-Fi")
    rows = [u for u in block_units(1, text) if u.kind == "row"]
    assert [u.text.split(" |")[0] for u in rows] == ["SKU", "Security", "Connectivity"]
    assert all(u.header.startswith("Name | Zephyr H7 |") for u in rows)
    assert rows[1].display().startswith("Name: Security; Zephyr H7: ATECC608 NXP SE050C2; Zephyr H7 Lite: ATECC608")
    apart = text.replace("Preview", "The second table lists the board's interfaces in detail.")  # prose ends a table
    assert not [u for u in block_units(1, apart) if u.kind == "row" and u.text.startswith("Security")][0].header
    grouped = "Parameter | Value\nOperating temperature | -40 to 85 °C\nRelays\nRated voltage | 250 VAC"
    assert not [u for u in block_units(1, grouped) if u.text.startswith("Rated")][0].header  # two cells name nothing


def test_a_number_merged_with_an_empty_columns_dash_keeps_its_unit() -> None:
    """"Standby | - | 0.46 - | mA" under "Description | Min | Typ Max | Unit": the PDF merged two columns; the quote had
    read "Typ Max: 0.46 -" with the unit dropped, so no current was found for "the standby current in milliamps"."""
    from kgrag.answering.units import Unit

    row = Unit(block=1, pos=0, text="Standby | - | 0.46 - | mA", kind="row", header="Description | Min | Typ Max | Unit")
    assert row.display() == "Description: Standby; Min: -; Typ Max: 0.46 mA" and "0.46 mA" in row.value_text()
    labels = Unit(block=1, pos=0, text="Standby | - | n/a | mA", kind="row", header="Description | Min | Typ | Unit")
    assert labels.display().endswith("Unit: mA")  # no number to carry it: the unit column stays


def test_a_unit_column_does_not_measure_the_columns_that_name_their_own_unit() -> None:
    """A calibration sheet's "Unit" column is the span gas's ("%VOL"); its intervals say theirs in the header ("Bump
    test interval (days)"): the quote read "Bump test interval (days): 30 %VOL"."""
    from kgrag.answering.units import Unit

    row = Unit(block=1, pos=0, text="GX-410 | 30 | 6 | 20.9 | %VOL", kind="row",
               header="Model | Bump test interval (days) | Calibration interval (months) | Span concentration | Unit")
    assert row.display() == ("Model: GX-410; Bump test interval (days): 30; Calibration interval (months): 6; "
                             "Span concentration: 20.9 %VOL")


def test_selection_picks_the_row_with_the_asked_unit_and_product() -> None:
    question = "What is the temperature accuracy of the QX-700?"
    blocks = build_blocks(_context(question))
    focus = focus_units(question, {b.n: b.text for b in blocks}, {b.n: b.header() for b in blocks}, 120)
    best = focus.ranked[0].unit
    assert best.block == 2 and "Temperature accuracy" in best.text and "°C" in best.text  # not the %RH row
    assert 2 in focus.units and focus.tokens <= 120
    text = focus.blocks_text()[2]
    assert "Parameter | Min | Typ | Max | Unit" in text  # the header travels with the row


def test_focused_context_is_small_and_keeps_neighbour_sentences() -> None:
    question = "How do I know that the board is powered?"
    blocks = build_blocks(_context(question))
    focus = focus_units(question, {b.n: b.text for b in blocks}, {b.n: b.header() for b in blocks}, 60)
    text = focus.blocks_text().get(3, "")
    assert "power LED turns on" in text and "USB-C cable" in text  # the sentence before travels along
    assert focus.tokens <= 60


def test_names_of_several_words_are_one_phrase_each() -> None:
    q = analyse("Which board is better suited for always-on keyword spotting: the Zephyr Mini Rev2 or the Orbit Voice?")
    assert q.phrases == [["Zephyr", "Mini", "Rev2"], ["Orbit", "Voice"]]
    assert q.parts == []  # a revision tells two products apart; it is no part number to look up
    assert q.attributes >= {"always-on", "keyword", "spotting"}


def test_a_model_code_made_plural_is_the_code() -> None:
    from kgrag.answering.words import singular_codes

    q = analyse("Our field nodes use MKR WAN 1310s and three UNO R4s. Is the LoRa module the same?")
    assert ["MKR", "WAN", "1310"] in q.phrases and ["UNO", "R4"] in q.phrases
    assert analyse("Do Nano ESP32s have PSRAM?").parts == ["ESP32"]
    assert ["4s"] in analyse("Does the HS3003 respond in under 4s?").phrases  # a time, not a plural
    assert ["1990s"] in analyse("Were the 1990s boards slower?").phrases  # a decade
    assert singular_codes("Wait 10s after reset.") == "Wait 10s after reset."  # a time after a capitalised word


ORBIT_VOICE_SHEET = """1.1 Application Examples
Voice control: the Orbit Voice microphone system adds speech commands to your projects.

4.7 Microphone
The microphone system is an IC (U2) of two MEMS microphones sending audio over PDM to the NDP120."""


def test_the_asked_products_own_technical_section_ranks_with_its_sentences_that_repeat_the_name() -> None:
    question = "Summarize the microphone system on the Orbit Voice."
    items = [_item(ORBIT_VOICE_SHEET, "v1", "Orbit Voice", "4 Functional Overview")]
    blocks = build_blocks(Context(question=question, strategy="test", items=items, tokens=300, budget=2000))
    focus = focus_units(question, {b.n: b.text for b in blocks}, {b.n: b.header() for b in blocks}, 60,
                        titles={b.n: b.title for b in blocks})
    assert "MEMS microphones" in focus.ranked[0].unit.text  # the datasheet's section, not its marketing line


MINI_SHEET = """1 The Board
The Zephyr Mini Rev2 is a small board. The Zephyr Mini Rev2 runs at 3.3 V and the Zephyr Mini Rev2 has no charger.
The Zephyr Mini Rev2 has a 9-axis IMU on the Zephyr Mini Rev2 module."""

VOICE_SHEET = """4.4 Neural Decision Processor
The NDP120 runs deep neural networks in always-on domains at minimal power, including keyword spotting.
The board can be powered over USB."""


def test_a_comparison_focus_finds_the_unit_that_answers_the_need_whichever_product_has_the_longer_name() -> None:
    question = "Which board is better suited for always-on keyword spotting: the Zephyr Mini Rev2 or the Orbit Voice?"
    items = [_item(MINI_SHEET, "m1", "Zephyr Mini Rev2", "1 The Board"),
             _item(VOICE_SHEET, "v1", "Orbit Voice", "4 Functional Overview > 4.4 Neural Decision Processor"),
             _item(MINI_SHEET.replace("1 The Board", "2 Power"), "m2", "Zephyr Mini Rev2", "2 Power"),
             _item(VOICE_SHEET.replace("4.4", "4.5"), "v2", "Orbit Voice", "4.5 Other")]
    blocks = build_blocks(Context(question=question, strategy="test", items=items, tokens=300, budget=2000))
    focus = focus_units(question, {b.n: b.text for b in blocks}, {b.n: b.header() for b in blocks}, 60)
    assert "keyword spotting" in focus.ranked[0].unit.text  # the need, not the five-word name repeated five times
    assert any("keyword spotting" in t for t in focus.blocks_text().values())


# --- extractive answers -----------------------------------------------------------------------


def test_extractive_answer_quotes_the_row_with_inline_citation() -> None:
    question = "What is the temperature accuracy of the QX-700?"
    answer = generate_answer(_no_llm(), question, _context(question), mode="auto", focus_tokens=300)
    assert answer.grounded and answer.text.endswith("[2].")
    assert "±0.1" in answer.text and "°C" in answer.text and "%RH" not in answer.text
    assert answer.citations[0].chunk_id == "c2" and answer.context.info["answer_path"] == "extractive"


def test_extractive_answer_prefers_the_named_product() -> None:
    question = "What is the temperature accuracy of the ZR-90?"
    answer = generate_answer(_no_llm(), question, _context(question), mode="extractive", focus_tokens=300)
    assert "± 0.5 °C" in answer.text and answer.citations[0].chunk_id == "c1"
    assert answer.text.startswith("Orbit Carrier")  # the product the quote is about leads the answer


def test_auto_asks_the_llm_over_the_focused_context_when_no_unit_states_the_value() -> None:
    question = "Why should I install the board package first?"
    llm = FakeLLM(replies=["You need it to upload a sketch. The package comes from the boards manager."])
    answer = generate_answer(llm, question, _context(question), mode="auto", focus_tokens=100)
    assert llm.calls == 1
    prompt = llm.requests[0]["messages"][1]["content"]
    assert "boards manager" in prompt and "Parameter | Min" not in prompt  # the focused context only
    assert answer.context.info["answer_path"] == "focused"
    n = answer.citations[0].n
    assert answer.text.count(f"[{n}]") == 2  # both uncited sentences got the block that supports them
    assert [c.chunk_id for c in answer.citations] == ["c3"]


def test_generative_mode_without_focus_sends_the_full_context() -> None:
    question = "Why should I install the board package first?"
    llm = FakeLLM(replies=["Install it first [3]."])
    generate_answer(llm, question, _context(question), mode="generative", focus_tokens=0)
    prompt = llm.requests[0]["messages"][1]["content"]
    assert "QX-700" in prompt and "ZR-90" in prompt


def test_stream_sends_the_quote_as_one_token_in_auto_mode() -> None:
    question = "What is the temperature accuracy of the QX-700?"
    events = list(stream_answer(_no_llm(), question, _context(question), mode="auto", focus_tokens=300))
    assert [e["event"] for e in events] == ["sources", "token", "done"]
    assert events[1]["data"] == events[2]["data"]["answer"] and "[2]" in events[1]["data"]


def test_bad_mode_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="answer mode"):
        generate_answer(_no_llm(), "q?", _context("q?"), mode="creative")


def test_answer_options_focus_local_models_only() -> None:
    settings = Settings()
    assert answer_options(settings)["mode"] == "auto" and answer_options(settings)["focus_tokens"] == 350
    settings.llm.provider = "openai"
    assert answer_options(settings, "generative") == {**answer_options(settings, "generative"), "focus_tokens": 0}
    assert answer_options(settings)["max_tokens"] == settings.llm.max_answer_tokens


# --- inline citations -------------------------------------------------------------------------


def test_repair_adds_markers_to_uncited_sentences_and_drops_invalid_ones() -> None:
    texts = ["The QX-700 measures humidity from 0 to 100 %RH.", "The ZR-90 measures 260 to 1260 hPa."]
    fixed = repair_citations("Humidity range is 0 to 100 %RH. The pressure range is 260 to 1260 hPa [7].", texts)
    assert fixed == "Humidity range is 0 to 100 %RH [1]. The pressure range is 260 to 1260 hPa [2]."
    assert repair_citations("It is 260 hPa. [2]", texts) == "It is 260 hPa. [2]"  # a split-off marker stays
    assert repair_citations("Range 0 to 100 %RH [1, 9].", texts) == "Range 0 to 100 %RH [1]."


def test_repair_keeps_only_the_supporting_blocks_of_a_sentence_citing_many() -> None:
    """Small models pile every source number onto one sentence; only the blocks that state it stay."""
    texts = {1: "Mega Proto Shield Rev3 (A000080)",
             2: "Keep a minimum distance of 20 cm between the antenna and the user's body.",
             3: "Changes or modifications not approved could void the user's authority.",
             4: "RF exposure: install with at least 20 cm distance from the body."}
    fixed = repair_citations("The minimum distance to the body is 20 cm [2] [3] [1] [4].", texts)
    assert fixed == "The minimum distance to the body is 20 cm [2] [4]."
    assert repair_citations("Fine [3, 1].", texts) == "Fine [3]."  # nothing shared: the first number stays
    assert repair_citations("It needs 20 cm [4].", texts) == "It needs 20 cm [4]."  # one number: the model's choice


def test_repair_falls_back_to_the_previous_sentence_source() -> None:
    texts = ["The ZR-90 measures 260 to 1260 hPa."]
    assert repair_citations("The ZR-90 measures 260 hPa [1]. Nice.", texts) == "The ZR-90 measures 260 hPa [1]. Nice [1]."


def test_llm_answer_without_markers_gets_inline_citations() -> None:
    question = "Why should I install the board package first?"
    llm = FakeLLM(replies=["Install the board package from the boards manager before uploading a sketch."])
    answer = generate_answer(llm, question, _context(question), mode="generative", focus_tokens=0)
    assert answer.text.endswith("[3].") and answer.citations[0].chunk_id == "c3"


# --- refusals ---------------------------------------------------------------------------------


def test_question_about_a_part_missing_from_the_context_is_refused_without_the_llm() -> None:
    question = "What is the temperature accuracy of the BX-5500?"
    answer = generate_answer(_no_llm(), question, _context(question), mode="auto", focus_tokens=300)
    assert answer.text == NO_ANSWER and not answer.grounded and answer.context.info["missing_parts"] == ["BX-5500"]


def test_an_order_code_of_a_model_the_documents_name_gets_their_passages_not_a_refusal() -> None:
    """"Is GX-440-A-R-M20 a valid order code?": the documents never write the whole code, but they name the GX-440
    and list its options, so the closest passages are shown; a code whose model they never name is still refused."""
    guide = _item("Order code structure: GX-<model>-<enclosure>-<output>, for example GX-430-S-R.\nThe GX-440 only "
                  "ships in the stainless S enclosure. Partners keep quoting GX-440-A: the configurator rejects that "
                  "order code as not valid.", "o1", "Gamma ordering guide")
    question = "A partner wants to quote a GX-440-A-R-M20. Is that a valid order code?"
    context = Context(question=question, strategy="test", items=[guide], tokens=60, budget=2000)
    answer = generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), question, context,
                             mode="auto", focus_tokens=300, passages=2)
    assert "missing_parts" not in answer.context.info and "stainless S enclosure" in answer.text, answer.text
    unknown = "A partner wants to quote a QZ-990-A-R. Is that a valid order code?"
    refused = generate_answer(_no_llm(), unknown, Context(question=unknown, strategy="test", items=[guide], tokens=60,
                                                          budget=2000), mode="auto", focus_tokens=300)
    assert refused.text == NO_ANSWER and refused.context.info["missing_parts"] == ["QZ-990-A-R"]


def test_a_part_written_with_a_word_after_its_hyphen_is_the_part() -> None:
    """"a QX-700-based board": the asked part is the QX-700 (the context has it), "based" a word about it."""
    q = analyse("What is the temperature accuracy of a QX-700-based board?")
    assert q.parts == ["QX-700"] and "based" in q.attributes
    question = "What humidity range does a QX-700-based board measure?"
    answer = generate_answer(_no_llm(), question, _context(question), mode="auto", focus_tokens=300)
    assert "missing_parts" not in answer.context.info and "0" in answer.text and "100" in answer.text
    assert analyse("Will my UWB-capable phone range against the Zephyr Tag?").phrases == [["UWB"], ["Zephyr", "Tag"]]
    assert analyse("Is the Li-ion battery of the Zephyr Tag charged?").phrases == [["Li-ion"], ["Zephyr", "Tag"]]
    assert analyse("Is its range given in μT or in gauss on the Zephyr Tag?").names == ["Zephyr", "Tag"]  # no "T"
    assert analyse("Does the Zephyr Tag protect its DC input against reverse polarity?").names == ["Zephyr", "Tag"]


def test_off_topic_question_is_refused_and_llm_refusals_are_normalised() -> None:
    off = "How do I reset the password of my cloud account dashboard?"
    assert generate_answer(_no_llm(), off, _context(off), mode="auto", focus_tokens=300).text == NO_ANSWER
    question = "Why should I install the board package first?"
    llm = FakeLLM(replies=["I'm sorry, the sources do not contain this information."])
    answer = generate_answer(llm, question, _context(question), mode="generative", focus_tokens=100)
    assert answer.text == NO_ANSWER and not answer.grounded and answer.citations == []
    assert is_refusal("The sources do not mention the Vega board.") and is_refusal("The datasheet does not say.")
    assert is_refusal("The documents found do not mention Vega; the closest passages: ... [1].")  # our own lead
    # a gold answer marking a question the documents cannot answer ("The documents do not state a range in metres")
    assert is_refusal("The documents do not state a Bluetooth range in metres; they give +8 dBm TX power.")
    from kgrag.evaluate.answer_metrics import answer_recall

    gold = "The documents do not state a Bluetooth range in metres; they give +8 dBm TX power."
    assert answer_recall("The documents do not contain a direct answer; the closest passages: ... [1].", gold) == 1.0
    assert answer_recall("About 10 metres [1].", gold) == 0.0  # a made-up range is no answer to it


def test_a_near_miss_of_the_question_coverage_shows_the_closest_passages_not_a_refusal() -> None:
    """A user's situation words the documents never use ("my cabinet sometimes glitches …") leave a question a little
    under the coverage threshold: a small model is not asked, but the closest passages are shown instead of a bare
    refusal; far below it (off topic) the answer is still the refusal."""
    question = "My unit glitches sometimes after a relay click in the cabinet, so I want the humidity range of the QX-700 sensor."
    context = _context(question)
    answer = generate_answer(_no_llm(), question, context, mode="auto", focus_tokens=300)
    assert 0.3 <= context.info["question_coverage"] < 0.45
    assert answer.text.startswith("The documents do not contain a direct answer; the closest passages:")
    assert "0 | - | 100" in answer.text or "Humidity range" in answer.text
    assert context.info["answer_path"] == "evidence" and not answer.grounded
    off = "How do I reset the password of my cloud account dashboard?"
    assert generate_answer(_no_llm(), off, _context(off), mode="auto", focus_tokens=300).text == NO_ANSWER
    strong = generate_answer(_no_llm(), question, _context(question), mode="generative")
    assert strong.text == NO_ANSWER  # a strong model's full-context path keeps the plain refusal


# --- answer metrics ---------------------------------------------------------------------------


def test_answer_scores_flag_wrong_products_and_refusals() -> None:
    corpus = Corpus.of([SENSOR_SHEET, CARRIER_SHEET, MANUAL, "Another page", "More text", "Even more"])
    question = "What is the pressure range of the ZR-90?"
    right = answer_scores(question, "260 to 1260 hPa", "260 to 1260 hPa [1].", [CARRIER_SHEET], corpus, 2.0)
    wrong = answer_scores(question, "260 to 1260 hPa", "0 to 100 %RH [1].", [SENSOR_SHEET], corpus, 4.0)
    refused = answer_scores("What is the price of the board?", "12 USD", NO_ANSWER, [], corpus, 1.0)
    assert right["wrong_product"] is False and right["correctness"] == "TP" and right["fact_recall"] == 1.0
    assert wrong["wrong_product"] is True and wrong["correctness"] == "FP" and wrong["answerable"]
    assert refused["refusal"] and not refused["answerable"] and refused["wrong_product"] is None
    summary = summarize([right, wrong, refused])
    assert summary["wrong_product"] == 0.5 and summary["refused_unanswerable"] == 1.0
    assert summary["refused_answerable"] == 0.0 and summary["fact_recall_answerable"] == 0.5
    assert summary["p50_s"] == 2.0 and summary["p95_s"] == 4.0 and summary["TP"] == 1 and summary["FN"] == 1
    assert "context_recall" not in summary  # only when the scores carry it (the answer benchmark adds it)
    right["context_recall"], wrong["context_recall"] = 1.0, 0.5
    assert summarize([right, wrong])["context_recall"] == 0.75


def test_a_gold_answer_saying_the_documents_lack_it_is_met_by_a_refusal_only() -> None:
    """"The documents do not contain this information." is no fact: a refusal meets it in full, a value does not, and
    the question counts as not answerable (its one term, "information", is in every corpus)."""
    corpus = Corpus.of([SENSOR_SHEET, CARRIER_SHEET, "This information is provided as is."])
    gold = "The documents do not contain this information."
    refused = answer_scores("What IP rating does the ZR-90 have?", gold, NO_ANSWER, [], corpus)
    guessed = answer_scores("What IP rating does the ZR-90 have?", gold, "IP65 [1].", [CARRIER_SHEET], corpus)
    assert refused["fact_recall"] == 1.0 and not refused["answerable"] and refused["refusal"]
    assert guessed["fact_recall"] == 0.0 and not guessed["answerable"]
    assert summarize([refused, guessed])["refused_unanswerable"] == 0.5


def test_an_answer_opening_with_the_opposite_yes_or_no_of_the_gold_is_a_wrong_verdict() -> None:
    """Fact recall scores "No. … 60 V [1]." the same as "Yes. … 60 V [1]."; the verdict is checked on its own."""
    corpus = Corpus.of([SENSOR_SHEET, CARRIER_SHEET])
    gold = "Yes. The relays are rated 60 V / 2.5 A, so 48 V fits."
    wrong = answer_scores("Can its relays switch 48 V?", gold, "No. Relays: 60V/2.5A [1].", [CARRIER_SHEET], corpus)
    right = answer_scores("Can its relays switch 48 V?", gold, "Yes. Relays: 60V/2.5A [1].", [CARRIER_SHEET], corpus)
    plain = answer_scores("Can its relays switch 48 V?", gold, "Relays: 60V/2.5A [1].", [CARRIER_SHEET], corpus)
    assert wrong["fact_recall"] == right["fact_recall"]
    assert (wrong["wrong_verdict"], right["wrong_verdict"], plain["wrong_verdict"]) == (True, False, None)
    assert summarize([wrong, right, plain])["wrong_verdict"] == 0.5


def test_a_name_written_with_a_space_for_its_hyphen_is_the_same_name_for_the_wrong_product_check() -> None:
    corpus = Corpus.of([SENSOR_SHEET, CARRIER_SHEET, MANUAL, "Another page", "More text", "Even more"])
    question = "What is the pressure range of the ZR-90?"
    spaced = answer_scores(question, "260 to 1260 hPa", "The ZR 90 reads 260 to 1260 hPa [1].", ["ZR 90 sheet"], corpus)
    assert spaced["wrong_product"] is False


def test_cited_support_checks_that_the_cited_source_states_the_answered_fact() -> None:
    gold = "The ZR-90 measures 260 to 1260 hPa."
    assert cited_support(gold, "The ZR-90: 260 to 1260 hPa [1].", [CARRIER_SHEET]) == 1.0
    assert cited_support(gold, "The ZR-90: 260 to 1260 hPa [1].", ["Full-speed 12 Mbps USB"]) == 0.0
    assert cited_support(gold, NO_ANSWER, []) is None and cited_support(gold, "It is blue [1].", [CARRIER_SHEET]) is None


def test_eval_answers_reports_answer_metrics_and_times(sample_index: Index, tmp_path: Path) -> None:
    from kgrag.evaluate.datasets import load_questions
    from kgrag.evaluate.runner import EvalConfig, group_summaries, run_eval

    sample_index.__dict__["llm"] = FakeLLM()  # answers from the [1] passage when the LLM path is taken
    path = tmp_path / "q.jsonl"
    path.write_text(
        '{"id": 1, "query_type": "factual", "question": "What is the logic voltage of the Zephyr Nano Rev2?", '
        '"gold_answer": "3.3 V"}\n'
        '{"id": 2, "query_type": "factual", "question": "What is the retail price of the QQ-9000 in Japan?", '
        '"gold_answer": "12000 yen"}\n', encoding="utf-8")
    config = EvalConfig(strategies=["hybrid"], budget=2000, answers=True, mode="auto")
    records = run_eval(sample_index, load_questions(path), config)
    first, second = (r["scores"] for r in records)
    assert "3.3 V" in records[0]["answer"] and first["answer_fact_recall"] == 1.0
    assert first["wrong_product"] is not True and first["answerable"] and first["correctness"] == "TP"
    assert first["cited_support"] == 1.0 and second["cited_support"] is None  # the quote is where [n] points
    assert records[1]["answer"] == NO_ANSWER and second["refusal"] and not second["answerable"]
    summary = group_summaries(records)["overall"]["hybrid"]
    assert summary["refused_unanswerable"] == 1.0 and summary.get("wrong_product", 0.0) == 0.0
    assert 0 <= summary["answer_p50_s"] <= summary["answer_p95_s"]


def test_focused_blocks_keep_their_context_numbers() -> None:
    question = "Why should I install the board package first?"
    llm = FakeLLM(replies=["Install the board package from the boards manager first."])
    answer = generate_answer(llm, question, _context(question), mode="generative", focus_tokens=60)
    prompt = llm.requests[0]["messages"][1]["content"]
    assert "[3] (Zephyr Board" in prompt and answer.text.endswith("[3].")  # block 3 stays [3] when focused
    assert answer.citations[0].n == 3 and answer.citations[0].chunk_id == "c3"


def test_a_quoted_fact_line_cites_the_chunk_it_came_from() -> None:
    """Graph fact lines ("attribute | value [n]") are answered with their source chunk's number, not the fact block's."""
    question = "What is the supply voltage of the ZR-90?"
    facts = ContextItem("relation", "ZR-90 (Sensor)\nsupply voltage | 1.7 to 3.6 V [2]", 1.0, "c1", "d-c1",
                        {"path": "c1.pdf", "title": "Orbit Carrier", "section": "Features"})
    context = _context(question)
    context.items.insert(0, facts)
    answer = generate_answer(_no_llm(), question, context, mode="extractive", focus_tokens=300)
    assert "1.7 to 3.6 V" in answer.text and answer.text.endswith("[2].")
    assert "[1]" not in answer.text and answer.citations[0].chunk_id == "c1"


def test_the_graphs_fact_of_the_named_product_is_its_own_and_a_tolerance_qualifies_its_value() -> None:
    """With the named product's datasheet in the context, the graph's fact line of that product still answers
    ("Zephyr Core (Product) | input voltage | 24V DC +/- 20%"), and its ± tolerance in % is the value's own, not a
    value of another quantity that would let a 0-10 V output row win."""
    question = "What is the input voltage range of the Zephyr Core?"
    facts = ContextItem("relation", "Zephyr Core (Product)\ninput voltage | 24V DC +/- 20% [2]\n"
                        "dc voltage output software configurable | 0-10V DC [2]", 1.0, "c1", "d-c1",
                        {"path": "c1.pdf", "title": "", "section": ""})
    own = _item("The Zephyr Core is powered with a 24V DC power supply and drives relays.", "c2", "Zephyr Core")
    context = Context(question=question, strategy="test", items=[facts, own], tokens=80, budget=2000)
    answer = generate_answer(_no_llm(), question, context, mode="extractive", focus_tokens=300)
    assert "input voltage: 24V DC +/- 20%" in answer.text.split("\n")[0], answer.text


def test_flow_and_other_process_quantities_are_values() -> None:
    """A flow meter's "Maximum flow: 40 litres per minute" states a value (as a supply voltage does): the flow
    question is answered by it, not by the sheet's voltage line."""
    question = "What is the maximum flow of the QF-40?"
    sheet = _item("QF-40 Flow Meter\nSupply voltage: 12 to 30 V DC\nOutput: 4-20 mA, two-wire\n"
                  "Maximum flow: 40 litres per minute\nOperating temperature: -10 to 60 °C", "c9", "QF-40 Flow Meter")
    context = Context(question=question, strategy="test", items=[sheet], tokens=60, budget=2000)
    answer = generate_answer(_no_llm(), question, context, mode="extractive", focus_tokens=300)
    assert "Maximum flow: 40 litres per minute" in answer.text.split("\n")[0]
    assert has_value("2.5 m³/h") and has_value("1500 rpm") and has_value("4.5 mm/s RMS") and not has_value("TJA1049T/3J")
    probe = _item("Parameter | AS-2 | AS-2X\npH range | 0 to 14 pH | 0 to 14 pH\nConductivity range | 0 to 2000 µS/cm | "
                  "0 to 200 mS/cm\nOperating temperature | 0 to 50 °C | 0 to 80 °C", "c8", "AS-2 Water Quality Probe")
    question = "What is the conductivity range of the AS-2X?"  # water quality: conductivity and pH are values too
    context = Context(question=question, strategy="test", items=[probe], tokens=60, budget=2000)
    answer = generate_answer(_no_llm(), question, context, mode="extractive", focus_tokens=300)
    assert "Conductivity range" in answer.text.split("\n")[0], answer.text


def test_a_value_with_its_test_conditions_in_brackets_is_not_outranked_by_another_attribute() -> None:
    """"humidity accuracy | ±1.5 %RH (10 to 90 %RH, 25 °C)" answers the humidity accuracy: the bracketed 25 °C is a
    test condition, not a value of another quantity that would let "relative humidity range | 0-100 %" win."""
    question = "What is the humidity accuracy of the QH-30?"
    facts = ContextItem("relation", "QH-30 (Sensor)\nhumidity accuracy | ±1.5%RH, typical (10 to 90%RH, 25°C) [2]\n"
                        "relative humidity range | 0-100% [2]", 1.0, "c1", "d-c1",
                        {"path": "c1.pdf", "title": "Orbit Carrier", "section": "Features"})
    context = _context(question)
    context.items.insert(0, facts)
    answer = generate_answer(_no_llm(), question, context, mode="extractive", focus_tokens=300)
    first = answer.text.split("\n")[0]
    assert "QH-30: humidity accuracy: ±1.5%RH" in first and "0-100%" not in first


def test_a_focus_that_misses_the_question_words_shows_evidence_without_the_llm() -> None:
    """The asked words occur only in a sentence too long for the focus: the whole context covers the question, its
    best units do not. A small model answers such focused contexts off-topic, so auto mode quotes the closest
    passages (no LLM call, not grounded) and generative mode refuses."""
    soc = "The ZX-9 SoC is built around an Arm Cortex-M4 processor with a floating point unit."
    report = "The core architecture of our retail programme covers " + ", ".join(
        f"shelf {n} with recycled cardboard boxes and printed labels" for n in range(40)) + "."
    items = [_item(soc, "c1", "ZX-9 Board", "Processor"), _item(report, "c2", "Company report", "Overview")]
    question = "What core architecture does the ZX-9 use?"

    def context() -> Context:
        return Context(question=question, strategy="test", items=items, tokens=500, budget=2000)

    answer = generate_answer(_no_llm(), question, context(), mode="auto", focus_tokens=30)
    assert answer.text.startswith("The documents do not contain a direct answer") and "Cortex-M4" in answer.text
    assert not answer.grounded and answer.context.info["answer_path"] == "evidence"
    assert answer.context.info["focus_coverage"] < 0.45 and answer.citations[0].chunk_id == "c1"
    assert generate_answer(_no_llm(), question, context(), mode="generative", focus_tokens=30).text == NO_ANSWER


def test_auto_mode_shows_the_closest_passages_when_the_model_refuses() -> None:
    """The context covers the question but the small model refuses: the answer quotes the best units with their
    citations (not grounded), instead of a bare refusal, as what the documents say (the first writes three of the
    four asked words); generative mode keeps the bare refusal."""
    question = "Why should I install the board package first?"
    refusal = "I'm sorry, the sources do not contain this information."
    answer = generate_answer(FakeLLM(replies=[refusal]), question, _context(question), mode="auto", focus_tokens=100)
    assert answer.text.startswith(STATED_LEAD) and "boards manager" in answer.text
    assert not answer.grounded and answer.context.info["answer_path"] == "evidence"
    assert "c3" in [c.chunk_id for c in answer.citations] and f"[{answer.citations[0].n}]" in answer.text
    events = list(stream_answer(FakeLLM(replies=[refusal]), question, _context(question), mode="auto", focus_tokens=100))
    assert events[-1]["data"]["answer"] == answer.text
    plain = generate_answer(FakeLLM(replies=[refusal]), question, _context(question), mode="generative",
                            focus_tokens=100)
    assert plain.text == NO_ANSWER


def test_a_reply_that_only_restates_the_question_shows_the_closest_passages() -> None:
    """"Why should I install the board package first? -> You should install the board package first [3]" says
    nothing the question did not: auto mode quotes the passages instead. A yes/no question restated is its yes."""
    question = "Why should I install the board package first?"
    echo = "You should install the board package first [3] [1]."
    answer = generate_answer(FakeLLM(replies=[echo]), question, _context(question), mode="auto", focus_tokens=100)
    assert answer.context.info["answer_path"] == "evidence" and "boards manager" in answer.text
    yes_no = "Does the QX-700 measure humidity?"  # asked of a model that gets the whole context (no focus)
    said = generate_answer(FakeLLM(replies=["The QX-700 measures humidity [2]."]), yes_no, _context(yes_no),
                           mode="auto", focus_tokens=0)
    assert said.grounded and said.text == "The QX-700 measures humidity [2]."


def test_a_reply_copying_a_passage_that_misses_the_question_shows_the_passage_that_holds_it() -> None:
    """"How do I reset the gateway to factory defaults?" answered with the configuration section's text writes none of
    "reset" / "factory" while a passage writes every asked word: the closest passages are shown instead. A reply
    giving the asked quantity's value in words of its own still answers."""
    question = "How do I restore the factory defaults?"
    copied = ("Install the board package from the boards manager before uploading a sketch [3]. Connect the board "
              "to your computer with a USB-C cable, the power LED turns on [3].")
    manual = _item("Buttons\nHold the RESET button for 10 seconds to restore the factory defaults.", "c4",
                   "Zephyr Board", "Buttons")  # (under "Factory defaults" the section itself answers: a procedure)
    context = _context(question)
    context.items.append(manual)
    answer = generate_answer(FakeLLM(replies=[copied]), question, context, mode="auto", focus_tokens=300)
    assert answer.context.info.get("off_topic") and answer.context.info["answer_path"] == "evidence", answer.text
    assert "Hold the RESET button" in answer.text
    value = "What is the response time of the QX-700?"
    said = "It reacts within 4 s to a change of the relative humidity, measured by its capacitive element [2]."
    answer = generate_answer(FakeLLM(replies=[said]), value, _context(value), mode="generative", focus_tokens=300)
    assert "off_topic" not in answer.context.info and answer.text.startswith("It reacts within 4 s"), answer.text
    from kgrag.answering.on_topic import off_topic
    codes = "Which Modbus function codes does the QX-700 support?"  # "support" is also a word of another title
    sources = [("Gateway support log", "Ticket 1: no reply."), ("Zephyr Board", "The QX-700 supports Modbus function "
                                                                               "codes 03, 04 and 06.")]
    assert not off_topic(codes, "The QX-700 supports functions 03 (read holding registers), 04 (read input "
                                "registers) and 06 (write single register) [2].", sources)  # it names the QX-700
    boot = "How do I put the Zephyr Board into bootloader mode?"  # "put" is in no passage: it asks nothing to match
    sources = [("Zephyr Board", "The Zephyr Board can be powered by the USB-C port or via VIN on the header."),
               ("Zephyr Board", "To enter bootloader mode, double-tap the reset button right after power-up.")]
    assert off_topic(boot, "The Zephyr Board can be powered by either the USB-C port or alternatively via VIN on the "
                           "header; this also powers the board, as the LED shows [1].", sources)  # names it, says nothing asked


def test_a_quoted_line_is_led_by_the_code_of_the_article_it_belongs_to() -> None:
    """A knowledge base's "Applies to:" line says nothing of which article it is in; quoted among the closest
    passages, it is led by its article's code and title."""
    from kgrag.answering.quotes import leads

    assert leads("KB-1047 CO2 reading too high or responding slowly") and leads("E14 - Output fault")
    assert not leads("Applies to") and not leads("3.2 Mounting") and not leads("RC-340 and RC-360")
    kb = _item("KB-1047 CO2 reading too high or responding slowly\nApplies to: RC-340 and RC-360, all firmware "
               "versions.\n\nKB-1042 CO2 value stuck near 400 ppm\nApplies to: RC-340 with firmware 3.0.x only.",
               "c7", "Knowledge base")
    question = "Does an article apply to every firmware version of the RC-360?"
    evidence = generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), question,
                               Context(question=question, strategy="test", items=[kb], tokens=80, budget=2000),
                               mode="auto", focus_tokens=300)
    assert "KB-1047 CO2 reading too high or responding slowly: Applies to: RC-340 and RC-360" in evidence.text, \
        evidence.text


def test_a_release_notes_heading_gives_the_version_a_change_came_with() -> None:
    """"Which firmware version fixed the memory leak?": the fix is a line under "Firmware 4.1"; the heading gives
    its version, so that line is quoted with it, not a support ticket naming the version that had the leak. The
    words around "version" ask no quantity ("memory" here is no memory size)."""
    question = "Which firmware version fixed the Modbus memory leak?"
    assert analyse(question).dimensions == set()
    notes = _item("Firmware 4.1 (2026-09-14)\n- Fixed a memory leak in the Modbus driver that caused a reboot after "
                  "about 20 days.\n\nFirmware 4.0 (2026-05-02)\n- Removed the legacy HTTP push interface.", "c5",
                  "Gateway release notes")
    log = _item("Ticket 4411. Problem: the gateway rebooted every three weeks. Cause: memory leak in the Modbus driver "
                "of firmware 4.0. Resolution: upgraded.", "c6", "Gateway support log")
    context = Context(question=question, strategy="test", items=[log, notes], tokens=120, budget=2000)
    answer = generate_answer(_no_llm(), question, context, mode="extractive", focus_tokens=300)
    first = answer.text.split("\n")[0]
    assert "Firmware 4.1" in first and "Fixed a memory leak" in first, answer.text
    which = "Which firmware removed the legacy HTTP push interface?"  # "which firmware" asks its version too
    answer = generate_answer(_no_llm(), which, Context(question=which, strategy="test", items=[log, notes], tokens=120,
                                                       budget=2000), mode="extractive", focus_tokens=300)
    assert answer.text.split("\n")[0].startswith("Gateway release notes – Firmware 4.0"), answer.text
    when = "When was the legacy HTTP push interface removed?"  # the closest passages: each line with its dated heading
    evidence = generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), when,
                               Context(question=when, strategy="test", items=[notes], tokens=80, budget=2000),
                               mode="auto", focus_tokens=300)
    assert "Firmware 4.0 (2026-05-02): - Removed the legacy HTTP push interface" in evidence.text, evidence.text


def test_a_small_model_is_not_asked_yes_or_no_the_closest_passages_answer() -> None:
    """The focused (small local) model affirms what it is asked ("The LPS22HB includes a separate temperature
    sensor"): in auto mode a yes/no question gets the closest passages, without an LLM call."""
    question = "Does the QX-700 measure humidity?"
    answer = generate_answer(FakeLLM(replies=[]), question, _context(question), mode="auto", focus_tokens=100)
    assert answer.context.info["answer_path"] == "evidence" and not answer.grounded and "[" in answer.text
    assert "Zephyr Board: " in answer.text  # each quote says whose document it comes from
    assert answer.text.startswith(NO_DIRECT_ANSWER)  # no passage writes "measure": no claim that they say so
    stated = "Is the QX-700 a capacitive sensor?"  # the first passage writes every asked word: not "no direct answer"
    answer = generate_answer(FakeLLM(replies=[]), stated, _context(stated), mode="auto", focus_tokens=100)
    assert answer.text.startswith(f"{STATED_LEAD} Zephyr Board: The QX-700 is a capacitive sensor")
    situation = "The QX-700 sits on the Zephyr Board. Does the QX-700 measure humidity?"  # the question asked last
    answer = generate_answer(FakeLLM(replies=[]), situation, _context(situation), mode="auto", focus_tokens=100)
    assert answer.context.info["answer_path"] == "evidence"


def test_passages_shown_after_a_refusal_are_not_called_no_answer_when_the_first_states_the_asked_words() -> None:
    """The small model refuses; the closest passages follow. When the first writes every word asked ("Alarm A2
    means …" for "What does alarm A2 mean?") they are introduced as what the documents say, not as no direct answer."""
    manual = _item("Alarm A1 means the tank is empty: refill it. Alarm A2 means no stroke was detected for 30 s: check"
                   " the diaphragm.\nReplace the diaphragm once a year.\nPriming takes 30 to 60 seconds.", "c7",
                   "Dosing Pump Manual", "3 Alarms")
    refusal = "The documents do not contain the answer."
    for question, lead in (("What does alarm A2 mean?", STATED_LEAD), ("How often must the diaphragm be replaced?",
                                                                        NO_DIRECT_ANSWER),
                           ("How long does priming take?", STATED_LEAD)):  # "30 to 60 seconds" says how long
        context = Context(question=question, strategy="test", items=[manual], tokens=60, budget=2000)
        answer = generate_answer(FakeLLM(replies=[refusal]), question, context, mode="auto", focus_tokens=100,
                                 passages=4)
        assert answer.text.startswith(lead) and not answer.grounded, (question, answer.text)


def test_the_lead_reads_the_first_passages_together() -> None:
    """The closest passages are what the documents say when the first three together write three quarters of the
    asked words (one for the cable, one for the connector, none for the gland), the first on the topic; not when they
    write half, nor when only a later one writes the rest (a user reads the first passages), nor when the first
    passage writes less than half of them (words spread over unrelated passages)."""
    question = "Which cable, connector and gland does the QX-700 use?"
    cable, plug, other = "QX-700: Use a shielded cable [1]. ", "QX-700: The M12 connector is A-coded [2]. ", "QX-700: IP67 [3]. "
    assert evidence_lead(question, cable + plug) == STATED_LEAD
    assert evidence_lead(question, cable + other) == NO_DIRECT_ANSWER
    assert evidence_lead(question, cable + other + other + plug) == NO_DIRECT_ANSWER
    weight = "Which connector does the QX-700 use, and how heavy is it?"  # a mass says how heavy
    assert evidence_lead(weight, "QX-700: Weight: 45 g [3]. " + plug) == STATED_LEAD
    spread = "Which connector does the QX-700 use and which gland?"  # the first passage is not about the question
    assert evidence_lead(spread, other + "Zephyr: M12 connector [4]. Zephyr: PG7 gland [5]. ") == NO_DIRECT_ANSWER


def test_an_order_code_the_passages_do_not_write_does_not_lower_the_lead() -> None:
    """"QXA00051 connector specs?": the retriever found the product by its order code, so its passages need not write
    the code to say what is asked."""
    plug = "QX-700: The M12 connector is A-coded [2]. "
    assert evidence_lead("QXA00051 connector specs?", plug) == STATED_LEAD
    assert evidence_lead("QXA00051 gland?", plug) == NO_DIRECT_ANSWER
    variants = ("SKU; QX-700: QXA00051; QX-700 Lite: QXA00052 [1]. "  # codes it writes count as asked words found
                "QX-700 Lite: the one difference is the radio [2]. ")
    assert evidence_lead("difference between QXA00051 and QXA00052?", variants) == STATED_LEAD


def test_a_phrase_of_acronyms_names_no_product_the_context_must_write_whole() -> None:
    """"the ERR LED": a table writes its words apart ("LED | State" over "ERR | blinking red"); acronyms of the trade
    name no product, so the context does not lack what the question is about. A product's name still counts whole."""
    rows = "led | state | meaning\nerr | blinking red | buffer full, data is being dropped"
    q = analyse("What does a blinking red ERR LED mean?")
    assert missing_names(q.text, q, rows) == []
    q = analyse("What does the Zephyr Mini status LED mean?")
    assert missing_names(q.text, q, rows + "\nzephyr board") == ["Zephyr Mini"]


def test_a_battery_chemistry_the_user_writes_is_no_product_the_context_must_name() -> None:
    """"Planning to hook a LiPo to my Zephyr Mini": the context's charger passages answer though they say "battery";
    the answer must not open with "The documents found do not mention LiPo"."""
    text = "zephyr mini\nthe battery charger has a minimum of 512 ma charge current."
    q = analyse("Planning to hook a LiPo to my Zephyr Mini: what's the minimum charge current of its charger?")
    assert missing_names(q.text, q, text) == []
    q = analyse("Can I hook a LiPo to my Zephyr Maxi?")
    assert missing_names(q.text, q, text) == ["Zephyr Maxi"]


def test_a_product_named_after_its_chip_is_not_the_chip() -> None:
    """"Zephyr QX-700" beside documents titled "Zephyr Board …" names a product of the Zephyr line after its chip:
    a Zephyr datasheet that uses the QX-700 somewhere does not describe it. The line's word written next to the
    part ("Zephyr Mini: QX-700", or a table's header above the cell) names it."""
    q = analyse("What is the supply voltage of the Zephyr QX-700?")
    uses = "the zephyr board is a small module with a wi-fi radio and a humidity sensor based on the qx-700 chip"
    titles = ["Zephyr Board", "Orbit Carrier"]
    assert missing_names(q.text, q, uses, titles) == ["Zephyr QX-700"]
    assert missing_names(q.text, q, uses) == []  # without titles: a vendor's word before the part ("Acme QX-700")
    assert missing_names(q.text, q, uses + "\nzephyr mini: qx-700", titles) == []
    sku = ContextItem("chunk", "Name | Zephyr Board | Zephyr Mini\nSKU | ZB-100 | QX-700", 0.5, "c9", "d-c9",
                      {"path": "c9.pdf", "title": "Zephyr Board", "section": "Ordering"})
    shown = "\n".join(f"{sku.source['title']}\n{sku.text}".lower().splitlines())
    assert unknown_names(q.text, q, shown, [("Zephyr Board", sku.text, False)], "auto") is None


def test_a_code_named_with_its_revision_is_the_code() -> None:
    """"the original ZB-047 or the Rev2 ZB-073": "Rev2 ZB-073" is the order code with the revision the user knows it
    by, not a product of a line named after a chip, though "Rev2" is a word of a title ("Zephyr Carrier Rev2")."""
    q = analyse("Which Zephyr Carrier, the original ZB-047 or the Rev2 ZB-073, powers its connectors at 5 V?")
    text = "sku | zb-047 | zb-073\nthe zephyr carrier rev2 has its grove connectors on the 3.3 v rail"
    assert missing_names(q.text, q, text, ["Zephyr Carrier", "Zephyr Carrier Rev2"]) == []


def test_a_title_writing_a_word_and_a_part_together_pairs_them() -> None:
    """"the Blackmoor GX-430 units": a support mail titled "GX-430 zero drifting … - Blackmoor STW" is about them; a
    site's name beside a model is no product of a line named after its chip."""
    q = analyse("What zero deadband did support recommend for the Blackmoor GX-430 units?")
    text = "the three gx-430 transmitters in the digester building at blackmoor stw drift; set the zero deadband to 10."
    titles = ["[GXT-10857] GX-430 zero drifting negative / E17 faults - Blackmoor STW", "GX-400 Product Specification"]
    assert missing_names(q.text, q, text, titles) == []


def test_a_multi_word_name_counts_whole() -> None:
    """A compared product whose every word appears somewhere ("Zephyr", "Board", and "ME" as an acronym, not the
    stop word) is still missing when the context never names it whole; a name holding a part number the context
    has ("Acme QX-700") and the products the context names are not reported."""
    question = "Which has the better temperature accuracy, the Zephyr Board or the Zephyr Board ME?"
    answer = generate_answer(_no_llm(), question, _context(question), mode="auto", focus_tokens=100)
    assert answer.context.info["missing_names"] == ["Zephyr Board ME"]
    assert answer.text.startswith("The documents found do not mention Zephyr Board ME; the closest passages:")
    q = analyse("Is the Acme QX-700 on the Zephyr Board or the Orbit Carrier?")
    names_text = "\n".join(i.text + " " + i.source["title"] for i in _context("").items).lower()
    assert missing_names(q.text, q, names_text) == []  # the vendor's word names the part the context has
    q = analyse("What is the temperature accuracy of the Zephyr Board Rev2?")
    assert missing_names(q.text, q, names_text + " orbit carrier rev2") == ["Zephyr Board Rev2"]  # a revision is no part
    q = analyse("What is the pressure range of the Acme Orbit Carrier?")
    assert missing_names(q.text, q, names_text + " made by acme") == []  # a leading word found elsewhere: a vendor
    assert missing_names(q.text, q, names_text) == ["Acme Orbit Carrier"]
    q = analyse("Which Sensor does the Zephyr Board Kit use for temperature?")
    assert missing_names(q.text, q, names_text) == []  # capitalised class nouns around a product's name
    q = analyse("Summarize the I/O and A/D inputs of the Zephyr Board.")
    assert q.names == ["Zephyr", "Board"] and missing_names(q.text, q, names_text) == []  # abbreviated terms name nothing
    q = analyse("On the Zephyr Board, A6 is not wired to the main MCU. Which chip reads it?")
    assert missing_names(q.text, q, names_text + " a4-a7 are connected to the radio module's adc") == []  # a pin range
    assert missing_names(q.text, q, names_text + " a0-a3 go to the mcu") == ["A6"]
    q = analyse("What output power does the Zephyr Board list for Bluetooth EDR?")
    assert missing_names(q.text, q, names_text + " bluetooth br/edr: 79 channels") == []  # one of the modes a slash joins
    assert missing_names(q.text, q, names_text + " bluetooth le: 40 channels") == ["Bluetooth EDR"]
    q = analyse("What resolution does the Zephyr Board 2MP camera give, and its 16-bit ADC?")
    assert missing_names(q.text, q, names_text) == []  # figures after a name say what is asked of it
    assert analyse("How fast is the Zephyr Board 48 MHz core, from the Qwiic 3.3 V?").phrases == [
        ["Zephyr", "Board"], ["Qwiic"]]  # a number with its unit is a value, not a word of the name
    assert analyse("Is the Zephyr 1010's charger enough?").phrases == [["Zephyr", "1010"]]  # a possessive is no unit
    q = analyse("Which modem does the Acme 4G Module use?")
    assert missing_names(q.text, q, names_text) == ["Acme 4G"]  # two words stay a name: "4G" is part of it
    q = analyse("part number for the zephyr board with 4-20mA output, 12V supply")  # values typed glued to their units
    assert "4-20mA" not in q.names and "12V" not in q.names and missing_names(q.text, q, names_text) == []
    assert "3.3V" in analyse("Can I pull 300 mA from the 3.3V pin of the Zephyr Board?").names  # a pin's name
    q = analyse("What is the ATEX EU-type examination certificate number of the Zephyr Board?")
    assert missing_names(q.text, q, names_text + " atex directive. eu-type examination certificate: ncb 4417") == []


def test_a_name_the_context_never_mentions_is_reported_not_answered() -> None:
    """The question is about the "Vega" board, which no retrieved passage mentions: auto and extractive modes say
    so and show the closest passages (not grounded, no LLM call) instead of answering about another board;
    names inside quotes (an on-screen message) do not count, and generative mode leaves it to the model."""
    question = "How do I install the board package on the Vega board?"
    answer = generate_answer(_no_llm(), question, _context(question), mode="auto", focus_tokens=100)
    assert answer.text.startswith("The documents found do not mention Vega; the closest passages:")
    assert "boards manager" in answer.text and not answer.grounded
    assert answer.context.info["missing_names"] == ["Vega"] and answer.citations
    extractive = generate_answer(_no_llm(), question, _context(question), mode="extractive", focus_tokens=100)
    assert extractive.text == answer.text
    quoted = "Why does the board show 'Vega Mode' before I install the board package?"
    llm = FakeLLM(replies=["Install the board package from the boards manager first [3]."])
    assert generate_answer(llm, quoted, _context(quoted), mode="auto", focus_tokens=100).grounded
    llm = FakeLLM(replies=["Install the board package from the boards manager first [3]."])
    assert generate_answer(llm, question, _context(question), mode="generative", focus_tokens=100).grounded


def test_a_reply_of_bare_citation_markers_counts_as_no_answer() -> None:
    """Small models sometimes reply with markers only ("[1] [2] [9]"): that is no answer, so auto mode shows the
    closest passages instead of an empty-looking sentence."""
    question = "Why should I install the board package first?"
    answer = generate_answer(FakeLLM(replies=["[1] [2] [9]"]), question, _context(question), mode="auto",
                             focus_tokens=100)
    assert answer.context.info["answer_path"] == "evidence" and "boards manager" in answer.text
    assert is_refusal("[1] [2]") and is_refusal(" [3, 4]. ") and not is_refusal("20 cm [6].")


def test_a_percent_value_answers_a_relative_humidity_question() -> None:
    """Relative humidity is a percentage: "0-100%" measures what "humidity range" asks, so the range row is quoted,
    not the accuracy row whose "%RH" matched before."""
    assert "humidity" in asked_dimensions({"humidity", "range"})
    facts = "QX-700 (Sensor)\nhumidity accuracy | ±1.5%RH, typical [1]\nrelative humidity range | 0-100% [1]"
    items = [_item("The QX-700 measures humidity and temperature.", "c1", "Zephyr Board", "Sensors"),
             ContextItem("relation", facts, 0.5, None, None, {})]
    question = "What is the humidity measurement range of the QX-700 sensor?"
    context = Context(question=question, strategy="test", items=items, tokens=40, budget=2000)
    answer = generate_answer(_no_llm(), question, context, mode="auto", focus_tokens=300)
    assert "0-100%" in answer.text and "±1.5" not in answer.text


def test_an_extractive_citation_quotes_the_quoted_sentence_not_the_heading() -> None:
    """The answer leads with the section heading (it names the part); the citation still shows the quoted sentence."""
    text = ("2.5 QX-700 (U8) Relative Humidity and Temperature Sensor\n"
            "The QX-700 can measure the relative humidity from 0% to 100%RH. "
            "The included on-chip temperature sensor has a temperature accuracy of ±0.1 °C.")
    question = "What is the temperature accuracy of the QX-700?"
    context = Context(question=question, strategy="test", items=[_item(text, "c1", "Zephyr Board", "2.5 QX-700")],
                      tokens=60, budget=2000)
    answer = generate_answer(_no_llm(), question, context, mode="auto", focus_tokens=300)
    assert answer.context.info["answer_path"] == "extractive" and "±0.1" in answer.text
    assert "±0.1" in answer.citations[0].quote


def test_a_cited_graph_fact_block_is_read_whole_for_the_answer_checks() -> None:
    from kgrag.evaluate.answer_metrics import cited_texts

    sources = [{"chunk_id": None, "text": "QX328P (Microcontroller)\nflash | 32 KB [3]\nsram | 2 kB [3]"},
               {"chunk_id": "c1", "text": "The Zephyr Core board."}]
    citations = [{"n": 1, "chunk_id": None, "document": "knowledge graph", "quote": "flash | 32 KB"}]
    assert "QX328P" in cited_texts(citations, sources)[0] and "sram | 2 kB" in cited_texts(citations, sources)[0]


# --- a small model's loops and cut-off ends ----------------------------------------------------


def test_a_reply_loses_its_repeated_sentences_and_orphaned_list_numbers() -> None:
    loop = ("The encoder range is 360 degrees [2]. It is read by a quadrature encoder on the shaft [2]. "
            "The encoder range is 360 degrees [4]. The quadrature encoder on the shaft reads it [2].")
    assert tidy_reply(loop, truncated=False) == (
        "The encoder range is 360 degrees [2]. It is read by a quadrature encoder on the shaft [2].")
    listed = "1 [2]. More sensors: the Nano has a barometer.\n\n2 [4]. More sensors: the Nano has a barometer."
    assert tidy_reply(listed, truncated=False) == "1 [2]. More sensors: the Nano has a barometer."
    distinct = "The QX-700 measures humidity [2]. The ZR-90 measures pressure [1]."
    assert tidy_reply(distinct, truncated=False) == distinct  # the same frame about another part is no repeat
    same_claim = ("The Nano family is designed for industrial automation [2]. "
                  "The Nicla family is designed for industrial automation [2].")
    assert tidy_reply(same_claim, truncated=False) == same_claim  # another subject: the user may need both


def test_only_a_reply_that_hit_the_token_limit_loses_its_unfinished_last_sentence() -> None:
    cut = "The range is 0 to 100 %RH [2]. The response time is under 4 s and the"
    assert tidy_reply(cut, truncated=True) == "The range is 0 to 100 %RH [2]."
    assert tidy_reply(cut, truncated=False) == cut
    assert tidy_reply("The range is 0 to 100 %RH", truncated=True) == "The range is 0 to 100 %RH"  # all it said
    listed = "Features:\n1. Humidity sensing [2].\n2. Temper"
    assert tidy_reply(listed, truncated=True) == "Features:\n1. Humidity sensing [2]."


def test_a_refusal_closing_a_stated_value_is_dropped() -> None:
    """"The maximum fluid temperature is 45 °C. The documents do not contain the answer.": the small model ends on the
    prompt's refusal sentence after answering; the answer stays. A refusal after no value, or alone, stays whole."""
    closed = "The maximum fluid temperature is 45 °C [1]. The documents do not contain the answer."
    assert tidy_reply(closed, truncated=False) == "The maximum fluid temperature is 45 °C [1]."
    vague = "The pump is for chemicals [1]. The documents do not contain the answer."
    assert tidy_reply(vague, truncated=False) == vague
    assert tidy_reply(NO_ANSWER, truncated=False) == NO_ANSWER


def test_a_reply_loses_the_source_headers_it_copied_from_the_prompt() -> None:
    copied = ("The charge current of the LiPo is 512 mA [2]. This is specified in the Arduino Zephyr Air p. 6, "
              "section: 1 The Board [2].")
    assert tidy_reply(copied, truncated=False) == "The charge current of the LiPo is 512 mA [2]."
    header_line = "It has two SKUs [5]:\n\n[6] (Arduino Zephyr Air, p. 4, section: 1 The Board)\nSound: a spectrum [6]."
    assert tidy_reply(header_line, truncated=False) == "It has two SKUs [5]:\n\nSound: a spectrum [6]."
    only_headers = "The specs are [1] (knowledge graph facts, each line citing its source) [3] (Zephyr Air, pp. 11-12)."
    assert is_refusal(tidy_reply(only_headers, truncated=False))  # nothing but scaffolding: no answer
    assert tidy_reply("The range is 0 to 100 % (p. 4) [2].", truncated=False) == "The range is 0 to 100 % (p. 4) [2]."
    assert is_refusal(tidy_reply("(Arduino Zephyr Air, pp [1].", truncated=False))  # a header's start copied alone
    pageless = ("The minimum firmware is [3] (QX Gateway – Release Notes | Qorva, section: Release Notes > Version 3.2.0)."
                " The DIP switch 3 enables the termination [2].")  # a Markdown or HTML source has no page
    assert tidy_reply(pageless, truncated=False) == "The DIP switch 3 enables the termination [2]."


def test_a_looping_llm_answer_states_each_sentence_once() -> None:
    question = "Why should I install the board package first?"
    loop = "Install the board package before uploading a sketch [3]. " * 4 + "Install the board"
    llm = FakeLLM(replies=[loop] * 2)
    answer = generate_answer(llm, question, _context(question), mode="auto", focus_tokens=100, max_tokens=20)
    assert answer.text == "Install the board package before uploading a sketch [3]."
    events = list(stream_answer(llm, question, _context(question), mode="auto", focus_tokens=100, max_tokens=20))
    assert events[-1]["data"]["answer"] == answer.text


def test_quotes_answering_which_product_say_whose_they_are() -> None:
    """"Which board offers X?" is answered by the product: each quoted passage is led by its document's title."""
    question = "Which board in these datasheets offers an I2C interface to the host board?"
    assert asks_product(analyse(question)) and not asks_product(analyse("Which sensor measures pressure?"))
    blocks = build_blocks(_context(question))
    focus = focus_units(question, {b.n: b.text for b in blocks}, {b.n: b.header() for b in blocks}, 200)
    quoted = quote_answer(focus.ranked, n=1, titles={b.n: b.title for b in blocks})
    assert quoted == "Orbit Carrier: ZR-90 Pressure Sensor: I2C interface to the host board [1]."  # the line is the
    assert quote_answer(focus.ranked, n=1) == "ZR-90 Pressure Sensor: I2C interface to the host board [1]."  # part's
    four = quote_answer(focus.ranked, n=4, titles={b.n: b.title for b in blocks})
    assert four == ("Orbit Carrier: ZR-90 Pressure Sensor: I2C interface to the host board [1]. Zephyr Board: Install the board package from "
                    "the boards manager before uploading a sketch [3]. Orbit Carrier: ZR-90 Pressure Sensor: 260 to 1260 "
                    "hPa absolute pressure range; Temperature accuracy: ± 0.5 °C, 15 to +40 °C [1]. Zephyr Board: The "
                    "QX-700 is a capacitive sensor for relative humidity and temperature [2].")  # led again only after
    # another; a line of the sensor's list travels with the list under its label, less the line already quoted


def test_a_which_board_reply_that_names_no_board_shows_the_passages_with_their_products() -> None:
    question = "Which board in these datasheets offers an I2C interface to the host board?"
    vague = generate_answer(FakeLLM(replies=["The board offers an I2C interface for connecting sensors [1]."]), question,
                            _context(question), mode="auto", focus_tokens=150)
    assert vague.context.info["no_product_named"] and vague.context.info["answer_path"] == "evidence"
    assert "Orbit Carrier: ZR-90 Pressure Sensor: I2C interface to the host board [1]." in vague.text
    named = generate_answer(FakeLLM(replies=["The Orbit Carrier offers it for connecting sensors [1]."]), question, _context(question),
                            mode="auto", focus_tokens=150)
    assert named.text == "The Orbit Carrier offers it for connecting sensors [1]." and named.grounded
    from kgrag.answering.grounding import names_no_product

    assert not names_no_product(question, "The board offers it [1].", [])  # no titled source: nothing to check


def test_an_accuracy_is_no_answer_to_how_far_or_how_much() -> None:
    """"<±10 cm" says how exactly a distance is measured: it answers an accuracy question, not "how far"."""
    assert not has_value(without_tolerances("2-way ranging, achieving an accuracy of <±10 cm", {"maximum", "distance"}))
    assert has_value(without_tolerances("2-way ranging, achieving an accuracy of <±10 cm", {"ranging", "accuracy"}))
    tag = _item("Ranging: 2-way ranging, achieving an accuracy of <±10 cm\nThe maximum ranging distance depends on the "
                "anchor placement.", "t1", "Orbit Tag")
    question = "What is the maximum ranging distance of the Orbit Tag?"
    context = Context(question=question, strategy="test", items=[tag], tokens=40, budget=2000)
    llm = FakeLLM(replies=["The documents do not contain the answer."])
    answer = generate_answer(llm, question, context, mode="auto", focus_tokens=150)
    assert llm.calls == 1 and answer.context.info["answer_path"] != "extractive"  # the model is asked instead


def test_a_small_models_answer_is_followed_by_the_passages_it_did_not_already_say() -> None:
    """Auto mode with a focused (small) model: after the answer, the best focus units in the documents' own words,
    each led by its product (about the asked product, carrying an asked word), skipping one the answer already says;
    none after an answer of a strong (unfocused) model."""
    question = "Why should I install the board package first?"
    answer = generate_answer(FakeLLM(replies=["It is needed before uploading [3]."]), question, _context(question),
                             mode="auto", focus_tokens=100, passages=2)
    assert answer.text == ("It is needed before uploading [3].\n\nFrom the documents: Zephyr Board: Install the board "
                           "package from the boards manager before uploading a sketch [3].") and answer.grounded
    echoed = generate_answer(FakeLLM(replies=["Install the board package from the boards manager before uploading "
                                              "a sketch, as the guide says [3]."]), question, _context(question),
                             mode="auto", focus_tokens=100, passages=2)
    assert "From the documents" not in echoed.text  # the answer says it already
    full = generate_answer(FakeLLM(replies=["It is needed before uploading [3]."]), question, _context(question),
                           mode="generative", focus_tokens=0, passages=2)
    assert full.text == "It is needed before uploading [3]."
    settings = Settings()
    assert answer_options(settings)["passages"] == 4 and answer_options(settings, "generative")["passages"] == 0
    settings.llm.provider = "openai"
    assert answer_options(settings)["passages"] == 0  # a strong model's answer stands alone
    other = "Why does the Orbit Carrier need a temperature sensor with that accuracy?"
    carrier = generate_answer(FakeLLM(replies=["It is about half a degree for weather use [1]."]), other,
                              _context(other), mode="auto", focus_tokens=150, passages=2)
    assert carrier.text.endswith("From the documents: Orbit Carrier: ZR-90 Pressure Sensor: 260 to 1260 hPa absolute "
                                 "pressure range; Temperature accuracy: ± 0.5 °C, 15 to +40 °C; I2C interface to the host "
                                 "board [1].")  # the asked product's next passage (KEY_SCORE), its list whole
    assert "±0.1" not in carrier.text  # the Zephyr Board's temperature accuracy row is another product's


def test_a_quoted_value_is_followed_by_the_products_passages_on_what_is_asked() -> None:
    """Auto mode with a small model: a quote stating the value is followed, like a model's answer, by the product's
    passages on what is asked (each sentence with its neighbour), never another product's; none with `passages=0`."""
    cell = _item("Power\nThe Orbit Cell holds a single 3.7 V Li-ion cell. It is charged over USB through the host "
                 "board.\n\nSymbol | Description | Min | Typ | Max\nVBatt | Battery input voltage | 3.2 V | 3.7 V | 4.3 V",
                 "b1", "Orbit Cell", "Ratings")
    tag = _item("The Orbit Tag runs from a coin cell. Its battery input voltage is 3 V.", "b2", "Orbit Tag", "Power")
    question = "What is the maximum battery input voltage of the Orbit Cell?"

    def ask(passages: int) -> Answer:
        context = Context(question=question, strategy="test", items=[cell, tag], tokens=80, budget=2000)
        return generate_answer(_no_llm(), question, context, mode="auto", focus_tokens=150, passages=passages)

    quote = "Orbit Cell: Symbol: VBatt; Description: Battery input voltage; Min: 3.2 V; Typ: 3.7 V; Max: 4.3 V [1]."
    followed = ask(2)
    assert followed.context.info["answer_path"] == "extractive"
    assert followed.text == (f"{quote}\n\nFrom the documents: The Orbit Cell holds a single 3.7 V Li-ion cell. It is "
                             "charged over USB through the host board [1].")
    assert ask(0).text == quote


def test_a_stream_stops_when_the_model_starts_repeating_itself() -> None:
    """Streaming stops at the first repeated sentence (what follows would be removed), and the model is released."""
    question = "Why should I install the board package first?"
    pulled: list[str] = []

    class Looping(FakeLLM):
        def stream(self, messages, *, max_tokens=512, temperature=0.0):  # type: ignore[no-untyped-def]
            for word in ("Install the board package before uploading a sketch [3]. " * 20).split(" "):
                pulled.append(word)
                yield word + " "

    events = list(stream_answer(Looping(), question, _context(question), mode="auto", focus_tokens=100))
    assert events[-1]["data"]["answer"] == "Install the board package before uploading a sketch [3]."
    assert len(pulled) < 20  # stopped in the second sentence, not after twenty
    assert not loops("The range is 0 to 100 %RH [2]. The response time is 4 s [2].")
    assert loops("The range is 0 to 100 %RH [2]. The response time is 4 s [2]. The range is 0 to 100 %RH [2].")


def test_passages_for_two_alternatives_give_each_ones_best_first_and_never_a_copy_note() -> None:
    """"Which is better …, the Zephyr Board or the Orbit Carrier?": the passages start with each product's best one;
    a "(also in …)" line (where else a passage appears) is never quoted on its own."""
    question = "Which is better for measuring temperature accurately, the Zephyr Board or the Orbit Carrier?"
    context = _context(question)
    context.items[1].text += "\n(also in Orbit Carrier, Sensors)"
    answer = generate_answer(FakeLLM(replies=["Either can measure it with a stated accuracy [2]."]), question, context,
                             mode="auto", focus_tokens=200, passages=2)
    quoted = answer.text.split("From the documents: ")[1]
    assert quoted.startswith("Zephyr Board: ") and "Orbit Carrier: " in quoted and "(also in" not in quoted
