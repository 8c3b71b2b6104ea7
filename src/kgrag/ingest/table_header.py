"""Which first row of a table names its columns: shared by chunking (repeated atop a table's continuation chunks)
and answering (a row quoted with its column names)."""

from __future__ import annotations

import re
from collections.abc import Sequence

_TOKEN = re.compile(r"[^\s|]+")
_LETTER = re.compile(r"[^\W\d_]")
_MARK = re.compile(r"^\s*(?:[✓✔✗✘●○]|yes|no)\s*$", re.IGNORECASE)  # a matrix cell: supported or not
LOOKAHEAD = 3  # rows after a header of model codes that may show the table's first number


def value_digits(row: str) -> int:
    """Digits of the row's numbers; a name's digits ("KX-220L", "Rev2", "STM32") are no value."""
    return sum(sum(c.isdigit() for c in t) for t in _TOKEN.findall(row) if not _LETTER.search(t))


def header_like(row: str, following: Sequence[str]) -> bool:
    """The first row of a table is its header when it names columns (few digits) and data follows; a row of model
    codes ("Characteristic | KX-220 | KX-220L") is one too when numbers follow within a few rows (a row of part
    names followed by more names, "Security | ATECC608 | …", is data), and so is one heading a matrix of marks
    ("Accessory | TX-20 | TX-40" over "Wall bracket | ✓ | –")."""
    if not following:
        return False
    digits = sum(c.isdigit() for c in row)
    if digits <= max(2, len(row) // 10) and sum(c.isdigit() for c in following[0]) >= digits:
        return True
    return value_digits(row) == 0 and any(value_digits(r) or any(_MARK.match(c) for c in r.split("|"))
                                          for r in following[:LOOKAHEAD])
