"""Context blocks cut into selectable units: sentences, table rows (with their header row) and fact lines.

A unit keeps what it needs to make sense on its own: the table header of a row, the heading line of its
paragraph (in datasheet feature lists the component name is the first line, the values follow), and its
neighbours in the paragraph, so a selected sentence can travel with the sentence before and after it.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from kgrag.answering.values import dimension_of_unit, has_value
from kgrag.graph.datasheet.lines import serialized_table
from kgrag.ingest.sentences import split_sentences
from kgrag.ingest.table_header import LOOKAHEAD, header_like
from kgrag.tokens import count_tokens

_PARAGRAPH = re.compile(r"\n\s*\n")
_CITE_TAIL = re.compile(r"\s*\[(\d+)\]\s*$")
MAX_HEADING_WORDS = 10
MAX_LEAD_WORDS = 60  # a paragraph ending "…:" that leads a list
MAX_SPEC_WORDS = 16  # a list line stating a value ("-10 °C to 125 °C Vdd 3.1 V to 5.5 V")
MAX_CELL_LABEL_WORDS = 3  # a line between two rows that does not end their table ("Preview")
# A column of labels a figure or list refers to ("Item | Feature": "3A" is item 3A, not 3 amperes).
LABEL_COLUMN = re.compile(r"^(?:item|ref\.?|reference|no\.?|#|pos\.?|position|label|designator|callout)$", re.IGNORECASE)
# "TEMPERATURE [°C]", "Current (mA)", "Lead time (working days)"
BRACKET_UNIT = re.compile(r"[\[(]\s*(?:(?:working|business|calendar)\s+)?([^\])]{1,6}?)\s*[\])]")
# a fact group's first line: "nRF52832 (Microcontroller)", "SX1302 (Component, in WisGate Edge Lite 2)"
FACT_SUBJECT = re.compile(r"^(?P<name>[^|]+?) \((?P<type>[A-Za-z]+)(?:, in (?P<owner>[^|()]+))?\)$")
_NUMERIC = re.compile(r"[-+±~<>≤≥]?\s?\d+(?:[.,]\d+)?(?:\s?(?:to|-|–|/|~)\s?[-+]?\d+(?:[.,]\d+)?)?")
_EMPTY_AFTER = re.compile(r"\s+[-–—]$")  # "0.46 -": a number and the dash of an empty column merged into its cell


def unit_column(head: str) -> bool:
    """A table header cell naming the column that holds each row's unit ("... | Max | Unit")."""
    return head.strip().lower() in ("unit", "units")


def with_unit(cell: str, unit: str) -> str | None:
    """A number cell with its unit ("800" -> "800 mA"; "0.46 -", merged with an empty column's dash, -> "0.46 mA"), or
    None for a cell that is not a number."""
    number = _EMPTY_AFTER.sub("", cell)
    return f"{number} {unit}" if _NUMERIC.fullmatch(number) else None


