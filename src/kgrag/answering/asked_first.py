"""Questions written as a few sentences whose asked one refers to a product an earlier one names ("I have the Nano 33
BLE Rev2. Which IMU chips are on it? I know the older version used something different."): the answer paths read a
question's shape from its start ("Which …", "Can I …") and its product from its names, so the asked sentence is read
first, its "on it" / "its" / "that board" named. The sentences before it follow it (the user's situation: "My sensor
outputs 5 V logic."); one after it only when it writes a value or a name the asked sentence does not: the rest is a
remark, words no passage answers. Reading every question of several sentences so was measured in round 63 and lost
on the tuned sets: their situations and remarks moved the quotes."""

from __future__ import annotations

import re

from kgrag.answering.terms import analyse
from kgrag.answering.values import NUMBER_UNIT

_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z\"'(])")
# what the asked sentence calls the product an earlier sentence names: "on it", "its VIN pin", "that board"
_REFERENCE = re.compile(r"\b(?:(?P<its>its)|(?P<to>on|in|of|inside|from) it|(?:this|that|the same) (?:board|module|shield|carrier|kit))\b",
                        re.IGNORECASE)


def asked_first(question: str) -> str:
    """The question with its one asked sentence first and its reference to the product named; unchanged when it is one
    sentence, asks more than one, or its asked sentence names its product or refers to none."""
    sentences = [s.strip() for s in _SENTENCE_END.split(question.strip()) if s.strip()]
    asked = [i for i, s in enumerate(sentences) if s.endswith("?")]
    if len(sentences) < 2 or len(asked) != 1:
        return question
    main = sentences[asked[0]]
    named = {" ".join(p) for s in sentences[:asked[0]] for p in _names(s)}
    if _names(main) or len(named) != 1 or not _REFERENCE.search(main):
        return question  # the asked sentence names its product, or refers to none an earlier sentence names alone
    name = named.pop()  # "I have the A. Which IMU chips are on it?"
    main = _REFERENCE.sub(lambda m: f"the {name}'s" if m["its"] else f"{m['to'] or ''} the {name}".lstrip(), main, count=1)
    after = [s for s in sentences[asked[0] + 1:]  # a remark after the question: kept if it writes a value or a name
             if NUMBER_UNIT.search(s) or any(" ".join(p).lower() not in main.lower() for p in _names(s))]
    return " ".join([main, *sentences[:asked[0]], *after])  # the situation before it, always


def _names(sentence: str) -> list[list[str]]:
    """The product-like names a sentence writes: several words, or one with a digit ("Nano 33 BLE Rev2", "A000005"),
    not an acronym of the trade ("EEPROM")."""
    return [p for p in analyse(sentence).phrases if len(p) > 1 or any(c.isdigit() for c in p[0])]
