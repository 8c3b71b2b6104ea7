"""What a question asks: the words saying what a named model is ("the VM-5 vibration monitor") are not asked of it,
and an acronym it asks ("What MTBF …") must be written by the passage that answers."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.grounding import reply_problems
from kgrag.answering.terms import analyse
from kgrag.answering.values import versions_after
from kgrag.answering.words import opposed_scope
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem


def test_the_words_saying_what_a_named_model_is_are_not_asked() -> None:
    """"the VM-5 vibration monitor": every passage of its datasheet says "Vibration Monitor", so those words would make
    any of its rows look like an answer; a gas ("the h2s unit") or a part's kind ("the TMP117 sensor") stays asked."""
    assert analyse("What MTBF does Lumisk specify for the VM-5 vibration monitor?").attributes == {"mtbf", "specify"}
    assert analyse("What is the operating temperature of the TS-30 temperature node?").attributes == {
        "operating", "temperature"}
    assert "unit" in analyse("what rma did support give for the blackmoor h2s unit").attributes
    assert "sensor" in analyse("Which products use the TMP117 sensor?").attributes


def test_an_acronym_asked_that_no_source_writes_is_not_answered() -> None:
    """"What MTBF …" over passages that never write MTBF: no quote answers it and a model's reply is set aside;
    "RMA-24-0873" writes "RMA"."""
    from kgrag.answering.extract import try_extract
    from kgrag.answering.grounding import acronyms_unstated
    from kgrag.answering.select import focus_units

    question = "What MTBF does Zephyr specify for the ZX-5 monitor?"
    rows = "Parameter | Value\nFrequency range | 2 Hz - 1 kHz\nSampling rate | 4 kHz per axis"
    focus = focus_units(question, {1: rows}, {1: "ZX-5 Datasheet"}, 300, None, {1: "ZX-5 Monitor Datasheet"})
    assert try_extract(analyse(question), focus.ranked, {1: "ZX-5 Monitor Datasheet"}) is None
    assert acronyms_unstated(question, [rows]) == ["mtbf"]
    assert acronyms_unstated(question, [rows + "\nMTBF | 200,000 h"]) == []
    assert acronyms_unstated("what rma did support give?", ["Returned under RMA-24-0873."]) == []
    assert "acronym_unstated" in reply_problems(question, "The MTBF of the ZX-5 is 4 kHz [1].", [("ZX-5", rows)])


def test_an_acronym_between_the_and_of_is_what_is_asked() -> None:
    """"What is the MTBF of the VM-5?": the acronym is what is asked of the VM-5, not a second name."""
    q = analyse("What is the MTBF of the VM-5?")
    assert q.names == ["VM-5"] and q.attributes == {"mtbf"}
    assert analyse("What is the ADC resolution of the Nano?").names == ["ADC", "Nano"]  # not right before "of"


def test_need_or_require_asks_no_word_of_its_own_beside_a_quantity() -> None:
    """"What supply voltage does the QX-20 need?" asks a supply voltage: a passage saying "when you need I/O density"
    is no closer to it; without a quantity asked, "need" stays ("What do I need to connect …?")."""
    assert analyse("What supply voltage does the QX-20 need?").attributes == {"supply", "voltage"}
    assert analyse("What voltage is required for the QX-20?").attributes == {"voltage"}
    assert "need" in analyse("What do I need to connect the QX-20 to CANopen?").attributes


def test_what_each_output_may_drive_is_the_per_channel_rating_not_a_total() -> None:
    """"How much current can each output drive?" asks one channel's rating: a support log's "total output current is
    limited to 3 A" is no answer to it, and "What is the total …?" is not answered by the per-channel row."""
    assert opposed_scope("How much current can each output drive?", "the total output current is limited to 3 A")
    assert not opposed_scope("How much current can each output drive?", "Output current per channel | 0.5 A")
    assert opposed_scope("What is the total output current?", "Output current per channel | 0.5 A")
    assert not opposed_scope("What is the output current?", "Total output current per module | 4 A")
    log = "Ticket 12: Above 50 °C the QX-20 total output current is limited to 3 A; the driver shuts down."
    sheet = "4.2 Digital Outputs\nParameter | Value\nOutput current per channel | 0.5 A\nTotal output current per module | 4 A"
    items = [ContextItem("chunk", text, 0.5, f"c{n}", f"d{n}", {"path": f"{n}.md", "title": title})
             for n, (title, text) in enumerate((("Support log", log), ("QX-20 Remote I/O Module — Datasheet", sheet)), 1)]
    question = "How much current can each QX-20 output drive?"
    context = Context(question=question, strategy="test", items=items, tokens=300, budget=2000)
    text = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300).text
    assert text.startswith("QX-20 Remote I/O Module — Datasheet: Parameter: Output current per channel; Value: 0.5 A [2]")


def test_the_versions_of_a_named_thing_follow_its_name_not_a_headings_release() -> None:
    """"Which Python versions does the SDK support?": "Requires Python 3.9–3.12", not the SDK's own 3.1 in the heading
    over every line, nor "3.1.0" written after "(Python) and libqx"."""
    assert versions_after("zoneloom-sdk 3.1.0 (Python) and libqx 3.1.0 (C)", {"python"}) == []
    assert versions_after("Requires Python 3.9–3.12.", {"python"}) == ["3.9", "3.12"]
    ref = ("QX SDK 3.1 — Python API Reference\nApplies to `qx-sdk` 3.1.0 (Python) and `libqx` 3.1.0 (C). Supported "
           "controllers: QX-310 and QX-340 running firmware 3.0.0 or later. Controllers on firmware 2.6.x are supported "
           "with a reduced feature set.\nThe QX SDK talks to the controller over HTTPS on port 8443.\nEvery call "
           "returns a result object.\n\n1. Installation\npip install \"qx-sdk>=3.1,<4\"\nRequires Python 3.9–3.12.")
    item = ContextItem("chunk", ref, 0.5, "c1", "d1", {"path": "1.md", "title": "QX SDK 3.1 — Python API Reference"})
    for question in ("Which Python versions does the QX SDK support?", "What Python version do I need for the QX SDK?"):
        context = Context(question=question, strategy="test", items=[item], tokens=300, budget=2000)
        text = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300).text
        assert "Requires Python 3.9–3.12 [1]" in text.split("\n")[0], text


