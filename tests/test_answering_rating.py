"""Yes/no questions that write a value for one product: the product's rated ranges, limits and nominal values
decide, and the deciding passages are quoted (no LLM call)."""

from __future__ import annotations

import numpy as np

from kgrag.answer import generate_answer
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

CORE = ("The Zephyr Core is a compact controller board.\nPower\nVIN: This pin can be used to power the board with a regulated 5 V source.\n"
        "Environment\nParameter | Value\nOperating temperature | -40 to 85 °C\n"
        "Relays\nRated voltage | 250 VAC\nMaximum current through relay switch | max 2 A")
OTHER = "The Zephyr Max is a larger controller board.\nPower\nVIN: input voltage from the VIN pad is 6 to 21 V.\nOperating temperature | 0 to 70 °C"


def _answer(question: str, items: list[ContextItem] | None = None) -> tuple[str, str]:
    """The answer (no LLM call) and its path over `items`, by default the Zephyr Core's and the Zephyr Max's passages."""
    items = items or [ContextItem("chunk", CORE, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"}),
                      ContextItem("chunk", OTHER, 0.4, "c2", "d2", {"path": "max.pdf", "title": "Zephyr Max"})]
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=200)  # no LLM call
    return answer.text, str(context.info.get("answer_path"))


def test_a_value_outside_the_products_rating_is_a_no_with_the_rating_quoted() -> None:
    text, path = _answer("Can I power the Zephyr Core from a 9 V battery on its VIN pin?")
    assert path == "rating" and text.startswith("No. Zephyr Core: VIN: This pin can be used to power the board with "
                                                "a regulated 5 V source [1]. 9 V does not match this rating [1].")
    text, _ = _answer("Can the relay of the Zephyr Core switch a 230 VAC heater that draws 3 A?")
    assert text.startswith("No. Zephyr Core: Maximum current through relay switch: max 2 A [1]. 3 A exceeds this "
                           "rating [1].")  # the voltage fits, the current does not: the limit it exceeds, said
    text, _ = _answer("Can I power the Zephyr Core from a 9 V battery on its VIN pin?")
    assert "250 VAC" not in text  # what follows a verdict is about the need (power, VIN), not any voltage row


def test_a_value_inside_a_rated_range_is_a_yes_and_another_products_range_decides_nothing() -> None:
    text, path = _answer("Can the Zephyr Core operate at -35 °C?")
    assert path == "rating" and text == ("Yes. Zephyr Core: Parameter: Operating temperature; Value: -40 to 85 °C [1]. "
                                         "-35 °C is within this rating [1].")  # the asked value against the rating
    text, path = _answer("Can the Zephyr Max operate at -35 °C?")
    assert path == "rating" and text == ("No. Zephyr Max: Operating temperature: 0 to 70 °C [2]. "
                                         "-35 °C is below this rating [2].")  # its own range


def test_using_a_product_on_its_own_is_decided_by_what_its_documents_say_it_needs() -> None:
    """"Can I use the Zephyr Shield on its own?": its note that it requires a host board says no; a board whose
    documents call it standalone says yes; a product that says neither goes the usual way."""
    shield = "Features\nNote: The Zephyr Shield requires a Zephyr Core board to function. It has a 4-inch display."
    eye = "The Zephyr Eye can function as a field-ready standalone board with its own camera."
    items = [ContextItem("chunk", shield, 0.5, "c1", "d1", {"path": "shield.pdf", "title": "Zephyr Shield"}),
             ContextItem("chunk", eye, 0.5, "c2", "d2", {"path": "eye.pdf", "title": "Zephyr Eye"}),
             ContextItem("chunk", CORE, 0.4, "c3", "d3", {"path": "core.pdf", "title": "Zephyr Core"})]

    text, path = _answer("Can I use the Zephyr Shield on its own as a display?", items)
    assert path == "rating" and text.startswith("No. Note: The Zephyr Shield requires a Zephyr Core board to function [1].")
    assert text.endswith("Zephyr Shield: It has a 4-inch display [1].")  # then the product's best other passage
    assert _answer("Can the Zephyr Eye work standalone?", items)[0].startswith("Yes. The Zephyr Eye can function as a field-ready "
                                                                    "standalone board with its own camera [2].")
    assert _answer("Can the Zephyr Core work standalone?", items)[1] != "rating"  # its documents say neither


