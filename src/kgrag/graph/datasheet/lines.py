"""Line-level structure of a technical-document chunk: table rows, key–value lines, component headers, sentences.

The PDF/HTML/Markdown loaders write tables as `cell | cell | cell` rows and keep headings as lines, so a
chunk is read line by line; nothing here depends on one vendor's layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kgrag.graph.datasheet.vocab import (
    COLUMN_WORDS,
    HEADER_WORDS,
    HYPHEN_NAME,
    INTERFACE,
    NAMED_PART,
    NOT_VENDOR,
    PART,
    PREFIXED_PART,
    QUANTITY,
    SENTENCE_END,
    is_part_number,
    type_from_words,
)
from kgrag.graph.keywords import STOP_WORDS

_MARKS = re.compile(r"[®™©]")
_KEY_VALUE = re.compile(r"^([A-Za-z][\w ./()&+-]{1,48}?)\s*[:=]\s+(\S.{0,100})$")
_SECTION_NO = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
_BULLET = re.compile(r"^[\-•*·–]\s+")
MAX_SPEC_LINE_WORDS = 16
MAX_HEADER_WORDS = 12


@dataclass
class Row:
    """One table row: its cells and the header row of its table (if one was seen)."""

    cells: list[str]
    header: list[str] = field(default_factory=list)


def clean(text: str) -> str:
    """Text without trademark signs, bullets and doubled spaces."""
    return " ".join(_BULLET.sub("", _MARKS.sub("", text)).split())


def strip_section_number(heading: str) -> str:
    """`2.4 LPS22HB (U9) Barometer` -> `LPS22HB (U9) Barometer`."""
    return _SECTION_NO.sub("", clean(heading))


def is_header_row(cells: list[str]) -> bool:
    """A table header: most cells are header words (Min, Max, Unit, Description …) or empty."""
    words = [c.lower().strip(" .:") for c in cells if c.strip()]
    return bool(words) and (sum(w in HEADER_WORDS or w in {"ref", "ref.", "pin", "name", "symbol", "status"}
                                for w in words) * 2 >= len(words)
                            or all(w in HEADER_WORDS or w in COLUMN_WORDS for w in words))


def part_names(text: str) -> list[tuple[int, int, str]]:
    """Part numbers in `text` as (start, end, name): `NINA B306`, `nRF52840`, `Cortex-M4F`; pins/positions skipped."""
    found: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for m in INTERFACE.finditer(text):
        taken.append(m.span())
    for regex in (PREFIXED_PART, NAMED_PART, HYPHEN_NAME, PART):
        for m in regex.finditer(text):
            span = m.span()
            if any(span[0] < e and s < span[1] for s, e in taken):
                continue
            name = m.group(0).rstrip("-")
            if regex is NAMED_PART:
                if m.group(1).lower() in NOT_VENDOR or type_from_words(m.group(1)):
                    continue
                if is_part_number(m.group(2)):  # "Syntiant NDP120" is NDP120; "Kestrel K32" needs its vendor word
                    span, name = m.span(2), m.group(2)
            elif regex is PREFIXED_PART:
                if not is_part_number(m.group(2)) and not is_part_number(m.group(1) + m.group(2)):
                    continue
            elif not is_part_number(name):
                continue
            if QUANTITY.fullmatch(name) or _is_unit_number(name) or STANDARD_NAME.match(name):
                continue
            taken.append(span)
            found.append((span[0], span[1], name))
    return sorted(found)


# Algorithms, protocols and standards written like part numbers ("AES-128", "SHA-256", "SCP03", "EN 62311"):
# features and norms, not components on a board.
STANDARD_NAME = re.compile(r"(?:AES|SHA|RSA|ECC|ECDSA|ECDH|HMAC|CRC|3?DES|SCP|TLS|SSL|UTF|IPv|MD|EN|IEC|ISO|IEEE|UL|ETSI|RFC)"
                           r"[- ]?\d+(?:[-:.]\d+)*$")
_UNIT_FIRST = re.compile(r"(?:mm|cm|µm|um|mA|µA|uA|mV|mW|Hz|kHz|MHz|GHz|dB|dBm)\d+(?:\.\d+)?")


def _is_unit_number(name: str) -> bool:
    """`802.11`, `24bit`, `16MHz`, `2MB` read as part numbers by the loose pattern; they are quantities, and so
    are `mm47` / `mm31.2`: dimension labels of rotated mechanical drawings, read unit first."""
    return bool(re.fullmatch(r"\d+(?:\.\d+)?[A-Za-z]{1,4}", name) or re.fullmatch(r"[\d.]+", name)
                or _UNIT_FIRST.fullmatch(name))


def sentences(text: str) -> list[str]:
    """Sentences of a prose line (a cheap splitter: end punctuation followed by a capital)."""
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


def quantities(text: str) -> list[tuple[int, int, str]]:
    """Numbers with units in `text` (`64 MHz`, `260 to 1260 hPa`, `-40 °C`)."""
    return [(m.start(), m.end(), m.group(0).strip()) for m in QUANTITY.finditer(text)]


def is_spec_line(line: str) -> bool:
    """A short list line (not a sentence) that carries a quantity: `260 to 1260 hPa absolute pressure range`."""
    words = line.split()
    return 0 < len(words) <= MAX_SPEC_LINE_WORDS and bool(QUANTITY.search(line)) and not line.endswith(".")


def key_value(line: str) -> tuple[str, str] | None:
    """`Humidity accuracy: ±1.5%RH, typical` -> (label, value); None for prose or URLs."""
    m = _KEY_VALUE.match(line)
    if not m or "http" in line:
        return None
    label, value = m.group(1).strip(), m.group(2).strip()
    if len(label.split()) > 5 or len(value.split()) > 14:
        return None
    return label, value


_VENDOR = re.compile(r"(?:[A-Z][A-Za-z]{2,}|[A-Z]{2,4})\s+")  # one maker's name before a part: "Bosch BME688", "ST LPS22HB"


def is_vendor(prefix: str) -> bool:
    """One capitalised word ("Bosch") or short capitals ("ST", "NXP") that is neither an English function word ("The")
    nor a class or layout word."""
    word = prefix.strip().lower()
    return bool(_VENDOR.fullmatch(prefix)) and word not in STOP_WORDS and word not in NOT_VENDOR \
        and not type_from_words(word)


def component_header(line: str) -> tuple[str, str] | None:
    """A short line that starts with a part number, or with its maker's name when what the part is follows:
    `BMI270 6-axis IMU (Accelerometer and Gyroscope)`, `ST LSM6DSOXTR 6-axis IMU` -> (part, rest)."""
    words = line.split()
    if not words or len(words) > MAX_HEADER_WORDS or line.endswith("."):
        return None
    parts = part_names(line)
    heading = strip_section_number(line)  # "3.3 Power Conversion — LM5164": what the part does, then the part
    tail = _PART_LAST.fullmatch(heading)
    last = part_names(heading)[-1:] if tail else []
    if last and last[0][1] == len(heading.rstrip()) and last[0][0] == tail.start("part"):
        return last[0][2], tail["what"].strip()
    if not parts or parts[0][0] > 0 and not _maker_led(line[:parts[0][0]], line[parts[0][1]:]):
        return None
    start, end, name = parts[0]
    return name, line[end:].strip(" -–:()")


# A heading naming a part last, after a dash: "3.3 Power Conversion — LM5164", "LoRa Transceiver – SX1262"; the words
# before it say what the part is, and the table under it is the part's, not the product's
_PART_LAST = re.compile(r"(?P<what>[A-Za-z][A-Za-z/&,.() -]{2,60}?)\s+[—–-]\s+(?P<part>\S+)\s*")  # no digit before:
# "Firmware 4.1 — KX-410" is a release of a product


def _maker_led(prefix: str, rest: str) -> bool:
    """`ST LSM6DSOXTR 6-axis IMU`: a maker's name, the part, then what the part is (a class word)."""
    return is_vendor(prefix) and bool(type_from_words(rest))