def test_a_price_in_a_list_price_column_answers_what_a_part_costs() -> None:
    """A parts list writes "List price (GBP)" once in its header: the row's 389.00 is a price, and the row naming the
    asked part beats the calibration gas row of the same model."""
    parts = ("Category | Part number | Description | Compatible models | List price (GBP) | Lead time (working days)\n"
             "Sensors | QXS-440-IR | NDIR methane sensor module, factory calibrated | QX-440 | 389.00 | 15\n"
             "Gas | QXG-CH4-50 | 50 %LEL methane in air, 34 L cylinder | QX-440 | 71.00 | 5")
    item = ContextItem("chunk", parts, 0.5, "c1", "d1", {"path": "1.xlsx", "title": "QX-400 parts and pricing"})
    question = "How much does a QX-440 methane sensor cost?"
    context = Context(question=question, strategy="test", items=[item], tokens=300, budget=2000)
    text = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300).text
    assert "Part number: QXS-440-IR;" in text.split("[1]")[0] and "List price (GBP): 389.00" in text.split("[1]")[0]


def test_the_documents_named_as_the_place_of_a_fact_are_not_asked() -> None:
    """"What does XiP refer to in the ZX-5 documentation?" asks the term: "documentation" picked a pointer to the
    documentation section and a legal notice about "this document" as quotes. A document asked for stays asked."""
    assert analyse("What does the term 'XiP' refer to in the ZX-5 documentation?").attributes == {"term", "refer"}
    assert "supply" in analyse("What supply range does the adapter's datasheet give?").attributes
    assert "datasheet" not in analyse("What supply range does the adapter's datasheet give?").attributes
    assert "datasheet" in analyse("Where can I find the ZX-5 datasheet?").attributes
    assert "manual" in analyse("Is there a user manual for the ZX-5?").attributes


def test_a_legal_notice_is_not_the_closest_passage_to_a_question_about_the_product() -> None:
    """A datasheet's disclaimer shares words with many questions ("document", "risks", "use"); it answers only a
    question about warranty or liability."""
    from kgrag.answering.select import focus_units

    text = ("ZEPHYR ASSUMES NO RESPONSIBILITY FOR INACCURACIES OR OMISSIONS AND SPECIFICALLY DISCLAIMS ANY LIABILITIES, "
            "LOSSES, OR RISKS INCURRED AS A CONSEQUENCE OF THE USE OF THE ZX-5 STORAGE. "
            "The ZX-5 storage flash holds the execute-in-place code of the sensor core.")
    titles = {1: "ZX-5 Datasheet"}
    best = focus_units("What risks come with the use of the ZX-5 storage?", {1: text}, titles, 300, None, titles)
    assert "execute-in-place" in best.ranked[0].unit.text
    legal = focus_units("What liabilities does Zephyr disclaim for the ZX-5 storage?", {1: text}, titles, 300, None,
                        titles)
    assert "DISCLAIMS" in legal.ranked[0].unit.text


def test_how_far_asks_a_distance_and_a_packing_suffix_names_the_part() -> None:
    """"How far can the TF-40/1 on the ZX-5 detect?" asks a length ("detection | 400 cm" answers it), and the part with
    its packing suffix is the part the documents write without it."""
    from kgrag.answering.names import name_found

    q = analyse("How far can the TF-40/1 on the ZX-5 detect?")
    assert "distance" in q.attributes and q.dimensions == {"length"}
    assert name_found("tf40cbv0fy/1", "tf40cbv0fy (sensor): detection | 400 cm")
    assert not name_found("rs-232/422", "rs-232 port")  # a pair of names, not a part with its suffix


def test_a_yes_no_question_after_a_situation_is_not_answered_by_a_value_near_its_words() -> None:
    """"I'm mounting it behind a 3 mm cover. Will the capacitive touch work through it — yes or no?": the panel's
    "pixel size of 0.108 mm" is a length near "capacitive touch" but says neither yes nor no; the same sentence still
    answers a question asking the value."""
    from kgrag.answering.extract import try_extract
    from kgrag.answering.select import focus_units

    titles = {1: "Zephyr Panel Datasheet"}
    text = {1: "The Zephyr Panel capacitive touch panel resolution is 480 x 800 with a pixel size of 0.108 mm. Do not "
               "cover the antenna: the radio does not work well through a metal wall."}
    asked = ("I'm mounting my Zephyr Panel in a wall behind a 3 mm acrylic cover. Will the capacitive touch still "
             "work through that cover — yes or no?")
    focus = focus_units(asked, text, {1: "Zephyr Panel"}, 300, None, titles)
    assert try_extract(analyse(asked), focus.ranked, titles) is None
    value = "What is the pixel size of the Zephyr Panel's capacitive touch panel?"
    focus = focus_units(value, text, {1: "Zephyr Panel"}, 300, None, titles)
    assert try_extract(analyse(value), focus.ranked, titles) is not None
