"""Order codes the graph holds no alias for, read where the documents list a product with its code: "Arduino Portenta
H7 Lite (SKU: ABX00045)" in a related-products list, "The Nano Matter (ABX00112) has …", "Portenta H7 Lite:
ABX00045" (a SKU row read with its header). A datasheet's own code heads its first page and becomes an alias at
build time; the codes of its variants and of the products it lists are written only so, and users ask by them."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from kgrag.graph.adjacency import GraphAdjacency
from kgrag.graph.datasheet.vocab import PRODUCT_TYPE
from kgrag.graph.keys import entity_key

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

SEARCHED = 20  # chunks read for one code: the ones the full-text index ranks first for it
MAX_NAME_WORDS = 6  # words before a code that may name its product


def listed_product(index: Workspace, adj: GraphAdjacency, names: dict[str, list[tuple[int, bool]]],
                   codes: dict[str, int], code: str) -> int | None:
    """The product the documents write `code` after, by one of its names (`names`: key -> nodes) or model codes
    (`codes`), the listings weighed by how surely they name it; None when no listing names a product."""
    escaped = re.escape(code)
    listing = re.compile(rf"((?:[\w.+-]+ ){{1,{MAX_NAME_WORDS}}})\((?:[^()]*?SKU\s*:?\s*)?(?:[A-Z0-9-]+\s*/\s*)*"
                         rf"{escaped}(?![\w-])|([\w .+-]{{3,60}}?)\s*[:=]\s*{escaped}(?![\w-])")
    hits = index.store.search_text(code, SEARCHED)
    votes: Counter[int] = Counter()
    for chunk in index.store.get_chunks([cid for cid, _ in hits]):
        for m in listing.finditer(chunk.text):
            named = product_named(adj, names, codes, m.group(1) or m.group(2))
            if named is not None:
                votes[named[0]] += named[1]
    return votes.most_common(1)[0][0] if votes else None


def product_named(adj: GraphAdjacency, names: dict[str, list[tuple[int, bool]]], codes: dict[str, int],
                  text: str) -> tuple[int, int] | None:
    """The one product the longest run of words ending `text` names (the name right before the code: "Arduino
    Portenta H7 Lite" -> Portenta H7 Lite, not Portenta H7), with the run's length; a model code inside a product's
    name (`codes`) names it. None when no such run names one product: "Arduino Opta Digital Expansion EMR" names no
    product by its last words, and "Opta" inside it is another product than the one listed."""
    words = text.split()[-MAX_NAME_WORDS:]
    for start in range(len(words)):
        key = entity_key(" ".join(words[start:]))
        products = {n for n, _ in names.get(key, ()) if adj.types[n] == PRODUCT_TYPE} or (
            {codes[key]} if key in codes else set())
        if len(products) == 1:
            return next(iter(products)), len(words) - start
    return None
