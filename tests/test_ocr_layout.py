"""OCR post-processing without the engine: boxes to rows, cells and tables, font sizes, cuts at word gaps."""

from __future__ import annotations

import numpy as np

from kgrag.ingest.ocr_layout import Box, boxes_to_lines, normalize_sizes
from kgrag.ingest.ocr_split import MAX_RATIO, cut_positions, split_crop


def _box(text: str, x0: float, top: float, width: float, height: float = 12.0) -> Box:
    return Box(text, x0, top, x0 + width, top + height, 0.95)


def test_rows_cells_tables_and_reading_order() -> None:
    boxes = [
        _box("Speed", 300, 101, 40), _box("Port", 60, 100, 30), _box("Connector", 160, 99, 60),  # shuffled
        _box("Ethernet", 60, 130, 50), _box("RJ45", 160, 131, 30), _box("100 Mbit/s", 300, 129, 60),
        _box("The gateway restarts", 60, 170, 130), _box("after an update.", 195, 171, 100),  # one line, 2 boxes
        _box("Overview", 60, 40, 90, 20),
    ]
    lines = boxes_to_lines(boxes, page=3)
    assert [(ln.kind, ln.text) for ln in lines] == [
        ("text", "Overview"),
        ("table", "Port | Connector | Speed"),
        ("table", "Ethernet | RJ45 | 100 Mbit/s"),
        ("text", "The gateway restarts after an update."),
    ]
    assert all(ln.page == 3 for ln in lines)


def test_a_lone_row_with_a_gap_is_text_not_a_table() -> None:
    lines = boxes_to_lines([_box("LoRa LED", 60, 100, 50), _box("ON - LoRa is working", 200, 100, 120)], page=1)
    assert [(ln.kind, ln.text) for ln in lines] == [("text", "LoRa LED ON - LoRa is working")]


def test_sizes_map_to_the_body_size_and_headings_stay_taller() -> None:
    rows = [_box("Power Supply", 60, 10, 120, 24)] + [
        _box(f"body line {i} with enough words to dominate the page", 60, 40 + 16 * i, 300, 12 + (i % 2))
        for i in range(8)]
    lines = boxes_to_lines(rows, page=1)
    normalize_sizes(lines, body=10.0)
    assert lines[0].size > 15 and {ln.size for ln in lines[1:]} == {10.0}


def _line_crop(words: list[int], height: int = 30, letter: int = 14, letter_gap: int = 3, word_gap: int = 9) -> np.ndarray:
    """A white crop with dark 'letters' (columns of ink), `words[i]` letters per word."""
    columns: list[int] = [0] * 10
    for n in words:
        for _ in range(n):
            columns += [1] * letter + [0] * letter_gap
        columns += [0] * word_gap
    columns += [0] * 10
    crop = np.full((height, len(columns), 3), 255, dtype=np.uint8)
    crop[5:25, np.asarray(columns, dtype=bool)] = 0
    return crop


def test_long_lines_are_cut_at_word_gaps_only() -> None:
    crop = _line_crop([5, 3, 7, 4, 6, 2, 8, 5, 3, 6])
    cuts = cut_positions(crop)
    assert cuts
    blank = ~(crop[:, :, 0] < 128).any(axis=0)
    for cut in cuts:  # each cut lies in a gap wider than a letter gap
        left = right = cut
        while blank[left - 1]:
            left -= 1
        while blank[right + 1]:
            right += 1
        assert right - left + 1 > 3 + 1
    pieces = split_crop(crop)
    assert sum(p.shape[1] for p in pieces) == crop.shape[1]
    assert all(p.shape[1] <= MAX_RATIO * crop.shape[0] * 1.5 for p in pieces)


def test_short_lines_and_unbroken_tokens_are_not_cut() -> None:
    assert cut_positions(_line_crop([4, 3])) == []
    assert cut_positions(_line_crop([40])) == []  # one long token (e.g. EU433/CN470/...) has no word gap
