"""Order codes the graph holds no alias for link to the product the documents list them after ("Zephyr Core H9 Lite
(SKU: ZPX00045)" in another datasheet's related products); a listing whose last words name no product links none."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.test_retrieval_scoping import graph_index, linked

from kgrag.index import Index

SHEETS = {
    "Zephyr Core H9": "# Zephyr Core H9\n\nThe Zephyr Core H9 is the full board: it adds a Wi-Fi and Bluetooth radio "
                      "and a secure element.\n",
    "Zephyr Core H9 Lite": "# Zephyr Core H9 Lite\n\nThe Zephyr Core H9 Lite has an Ethernet PHY and no radio.\n",
    "Zephyr Hub": "# Zephyr Hub\n\nUser Manual SKU: ZPX00070\n\nThe Zephyr Hub carries one Zephyr Core board.\n\n## Related Products\n\n"
                  "- Zephyr Core H9 (SKU: ZPX00042)\n- Zephyr Core H9 Lite (SKU: ZPX00045)\n"
                  "- Zephyr Core H9 Lite EMR (SKU: ZPX00099)\n",
}


@pytest.fixture(scope="module")
def listed_index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return graph_index(Path(tmp_path_factory.mktemp("listed")), "Zephyr Family", SHEETS)


def test_an_order_code_links_the_product_a_listing_writes_right_before_it(listed_index: Index) -> None:
    assert ("Zephyr Core H9 Lite", "code") in linked(listed_index, "Does the ZPX00045 have a radio?")
    assert ("Zephyr Core H9", "code") in linked(listed_index, "Does the ZPX00042 have a radio?")


def test_a_listing_whose_last_words_name_no_product_links_none(listed_index: Index) -> None:
    assert not [name for name, match in linked(listed_index, "Does the ZPX00099 have a radio?") if match == "code"]
