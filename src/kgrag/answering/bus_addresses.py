"""Yes/no questions whether two of one device can share a bus ("Can I chain two Modulino Movement nodes on the same
I2C bus?"): two identical devices answer at the same default address, so they can only if the address can be
changed. The device's address row or note decides: "Editable Addresses (HEX): 0x6A, 0x6B (via solder jumper)" or
"any custom address" says yes, "fixed address" or an editable-address cell of "-" / "No" says no."""

from __future__ import annotations

import re

from kgrag.answering.select import Scored

# several devices on one bus: "two … on the same I2C bus", "chain three of them on Qwiic", "on one bus"
_SHARED_BUS = re.compile(r"\b(?:two|three|four|several|multiple|more than one|chain\w*|daisy[- ]?chain\w*)\b"
                         r"[^?]*\b(?:bus|i2c|qwiic)\b", re.IGNORECASE)
_ADDRESS = re.compile(r"\baddress", re.IGNORECASE)
# the address can be changed: an editable or selectable address, a jumper, a custom address
_CHANGEABLE = re.compile(r"\b(?:editable|configurable|selectable|changeable|adjustable|alternative)\b|"
                         r"\bcan be (?:changed|reassigned|set|flipped|modified|selected)\b|\bcustom address\b|"
                         r"\b(?:solder )?jumper\b", re.IGNORECASE)
# it cannot: a fixed address, or an editable-address cell that is empty or "No"
_FIXED = re.compile(r"\bfixed (?:i2c )?address\b|\baddress (?:is fixed|cannot be changed)\b|"
                    r"\b(?:editable|configurable|selectable) address\w*(?: \(hex\))?\s*[:=|]\s*(?:-|no|none|n/a)(?![\w])",
                    re.IGNORECASE)
_HEX = re.compile(r"\b0x[0-9a-f]{1,2}\b", re.IGNORECASE)


def shares_bus(question: str, about: list[Scored]) -> tuple[str, Scored] | None:
    """"Yes." or "No." and the product's unit (`about`: its units close to the question, best first) that decides whether two of it can
    share a bus, when the question asks so; None otherwise or when no address row or note says."""
    if not _SHARED_BUS.search(question):
        return None
    for s in about:
        text = f"{s.unit.heading} {s.unit.display()}"  # a row as "Editable Addresses (HEX): 0x6A, 0x6B" pairs
        if s.unit.kind == "heading" or not _ADDRESS.search(text):
            continue
        if _FIXED.search(text):
            return "No.", s
        if _CHANGEABLE.search(text) and (len(set(h.lower() for h in _HEX.findall(text))) >= 2
                                         or re.search(r"\bany\b", text, re.IGNORECASE)):
            return "Yes.", s
    return None
