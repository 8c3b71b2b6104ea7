"""Structure-aware chunking: token limits, overlap, section boundaries, tiny-sibling merging."""

from __future__ import annotations

from kgrag.config import ChunkingSettings
from kgrag.ingest.base import Block
from kgrag.ingest.chunking import chunk_blocks, split_long
from kgrag.tokens import count_tokens

SENTENCE = "The sensor board measures barometric pressure with an accuracy of half a hectopascal. "


def _heading(*path: str) -> Block:
    return Block(tuple(path), path[-1], "heading")


def test_long_section_respects_max_tokens_and_overlaps() -> None:
    settings = ChunkingSettings(max_tokens=80, overlap_tokens=20, min_tokens=3)
    text = "".join(f"Sentence number {i} says the sensor reads pressure value {i}. " for i in range(40))
    drafts = chunk_blocks([_heading("Specs"), Block(("Specs",), text, page=2)], settings)
    assert len(drafts) > 3
    for d in drafts:
        assert count_tokens(d.text) <= 80
        assert d.text.startswith("Specs\n")  # the heading line starts every chunk
        assert d.path == ("Specs",) and d.page_start == d.page_end == 2
    for prev, nxt in zip(drafts, drafts[1:], strict=False):
        last_sentence = prev.body.split(". ")[-1].rstrip(".")
        assert last_sentence in nxt.body  # the trailing sentence is repeated as overlap
    # every sentence survives
    joined = " ".join(d.body for d in drafts)
    assert all(f"value {i}." in joined for i in range(40))


def test_no_overlap_when_disabled() -> None:
    settings = ChunkingSettings(max_tokens=60, overlap_tokens=0, min_tokens=3)
    text = "".join(f"Item {i} is a distinct statement about pins. " for i in range(30))
    drafts = chunk_blocks([Block((), text)], settings)
    bodies = [d.body for d in drafts]
    assert sum(b.count("Item ") for b in bodies) == 30


def test_sections_are_not_crossed_unless_tiny_siblings() -> None:
    settings = ChunkingSettings(max_tokens=120, overlap_tokens=10, min_tokens=3)
    long_text = SENTENCE * 6
    blocks = [
        _heading("1 Power"), Block(("1 Power",), long_text, page=1),
        _heading("1 Power", "1.1 Input"), Block(("1 Power", "1.1 Input"), "Input is 5 to 12 volts on the VIN pin.", page=1),
        _heading("1 Power", "1.2 Output"), Block(("1 Power", "1.2 Output"), "Output is 3.3 volts, 500 mA maximum.", page=2),
        _heading("2 Radio"), Block(("2 Radio",), long_text, page=3),
    ]
    drafts = chunk_blocks(blocks, settings)
    paths = [d.path for d in drafts]
    assert ("2 Radio",) in paths and ("1 Power",) in paths
    merged = [d for d in drafts if d.path == ("1 Power",) and len(d.paths) > 1]
    assert len(merged) == 1  # filed under the common parent
    assert merged[0].paths == [("1 Power", "1.1 Input"), ("1 Power", "1.2 Output")]
    assert "1.2 Output\nOutput is 3.3 volts" in merged[0].text
    assert (merged[0].page_start, merged[0].page_end) == (1, 2)
    radio = [d for d in drafts if d.path == ("2 Radio",)]
    assert all("volts" not in d.text for d in radio)  # never mixed with the Power sections


def test_heading_without_content_is_carried_into_the_next_sibling() -> None:
    settings = ChunkingSettings(max_tokens=200, overlap_tokens=0, min_tokens=3)
    blocks = [
        _heading("Features"),
        _heading("Features", "SAMD21G18A"),
        _heading("Features", "Processor"),
        Block(("Features", "Processor"), "256 kB Flash\n32 kB SRAM\nPower On Reset and Brown Out Detection"),
    ]
    (draft,) = chunk_blocks(blocks, settings)
    assert draft.text.startswith("SAMD21G18A\nProcessor\n256 kB Flash")
    assert draft.path == ("Features", "Processor")


def test_a_heading_the_document_repeats_is_written_under_its_parent() -> None:
    settings = ChunkingSettings(max_tokens=200, overlap_tokens=0, min_tokens=3)
    blocks = [_heading("Release notes")]
    for version, fix in (("Version 3.3.0 (10 June 2024)", "Device limit raised from 250 to 500 nodes."),
                         ("Version 3.2.1 (5 March 2024)", "CAN FD sample point corrected to 75 percent.")):
        blocks += [_heading("Release notes", version), _heading("Release notes", version, "Fixes"),
                   Block(("Release notes", version, "Fixes"), fix + " " + SENTENCE * 3)]
    blocks += [_heading("Release notes", "Upgrade path"),
               Block(("Release notes", "Upgrade path"), "Install 3.1.0 first on older gateways. " + SENTENCE * 3)]
    drafts = chunk_blocks(blocks, settings)
    first = next(d for d in drafts if "250 to 500" in d.text)
    assert first.text.startswith("Version 3.3.0 (10 June 2024)\nFixes\nDevice limit")  # which release's fixes
    second = next(d for d in drafts if "75 percent" in d.text)
    assert second.text.startswith("Version 3.2.1 (5 March 2024)\nFixes\n")
    upgrade = next(d for d in drafts if "Install 3.1.0" in d.text)
    assert upgrade.text.startswith("Upgrade path\nInstall")  # a heading said once names its part alone


