"""Spreadsheet loaders: CSV/TSV exports (delimiter sniffed, streamed) and Excel workbooks (openpyxl, each sheet a
section). Rows between blank rows form a table under its first row, the header; a lone-cell row above it (a sheet's
title, a "prices valid from …" note) is a line of text. Cells keep their column: an empty cell stays empty."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable, Iterator
from itertools import chain, islice
from pathlib import Path
from typing import Any

from kgrag.errors import IngestError
from kgrag.ingest.base import Block, Parsed
from kgrag.ingest.textio import iter_lines

SNIFF_LINES = 20  # lines of a CSV file its delimiter is guessed from
_DELIMITERS = ",;\t|"


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
    return Parsed(list(row_blocks(rows, ())), meta={"format": "csv", "rows": len(rows)})


def parse_xlsx(path: Path) -> Parsed:
    """Blocks of an Excel workbook, sheet by sheet (each a section named by the sheet), the cached values of formulas;
    a sheet's rows are read in `row_blocks`' way."""
    import zipfile

    import openpyxl

    if not zipfile.is_zipfile(path):
        raise IngestError(path, "corrupt xlsx (not a zip package)")
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types (KeyError, InvalidFileException, XML errors)
        raise IngestError(path, f"corrupt xlsx ({type(exc).__name__}: {exc})".strip()) from exc
    blocks: list[Block] = []
    try:
        for number, sheet in enumerate(book.worksheets, start=1):
            name = " ".join(str(sheet.title).split()) or f"Sheet {number}"
            rows = ([_cell_text(c.value, getattr(c, "number_format", "")) for c in row] for row in sheet.iter_rows())
            content = list(row_blocks(rows, (name,), number))
            if content:
                blocks += [Block((name,), name, "heading", number), *content]
        title = " ".join((book.properties.title or "").split())
    finally:
        book.close()
    return Parsed(blocks, title=title, meta={"format": "xlsx", "sheets": len(book.worksheets)})


def row_blocks(rows: Iterable[list[str]], path: tuple[str, ...], page: int | None = None) -> Iterator[Block]:
    """The rows as blocks: each run of rows between blank rows is a table (header first), its leading rows of one
    filled cell lines of text. Empty cells at a row's end, or before every row's first, are dropped; inner ones stay,
    so a cell keeps its column."""
    run: list[list[str]] = []
    for row in chain(rows, [[]]):
        while row and not row[-1]:
            row = row[:-1]
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


def _cell_text(value: Any, number_format: str = "") -> str:
    """A cell's value as it reads: whole numbers without ".0", percentages in percent, dates without a midnight
    time; its own line breaks and runs of spaces become one space (a row is one line)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        if "%" in (number_format or ""):
            return f"{_number(value * 100)}%"
        return _number(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ", "minutes")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return " ".join(str(value).split())


def _number(value: float) -> str:
    """12.0 → "12", 0.30000000000000004 → "0.3": as a spreadsheet shows it, to 12 significant digits."""
    return f"{round(value, 10):.12g}"