@dataclass
class Unit:
    """One sentence, table row or fact line of block `block` (the block's number n), at position `pos`."""

    block: int
    pos: int
    text: str
    kind: str = "sentence"  # sentence | row | heading
    header: str = ""  # the table's header row, for rows
    heading: str = ""  # first line of the paragraph when it reads as a title
    paragraph: int = 0
    tokens: int = 0
    line: int = 0  # sentences of one source line are shown joined; list lines stay apart
    source: int = 0  # a fact line's own source block ("attribute | value [n]"), cited instead of its block

    def cited(self) -> int:
        """The block number an answer quoting this unit cites."""
        return self.source or self.block

    def scoped(self) -> str:
        """The unit with its heading and header, as scored and embedded."""
        return " ".join(x for x in (self.heading, self.header, self.text) if x)

    def labelled_value(self) -> bool:
        """A value line under a heading: a datasheet feature list's "2.4 GHz, 13 channels" under "Wi-Fi"."""
        return self.kind == "sentence" and bool(self.heading) and has_value(self.text)

    def value_text(self) -> str:
        """The text whose values count: a row's numbers get the unit of their column or of its unit cell; the cells stay
        apart, so a cell's last number never takes the next cell's first word as its unit ("1,3,5,7,9 | V BAT" is no
        9 V)."""
        if self.kind != "row":
            return self.text
        cells = [c.strip() for c in self.text.split("|")]
        heads = [h.strip() for h in self.header.split("|")] if self.header else []
        unit_cells = [c for c in cells if c and dimension_of_unit(c)]
        out = []
        aligned = len(heads) == len(cells)
        for i, cell in enumerate(cells):
            if cell in unit_cells or (aligned and LABEL_COLUMN.match(heads[i])):
                continue
            column = BRACKET_UNIT.search(heads[i]) if aligned else None
            unit = column.group(1) if column else (unit_cells[0] if unit_cells else "")
            out.append((with_unit(cell, unit) or cell) if unit else cell)
        return " | ".join(out)

    def display(self) -> str:
        """The unit as an answer quote: a row as "Header: cell; ..." pairs, a sentence as is."""
        if self.kind == "row" and self.header:
            heads = [h.strip() for h in self.header.split("|")]
            cells = [c.strip() for c in self.text.split("|")]
            if len(heads) == len(cells):
                unit_col = next((i for i, h in enumerate(heads) if unit_column(h) and cells[i]), -1)
                measured = [None if BRACKET_UNIT.search(h) else with_unit(c, cells[unit_col])  # "Flow (L/min)"
                            for h, c in zip(heads, cells, strict=True)] if unit_col >= 0 else []  # has its own
                if any(measured):  # "Max: 800; Unit: mA" reads "Max: 800 mA"
                    cells = [m or c for m, c in zip(measured, cells, strict=True)]
                    del heads[unit_col], cells[unit_col]
                return "; ".join(f"{h}: {c}" if h and h != c else c for h, c in zip(heads, cells, strict=True) if c)
        if self.kind == "row":
            cells = _with_units([c.strip() for c in self.text.split("|") if c.strip()])
            return ": ".join(cells[:1] + ["; ".join(cells[1:])]) if len(cells) > 1 else " ".join(cells)
        return self.text


def _with_units(cells: list[str]) -> list[str]:
    """Row cells with a unit cell joined to the number before it: "current | 105 | mA" reads "105 mA"."""
    out: list[str] = []
    for cell in cells:
        measured = with_unit(out[-1], cell) if out and len(out) > 1 and dimension_of_unit(cell) else None
        if measured:
            out[-1] = measured
        else:
            out.append(cell)
    return out


_OPEN_END = re.compile(r"\b(?:the|a|an|of|by|to|with|for|and|or|in|on|from|at|as|via|is|are)$")  # no sentence ends so


def _rejoined(lines: list[str]) -> list[str]:
    """Prose lines a page or column break cut mid-sentence ("… driven by the" / "STM32F405RGT6 controller (U15).")
    joined again, so the sentence and the part it names stay one unit."""
    out: list[str] = []
    for line in lines:
        if out and _OPEN_END.search(out[-1]) and not is_row(out[-1]) and not is_row(line):
            out[-1] = f"{out[-1]} {line}"
        else:
            out.append(line)
    return out


def is_row(line: str) -> bool:
    return line.count("|") >= 1 and len([c for c in line.split("|") if c.strip()]) >= 2


def _is_heading(line: str) -> bool:
    words = line.split()
    return 0 < len(words) <= MAX_HEADING_WORDS and not line.rstrip().endswith((".", ":", ";", ",")) and not has_value(line)


def _is_lead_in(line: str) -> bool:
    """A sentence that introduces what follows ("The table below lists …", "Below is a summary of …:"), or a short
    paragraph whose last sentence does ("The sensor is the TMP236A2DBZR … Here you can see its main characteristics:")."""
    if is_row(line) or has_value(line):
        return False
    return (line.rstrip().endswith((".", ":")) and len(line.split()) <= 30
            or line.rstrip().endswith(":") and len(line.split()) <= MAX_LEAD_WORDS)


def _is_spec_line(line: str) -> bool:
    """A short line stating a value ("400 mV at 0 °C", "Vdd 3.1 V to 5.5 V"): a list item, like a table row."""
    return not is_row(line) and len(line.split()) <= MAX_SPEC_WORDS and has_value(line)


def _inside_table(lines: list[str], i: int) -> bool:
    """A short label line between two rows of as many cells, three or more ("Preview", an image cell a PDF converter
    writes on a line of its own): the table goes on, and the rows after it keep the header that names their columns
    (a two-cell "Parameter | Value" header names nothing a row lacks)."""
    line = lines[i]
    if not 0 < i < len(lines) - 1 or len(line.split()) > MAX_CELL_LABEL_WORDS or any(c.isdigit() for c in line):
        return False
    before, after = lines[i - 1], lines[i + 1]
    return is_row(before) and is_row(after) and before.count("|") == after.count("|") >= 2


