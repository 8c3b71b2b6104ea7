"""What each number of a text measures: the unit written after it, in its table's header or in its label's brackets
("389.00" under "List price (GBP)" is a price), so a reply's stated quantity can be checked against its sources."""

from __future__ import annotations

import re
from collections import defaultdict

from kgrag.answering.refusal import CITE
from kgrag.answering.units import BRACKET_UNIT, unit_column
from kgrag.answering.values import (
    CURRENCY_CODES,
    CURRENCY_SIGNS,
    NUMBER_UNIT,
    PRICE,
    RANGE_ENDS,
    canonical_unit,
    dimension_of_unit,
    slash_list_word,
)

STANDALONE_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*")  # standalone numbers: "3.3", "1,000", "260"; not "ESP32"
_PAGE_REF = re.compile(r"\bpp?\.\s?\d+(?:\s?[-–]\s?\d+)?")  # "p. 7", "pp. 4-5"
BARE = ""  # a number written without a unit after it (a table cell whose unit is in the header, a count)
MONEY = "price"  # a number written as a price ("$ 12.90", "12 USD"): only a price backs one
# "10 USB-C Connector", "2.5 HS3003 Sensor", "6. Troubleshooting", "section: 2 Features > 2.1 General": the number of a
# heading, a figure's legend or a list item, no value and no version; at the start of a line or in a block header's
# section path
_HEADING_NUMBER = re.compile(r"(?m)(?:^|(?<=section: )|(?<= > ))\d{1,3}(?:\.\d{1,2}){0,3}\.?(?= [A-Z][^|\n]*$)")
_HYPHEN_UNIT = re.compile(r"-([A-Za-zµμΩ°]{1,4})(?![\w-])")  # a unit joined by a hyphen: "2.5-A", "12-bit"
# Letters glued to a number or joined by a hyphen: "2D", "2-way", "EE2-5NU-L" name a kind or a part; "2x" counts, and
# "480x800" is a grid
JOINED_WORD = re.compile(r"-?(?!x\b)[A-Za-zµμΩ°]+(?!\d)")
# Letters and a digit glued after a number make it part of a code: "ATMega 16U2" has no 16 ("3V3" is 3.3 V, "2x4"
# two by four)
_CODE_TAIL = re.compile(r"(?![vVxX]\d)[A-Za-z]+\d")
_INCH_MARK = re.compile(r"[\"″](?![\w])")  # '3.97" diagonal': inches, where no quote opened before the mark
# What names a dotted number written after it as a version or a section: "USB 2.0", "TLS 1.2", "OpenGL ES 2.0",
# "Section 3.8" (an acronym, or the word)
_VERSION_NAME = re.compile(r"(?:\b[A-Z]{2,}[A-Za-z]*|\b(?i:section|version|rev|revision|v))\.? $")


def number_form(raw: str) -> str:
    """The value a written number means: "1,000" is a thousand, "3,3" three point three, "5.0" is "5"."""
    raw = raw.strip().lstrip("+-−±~ ").rstrip(".,")
    if re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", raw):  # thousands separators: "1,000", "12,500.5"
        raw = raw.replace(",", "")
    raw = raw.replace(",", ".")  # a decimal comma
    return raw.rstrip("0").rstrip(".") if "." in raw else raw


def number_value(raw: str) -> float | None:
    """A written number as a float, its sign kept ("-20", "−20" -> -20.0, "1,000" -> 1000.0); None when it is no plain number
    ("8k")."""
    try:
        return float(number_form(raw).replace(" ", "")) * (-1 if raw.strip().startswith(("-", "−")) else 1)
    except ValueError:
        return None


_CURRENCY = re.compile(rf"{CURRENCY_CODES}|[{CURRENCY_SIGNS}]", re.IGNORECASE)
# "List price (GBP): 389.00", "Current (mA): 12": a number after a label that names its unit in brackets
_LABEL_UNIT = re.compile(BRACKET_UNIT.pattern + r"\s*[:=]\s*[-+−±~]?(\d+(?:[.,]\d+)*)")


