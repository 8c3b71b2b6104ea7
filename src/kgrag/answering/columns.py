"""Tables whose columns are the things a question names: a table setting two compared things side by side."""

from __future__ import annotations

from kgrag.answering.names import whole_name
from kgrag.answering.units import Unit


def side_by_side(compared: list[list[str]], unit: Unit) -> bool:
    """A table row whose header names both compared things as columns ("Parameter | Rev A | Rev B")."""
    return bool(compared) and unit.kind == "row" and all(whole_name(p, unit.header.lower()) for p in compared)