def test_low_information_chunks_are_dropped() -> None:
    settings = ChunkingSettings(max_tokens=100, overlap_tokens=0, min_tokens=12)
    blocks = [_heading("A"), Block(("A",), "Figure 3"), _heading("B", "C"), Block(("B", "C"), SENTENCE * 2)]
    drafts = chunk_blocks(blocks, settings)
    assert [d.path for d in drafts] == [("B", "C")]


def test_tables_and_code_split_by_lines() -> None:
    settings = ChunkingSettings(max_tokens=60, overlap_tokens=0, min_tokens=3)
    rows = "\n".join(f"Pin {i} | GPIO{i} | Digital input and output" for i in range(30))
    drafts = chunk_blocks([_heading("Pins"), Block(("Pins",), rows, "table")], settings)
    assert len(drafts) > 2
    for d in drafts:
        assert count_tokens(d.text) <= 60
        for line in d.body.split("\n"):
            assert line.startswith("Pin ") and line.endswith("output")  # rows are never cut


def test_giant_words_and_sentences_are_cut() -> None:
    settings = ChunkingSettings(max_tokens=50, overlap_tokens=5, min_tokens=1)
    blob = "x" * 3000
    words = " ".join(f"word{i}" for i in range(400))
    drafts = chunk_blocks([Block((), f"{blob} {words}")], settings)
    assert all(count_tokens(d.text) <= 50 for d in drafts)
    assert sum(len(p) for p in split_long(blob, 40)) == 3000


def test_chunking_is_deterministic() -> None:
    settings = ChunkingSettings(max_tokens=70, overlap_tokens=15, min_tokens=3)
    blocks = [_heading("S"), Block(("S",), SENTENCE * 10)]
    assert [d.text for d in chunk_blocks(blocks, settings)] == [d.text for d in chunk_blocks(blocks, settings)]


def test_a_table_cut_between_chunks_repeats_its_header_row() -> None:
    settings = ChunkingSettings(max_tokens=70, overlap_tokens=0, min_tokens=3)
    header = "Characteristic | QX-10 | QX-10L"
    rows = [f"Parameter {i} value | {i * 3} mA | {i * 2} mA" for i in range(1, 13)]
    drafts = chunk_blocks([_heading("Comparison"), Block(("Comparison",), "\n".join([header, *rows]), "table")],
                          settings)
    assert len(drafts) >= 2
    for d in drafts:
        assert count_tokens(d.text) <= 70
        lines = d.body.splitlines()
        assert lines[0] == header  # every part of the table says which column is which product
        assert lines.count(header) == 1
    assert sum(d.body.count("value |") for d in drafts) == len(rows)  # every row once, nothing lost


def test_a_long_row_is_not_repeated_as_its_last_words() -> None:
    """An alarm list's rows are longer than the overlap: the next chunk starts with the header and a whole row, not
    with "diaphragm damaged. | Return the unit." read as a row of its own."""
    settings = ChunkingSettings(max_tokens=120, overlap_tokens=20, min_tokens=3)
    header = "Code | Name | Cause | Remedy"
    rows = [f"E{i:02d} | Fault {i} | The sensor bridge {i} is open or the diaphragm is damaged. | Return the unit {i}."
            for i in range(1, 13)]
    drafts = chunk_blocks([_heading("Alarms"), Block(("Alarms",), "\n".join([header, *rows]), "table")], settings)
    assert len(drafts) >= 3
    for d in drafts:
        lines = d.body.splitlines()
        assert lines[0] == header
        assert all(line.startswith("E") for line in lines[1:])  # every line a whole row
    assert sum(d.body.count("| Fault ") for d in drafts) == len(rows)


def test_a_table_without_a_header_row_is_not_given_one() -> None:
    settings = ChunkingSettings(max_tokens=60, overlap_tokens=0, min_tokens=3)
    rows = [f"Supply current at {i} V | {i * 3} mA" for i in range(12, 26)]
    drafts = chunk_blocks([Block((), "\n".join(rows), "table")], settings)
    assert len(drafts) >= 2
    assert sum(d.body.splitlines().count(rows[0]) for d in drafts) == 1  # a data row is never repeated
