"""Sizes written as a product of lengths ("Dimensions (W × H × D) | 45 × 100 × 115 mm") and what each place of one
measures: drafting convention, no product's. A bare "10 mm gap" gives no width and no dimensions, so it answers neither
"How wide …?" nor "What are the dimensions …?"."""

from __future__ import annotations

import re

from kgrag.answering.values import DIMENSIONS

SHAPE_NOUNS = {"wide": "width", "tall": "height", "deep": "depth", "thick": "thickness"}  # "How wide is …?"
SHAPE_WORDS = frozenset({"dimension", *SHAPE_NOUNS, *SHAPE_NOUNS.values()})  # said only by a size or in words
_COMPONENTS = {"w": "width", "width": "width", "h": "height", "height": "height", "d": "depth", "depth": "depth",
               "l": "length", "length": "length", "t": "thickness", "thickness": "thickness"}
_TIMES_SIGN = r"\s?[×xX*]\s?"
_COMPONENT = r"(?:width|height|depth|length|thickness|[WHDLT])"
_COMPONENT_LABEL = re.compile(rf"(?<![\w-])({_COMPONENT})(?:{_TIMES_SIGN}({_COMPONENT}))(?:{_TIMES_SIGN}({_COMPONENT}))?(?![\w-])",
                              re.IGNORECASE)
_LENGTH_UNITS = "|".join(re.escape(u) for u in sorted(DIMENSIONS["length"][1], key=len, reverse=True))
_NUM = r"\d+(?:[.,]\d+)?"
_INNER_UNIT = rf"(?:\s?(?:{_LENGTH_UNITS})(?![\w]))?"  # "68.6 mm x 53.4 mm": each length may carry the unit
SIZE_PRODUCT = re.compile(rf"(?<![\w.])({_NUM}){_INNER_UNIT}{_TIMES_SIGN}({_NUM}){_INNER_UNIT}"
                          rf"(?:{_TIMES_SIGN}({_NUM}))?\s?({_LENGTH_UNITS})(?![\w])")


def size_components(text: str) -> dict[str, str]:
    """Each length the size product in `text` gives, by the component its label names at that place ("Dimensions
    (W × H × D) | 45 × 100 × 115 mm" -> width 45 mm, height 100 mm, depth 115 mm); nothing when no label names the
    components, the counts differ, or `text` holds several sizes (one per variant: which is meant is not known)."""
    named = _COMPONENT_LABEL.search(text)
    sizes = set(SIZE_PRODUCT.findall(text)) if named else set()
    if not named or len(sizes) != 1:
        return {}
    size = sizes.pop()
    places = [g for g in named.groups() if g]
    numbers = [n for n in size[:3] if n]
    if len(places) != len(numbers):
        return {}
    return {_COMPONENTS[p.lower()]: f"{n} {size[3]}" for p, n in zip(places, numbers, strict=True)}


def shape_words(text: str, words: set[str]) -> set[str]:
    """The `SHAPE_WORDS` a unit says: those among its folded `words` (an adjective and its noun say each other),
    "dimension" for a size product in its `text`, and each component a labelled size gives (every one when no label
    says which place is which)."""
    said = {w for w in words if w in SHAPE_WORDS}
    if SIZE_PRODUCT.search(text):  # "Dimensions | 45 × 110 × 120 mm" holds the width, whichever place it is
        said |= {"dimension", *(size_components(text) or SHAPE_NOUNS.values())}
    return said | {SHAPE_NOUNS[w] for w in said if w in SHAPE_NOUNS} | {a for a, n in SHAPE_NOUNS.items() if n in said}


def component_read(attributes: set[str], text: str) -> str:
    """", so the width is 45 mm" after a labelled size product when the asked words (`attributes`) name one of its
    components; else nothing."""
    components = size_components(text)
    asked = next((c for c in components if c in attributes), "")
    return f", so the {asked} is {components[asked]}" if asked else ""