def _bracket_keys(unit: str) -> set[str]:
    """What numbers under a label naming `unit` in brackets measure: a currency prices them, else `_unit_keys`."""
    return {MONEY} if _CURRENCY.fullmatch(unit.strip()) else _unit_keys(unit)


def _column_dimensions(text: str) -> list[list[set[str]]]:
    """Per line of `text`, per "|" cell: what a number in that cell measures when the table's header names the cell's
    column unit in brackets ("Part number | List price (GBP) | Lead time" then "GXS-440-IR | 389.00 | 15": a price,
    not a bare 389); empty sets elsewhere. A row belongs to the header above it while it has no more cells."""
    out: list[list[set[str]]] = []
    header: list[set[str]] = []
    for line in text.split("\n"):
        cells = line.split("|")
        # a header writes no number; a row may bracket a symbol that reads as a unit ("Cadmium (Cd) | 100")
        named = [_bracket_keys(b.group(1)) if (b := BRACKET_UNIT.search(c)) else set() for c in cells
                 ] if len(cells) >= 2 and not any(ch.isdigit() for ch in line) else []
        if any(named):
            header = named
            out.append([set() for _ in cells])
        elif header and 2 <= len(cells) <= len(header):  # a row may leave its last cells out ("… | 71.00 | 5")
            out.append(header[:len(cells)])
        else:
            header = []
            out.append([set() for _ in cells])
    return out


def _row_dimensions(text: str) -> list[set[str]]:
    """Per line of `text`: what its bare numbers measure when it is a row of a table whose header ends in a "Unit"
    column ("Symbol | Description | Min | Typ | Max | Unit" then "V IN | Input voltage | 6 | 7.0 | 32 | V": volts); an
    empty set elsewhere (a unit in a column's header brackets is `_column_dimensions`')."""
    out, unit_table = [], False
    for line in text.split("\n"):
        cells = line.split("|")
        if len(cells) < 3:
            unit_table = False
            out.append(set())
        elif unit_column(cells[-1]):
            unit_table = True
            out.append(set())
        else:
            out.append(_unit_keys(cells[-1]) if unit_table else set())
    return out


# Unit names a reply may spell out for the symbol a datasheet writes ("100 meters" is "100 m", not "100 mil"), and
# symbols written two ways.
_UNIT_NAMES = {"meter": "m", "metre": "m", "millimeter": "mm", "millimetre": "mm", "centimeter": "cm",
               "centimetre": "cm", "kilometer": "km", "kilometre": "km", "volt": "V", "ampere": "A", "milliamp": "mA",
               "watt": "W", "second": "s", "millisecond": "ms", "minute": "min", "hour": "h", "gram": "g",
               "kilogram": "kg", "hertz": "Hz", "byte": "B", "milliampere": "mA", "microamp": "µA", "microampere": "µA",
               "millivolt": "mV", "milliwatt": "mW", "microsecond": "µs", "kilohertz": "kHz", "megahertz": "MHz",
               "day": "days", "week": "weeks", "month": "months", "year": "years"}  # one unit, singular or plural
_UNIT_SYMBOLS = {"KB": "kB", "C": "°C", "sec": "s", "amp": "A", "ohm": "Ω", "inch": "in", "inches": "in"}


def _unit_keys(unit: str) -> set[str]:
    """What a number written with `unit` measures, and in which unit: "length@m" for "m" and "meters", "length@mil"
    for "mil" (the same number in another unit of one quantity is another value)."""
    unit = unit.strip()
    symbol = re.sub(r"(?<=V)(?:AC|DC)$", "", unit.replace("μ", "µ"), flags=re.IGNORECASE)
    word = symbol.lower()
    if len(word) > 2 and word.rstrip("s") in _UNIT_NAMES:  # a spelled-out name: "meters", "Volts", "hour", "day"
        symbol = _UNIT_NAMES[word.rstrip("s")]
    symbol = _UNIT_SYMBOLS.get(symbol, canonical_unit(symbol))
    return {f"{d}@{symbol}" for d in dimension_of_unit(unit)}


