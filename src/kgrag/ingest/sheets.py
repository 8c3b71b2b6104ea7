"""Spreadsheet loaders: CSV/TSV exports (delimiter sniffed, streamed) and Excel workbooks (openpyxl, each sheet a
section). Rows between blank rows form a table under its first row, the header; a lone-cell row above it (a sheet's
title, a "prices valid from …" note) is a line of text. Cells keep their column: an empty cell stays empty."""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from pathlib import Path
from typing import Any

from kgrag.errors import IngestError
from kgrag.ingest.base import Block, Parsed
from kgrag.ingest.textio import iter_lines

SNIFF_LINES = 20  # lines of a CSV file its delimiter is guessed from
MERGED_BYTES = 10 * 2**20  # workbooks up to this size are read whole, which merged cells need; larger ones streamed
_DELIMITERS = ",;\t|"
_DIGITS = re.compile(r"([#,]*0)(?:\.(0+))?")  # a number format's digits: "#,##0.00", "0", "0.0"


def parse_csv(path: Path) -> Parsed:
    """Blocks of a CSV or TSV export (a ticket system's, a test bench's): its rows as one table under the header."""
    lines = (f"{line}\n" for line in iter_lines(path))
    head = list(islice(lines, SNIFF_LINES))
    if path.suffix.lower() == ".tsv":
        delimiter = "\t"
    else:
        try:
            delimiter = csv.Sniffer().sniff("".join(head), delimiters=_DELIMITERS).delimiter
        except csv.Error:
            delimiter = ","
    try:
        rows = [[_cell_text(c) for c in row] for row in csv.reader(chain(head, lines), delimiter=delimiter)]
    except csv.Error as exc:
        raise IngestError(path, f"malformed CSV ({exc})") from exc
    return Parsed(list(row_blocks(rows, ())), title=file_title(path), meta={"format": "csv", "rows": len(rows)})


def parse_xlsx(path: Path) -> Parsed:
    """Blocks of an Excel workbook, sheet by sheet (each a section named by the sheet), each cell as Excel shows it (a
    formula's last computed value, in the cell's number format); a merged cell's value stands in every cell it spans
    (a default merged over four models' columns is each model's), so a sheet's rows read as `row_blocks` reads them.
    A workbook over MERGED_BYTES is streamed instead, its merged cells left as Excel stores them."""
    import zipfile

    import openpyxl

    if not zipfile.is_zipfile(path):
        raise IngestError(path, "corrupt xlsx (not a zip package)")
    streamed = path.stat().st_size > MERGED_BYTES
    try:
        book = openpyxl.load_workbook(path, read_only=streamed, data_only=True)
    except Exception as exc:  # openpyxl raises many types (KeyError, InvalidFileException, XML errors)
        raise IngestError(path, f"corrupt xlsx ({type(exc).__name__}: {exc})".strip()) from exc
    blocks: list[Block] = []
    try:
        for number, sheet in enumerate(book.worksheets, start=1):
            name = " ".join(str(sheet.title).split()) or f"Sheet {number}"
            merged = {} if streamed else _merged_values(sheet)
            rows = ([_shown(cell, merged) for cell in row] for row in sheet.iter_rows())
            content = list(row_blocks(rows, (name,), number))
            if content:
                blocks += [Block((name,), name, "heading", number), *content]
        title = " ".join((book.properties.title or "").split()) or file_title(path)
    finally:
        book.close()
    return Parsed(blocks, title=title, meta={"format": "xlsx", "sheets": len(book.worksheets)})


def _shown(cell: Any, merged: dict[tuple[int, int], str]) -> str:
    """The cell's text, its merged range's when it lies in one (a streamed sheet's empty cells have no position)."""
    where = (getattr(cell, "row", None), getattr(cell, "column", None))
    return merged.get(where) or _cell_text(cell.value, getattr(cell, "number_format", "General"))  # type: ignore[arg-type]


def _merged_values(sheet: Any) -> dict[tuple[int, int], str]:
    """(row, column) → the text of the merged range's first cell, for every cell of every merged range."""
    values: dict[tuple[int, int], str] = {}
    for merge in sheet.merged_cells.ranges:
        first = sheet.cell(merge.min_row, merge.min_col)
        text = _cell_text(first.value, first.number_format)
        for row in range(merge.min_row, merge.max_row + 1):
            for column in range(merge.min_col, merge.max_col + 1):
                values[(row, column)] = text
    return values


def file_title(path: Path) -> str:
    """A data file's title when it has none of its own: its name in words ("sentinel_gx400_support_tickets_export"
    reads "sentinel gx400 support tickets export"), as an export tool writes the name."""
    return " ".join(path.stem.replace("_", " ").split())


def row_blocks(rows: Iterable[list[str]], path: tuple[str, ...], page: int | None = None) -> Iterator[Block]:
    """The rows as blocks: each run of rows between blank rows is a table (header first), its leading rows of one
    filled cell lines of text. Empty cells at a row's end, or before every row's first, are dropped; inner ones stay,
    so a cell keeps its column."""
    run: list[list[str]] = []
    for row in chain(rows, [[]]):
        while row and not row[-1]:
            row = row[:-1]
        filled = [c for c in row if c]
        if len(filled) > 1 and len(set(filled)) == 1:  # a title or a note merged across the row: its text once
            row = row[:row.index(filled[0]) + 1]
        if row:
            run.append(row)
            continue
        lead = 0
        while lead < len(run) and sum(1 for c in run[lead] if c) == 1:
            yield Block(path, next(c for c in run[lead] if c), "text", page)
            lead += 1
        table = run[lead:]
        empty = min((next(i for i, c in enumerate(r) if c) for r in table), default=0)
        table = [r[empty:] for r in table]  # a table drawn from column C on
        if len(table) == 1:
            yield Block(path, " | ".join(c for c in table[0] if c), "text", page)
        elif table:
            yield Block(path, "\n".join(" | ".join(r) for r in table), "table", page)
        run = []


def _cell_text(value: Any, number_format: str = "General") -> str:
    """A cell's value as Excel shows it: a number in its format's decimals, percent and thousands separators ("General"
    to 12 significant digits, "12" not "12.0"), a date without a midnight time; its own line breaks and runs of spaces
    become one space (a row is one line)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return _number(value, number_format or "General")
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ", "minutes")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return " ".join(str(value).split())


def _number(value: float, number_format: str) -> str:
    """The number in a numeric format's first section: "0.00" two decimals, "#,##0" thousands separators, "0.0%" in
    percent, "0.00E+00" scientific; "General" (or a format not of digits) as Excel's General shows it."""
    section = number_format.split(";")[0]
    percent = "%" in section
    if percent:
        value *= 100
    digits = _DIGITS.search(section)
    if digits is None:
        text = f"{round(value, 10):.12g}"
    elif "E" in section.upper():  # "0.00E+00": scientific, as Excel shows 1.23E-05
        text = f"{value:.{len(digits.group(2) or '')}E}"
    else:
        decimals = len(digits.group(2) or "")
        text = f"{value:{',' if ',' in digits.group(1) else ''}.{decimals}f}"
    return f"{text}%" if percent else text
