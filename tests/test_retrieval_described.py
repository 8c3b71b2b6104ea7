"""A product the question writes by its chip ("the R7QA6M5BH2CBG-based Zephyr board"): a part number of more than
eight name tokens links exactly, and the one product of the named family that has the part is what is asked about."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.test_retrieval_scoping import graph_index, linked

from kgrag.index import Index

SHEETS = {
    "Zephyr Core C40": "# Zephyr Core C40\n\nThe Zephyr Core C40 is based on the R7QA6M5BH2CBG microcontroller.\n\n"
                       "## Ethernet\n\nThe Zephyr Core C40 uses the LAN8742AI Ethernet PHY transceiver, which supports "
                       "10/100 Mbps.\n",
    "Zephyr Core H9": "# Zephyr Core H9\n\nThe Zephyr Core H9 is based on the STQ32H747XI microcontroller.\n\n"
                      "## Ethernet\n\nThe Zephyr Core H9 uses the KSZ8081RNB Ethernet PHY transceiver.\n",
}


@pytest.fixture(scope="module")
def core_index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return graph_index(Path(tmp_path_factory.mktemp("cores")), "Zephyr Family", SHEETS)


def test_a_long_part_number_links_exactly(core_index: Index) -> None:
    assert ("R7QA6M5BH2CBG", "exact") in linked(core_index, "Which board uses the R7QA6M5BH2CBG?")


def test_a_product_written_by_its_chip_is_the_one_that_has_it(core_index: Index) -> None:
    question = "What Ethernet PHY sits on the R7QA6M5BH2CBG-based Zephyr board?"
    context = core_index.search(question, strategy="kg-facts", budget=600)
    assert context.info.get("bridge") == "Zephyr Core C40"
    assert {"name": "Zephyr Core C40", "type": "Product", "match": "described"} in context.info["linked"]
    assert context.text().index("LAN8742AI") < context.text().find("KSZ8081RNB") or "KSZ8081RNB" not in context.text()
    plain = core_index.search("What Ethernet PHY sits on the Zephyr board?", strategy="kg-facts", budget=600)
    assert "bridge" not in plain.info  # no chip written: no product picked
