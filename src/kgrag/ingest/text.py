"""Plain-text loader: paragraphs separated by blank lines, streamed line by line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from kgrag.ingest.base import Block, Parsed
from kgrag.ingest.clean import normalize_whitespace, reflow
from kgrag.ingest.textio import iter_lines

MAX_PARAGRAPH_LINES = 200  # a text without blank lines is still emitted in bounded pieces


def parse_text(path: Path) -> Parsed:
    """Blocks of a plain-text file (no headings: the section path is empty); title = first short line."""
    blocks = list(_blocks(iter_lines(path)))
    first = blocks[0].text.split("\n", 1)[0] if blocks else ""
    title = first if 0 < len(first) <= 80 else ""
    return Parsed(blocks, title=title, meta={"format": "text"})


def _blocks(lines: Iterator[str]) -> Iterator[Block]:
    para: list[str] = []
    for line in lines:
        if line.strip():
            para.append(line)
            if len(para) < MAX_PARAGRAPH_LINES:
                continue
        if para:
            text = normalize_whitespace(reflow(para))
            para = []
            if text:
                yield Block((), text)
    if para:
        text = normalize_whitespace(reflow(para))
        if text:
            yield Block((), text)