def test_a_situation_around_the_value_neither_refuses_nor_hides_the_yes_no_question() -> None:
    """"My Zephyr Core will live in an unheated outdoor box where winter nights reach -35 °C. Is that OK?": the
    situation's words are in no datasheet (the coverage gate let it through because a value is asked of a product the
    context holds), the asking sentence comes last, "OK" is a word, and two limits of one quantity are a range."""
    from kgrag.answering.ratings import fit
    from kgrag.answering.terms import analyse, asks_yes_no

    assert fit("Conservative thermal limits for the whole board: -40 °C (-40 °F) 85 °C (185 °F)", (-35.0, "°C", False))
    assert not fit("Thermal limits: -40 °C (-40 °F) 85 °C (185 °F)", (-45.0, "°C", False))
    assert not fit("Outputs 3.3 V and 5 V", (4.0, "V", False))  # two nominal values are no range
    assert asks_yes_no(analyse("My board sits outdoors at -35 °C. Is that OK?"))
    assert not asks_yes_no(analyse("I need Wi-Fi. Should I use the Zephyr Core or the Zephyr Max?"))  # a choice
    assert "OK" not in analyse("Is that OK for the Zephyr Core?").names
    text, path = _answer("My Zephyr Core will live in an unheated outdoor box where winter nights reach -35 °C. "
                         "Is that OK?")
    assert path == "rating" and text.startswith("Yes. ") and "-40 to 85 °C [1]" in text


def test_a_value_above_a_stated_minimum_is_no_miss() -> None:
    """"specified minimum input voltage is 4.5 V" is a floor: 12 V meets it (no "No."), 3 V does not."""
    from kgrag.answering.ratings import fit

    floor = "The DC-DC regulator's specified minimum input voltage is 4.5 V."
    assert fit(floor, (12.0, "V", False)) is True and fit(floor, (3.0, "V", False)) is False
    assert fit("VIN: input voltage of at least 7 V", (9.0, "V", False)) is True
    assert fit("Nominal supply: 5 V", (12.0, "V", False)) is False  # a nominal value is still met only by itself


class _Unrelated:
    """An embedder under which the question and every passage are orthogonal (cosine 0): no passage is about it."""

    model_name, dim = "unrelated", 2

    def embed(self, texts: list[str]) -> np.ndarray:
        return np.array([[1.0, 0.0]] + [[0.0, 1.0]] * (len(texts) - 1), dtype=np.float32)


