"""Sizes written as a product of lengths ("Dimensions (W × H × D) | 45 × 100 × 115 mm"), asked as a user asks them
("How wide is …?", "What are the dimensions …?"), beside a sibling model's datasheet and a sentence with a bare length."""

from __future__ import annotations

from kgrag.answer import generate_answer
from kgrag.answering.model_codes import sibling_codes, title_leads, writes_sibling
from kgrag.answering.select import attribute_share
from kgrag.answering.sizes import shape_words, size_components
from kgrag.answering.terms import analyse
from kgrag.answering.units import block_units
from kgrag.models.fake import FakeLLM
from kgrag.types import Context, ContextItem

WIDE = ("QX-20 Remote I/O Module — Datasheet", "7. Mechanical Data\nParameter | Value\n"
        "Dimensions (W × H × D) | 45 × 100 × 115 mm\nWeight | 180 g\nMounting | 35 mm DIN rail")
SLIM = ("QX-20L Low-Power Remote I/O Module — Datasheet", "7. Mechanical Data\nParameter | Value\n"
        "Dimensions (W × H × D) | 22.5 × 100 × 115 mm\nWeight | 95 g\nMounting | 35 mm DIN rail")
SLIM_FEATURES = ("QX-20L Low-Power Remote I/O Module — Datasheet", "2. Features\n- 8 digital inputs, 4 digital outputs\n"
                 "- 22.5 mm housing width\n- Wide supply range: 9 VDC to 32 VDC")
NOTE = ("Application Note: Choosing Between QX-20 and QX-20L", "Mounting\nQX-20L modules can be mounted without gaps "
        "at all temperatures; QX-20 modules need 10 mm gaps above 50 °C.\nThe QX-20 and the QX-20L look alike.")


def _answer(question: str, *blocks: tuple[str, str]) -> str:
    items = [ContextItem("chunk", text, 0.5, f"c{n}", f"d{n}", {"path": f"{n}.md", "title": title})
             for n, (title, text) in enumerate(blocks, 1)]
    context = Context(question=question, strategy="test", items=items, tokens=300, budget=2000)
    return generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=300).text  # no model call


def test_a_labelled_size_gives_each_component_and_a_bare_length_gives_none() -> None:
    assert size_components("Dimensions (W × H × D) | 45 × 100 × 115 mm") == {
        "width": "45 mm", "height": "100 mm", "depth": "115 mm"}
    assert size_components("Size (L x W): 68.6 mm x 53.4 mm") == {"length": "68.6 mm", "width": "53.4 mm"}
    assert size_components("LxWxH 10x20x30mm") == {"length": "10 mm", "width": "20 mm", "height": "30 mm"}
    assert size_components("Board size | 45 x 18 mm") == {}  # no components named: which is the width is not known
    assert size_components("Dimensions W × H × L | 29 × 29 × 42 mm | 29 × 29 × 48 mm") == {}  # one per variant
    assert size_components("2 × RS-485, 4 × 1000 µF") == {}
    assert shape_words("QX-20 modules need 10 mm gaps above 50 °C.", set()) == set()
    assert {"dimension", "width", "wide", "height", "depth"} <= shape_words("Board size | 45 x 18 mm", set())
    assert "height" not in shape_words("Size (L x W): 68.6 mm x 53.4 mm", set())  # the label says which places
    assert {"width", "wide", "depth"} <= shape_words("Dimensions (W × H × D) | 45 × 100 × 115 mm", {"dimension"})
    assert shape_words("- 22.5 mm housing width", {"housing", "width"}) == {"width", "wide"}


def test_how_wide_asks_the_width_a_length_and_wide_elsewhere_asks_none() -> None:
    wide = analyse("How wide is the QX-20?")
    assert wide.attributes == {"width"} and wide.dimensions == {"length"}
    assert analyse("How deep is the QX-20L?").attributes == {"depth"}
    assert "wide" in analyse("Does the QX-20 have a wide supply range?").attributes
    assert "length" not in analyse("How much current does the QX-20 draw in deep sleep?").dimensions


def test_a_bare_length_says_no_width_and_no_dimensions() -> None:
    q = analyse("What are the dimensions of the QX-20L?")
    gap, row = (next(u for u in block_units(1, text) if key in u.text) for key, text in
                (("gaps", NOTE[1]), ("Dimensions", SLIM[1])))
    assert attribute_share(q.attributes, q.attributes, gap) == 0.0  # "10 mm gaps" is no size of anything
    assert attribute_share(q.attributes, q.attributes, row) == 1.0
    width = analyse("How wide is the QX-20?")
    assert attribute_share(width.attributes, width.attributes, row) == 1.0  # its W place


def test_a_title_led_by_a_code_names_it_and_a_glued_sibling_is_another_product() -> None:
    assert title_leads("QX-20", WIDE[0]) and not title_leads("QX-20", SLIM[0]) and title_leads("QX-20L", SLIM[0])
    assert not title_leads("Nano", "Nano 33 BLE Sense")  # not a model code
    siblings = sibling_codes(["QX-20"], [WIDE[0], SLIM[0], NOTE[0]])
    assert siblings == ["qx-20l"]
    assert writes_sibling(["QX-20"], siblings, f"{SLIM[0]}\n- 22.5 mm housing width".lower())
    assert not writes_sibling(["QX-20"], siblings, NOTE[1].lower())  # names the asked model too
    assert sibling_codes(["QX-20"], ["QX-20-D order code list"]) == []  # an order code after a hyphen is no sibling


def test_how_wide_is_read_from_the_asked_models_size_not_its_siblings_or_a_gap() -> None:
    text = _answer("How wide is the QX-20?", NOTE, SLIM_FEATURES, SLIM, WIDE)
    assert text.startswith("QX-20 Remote I/O Module — Datasheet: Parameter: Dimensions (W × H × D); Value: 45 × 100 × "
                           "115 mm, so the width is 45 mm [4]")
    deep = _answer("How deep is the QX-20L?", NOTE, WIDE, SLIM)
    assert deep.startswith("QX-20L Low-Power Remote I/O Module — Datasheet: Parameter: Dimensions (W × H × D); Value: "
                           "22.5 × 100 × 115 mm, so the depth is 115 mm [3]")


def test_the_dimensions_are_the_size_row_of_the_model_not_a_gap_sentence() -> None:
    text = _answer("What are the dimensions of the QX-20L?", NOTE, SLIM, WIDE)
    assert text.startswith("QX-20L Low-Power Remote I/O Module — Datasheet: Parameter: Dimensions (W × H × D); Value: "
                           "22.5 × 100 × 115 mm [2]")
    assert "so the" not in text.split("[2]")[0]  # no component asked


def test_how_wide_quotes_a_size_whose_places_are_not_named() -> None:
    sheet = ("GX-50 Gateway — User Manual", "Technical data\nParameter | Value\nDimensions | 45 × 110 × 120 mm\n"
             "Weight | 320 g")
    text = _answer("How wide is the GX-50?", NOTE, sheet)
    assert text.startswith("GX-50 Gateway — User Manual: Parameter: Dimensions; Value: 45 × 110 × 120 mm [2]")
    assert "so the width" not in text  # which place is the width is not written

