"""Unit tests of the pure cleaning functions and the sentence splitter."""

from __future__ import annotations

from kgrag.ingest import split_sentences
from kgrag.ingest.clean import (
    dehyphenate,
    edge_key,
    find_repeated_edge_lines,
    is_link_dominated,
    is_low_information,
    join_lines,
    link_ratio,
    normalize_whitespace,
    reflow,
    strip_markdown_links,
    strip_repeated_edge_lines,
    word_count,
)


def test_normalize_whitespace_collapses_spaces_and_drops_invisible_characters() -> None:
    text = "  Supply\u00a0voltage \t 3.3\u200b V  \r\n\r\n\r\n\r\nnext (cid:12)line\ufeff  "
    assert normalize_whitespace(text) == "Supply voltage 3.3 V\n\nnext line"


def test_trademark_signs_are_dropped_so_names_read_as_written_in_questions() -> None:
    assert normalize_whitespace("Arm® Cortex®-M4 with Syntiant™ NDP120 and © 2024") == \
        "Arm Cortex-M4 with Syntiant NDP120 and © 2024"


def test_join_lines_undoes_hyphenation_and_keeps_real_hyphens() -> None:
    assert join_lines(["the micro-", "controller runs"]) == "the microcontroller runs"
    assert join_lines(["connect to Wi-", "Fi networks"]) == "connect to Wi-Fi networks"
    assert join_lines(["range -0.3 -", "21 V"]) == "range -0.3 - 21 V"
    assert join_lines(["one", "", " two "]) == "one two"


def test_dehyphenate_inside_text() -> None:
    assert dehyphenate("the enclo-\nsure is sealed") == "the enclosure is sealed"
    assert dehyphenate("USB-\nC") == "USB-\nC"


def test_reflow_joins_wrapped_lines_but_keeps_list_items() -> None:
    lines = ["A long sentence that", "wraps here.", "- first item", "- second item", "1. numbered"]
    assert reflow(lines) == "A long sentence that wraps here.\n- first item\n- second item\n1. numbered"


def test_repeated_headers_and_footers_are_found_with_varying_page_numbers() -> None:
    pages = [
        ["Arduino Nano 33 IoT", f"Intro {w}", "body", f"text {w}", f"{n} / 20 Arduino Nano 33 IoT Modified: 18/03/2024"]
        for n, w in enumerate(["one", "two", "three", "four", "five"], start=1)
    ]
    pages[2] = ["Arduino Nano 33 IoT", "Other text", "3 / 20 Arduino Nano 33 IoT Modified: 18/03/2024"]
    drop = find_repeated_edge_lines(pages)
    assert drop[0] == {0, 4}
    assert drop[2] == {0, 2}
    stripped = strip_repeated_edge_lines(pages)
    assert stripped[0] == ["Intro one", "body", "text one"]
    assert edge_key("Page 12 of 40") == edge_key("page 3 of 40")


def test_lines_repeated_on_few_pages_or_in_the_middle_are_kept() -> None:
    pages = [
        ["Header A", "Specs", "a", "b", "c", "Page 1"],
        ["Header B", "Specs", "d", "e", "f", "Page 2"],
        ["Header C", "Other", "g", "Specs", "h", "Page 3"],
        ["Header D", "i", "Specs", "j", "k", "l"],
    ]
    drop = find_repeated_edge_lines(pages)
    assert drop == [{5}, {5}, {5}, set()]  # only "Page #" recurs at an edge on 3 of 4 pages
    assert find_repeated_edge_lines([["only page"]]) == [set()]


def test_links_and_urls() -> None:
    assert strip_markdown_links("see [the datasheet](http://x.io/a.pdf) and ![logo](l.png)") == (
        "see the datasheet and "
    )
    assert is_link_dominated("[Home](/) | [Docs](/docs) | [Store](/store)")
    assert is_link_dominated("https://example.com/a/very/long/path/to/a/page.html")
    assert not is_link_dominated("The sensor datasheet is at https://x.io and covers the I2C registers in detail.")
    assert link_ratio("") == 0.0


def test_low_information_chunks() -> None:
    assert word_count("BMI270 IMU at 3.3 V, 12 bit ADC") == 6
    assert is_low_information("Table 3", 12)
    assert is_low_information(" | ".join(f"{v / 4:.2f} V" for v in range(20)), 12)  # numbers with units
    assert not is_low_information("The board measures pressure and humidity and sends both values over "
                                  "Bluetooth every ten seconds to a phone.", 12)


def test_split_sentences() -> None:
    text = "The BPX-390 measures 260 to 1260 hPa. It runs at 3.3 V. See Fig. 2 for details.\n\nNew paragraph"
    assert split_sentences(text) == [
        "The BPX-390 measures 260 to 1260 hPa.", "It runs at 3.3 V.", "See Fig. 2 for details.", "New paragraph",
    ]
    assert split_sentences("") == []
    assert split_sentences("  \n ") == []


def test_temperatures_are_written_with_the_degree_sign() -> None:
    """"85℃" and "-40ºC" are "85°C" and "-40°C" in indexed text, as most documents write them; "nº 5" stays."""
    assert normalize_whitespace("Operating: -40ºC to 85℃ (185℉), part nº 5") == "Operating: -40°C to 85°C (185°F), part nº 5"
