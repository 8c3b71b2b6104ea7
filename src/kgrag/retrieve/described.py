"""A product the question names by its chip rather than its name ("the R7FA6M5BH2CBG-based Portenta board", "the
SAM3X8E-powered board"): when the graph has exactly one product with that part (in the family the question names,
if it names one), that product is what the question is about, and its documents answer it."""

from __future__ import annotations

import re

from kgrag.graph.adjacency import GraphAdjacency
from kgrag.graph.datasheet.vocab import FAMILY_TYPE, PRODUCT_TYPE
from kgrag.graph.keys import name_tokens
from kgrag.retrieve.scoping import Link, product_neighbours

# a part written as what a product is built on: "R7FA6M5BH2CBG-based", "an ESP32-S3 powered board"
_BUILT_ON = re.compile(r"([\w-]+?)[-\s](?:based|powered|equipped)\b", re.IGNORECASE)
_NOT_PARTS = (PRODUCT_TYPE, FAMILY_TYPE, "Interface")


def described_product(adj: GraphAdjacency, question: str, links: list[Link]) -> int | None:
    """The one product that has the part the question builds a product on, within the families it names; None when
    the question names a product, writes no such part, or more than one product has it."""
    if any(lk.type == PRODUCT_TYPE for lk in links):
        return None
    written = {" ".join(name_tokens(m.group(1))) for m in _BUILT_ON.finditer(question)}
    parts = [lk.node for lk in links if lk.type not in _NOT_PARTS and " ".join(name_tokens(lk.name)) in written]
    if not parts:
        return None
    families = [lk.node for lk in links if lk.type == FAMILY_TYPE]
    found: set[int] = set()
    for part in parts:
        found |= product_neighbours(adj, part)
    for family in families:  # "the …-based Portenta board": a member of that family
        found &= product_neighbours(adj, family)
    return next(iter(found)) if len(found) == 1 else None