def without_heading_numbers(text: str) -> str:
    """`text` without the numbers of its headings and list items (`_HEADING_NUMBER`); "5 V Power Supply" keeps its
    value."""
    return _HEADING_NUMBER.sub(lambda m: m.group(0) if NUMBER_UNIT.match(text, m.start()) or RANGE_ENDS.match(
        text, m.start()) else "", text)


def number_uses(text: str) -> dict[str, set[str]]:
    """Each number of `text` -> the quantities it is written with, in which unit (`_unit_keys`; BARE when no unit
    follows it, unless its table row names the unit in a "Unit" column)."""
    uses: dict[str, set[str]] = defaultdict(set)
    text = CITE.sub(" ", _PAGE_REF.sub(" ", without_heading_numbers(text)))  # "p. 7", "[7]", "section: 10 …": where
    for line, row_dims, cell_dims in zip(text.split("\n"), _row_dimensions(text), _column_dimensions(text), strict=True):
        with_unit: set[int] = set()
        for m in _LABEL_UNIT.finditer(line):  # "List price (GBP): 389.00"
            if keys := _bracket_keys(m.group(1)):
                uses[number_form(m.group(2))] |= keys
                with_unit.add(m.end(2))
        for m in RANGE_ENDS.finditer(line):  # "260 to 1260 hPa": the first end is in hPa too, not a bare 260
            uses[number_form(m.group(1))] |= _unit_keys(m.group(3)) or {BARE}
            with_unit.add(m.end(1))
        for m in NUMBER_UNIT.finditer(line):
            uses[number_form(m.group(1))] |= _unit_keys(m.group(2)) or {BARE}
            with_unit.add(m.end(1))
        for m in PRICE.finditer(line):
            uses[number_form(m.group(1) or m.group(2))].add(MONEY)
        for m in STANDALONE_NUMBER.finditer(line):
            if m.end() in with_unit:
                continue
            if "." in m.group(0) and _VERSION_NAME.search(line, 0, m.start()):  # "USB 2.0": no bare 2
                continue
            joined = _HYPHEN_UNIT.match(line, m.end())  # "2.5-A Fast Charging": amperes, not a bare 2.5
            listed = slash_list_word(line, m.start(), m.end())  # "24/30/110/220V": volts; "10/100 M": no bare 10
            if listed is not None:
                uses[number_form(m.group(0))] |= _unit_keys(listed) if listed else {BARE}
            elif joined and (keys := _unit_keys(joined.group(1))):
                uses[number_form(m.group(0))] |= keys
            elif _INCH_MARK.match(line, m.end()) and (line[m.end()] == "″" or line.count('"', 0, m.end()) % 2 == 0):
                uses[number_form(m.group(0))] |= _unit_keys("in")  # (an even count of quotes before: none is open)
            elif not JOINED_WORD.match(line, m.end()) and not _CODE_TAIL.match(line, m.end()):  # "2D", "2-way
                # ranging", "6-axis": a kind, not a value
                uses[number_form(m.group(0))] |= cell_dims[line.count("|", 0, m.start())] or row_dims or {BARE}
    return uses


def stated_values(reply: str) -> list[tuple[str, set[str]]]:
    """The quantities an answer states, with what they measure: "1.12 kg" (mass), "10 hours" (time), "$1,000"."""
    text = CITE.sub(" ", reply)
    found = [(m.group(1), _unit_keys(m.group(2))) for m in NUMBER_UNIT.finditer(text)]
    found += [(m.group(1) or m.group(2), {MONEY}) for m in PRICE.finditer(text)]
    return [(number_form(v), dims) for v, dims in found if number_form(v)]