def split_row(line: str) -> list[str] | None:
    """Cells of a `a | b | c` table row, or None."""
    if " | " not in line and not line.startswith("|"):
        return None
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    return cells if len(cells) >= 2 else None


_CELL_FACT = re.compile(r"^(?P<row>[^=,]{0,60}?),\s*(?P<col>[^=,]{1,60}?)\s+=(?:\s+(?P<value>.*))?$")
# ". " before the next "Row, Column = " (a row may be blank under a merged cell: ". , Typical = -156")
_NEXT_CELL = re.compile(r"\.\s+(?=[^=,]{0,60}?,\s*[^=,]{1,60}?\s+=(?:\s|$))")


def serialized_rows(line: str) -> list[tuple[str, str, str]]:
    """Tables written as text by document converters (Docling): `Row, Column = value. Row2, Column = value2`; a
    cell may be empty ("Min = .") and so may a row's label (a merged cell above it: ", Typical = -156")."""
    if " = " not in line:
        return []
    out = []
    for part in _NEXT_CELL.split(line.strip().rstrip(".")):  # a value may end in a digit: "Typ = 86. Unit = µA"
        m = _CELL_FACT.match(part.strip())
        if m:
            out.append((m.group("row").strip(), m.group("col").strip(), (m.group("value") or "").strip(" .")))
    return out


def serialized_table(line: str) -> tuple[list[str], list[list[str]]] | None:
    """Such a line read back as a grid: header cells ["", col1, col2 …] and one row of cells per row label
    ("Deep sleep | I DS | 86 | µA"), so a value travels with its unit."""
    return as_grid(serialized_rows(line), line)


def as_grid(cells: list[tuple[str, str, str]], line: str) -> tuple[list[str], list[list[str]]] | None:
    """The grid of `line`'s serialized cells (from serialized_rows); None unless the whole line is cells. A blank
    row label is the label above it (a merged cell). When every label has the same columns in the same order, a
    column written twice is two columns ("Ref. | Description | Ref. | Description", two parts per line); else a
    column seen again under one label starts that label's next row ("J1 | I2C1 …", "J1 | I2C0 …")."""
    if len(cells) < 2 or len(cells) < line.count(" = "):
        return None
    labelled: list[tuple[str, str, str]] = []
    for row, col, value in cells:
        labelled.append((row or (labelled[-1][0] if labelled else ""), col, value))
    per_label: dict[str, list[str]] = {}
    for row, col, _ in labelled:
        per_label.setdefault(row, []).append(col)
    shapes = {tuple(cols) for cols in per_label.values()}
    if len(shapes) == 1 and len(per_label) > 1:  # one shape for all: its columns as written, repeats included
        grid = {row: [row] for row in per_label}
        for row, _, value in labelled:
            grid[row].append(value)
        return ["", *next(iter(shapes))], list(grid.values())
    columns = list(dict.fromkeys(col for _, col, _ in labelled))
    rows: list[tuple[str, dict[str, str]]] = []
    for row, col, value in labelled:
        if not rows or rows[-1][0] != row or col in rows[-1][1]:
            rows.append((row, {}))
        rows[-1][1][col] = value
    return ["", *columns], [[row, *(values.get(c, "") for c in columns)] for row, values in rows]


def has_part(text: str) -> bool:
    return bool(PART.search(text))
