"""How two variants of one variant table differ: the rows whose two cells differ, each with both cells, the variants
named by their whole names or by the order codes of the table's SKU row, the asked aspects first."""

from __future__ import annotations

from conftest import offline_answer

TABLE = ("The Zephyr Core family has three variants.\n"
         "Name | Zephyr Core | Zephyr Core Lite | Zephyr Core Lite Connected\n"
         "SKU | ZPX00042 | ZPX00045 | ZPX00046\n"
         "Connectivity | Ethernet / Wi-Fi | Ethernet | Ethernet / Wi-Fi\n"
         "Security | QT608 QSE050 | QT608 | QT608\n"
         "Memory | 8 MB SDRAM | 8 MB SDRAM | 8 MB SDRAM\n")


def _answer(question: str) -> tuple[str, str]:
    return offline_answer(question, TABLE, "Zephyr Core", "core.pdf")


def test_two_variants_named_by_their_order_codes_differ_in_the_rows_whose_cells_differ() -> None:
    text, path = _answer("What's the difference between the ZPX00045 and the ZPX00046 Zephyr boards?")
    assert path == "variant table"
    assert "Connectivity: the Zephyr Core Lite: Ethernet; the Zephyr Core Lite Connected: Ethernet / Wi-Fi [1]" in text
    assert "Both have the same Security (QT608), Memory (8 MB SDRAM)" in text


def test_the_asked_aspect_is_the_row_quoted_and_a_shorter_name_inside_a_longer_one_is_not_a_column() -> None:
    text, path = _answer("What's missing on the Zephyr Core Lite compared with the Zephyr Core in terms of security?")
    assert path == "variant table"
    assert "Security: the Zephyr Core Lite: QT608; the Zephyr Core: QT608 QSE050 [1]" in text
    assert "Connectivity:" not in text.split("Both")[0]
