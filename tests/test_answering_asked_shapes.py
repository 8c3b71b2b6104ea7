"""Question shapes read as what they ask: "How often should it be calibrated?" asks an interval, "List the sensors
on the A" asks which sensors."""

from __future__ import annotations

from kgrag.answering.terms import analyse


def test_how_often_should_asks_an_interval_not_advice() -> None:
    assert analyse("How often should the ZX-400 be calibrated?").wants_value
    assert analyse("How long should the ZX-420 warm up before calibration?").wants_value
    assert not analyse("Should I calibrate the ZX-400 with the lid open?").wants_value  # advice, a yes/no
    assert not analyse("Why should the ZX-400 be calibrated?").wants_value


def test_a_request_for_a_list_of_a_kind_asks_which_ones() -> None:
    listed = analyse("List the sensors on the Zephyr Env")
    which = analyse("Which sensors does the Zephyr Env have?")
    assert listed.wants_name and listed.attributes == which.attributes == {"sensor"}
    assert listed.text == "List the sensors on the Zephyr Env"  # the question as written
    assert analyse("Name all interfaces of the Zephyr Env").wants_name
    steps = analyse("List the steps to update the firmware")  # a procedure, not a kind of thing
    assert not steps.wants_name and "step" in steps.attributes


def test_a_yes_no_question_asks_what_is_supported_not_the_verb() -> None:
    """"Does the A support Thread?" asks Thread: the row naming it comes before a sentence about "support for all
    boards"; "Which boards support Thread?" keeps its words."""
    from kgrag.answering.select import focus_units

    question = "Does the Zephyr Matter support Thread?"
    assert "support" not in analyse(question).attributes
    assert "support" in analyse("Which boards support Thread?").attributes
    texts = {1: "Getting Started\nThe Cloud Editor is always up-to-date with the latest features and support for all "
                "boards and devices.",
             2: "General Specifications\nFeature | Description\nConnectivity | 802.15.4 Thread, Bluetooth Low Energy 5.3"}
    titles = {1: "Zephyr Matter", 2: "Zephyr Matter"}
    ranked = focus_units(question, texts, {1: "Zephyr Matter 5 Getting Started", 2: "Zephyr Matter 2 Specifications"},
                         200, titles=titles).ranked
    assert ranked[0].unit.text.startswith("Connectivity | 802.15.4 Thread")


def test_how_often_is_answered_by_an_interval_not_by_a_response_time() -> None:
    """"How often should the ZX-400 be calibrated?": a response-time row ("T90 | 20 s max.") is a duration, no
    interval; a row under an interval column, a sentence with "every" or a rate in Hz answers it."""
    from kgrag.answering.extract import try_extract
    from kgrag.answering.select import Scored
    from kgrag.answering.units import Unit

    q = analyse("How often should the ZX-400 be calibrated?")
    t90 = Unit(block=1, pos=0, text="Response time T90 | 20 s max.", kind="row", header="Parameter | ZX-400")
    every = Unit(block=2, pos=0, text="Calibrate the ZX-400 every 6 months.", kind="sentence")
    interval = Unit(block=3, pos=0, text="ZX-400 | 12", kind="row", header="Model | Calibration interval (months)")
    titles = {1: "ZX-400 Specification", 2: "ZX-400 Training", 3: "ZX-400 Service"}
    for unit, quoted in ((t90, False), (every, True), (interval, True)):
        found = try_extract(q, [Scored(unit, score=0.9, attributes=1.0, names=1.0)], titles)
        assert (found is not None and found.unit is unit) == quoted, unit.text
    rate = analyse("How often does the ZX-400 give a reading?")
    odr = Unit(block=1, pos=1, text="Output data rate | 1 Hz", kind="row", header="Parameter | ZX-400")
    assert try_extract(rate, [Scored(odr, score=0.9, attributes=1.0, names=1.0)], titles) is not None


def test_a_passage_with_a_number_the_answer_lacks_still_follows_it() -> None:
    """After "The default supply temperature setpoint is 45 °C [1].", the commissioning step that says so adds the
    parameter the user sets ("P01"): it is quoted; a sentence holding only the answer's words and numbers is not."""
    from kgrag.answering.quotes import quote_answer
    from kgrag.answering.select import focus_units

    text = ("Set the supply temperature setpoint (parameter P01, default 45 °C).\n"
            "The default supply temperature setpoint is 45 °C.")
    ranked = focus_units("What is the default supply temperature setpoint?", {1: text}, {1: "QX-30 Guide"}, 100).ranked
    said = "The default supply temperature setpoint is 45 °C [1]."
    assert quote_answer(ranked, n=2, said=said) == "Set the supply temperature setpoint (parameter P01, default 45 °C) [1]."


def test_ram_is_searched_as_the_memory_datasheets_name() -> None:
    """"How much RAM does the QX-500 have?" is answered by "… with 2 GB of LPDDR4 memory" or a row
    "SRAM | 32 KB": neither writes "RAM", so the storage sentence ranked as high."""
    from kgrag.answering.aspects import label_terms
    from kgrag.answering.select import focus_units

    assert label_terms("How much RAM does the QX-500 have?") == ["sram", "memory"]
    assert label_terms("How do I program the QX-500?") == []
    text = ("The QX-500 keeps its logs on 16 GB of eMMC flash storage.\n"
            "The QX-500 runs an i.MX 8M Mini processor with 2 GB of LPDDR4 memory.")
    ranked = focus_units("How much RAM does the QX-500 have?", {1: text}, {1: "QX-500 Manual"}, 100).ranked
    assert "2 GB of LPDDR4 memory" in ranked[0].unit.text


def test_sram_is_searched_as_the_ram_a_module_list_writes() -> None:
    """"How much SRAM does the QX-510 have?" is answered by a module's spec line "1 MB Flash + 256 kB RAM", which
    writes no "SRAM": before, every other sentence of the product's page ranked above it."""
    from kgrag.answering.aspects import label_terms
    from kgrag.answering.select import focus_units

    assert label_terms("How much SRAM does the QX-510 have?") == ["ram"]
    text = ("The QX-510 is a small module with a Bluetooth radio and a 9-axis IMU.\n"
            "Processor\n64 MHz Arm Cortex-M4F (with FPU)\n1 MB Flash + 256 kB RAM\n"
            "The QX-510 can be powered through USB or its headers.")
    ranked = focus_units("How much SRAM does the QX-510 have?", {1: text}, {1: "QX-510 Datasheet"}, 100).ranked
    assert "256 kB RAM" in ranked[0].unit.text


def test_what_a_part_costs_is_searched_as_its_price() -> None:
    """"How much does the QX-15 kit cost?" is answered by a parts list's "List price (GBP)" column, which writes no
    "cost"."""
    from kgrag.answering.aspects import label_terms
    from kgrag.answering.select import focus_units

    assert label_terms("How much does the QX-15 kit cost?") == ["price"]
    text = ("Part: QX-15; Description: Remote kit, 15 m cable; List price (GBP): 268.00\n"
            "The QX-15 kit holds a 15 m cable and a wall bracket.")
    ranked = focus_units("How much does the QX-15 kit cost?", {1: text}, {1: "QX parts list"}, 100).ranked
    assert "268.00" in ranked[0].unit.text
