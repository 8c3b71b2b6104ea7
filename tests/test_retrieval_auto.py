"""The default `auto` strategy: kg-facts for product documentation, fused for other text once its tri-graph exists."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import add_text_chunks

from kgrag.config import Settings
from kgrag.graph.keyword_graph import ensure_keyword_graph
from kgrag.graph.trigraph import ensure_trigraph
from kgrag.index import Index
from kgrag.retrieve.strategies.auto import choose_strategy

BOARD = """# Zephyr Mini

User Manual SKU: ZPH00031

The Zephyr Mini is based on the QRF52832 microcontroller and carries the QX100 barometer.

| Parameter | Value |
|---|---|
| Pressure range | 300 to 1100 hPa |
"""

PROSE = [
    "Alpha Corp was founded by Bob Smith in Oldtown. The company makes widgets.",
    "Bob Smith was born in Zedtown. He studied engineering at Northfield College.",
    "Zedtown lies on the Gray River. It has a small harbour.",
]


def test_auto_is_the_default_strategy() -> None:
    assert Settings().retrieval.strategy == "auto"


def test_product_documentation_is_answered_by_kg_facts(empty_index: Index, tmp_path: Path) -> None:
    folder = tmp_path / "docs" / "Zephyr Boards" / "Zephyr Mini"
    folder.mkdir(parents=True)
    (folder / "zephyr-mini.md").write_text(BOARD, encoding="utf-8")
    empty_index.add([tmp_path / "docs"])
    name, reason = choose_strategy(empty_index)
    assert name == "kg-facts" and "product documentation" in reason
    context = empty_index.search("What is the pressure range of the Zephyr Mini?")
    assert context.strategy == "kg-facts" and context.info["auto"].startswith("kg-facts: ")
    assert context.items


def test_spec_tables_in_a_flat_folder_are_answered_by_kg_facts(empty_index: Index, tmp_path: Path) -> None:
    """No folder or front matter names a product, but the chunks hold spec tables: technical documentation,
    not prose, so `kg-facts` (whole passages, tables kept with their header) rather than `fused`."""
    folder = tmp_path / "flat"
    folder.mkdir()
    (folder / "zephyr-mini.md").write_text(BOARD, encoding="utf-8")
    (folder / "notes.md").write_text("# Notes\n\nThe Zephyr Mini ships in a box of ten.\n", encoding="utf-8")
    empty_index.add([folder])
    ensure_keyword_graph(empty_index)
    ensure_trigraph(empty_index)
    name, reason = choose_strategy(empty_index)
    assert name == "kg-facts" and "technical documentation" in reason and "hold table rows" in reason


def test_prose_gets_hybrid_until_the_trigraph_is_built_then_fused(empty_index: Index) -> None:
    add_text_chunks(empty_index, PROSE)
    assert choose_strategy(empty_index)[0] == "hybrid"
    assert empty_index.search("Where was the founder of Alpha Corp born?").strategy == "hybrid"
    ensure_keyword_graph(empty_index)
    ensure_trigraph(empty_index)
    assert choose_strategy(empty_index)[0] == "fused"  # re-chosen: the tri-graph stage changed the index
    context = empty_index.search("Where was the founder of Alpha Corp born?", budget=500)
    assert context.strategy == "fused" and "text without product structure" in context.info["auto"]
    assert {it.chunk_id for it in context.items} >= {"c0", "c1"}
