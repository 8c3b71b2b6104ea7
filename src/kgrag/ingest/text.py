"""Plain-text loader: paragraphs separated by blank lines or ruled lines, streamed line by line; a one-line
paragraph that reads as a manual's heading ("3.2  Mounting position", "TROUBLESHOOTING") starts a section, and a
paragraph whose lines are cells joined by "|" is a table, one row per line."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from pathlib import Path

from kgrag.ingest.base import Block, HeadingStack, Parsed
from kgrag.ingest.clean import normalize_whitespace, reflow
from kgrag.ingest.textio import iter_lines

MAX_PARAGRAPH_LINES = 200  # a text without blank lines is still emitted in bounded pieces
MAX_HEADING_CHARS = 80
MAX_HEADING_WORDS = 10
TITLE_SCAN_LINES = 40  # the first paragraph is looked for this far
TITLE_LINES = 4  # its lines that may hold the title (a maker's name, the title, a document number, a date)
MAX_TITLE_CHARS = 120
# A line of one repeated mark ("=====", "-----") is a drawn rule: it ends a paragraph and is no content.
_RULE = re.compile(r"^\s*([-=*_~#+])\1{4,}\s*$")
# "----  --------  -----" under a plain-text table's header: dropped, the table stays one paragraph.
_COLUMN_RULE = re.compile(r"^\s*[-=]{2,}(\s+[-=]{2,})+\s*$")
# "3.2  Mounting position", "4 MOUNTING", "7.1. Fault table": up to four levels of one- or two-digit numbers.
_NUMBERED = re.compile(r"^\s{0,3}(\d{1,2}(?:\.\d{1,2}){0,3})(\.?)(\s+)(\S.*?)\s*$")
# "E3 - SPI clock glitch at 48 MHz", "A2: Suction alarm": a record of an errata sheet or an alarm list, led by its code
_CODE_TITLE = re.compile(r"^[A-Z]{1,4}-?\d{1,4}[A-Za-z]?(?:\s*:|\s+[-–—])\s+[A-Z]")
RECORD_LEVEL = 5  # below any numbered section: a record heading closes only the record before it
_WORD_OF_FOUR = re.compile(r"[^\W\d_]{4,}")  # a heading has a real word: "24 VDC" or "10 mA" is a value
# The kinds of document a title line names ("User Manual", "Firmware Release Notes", "TECHNICAL SUPPORT LOG" …).
DOCUMENT_KIND = re.compile(
    r"(?i)\b(?:data\s?sheets?|spec(?:ification)?\s+sheets?|manuals?|handbooks?|guides?|release\s+notes?|"
    r"change\s?logs?|(?:application|app|technical)\s+notes?|white\s?papers?|product\s+briefs?|brochures?|"
    r"catalogu?es?|frequently\s+asked\s+questions|faqs?|logs?|instructions|tutorials?|errata|quick\s?start|"
    r"references?|declarations?|certificates?|bulletins?|notices?|polic(?:y|ies)|summary)\b")
# kinds of document that a question or another format's title names besides those a text title line names
MORE_DOCUMENT_KINDS = re.compile(r"(?i)\b(?:specifications?|training|decks?|slides?|presentations?|exports?|threads?|"
                                 r"e-?mails?|forums?|knowledge\s+base|spreadsheets?|workbooks?|price\s+lists?)\b")
_CELL_SEPARATOR = re.compile(r"\s*\|\s*")
_DASHES = re.compile(r"^:?-{2,}:?$")
_ADMONITIONS = {"NOTE", "NOTES", "WARNING", "CAUTION", "DANGER", "IMPORTANT", "TIP", "ATTENTION", "NOTICE", "HINT"}


def parse_text(path: Path) -> Parsed:
    """Blocks of a plain-text file, sections from its headings, its title from the first paragraph."""
    lines = iter_lines(path)
    head = list(islice(lines, TITLE_SCAN_LINES))  # read once: the title's lines are the blocks' first lines
    blocks = list(text_blocks(chain(head, lines)))
    return Parsed(blocks, title=text_title(head), meta={"format": "text"})


def text_title(lines: list[str]) -> str:
    """A plain-text document's title: the line of its first paragraph that names a document kind ("KX-220 Remote
    I/O Modules - User Manual" under the maker's name), else that paragraph when it is one short line."""
    first: list[str] = []
    for line in lines:
        if line.strip() and not _RULE.match(line):
            first.append(normalize_whitespace(line))
        elif first:
            break
    titled = [line for line in first[:TITLE_LINES] if len(line) <= MAX_TITLE_CHARS and line[-1] not in ".,;:"
              and DOCUMENT_KIND.search(line)]
    if titled:
        return titled[0]
    return first[0] if len(first) == 1 and len(first[0]) <= MAX_HEADING_CHARS else ""