def test_a_situation_no_passage_resembles_still_reads_the_products_rating() -> None:
    """The user's situation ("a cabinet that gets close to 80 °C in summer") resembles no passage, so the relevance
    gate would show the closest passages; a value asked of a product the context holds documents of is read against
    its ratings instead."""
    question = "My Zephyr Core sits in a cabinet that gets close to 80 °C in summer. Is that OK?"
    items = [ContextItem("chunk", CORE, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=200,
                             embedder=_Unrelated(), min_relevance=0.4)
    assert context.info.get("answer_path") == "rating" and answer.text.startswith("Yes. ")
    assert "-40 to 85 °C [1]" in answer.text


def test_a_yes_no_question_checks_the_quantity_of_the_value_it_writes() -> None:
    """"… off the 12 V car battery via VIN. Is that within what the board can take?": "battery" names a capacity,
    the value written is a voltage, and the voltage ratings are the ones to read."""
    from kgrag.answering.terms import analyse

    q = analyse("I run a Zephyr Core off the 12 V car battery via VIN. Is that within what the board can take?")
    assert "voltage" in q.dimensions
    assert "voltage" not in analyse("What battery does the Zephyr Core take?").dimensions  # no value written


def test_a_gathered_fact_of_another_product_ranks_like_a_variants() -> None:
    """A fact row of another board (not a sibling by name) reached through a shared word ("VIN") is not about the
    named product: it counts as a variant's (name score halved), and a part in the named product does not."""
    from kgrag.answering.select import score_units
    from kgrag.answering.units import block_units

    facts = "Orbit Display (Product)\ninput voltage vin | 6 to 21 V\n\nQX2322 (Power, in Zephyr Core)\ninput voltage | 21V"
    own = "Power\nVIN: This pin can be used to power the board with a regulated 5 V source."
    units = block_units(1, facts) + block_units(2, own)
    question = "Can I feed 12 V to VIN of the Zephyr Core?"
    ranked = score_units(question, units, {1: "graph facts", 2: "Zephyr Core"}, titles={1: "", 2: "Zephyr Core"})
    other = next(s for s in ranked if "6 to 21 V" in s.unit.text)
    part = next(s for s in ranked if s.unit.text.endswith("21V"))
    assert other.variant and not part.variant  # a part in the named product is about it
    without = score_units(question, units, {1: "graph facts", 2: "Zephyr Core"})
    assert not next(s for s in without if "6 to 21 V" in s.unit.text).variant  # no titles: products unknown
    clock = "Orbit Display (Product)\nclock speed | 48 MHz\n\nQX4809 (MCU, in Zephyr Core)\ncpu | 20 MHz"
    units = block_units(1, clock) + block_units(2, own)
    asked = "What is the clock speed of the microcontroller on the Zephyr Core?"
    ranked = score_units(asked, units, {1: "graph facts", 2: "Zephyr Core"}, titles={1: "", 2: "Zephyr Core"})
    facts_order = [s.unit.text for s in ranked if "MHz" in s.unit.text]
    assert facts_order == ["cpu | 20 MHz", "clock speed | 48 MHz"]  # another board's fact ranks after the named one's


def test_a_unit_of_another_products_document_ranks_below_the_named_products_own() -> None:
    """A passage of another board's datasheet that matches the asked words ("PWM pins") better than the named board's
    own line ranks after it; one that names the asked product, or any passage when no title is known, is scored as
    before."""
    from kgrag.answering.select import OTHER_DOCUMENT, score_units
    from kgrag.answering.units import block_units

    other = "Pins\nPWM pins: 13 PWM pins are available on the header."
    own = "I/O\n54 Digital\n15 PWM Output"
    mention = "Shields\nThe Zephyr Core takes the same shields."
    units = block_units(1, other) + block_units(2, own) + block_units(3, mention)
    question = "How many PWM pins does the Zephyr Core have?"
    titles = {1: "Orbit Display", 2: "Zephyr Core", 3: "Orbit Display"}
    ranked = score_units(question, units, {n: t for n, t in titles.items()}, titles=titles)
    texts = [s.unit.text for s in ranked]
    assert texts.index("15 PWM Output") < texts.index("PWM pins: 13 PWM pins are available on the header.")
    plain = {s.unit.text: s.score for s in score_units(question, units, {n: t for n, t in titles.items()})}
    scored = {s.unit.text: s.score for s in ranked}
    assert scored["PWM pins: 13 PWM pins are available on the header."] < plain[
        "PWM pins: 13 PWM pins are available on the header."] * (OTHER_DOCUMENT + 0.01)
    assert scored["The Zephyr Core takes the same shields."] > plain["The Zephyr Core takes the same shields."] * 0.99


def test_a_row_repeating_another_rows_words_and_numbers_is_chosen_and_quoted_once() -> None:
    """Pin tables repeat one description per pin: "1 | 24V OUT | … protects pins 1, 4, 7" and the "4 | 24V OUT"
    row say the same; rows with other numbers, or short rows sharing words, are different facts."""
    from kgrag.answering.quotes import quote_answer
    from kgrag.answering.repeats import near_copy
    from kgrag.answering.select import Scored
    from kgrag.answering.units import Unit

    rows = [f"{pin} | 24V OUT | - | Output voltage connected to the board input voltage. A single PTC protects pins "
            "1, 4, 7. PTC nominal value 0.5A" for pin in (1, 4, 7)]
    assert near_copy(rows[1], rows[:1]) and near_copy(rows[2], rows[:1])
    assert not near_copy(rows[0].replace("0.5A", "1.5A"), rows[1:2])  # another value
    assert not near_copy("in product | Zephyr Core Sense", ["in product | Zephyr Core"])  # short: another fact
    closing = ("Now that you have gone through the basics you can explore the projects on the Project Hub [{}], the "
               "Library Reference [{}] and the online store")  # a document's own reference marks are no values
    assert near_copy(closing.format(5, 6), [closing.format(4, 5)])
    units = [Unit(block=1, pos=n, text=t, kind="row") for n, t in enumerate(rows)]
    units.append(Unit(block=1, pos=3, text="A 500mA PTC resettable fuse protects the 24V output pin.", kind="sentence"))
    ranked = [Scored(u, score=1.0 - 0.1 * n) for n, u in enumerate(units)]
    quoted = quote_answer(ranked, n=2)
    assert quoted.count("24V OUT") == 1 and "500mA PTC resettable fuse" in quoted


def test_a_passage_whose_words_an_earlier_quote_holds_is_not_quoted_again() -> None:
    """A second document saying part of the same thing in the same words and numbers (shorter, so no near copy) adds
    nothing once the first is quoted, and the next passage that says something else takes its place; one writing a
    number of its own states another value and is quoted."""
    from kgrag.answering.quotes import quote_answer
    from kgrag.answering.select import Scored
    from kgrag.answering.units import Unit

    texts = ["The Zephyr Core runs from a 5 V USB supply or from the VIN pin with an external battery pack.",
             "Power: the Zephyr Core runs from a 5 V USB supply or from its VIN pin.",
             "The onboard regulator delivers up to 800 mA to the 3.3 V rail for shields and sensors."]
    units = [Unit(block=n + 1, pos=0, text=t, kind="sentence") for n, t in enumerate(texts)]
    ranked = [Scored(u, score=1.0 - 0.1 * n) for n, u in enumerate(units)]
    quoted = quote_answer(ranked, n=2)
    assert quoted.count("USB supply") == 1 and "800 mA" in quoted
    units[1].text = "Power: the Zephyr Core runs from a 5 V USB supply or from its VIN pin (up to 12 V)."
    assert quote_answer(ranked, n=2).count("USB supply") == 2


def test_a_question_opened_by_would_may_or_must_is_a_yes_no_question() -> None:
    """"Would a 9 V battery on VIN be OK for the Zephyr Core?" asks yes or no as "Can I …?" does."""
    from kgrag.answering.terms import analyse

    assert all(analyse(q).yes_no for q in ("Would it run at -35 °C?", "May I feed it 12 V?", "Must it be grounded?"))
    text, path = _answer("Would a 9 V battery on the VIN pin be OK for the Zephyr Core?")
    assert path == "rating" and text.startswith("No. Zephyr Core: VIN: This pin can be used to power the board")


def test_a_parts_list_row_rates_nothing_and_a_limit_word_after_a_value_bounds_it() -> None:
    """"IC1 | 5V Linear Regulator | X1 | Power Jack" says what the parts are, not what the power jack takes: no "No."
    from it; "1024 mAh Minimum" is a floor a 500 mAh cell misses."""
    parts = "Front View\nRef. | Description | Ref. | Description\nIC1 | 5V Linear Regulator | X1 | Power Jack Connector"
    battery = "Battery\nSupported battery | Li-Po Single Cell, 3.7 V, 1024 mAh Minimum"
    items = [ContextItem("chunk", parts, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"}),
             ContextItem("chunk", battery, 0.5, "c2", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]

    text, path = _answer("Is it OK to power the Zephyr Core from a 15 V adapter in its power jack?", items)
    assert path != "rating" and not text.startswith("No.")
    text, path = _answer("Can I run the Zephyr Core from a 500 mAh LiPo cell?", items)
    assert path == "rating" and text.startswith("No. Zephyr Core: Supported battery: Li-Po Single Cell, 3.7 V, 1024 mAh")


def test_a_bill_of_materials_row_counted_by_quantity_rates_nothing() -> None:
    """"q.ty | Function | Description" lists parts by count: "1 | reverse polarity | DIODE SCHOTTKY 2A 60V" is the diode's
    rating, not the board's input; the board's own supply row still decides a 48 V question."""
    from kgrag.answering.suits import parts_row
    from kgrag.answering.units import Unit

    bom = ("Functional Overview\nq.ty | Function | Description\n1 | protect from reverse polarity | DIODE SCHOTTKY SMD "
           "2A 60V SOD123FL\n1 | power connector | CONN SCREW TERMINAL 4POS 16A 450V")
    supply = "Power\nInput voltage | 12 to 24 V DC"
    assert parts_row(Unit(block=1, pos=1, text="1 | power connector | CONN SCREW TERMINAL 16A 450V", kind="row",
                          header="q.ty | Function | Description"))
    assert not parts_row(Unit(block=1, pos=1, text="1 | 24V OUT | Output voltage 0.5A", kind="row",
                              header="Pin | Function | Description"))  # a pin table: the board's own outputs
    items = [ContextItem("chunk", bom, 0.5, "c1", "d1", {"path": "heat.pdf", "title": "Zephyr Heater"})]
    text, path = _answer("Can I connect 24 V with reverse polarity to the Zephyr Heater?", items)
    assert path != "rating" and not text.startswith("No.")  # was "No." from the diode's 60 V
    items.append(ContextItem("chunk", supply, 0.5, "c2", "d1", {"path": "heat.pdf", "title": "Zephyr Heater"}))
    text, path = _answer("Can I feed the Zephyr Heater from a 48 V supply?", items)
    assert path == "rating" and text.startswith("No. Zephyr Heater: Input voltage: 12 to 24 V DC")


def test_two_products_used_together_suit_a_value_only_if_each_does() -> None:
    """"The Zephyr Core with the Zephyr Max in a 75 °C cabinet": the Core's -40 to 85 °C fits, the Max's 0 to 70 °C
    does not, so "No." quoting the Max's range; at 50 °C both ranges hold it: "Yes." with each one's range."""
    text, path = _answer("I want to run the Zephyr Core with the Zephyr Max in a cabinet at 75 °C. Is that within spec?")
    assert path == "rating" and text.startswith("No. Zephyr Max: Operating temperature: 0 to 70 °C [2].")
    text, path = _answer("I want to run the Zephyr Core with the Zephyr Max in a cabinet at 50 °C. Is that within spec?")
    assert path == "rating" and text.startswith("Yes. ") and "-40 to 85 °C [1]" in text and "0 to 70 °C [2]" in text


def test_a_current_is_read_at_the_voltage_a_slash_list_pairs_it_with() -> None:
    """"24/30/110/220V | 10/4/0.3/0.12 A": a relay breaks 0.3 A at 110 V, so a 1 A valve on 110 VDC is a "No."; the
    same row decides nothing for a voltage it does not list."""
    from kgrag.answering.suits import paired_limit

    relay = "Relays\nCharacteristics | Details\nBreaking capacity DC1: 24/30/110/220V | 10/4/0.3/0.12 A"
    items = [ContextItem("chunk", relay, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    text, path = _answer("Can a Zephyr Core relay switch a 110 VDC solenoid valve that draws 1 A?", items)
    assert path == "rating" and text.startswith("No. Zephyr Core: Characteristics: Breaking capacity DC1: 24/30/110/220V")
    assert "1 A at 110 VDC is more than this rating allows [1]." in text  # the asked values against the pair
    assert paired_limit(relay, 24.0, 5.0) is True and paired_limit(relay, 48.0, 1.0) is None
    assert paired_limit("10/4/0.3/0.12 A for respectively 24/30/110/220 V", 110.0, 1.0) is False


def test_a_verdict_is_followed_by_more_of_the_products_passages_on_the_need() -> None:
    """After the deciding rating, up to MORE_QUOTES of the product's other passages on what is asked follow (the
    supply pins' other ratings), as after a quote."""
    from kgrag.answering.suits import MORE_QUOTES

    power = ("Power\nVIN: This pin can be used to power the board with a regulated 5 V source.\n"
             "The USB port can power the board with 5 V from a computer.\n"
             "The 3V3 pin supplies 3.3 V to external parts, up to 500 mA.\n"
             "The board can be powered from a single-cell 3.7 V battery on the JST connector.")
    items = [ContextItem("chunk", power, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    text, path = _answer("Can I power the Zephyr Core from a 9 V battery on its VIN pin?", items)
    assert path == "rating" and text.startswith("No. Zephyr Core: VIN: This pin can be used to power the board")
    assert MORE_QUOTES >= 2 and text.count("[1].") >= 4  # the verdict's two sentences, then more than one passage


def test_a_regulators_output_rates_no_input_and_a_voltage_current_pair_is_a_limit() -> None:
    """"VIN is regulated by an LDO so the supply is limited to 5 V" is what the regulator gives, not what VIN takes: a
    12 V adapter gets no "No." from it; "4x 60V/2.5A solid state relays" rate what the relays switch, so 48 V fits
    (was "No." as a nominal 60 V and the line's 0-5V analog inputs); "3.3V/5V" levels are no such pair."""
    from kgrag.answering.ratings import judge

    regulated = "Power\nThe input supply of VIN is regulated by an LDO so the supply is limited to 5 V for the board."
    items = [ContextItem("chunk", regulated, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    text, path = _answer("Is it OK to run the Zephyr Core off a 12 V wall adapter on VIN?", items)
    assert path != "rating" and not text.startswith("No.")
    assert judge("Regulates input voltage from up to 21V with a minimum of 65% efficiency", (12.0, "V", False)) == [
        (True, "limit")]  # "up to 21V" is the input it takes
    assert judge("This pin must be supplied with a voltage regulated to 5 V.", (9.0, "V", False)) == [
        (False, "nominal")]  # no regulating device: the input asked for
    relays = "Features\n8x 0-5V analog inputs 4x 60V/2.5A galvanically isolated solid state relays"
    items = [ContextItem("chunk", relays, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    text, path = _answer("Can the Zephyr Core's solid state relays switch a 48 V DC, 2 A valve?", items)
    assert not text.startswith("No.")
    assert judge("4x 60V/2.5A relays", (48.0, "V", False)) == [(True, "limit")]
    assert judge("Logic levels 3.3V/5V", (12.0, "V", False)) == [(False, "nominal"), (False, "nominal")]


def test_a_value_in_parentheses_after_another_quantity_is_a_measurement_condition() -> None:
    """"24.4 µA (14-bit resolution, 3.3 V supply)" says at what supply the current was measured, not that the node
    takes only 3.3 V: it gave "No." to 5 V by itself."""
    from kgrag.answering.ratings import judge

    assert judge("power consumption: 24.4 µA (14-bit resolution, 3.3 V supply)", (5.0, "V", False)) == []
    assert judge("Input voltage (VIN): 7-12 V", (9.0, "V", False)) == [(True, "range")]  # a label in parentheses
    assert judge("Supply 3.3 V (typ.)", (5.0, "V", False)) == [(False, "nominal")]  # its own value's note


def test_a_compliance_notice_rates_nothing() -> None:
    """"none of the SVHCs … above 0.1 %" is a declaration about substances, not a humidity rating: no "No." for 95 %."""
    notice = "Declarations\nWe declare none of the SVHCs, the Candidate List of Substances of Very High Concern, is " \
             "present in quantities totaling in a concentration equal or above 0.1 %."
    items = [ContextItem("chunk", notice, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    text, path = _answer("Can I install the Zephyr Core in a greenhouse where relative humidity reaches 95%?", items)
    assert path != "rating" and not text.startswith("No.")


def test_a_length_rates_only_as_a_reach_and_a_size_rates_nothing() -> None:
    """A board's "18 mm x 45 mm" or a display's "pixel size of 0.108 mm" is a size, not a rating of a distance or a
    cover the user writes: it gave "No." to boards 100 m apart and to a 3 mm cover. A reach still rates one."""
    from kgrag.answering.ratings import judge

    assert judge("The board measures 18 mm x 45 mm and supports Bluetooth and Thread.", (100.0, "m", False)) == []
    assert judge("Touch panel resolution 480 x 800 with a pixel size of 0.108 mm", (3.0, "mm", False)) == []
    assert judge("Communication range of 10 m indoors", (100.0, "m", False)) == [(False, "limit")]
    assert judge("Cable length | 3 m", (2.0, "m", False)) == [(True, "limit")]
    assert judge("Detection up to 4 m", (5.0, "m", False)) == [(False, "limit")]
    items = [ContextItem("chunk", "The Zephyr Core measures 18 mm x 45 mm and supports Bluetooth Low Energy.", 0.5,
                         "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    text, path = _answer("Will Bluetooth work between two Zephyr Core boards placed 100 m apart?", items)
    assert path != "rating" and not text.startswith("No.")


def test_a_share_in_percent_is_rated_only_by_rows_of_the_quantity_the_question_names() -> None:
    """"humidity around 90% RH": an analog input's "accuracy +/- 5%" or a relay's "duty cycle of 10%" rate no humidity,
    so no "No." comes of them; a humidity rating does decide."""
    core = ("The Zephyr Core is a compact controller board.\nAnalog inputs\nParameter | Value\nAccuracy | +/- 5%\n"
            "Relays\nThe relay holds its maximum using a duty cycle of less or equal to 10%.")
    items = [ContextItem("chunk", core, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    question = "Humidity in our cabinets sits around 90% RH. Is the Zephyr Core rated for that operating humidity?"
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=["The documents do not contain the answer."]), question, context,
                             mode="auto", focus_tokens=200)
    assert context.info.get("answer_path") != "rating" and not answer.text.startswith("No.")
    rated = core + "\nEnvironment\nParameter | Value\nOperating humidity | 10% to 85% RH, non-condensing"
    text, path = _answer(question, [ContextItem("chunk", rated, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})])
    assert path == "rating" and text.startswith("No.") and "85% RH" in text


def test_the_digits_of_a_model_code_are_no_value() -> None:
    from kgrag.answering.choose import asked_value, written_value_texts
    # "KX-220s" is a plural, not 220 s; "RS-485 A" a line of a bus, not 485 A; "CV-2400C" a camera, not 2400 °C
    assert written_value_texts("Four KX-220s run CAN FD at 2 Mbit/s. Can a KX-220L join them?") == ["2 Mbit/s"]
    assert asked_value("Four KX-220s run CAN FD at 2 Mbit/s. Can a KX-220L join them?") is not None
    assert written_value_texts("Is pin 4 the RS-485 A line of the CV-2400C?") == []
    assert written_value_texts("Does it take 10-30 V, and sample at 25Hz-6.4 kHz?") == ["30 V", "25Hz", "6.4 kHz"]


def test_a_typeset_minus_sign_is_a_minus() -> None:
    # "−" (U+2212) is how typeset datasheets and many users write a negative value: −35 °C is no 35 °C
    core = CORE.replace("-40 to 85 °C", "−40 °C to +85 °C")
    items = [ContextItem("chunk", core, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    text, path = _answer("Can the Zephyr Core operate at −35 °C?", items)
    assert path == "rating" and text.startswith("Yes.") and "−35 °C is within this rating" in text
    text, path = _answer("Can the Zephyr Core operate at −45 °C?", items)
    assert path == "rating" and text.startswith("No.") and "−45 °C is below this rating" in text


def test_a_temperature_the_product_is_ok_at_is_read_against_its_rating() -> None:
    """"Is the TS-30 ok at -35 °C?" is decided by its operating temperature row like "Can it operate at …?"."""
    node = "Specifications\nParameter | Value\nOperating temperature | -40 °C to +85 °C"
    items = [ContextItem("chunk", node, 0.5, "c1", "d1", {"path": "ts30.md", "title": "Lumisk TS-30"})]
    text, path = _answer("Is the TS-30 ok at -35 °C?", items)
    assert path == "rating" and text.startswith("Yes.") and "-35 °C is within this rating [1]." in text


def test_a_temperature_a_user_asks_about_in_own_words_searches_the_rating_label() -> None:
    """"Is the A ok at −35 °C?" is answered by an "Operating temperature" row: the search and the focus also use the
    label's words, which the question does not write."""
    from kgrag.answering.aspects import label_terms, with_aspect_words

    assert label_terms("Is the TS-30 ok at -35 °C?") == ["operating", "temperature"]
    assert with_aspect_words("TS-30 ok -35 °C", "Is the TS-30 ok at -35 °C?").endswith("operating temperature")
    assert label_terms("What is the accuracy at -35 °C?") == []  # no question of using it there


def test_a_rating_written_after_a_product_is_asked_of_it_not_part_of_its_name() -> None:
    """"is the DPX IP68?" asks the DPX's ingress rating: "DPX IP68" is no product the documents fail to mention."""
    from kgrag.answering.terms import analyse

    assert analyse("is the DPX IP68?").phrases == [["DPX"]]
    assert analyse("Is the DPX-240 SIL2 certified?").phrases == [["DPX-240"]]
    sheet = "Compliance sheet — DPX Series\nConnector code | IP rating\nC05 | IP68 (1 m water, 24 h)"
    items = [ContextItem("chunk", sheet, 0.5, "c1", "d1", {"path": "doc.md", "title": "Compliance sheet — DPX Series"})]
    text, _ = _answer("is the DPX IP68?", items)
    assert "do not mention" not in text and "IP68 (1 m water, 24 h) [1]" in text


def test_a_value_beyond_a_maximum_is_a_no_though_it_meets_a_minimum() -> None:
    """"750 Ω with a 24 V supply, will a DPX-220 work?": "must not exceed 600 Ω" decides, and "needs at least 250 Ω"
    (met) does not make it a yes."""
    guide = ("Wiring\nThe total loop load must not exceed 600 Ω at 24 V DC. HART communication needs a loop load of "
             "at least 250 Ω.\nSupply voltage (DPX-220, DPX-240): 10.5 … 32 V DC")
    items = [ContextItem("chunk", guide, 0.5, "c1", "d1", {
        "path": "qs.pdf", "title": "Kernholt DPX-220"})]
    text, path = _answer("My loop has a total load of 750 Ω. Will a DPX-220 work correctly?", items)
    assert path == "rating" and text.startswith("No. ") and "750 Ω exceeds this rating [1]." in text
    question = "My loop has a total load of 500 Ω. Will a DPX-220 work correctly?"  # between minimum and maximum:
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)  # no verdict
    answer = generate_answer(FakeLLM(replies=["Yes, 500 Ω is within 250 to 600 Ω [1]."]), question, context,
                             mode="auto", focus_tokens=200)
    assert context.info.get("answer_path") != "rating" and not answer.text.startswith("No.")


def test_a_temperature_written_with_the_one_character_celsius_sign_is_a_rating() -> None:
    """Datasheets write "85℃" (U+2103) as often as "85 °C": "can't exceed 85℃ and shouldn't be lower than -40℃" rates
    the temperatures a user writes with "°C"."""
    notes = ("The Zephyr Node is a small sensor board.\nImportant: The operating temperature of the board can't exceed "
             "85℃ and shouldn't be lower than -40℃.")
    items = [ContextItem("chunk", notes, 0.5, "c1", "d1", {"path": "node.pdf", "title": "Zephyr Node"})]
    text, path = _answer("Can the Zephyr Node operate at 95 °C in an engine bay?", items)
    assert path == "rating" and text.startswith("No. Zephyr Node:"), text
    assert "95 °C exceeds this rating" in text
    text, path = _answer("Can the Zephyr Node operate at -30 °C?", items)
    assert path == "rating" and text.startswith("Yes. Zephyr Node:"), text


def test_the_test_conditions_of_a_compliance_notice_are_no_rating_of_the_product() -> None:
    """A radio declaration's "The operating temperature of the EUT can't exceed 85℃ and shouldn't be lower than -40℃"
    states the conditions of a test, not the product's rating (0 to 70 °C): it must not outvote the rating."""
    text = ("The Zephyr Ear is a voice board.\nOperating temperature | 0 to 70 °C\nDeclaration\nImportant: The operating "
            "temperature of the EUT can't exceed 85 °C and shouldn't be lower than -40 °C.")
    items = [ContextItem("chunk", text, 0.5, "c1", "d1", {"path": "ear.pdf", "title": "Zephyr Ear"})]
    answer, path = _answer("Is -10 °C within the rated range of the Zephyr Ear?", items)
    assert path == "rating" and answer.startswith("No. Zephyr Ear: Operating temperature: 0 to 70 °C [1]."), answer


def test_the_rating_of_the_asked_pin_decides_not_the_values_naming_other_pins() -> None:
    """"Is it safe to feed 12 V into the VIN pin?": the VIN rating decides; "the pin 3.3V", "pins (5V, VIN)" name pins,
    and "Applying +5 VDC to the 5V pin" rates another pin (it names fewer of the asked words than the VIN rating)."""
    text = ("The Zephyr Matter is a small board.\nPower\nVIN pad: Applying 6 to 21 VDC to the VIN pin of the header.\n"
            "5V pad: Applying +5 VDC to the 5V pin of the header.\nIn low-power mode the board must be powered through the "
            "pin 3.3V.\nPower Supply | USB-C port and external power supply through the header pins (5V, VIN)")
    items = [ContextItem("chunk", text, 0.5, "c1", "d1", {"path": "matter.pdf", "title": "Zephyr Matter"})]
    answer, path = _answer("Is it safe to feed 12 V into the VIN pin of the Zephyr Matter?", items)
    assert path == "rating" and answer.startswith("Yes. Zephyr Matter: VIN pad: Applying 6 to 21 VDC"), answer
    answer, path = _answer("Is it safe to feed 25 V into the VIN pin of the Zephyr Matter?", items)
    assert path == "rating" and answer.startswith("No. Zephyr Matter: VIN pad:"), answer


def test_a_voltage_and_current_before_a_switching_part_rate_it() -> None:
    """"four configurable 60V 2.5A solid state relays" rates what the relays switch, as "60V/2.5A" does: 48 V is
    within it, not a mismatch of a nominal 60 V (no "No."; a limit alone does not make a "Yes."); 70 V exceeds it."""
    text = ("The Zephyr Field is a farm controller.\nRelays\nThe board features four configurable 60V 2.5A solid state "
            "relays with galvanic isolation.")
    items = [ContextItem("chunk", text, 0.5, "c1", "d1", {"path": "field.pdf", "title": "Zephyr Field"})]
    answer, path = _answer("Can the Zephyr Field's solid state relays switch a 48 V DC valve that draws 2 A?", items)
    assert not answer.startswith("No."), answer
    answer, path = _answer("Can the Zephyr Field's solid state relays switch a 70 V DC valve?", items)
    assert path == "rating" and answer.startswith("No. Zephyr Field:") and "70 V exceeds" in answer, answer


def test_a_value_the_documents_rule_out_is_a_no_whatever_else_they_rate() -> None:
    """"is NOT 5V tolerant", "Do not apply 5 V to A0", "the only operating input voltage is +3.3 VDC" rule a value out:
    a 5 V signal gets "No." even where another sentence names 5 V ("unlike boards that support 5V operation"); the
    denial says nothing of another value, and a limit in words ("not more than") is no denial."""
    from kgrag.answering.ratings import judge

    note = ("I/O\nNOTE: The Zephyr Core only supports 3.3V I/Os and is NOT 5V tolerant, so do not connect 5V signals "
            "directly.\nAs opposed to boards that support 5V operation, its 5V pin does not supply voltage.")
    items = [ContextItem("chunk", note, 0.5, "c1", "d1", {"path": "core.pdf", "title": "Zephyr Core"})]
    text, path = _answer("Can I wire a sensor's 5 V output directly to a digital pin of the Zephyr Core?", items)
    assert path == "rating" and text.startswith("No. NOTE: The Zephyr Core only supports 3.3V I/Os and is NOT 5V "
                                                "tolerant") and "5 V is ruled out by this passage [1]." in text
    assert judge("Do not apply 5 V to A0 or A1.", (5.0, "V", False)) == [(False, "denied")]
    assert judge("Do not apply 5 V to A0 or A1.", (3.3, "V", False)) == []  # it denies 5 V only
    assert judge("the only operating input voltage is +3.3 VDC", (5.0, "V", False)) == [(False, "only")]
    assert judge("the only operating input voltage is +3.3 VDC", (3.3, "V", False)) == [(True, "only")]
    assert judge("The supply must be not more than 5 V", (4.0, "V", False)) == [(False, "nominal")]  # no denial
