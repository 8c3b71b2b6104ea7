"""Whose a unit is: the product a passage is about, read from its document's title or its graph fact's subject."""

from __future__ import annotations

from kgrag.answering.names import title_names
from kgrag.answering.select import Scored
from kgrag.answering.units import FACT_SUBJECT


def unit_about(phrase: list[str], s: Scored, titles: dict[int, str]) -> bool:
    """The unit is about the named product: its document's title ends with the name, or (graph facts gathered from
    several documents) the fact's subject is that name."""
    title = titles.get(s.unit.block, "")
    if title:
        return title_names(phrase, title)
    fact = FACT_SUBJECT.match(s.unit.heading)
    return bool(fact) and title_names(phrase, fact["name"])
