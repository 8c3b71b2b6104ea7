"""Evidence packing (`retrieve/unit_pack.py`): whole top chunks, then the question's sentences/rows of the rest."""

from __future__ import annotations

from kgrag.retrieve.unit_pack import pack_evidence, split_whole
from kgrag.tokens import count_tokens
from kgrag.types import ContextItem

FILLER = " ".join(f"The enclosure note {i} describes mounting holes and label placement." for i in range(12))


def item(text: str, cid: str, product: str = "", section: str = "") -> ContextItem:
    return ContextItem(kind="chunk", text=text, chunk_id=cid, item_id=cid, tokens=count_tokens(text),
                       source={"product": product, "section": section})


def test_split_whole_keeps_the_leading_items_that_fit() -> None:
    items = [item("alpha " * 30, "a"), item("beta " * 30, "b"), item("gamma " * 5, "c")]
    whole, rest = split_whole(items, count_tokens("alpha " * 30) * 2 + 1)
    assert [i.chunk_id for i in whole] == ["a", "b"]
    assert [i.chunk_id for i in rest] == ["c"]


def test_excerpts_carry_the_asked_row_and_sentence_with_their_headers() -> None:
    top = item("Overview\nThe QX board is a small controller for sensing projects.", "top", "QX Board", "1 Overview")
    table = item("Barometer\nParameter | Min | Max\nPressure range | 260 | 1260 hPa\nSupply voltage | 1.7 | 3.6 V\n\n"
                 + FILLER, "tbl", "QX Board", "2.4 Barometer")
    prose = item(FILLER + " The barometer samples pressure at up to 75 Hz in continuous mode. " + FILLER,
                 "prose", "QX Board", "2.5 Output rate")
    budget = count_tokens(top.text) + 80
    out = pack_evidence("What is the pressure range and sampling rate of the QX barometer?", [top, table, prose],
                        budget, whole_share=0.3)
    assert out[0] is top  # the best-ranked chunk stays whole
    text = "\n".join(i.text for i in out)
    assert "Pressure range | 260 | 1260 hPa" in text and "Parameter | Min | Max" in text  # the row keeps its header
    assert "75 Hz" in text
    assert "mounting holes" not in text  # the filler around the answers is left out
    excerpts = [i for i in out[1:]]
    assert all(i.source.get("excerpt") and i.chunk_id in ("tbl", "prose") for i in excerpts)
    assert any(i.text.startswith("QX Board > 2.4 Barometer") for i in excerpts)  # where the excerpt comes from
    assert sum(count_tokens(i.text) for i in out) <= budget


def test_whole_share_one_changes_nothing() -> None:
    items = [item("alpha " * 30, "a"), item("beta " * 30, "b")]
    assert pack_evidence("alpha?", items, 1000, whole_share=1.0) == items