def block_units(n: int, text: str) -> list[Unit]:
    """Units of one block's text, in reading order."""
    units: list[Unit] = []
    heading = lead = ""
    for p, paragraph in enumerate(_PARAGRAPH.split(text)):
        sources: dict[str, int] = {}
        lines = []
        for raw in paragraph.splitlines():
            cite = _CITE_TAIL.search(raw)
            line = _CITE_TAIL.sub("", raw).strip()
            if line:
                lines.append(line)
                if cite:
                    sources[line] = int(cite.group(1))
        if not lines:
            continue
        lines = _rejoined(lines)
        own = len(lines) > 1 and _is_heading(lines[0]) and not is_row(lines[0])
        if own or (len(lines) == 1 and _is_heading(lines[0]) and not is_row(lines[0])):
            heading = lines[0]  # a title line names what the following paragraphs are about
            if not own:
                units.append(Unit(n, len(units), lines[0], "heading", "", "", p))
                continue
        header = ""
        # "Below is a summary of the board's buzzer features." alone before a table says what its rows are about
        listed = is_row(lines[0]) or all(_is_spec_line(x) for x in lines)  # a table, or a list of spec lines
        caption = f"{heading} {lead}".strip() if lead and not own and listed else heading
        last = lines[-1]  # a paragraph alone before a table, or one ending "…:" before a list, says what follows
        lead = last if _is_lead_in(last) and (len(lines) == 1 or last.rstrip().endswith(":")) else ""
        intro = ""  # "… Here you can see its main characteristics:" leads the spec lines after it in the paragraph
        for i, line in enumerate(lines):
            listed_here = (f"{heading} {intro}".strip() if intro else caption) if _is_spec_line(line) else heading
            intro = line if line.rstrip().endswith(":") and _is_lead_in(line) else intro if _is_spec_line(line) else ""
            if is_row(line):
                after = list(itertools.takewhile(is_row, lines[i + 1:i + 1 + LOOKAHEAD]))
                prev_row = i > 0 and (is_row(lines[i - 1]) or _inside_table(lines, i - 1))
                # "attribute | value [n]" under a "Subject (Type)" line: a pair of its own, never a table header
                fact_line = line in sources or bool(own and FACT_SUBJECT.match(lines[0]))
                if not prev_row and not fact_line and header_like(line, after):
                    header = line
                    continue
                units.append(Unit(n, len(units), line, "row", header, caption, p, line=i, source=sources.get(line, 0)))
                continue
            if not _inside_table(lines, i):
                header = ""
            if own and i == 0:
                units.append(Unit(n, len(units), line, "heading", "", "", p))
                continue
            table = serialized_table(line)  # "Row, Column = value. …" as a converter writes a table: its rows
            if table is not None:
                for cells in table[1]:
                    units.append(Unit(n, len(units), " | ".join(cells), "row", " | ".join(table[0]), heading, p, line=i))
                continue
            for sentence in split_sentences(line):
                units.append(Unit(n, len(units), sentence.strip(), "sentence", "", listed_here, p, line=i))
    for u in units:
        u.tokens = count_tokens(u.text) + (count_tokens(u.header) if u.header else 0)
    return units


def read_together(units: list[Unit]) -> str:
    """Units quoted as one passage, in the order given: their texts one after another, spacing collapsed ("1." and
    its sentence together), without a closing stop (the marker follows)."""
    return re.sub(r"\s+", " ", " ".join(u.text for u in units)).strip().rstrip(".")


def render(units: list[Unit]) -> str:
    """Selected units of one block as text: headings and table headers once, rows as lines, sentences joined."""
    lines: list[str] = []
    shown: set[str] = set()
    last_paragraph = last_line = -1
    for u in units:
        if u.paragraph != last_paragraph and lines:
            lines.append("")
        if u.heading and u.heading not in shown and u.kind != "heading":
            lines.append(u.heading)
            shown.add(u.heading)
        if u.header and u.header not in shown:
            lines.append(u.header)
            shown.add(u.header)
        if u.kind == "heading":
            if u.text not in shown:
                lines.append(u.text)
                shown.add(u.text)
        elif u.kind == "sentence" and lines and lines[-1] and (u.paragraph, u.line) == (last_paragraph, last_line) \
                and lines[-1] not in shown:
            lines[-1] += " " + u.text
        else:
            lines.append(u.text)
        last_paragraph, last_line = u.paragraph, u.line
    return "\n".join(lines).strip()
