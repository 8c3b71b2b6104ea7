"""Context hygiene (`retrieve/compact.py`): repeated, table-of-contents and foreign-script lines; near-copies."""

from __future__ import annotations

from kgrag.retrieve.compact import compact_items, novel_items
from kgrag.types import ContextItem

BODY = "The QX210 barometer measures absolute pressure from 260 to 1260 hPa with 24-bit output over I2C."


def item(text: str, product: str = "", section: str = "") -> ContextItem:
    return ContextItem(kind="chunk", text=text, chunk_id=text[:8], source={"product": product, "section": section})


def test_repeated_toc_and_foreign_lines_are_dropped() -> None:
    first = item(f"2.4 Barometer\n{BODY}")
    second = item("2.4 Barometer\n1.1 Module, 1 = 6. 1.2 Sensor, 1 = 6. 1.3 Pressure, 1 = 7.\n功能概述 电路板拓扑结构\n"
                  "The HS300 sensor measures relative humidity from 0 to 100 %RH with fast response.")
    out = list(compact_items([first, second], "What does the barometer measure?"))
    assert out[0].text == first.text
    assert out[1].text == "The HS300 sensor measures relative humidity from 0 to 100 %RH with fast response."
    assert out[1].source["compacted"] and out[1].chunk_id == second.chunk_id


def test_a_repeated_table_header_stays_with_its_rows() -> None:
    """Every datasheet's operating-conditions table opens with "Symbol | Description | Min | Typ | Max | Unit": a
    second table keeps it, or its first row would read as its header; other repeated rows and lines still go."""
    header = "Symbol | Description | Min | Typ | Max | Unit"
    first = item(f"Ratings\n{header}\nV IN | Input voltage | 6 | 7.0 | 32 | V\nT OP | Operating temperature | -20 | 25 | 70 | °C")
    second = item(f"Ratings\n{header}\nV IN | Input voltage | 6 | 7.0 | 32 | V\nT OP | Operating temperature | -40 | 25 | 85 | °C")
    out = list(compact_items([first, second], "What is the operating temperature?"))
    assert out[1].text == f"{header}\nT OP | Operating temperature | -40 | 25 | 85 | °C"
    third = item(f"Notes on the ratings of the board and how they were measured\n{header}\nT OP | Operating temperature | -40 | 25 | 85 | °C")
    assert header not in list(compact_items([second, third], "What is the operating temperature?"))[1].text  # no row left


def test_near_copies_are_skipped_and_leave_one_note_for_one_other_product() -> None:
    kept = novel_items([item(BODY, "Mini Rev2", "2.4 Barometer"), item(BODY + " Typical.", "Mini", "2.3 Barometer"),
                        item("Power is supplied over USB-C at 5 V.", "Mini Rev2")], 0.6, 1000)
    assert len(kept) == 2
    assert kept[0].text.endswith("(also in Mini, 2.3 Barometer)")
    boiler = novel_items([item(BODY, "A"), item(BODY, "B"), item(BODY, "C")], 0.6, 1000)
    assert boiler[0].text == BODY  # shared by three products: boilerplate, no note



def test_the_products_a_question_names_together_keep_their_own_version_of_a_shared_passage() -> None:
    every = item("NOTE: the Zephyr Mini is 5V compatible so it is a drop in replacement for the old board.", "Zephyr Mini")
    iot = item("NOTE: the Zephyr Mini IoT is NOT 5V tolerant so it is no drop in replacement for the old board.",
               "Zephyr Mini IoT")
    assert len(novel_items([every, iot], 0.6, 1000)) == 1  # a copy of a sibling's passage, as a rule
    kept = novel_items([every, iot], 0.6, 1000, distinct=["Zephyr Mini", "Zephyr Mini IoT"])
    assert [k.source["product"] for k in kept] == ["Zephyr Mini", "Zephyr Mini IoT"]  # "the Mini or the Mini IoT?"
    other = item("NOTE: the Zephyr Nano is 5V compatible so it is a drop in replacement for the old board.", "Zephyr Nano")
    assert len(novel_items([every, other], 0.6, 1000, distinct=["Zephyr Mini", "Zephyr Mini IoT"])) == 1  # not named


def test_a_siblings_section_with_other_values_is_no_copy() -> None:
    """Sibling datasheets repeat their "Mechanical Data" word for word but for the numbers: the second product's
    values are its own facts, kept when the question names it, and the first is never noted as "also in" the second
    (it would borrow its values)."""
    wide = item("7. Mechanical Data\nParameter | Value\nDimensions (W × H × D) | 45 × 100 × 115 mm\nWeight | 180 g\n"
                "Mounting | 35 mm DIN rail (EN 60715)", "QX-20", "7. Mechanical Data")
    slim = item("7. Mechanical Data\nParameter | Value\nDimensions (W × H × D) | 22.5 × 100 × 115 mm\nWeight | 95 g\n"
                "Mounting | 35 mm DIN rail (EN 60715)", "QX-20L", "7. Mechanical Data")
    kept = novel_items([slim, wide], 0.6, 1000, question="How wide is the QX-20?")
    assert [k.source["product"] for k in kept] == ["QX-20L", "QX-20"]
    assert "also in" not in kept[0].text
    kept = novel_items([slim, wide], 0.6, 1000, question="How wide is the QX-20L?")  # the sibling's: not asked
    assert [k.source["product"] for k in kept] == ["QX-20L"] and "also in" not in kept[0].text
    same = item(slim.text, "QX-20S", "7. Mechanical Data")  # the same numbers: a copy still, with its note
    kept = novel_items([slim, same], 0.6, 1000)
    assert len(kept) == 1 and kept[0].text.endswith("(also in QX-20S, 7. Mechanical Data)")


    import numpy as np

    from kgrag.retrieve.diversity import mmr_order

    ranked = [("a", 1.0), ("a-copy", 0.95), ("b", 0.9), ("c", 0.1)]
    vectors = np.array([[1, 0, 0], [0.999, 0.045, 0], [0, 1, 0], [0, 0, 1]], dtype=np.float32)
    assert [c for c, _ in mmr_order(ranked, vectors, 0.6)] == ["a", "b", "a-copy", "c"]
    assert mmr_order(ranked, vectors, 1.0) == ranked  # weight 1: relevance only, order kept
    assert dict(mmr_order(ranked, vectors, 0.6)) == dict(ranked)  # scores are kept, only the order changes