def heading_level(line: str) -> int:
    """The section level of a one-line paragraph read as a heading, 0 for text.

    Numbered headings take their depth from the number ("3.2 Mounting" → 2); a single number needs an
    all-capital title, no dot or a wide gap ("3  Installation"), since "1. Remove the cover" is a step.
    Unnumbered: an all-capital line of a few words ("SAFETY INSTRUCTIONS") → 1, but not "WARNING"; a record's
    code-led title ("E3 - SPI clock glitch at 48 MHz") → RECORD_LEVEL.
    """
    text = line.strip()
    if not text or len(text) > MAX_HEADING_CHARS or text[-1] in ".,;:!?" or not _WORD_OF_FOUR.search(text):
        return 0
    if _CODE_TITLE.match(text) and len(text.split()) <= MAX_HEADING_WORDS + 2:
        return RECORD_LEVEL
    numbered = _NUMBERED.match(line)
    if numbered:
        number, dot, gap, title = numbered.groups()
        if len(title.split()) > MAX_HEADING_WORDS or not title[0].isupper():
            return 0
        depth = number.count(".") + 1
        if depth == 1 and dot and len(gap) < 2 and not title.isupper():
            return 0
        return depth
    words = text.split()
    if text.isupper() and len(words) <= MAX_HEADING_WORDS and words[0].strip(":-") not in _ADMONITIONS:
        return 1
    return 0


def table_rows(lines: list[str]) -> list[str] | None:
    """The rows of a paragraph written as a pipe table ("E3 | SPI clock glitch | A, B, C | not fixed"), each
    row's cells joined by " | "; None unless every line has the same number (2+) of cells. Reflowed, such a
    table became one line of all its cells."""
    rows = [_CELL_SEPARATOR.split(line.strip().strip("|")) for line in lines]
    rows = [r for r in rows if not all(_DASHES.match(c) for c in r)]  # "|---|---|" under the header
    widths = {len(r) for r in rows}
    if len(rows) < 2 or len(widths) != 1 or widths.pop() < 2:
        return None
    return [" | ".join(normalize_whitespace(c) for c in r) for r in rows]


def text_blocks(lines: Iterable[str]) -> Iterator[Block]:
    """Paragraph blocks under a heading stack; a paragraph ends at a blank line, a rule or the size bound."""
    stack = HeadingStack()
    para: list[str] = []

    def emit() -> Iterator[Block]:
        if len(para) == 1 and (level := heading_level(para[0])):
            heading = normalize_whitespace(para[0])
            stack.push(level, heading)
            yield Block(stack.path(), heading, "heading")
        elif (rows := table_rows(para)) is not None:
            yield Block(stack.path(), "\n".join(rows), "table")
        else:
            text = normalize_whitespace(reflow(para))
            if text:
                yield Block(stack.path(), text)
        para.clear()

    for line in lines:
        if _COLUMN_RULE.match(line):
            continue
        if line.strip() and not _RULE.match(line):
            para.append(line)
            if len(para) < MAX_PARAGRAPH_LINES:
                continue
        if para:
            yield from emit()
    if para:
        yield from emit()
