"""Yes/no questions whether a feature of one product works with another ("Will the camera on the A work if I put the
shield on a B?"): datasheets state such limits as notes naming the other product ("compatible with the B except for
the camera", "the B is not compatible with the onboard camera"), and such a note decides "No."."""

from __future__ import annotations

import re

from kgrag.answering.names import name_found
from kgrag.answering.select import Scored
from kgrag.answering.words import content_terms, words_found

# a note ruling a feature out with another product: "except for the camera", "not compatible with the camera",
# "is not supported by", "will not work with"
_RULED_OUT = re.compile(r"\b(?P<except>except(?:\s+for)?)\b|\b(?:not|never)\s+(?:\w+\s+){0,2}?(?:compatible|supported|work)\b|"
                        r"\bincompatible\b", re.IGNORECASE)
NEAR = 6  # words between the ruling-out words and the feature they rule out
MAX_NOTES = 2  # ruling-out notes quoted


def incompatible(need: set[str], names: list[list[str]], ranked: list[Scored]) -> list[Scored]:
    """The units (of `ranked`: those close to the question, best first) naming both products (`names`) that rule out a feature the question asks for (`need`: its words
    other than the products' names) within a few words of saying so, best first (the documents often say it twice,
    in each product's datasheet); [] when there is none, or no feature is asked (whether the two products fit at all
    is a question of more than one note)."""
    if len(names) != 2 or not need:
        return []
    need = need | {w.split("-")[0] for w in need if "-" in w}  # "camera-based object detection" needs the camera
    found = []
    for s in ranked:
        text = s.unit.scoped().lower()
        if not all(_names(n, text) for n in names):
            continue
        for m in _RULED_OUT.finditer(s.unit.text):
            before = [] if m.group("except") else s.unit.text[:m.start()].split()[-NEAR:]  # "except for the camera"
            after = s.unit.text[m.end():].split()[:NEAR]
            if words_found(need, content_terms(" ".join(before + after))):
                found.append(s)
                break
    return found[:MAX_NOTES]


def _names(name: list[str], text: str) -> bool:
    """The (lower-cased) text names the product: whole, as a plural ("the Portenta Vision Shields"), or by its line's
    name with its last word, a variant's, elsewhere ("Portenta Vision Shields (Ethernet and LoRa variants)")."""
    whole = " ".join(name).lower()
    if name_found(whole, text) or name_found(f"{whole}s", text):
        return True
    line = " ".join(name[:-1]).lower()
    return len(name) > 2 and (name_found(line, text) or name_found(f"{line}s", text)) and name_found(name[-1].lower(), text)
