"""Names a question is about that the retrieved context never mentions: a small model would answer about
something else ("the Nicla Sense ME" answered from the "Nicla Sense Env" datasheet), so the answer says so."""

from __future__ import annotations

import re

from kgrag.answering.terms import QuestionTerms, name_found, quoted_words
from kgrag.graph.keys import GENERIC_WORDS


def missing_names(question: str, q: QuestionTerms, names_text: str) -> list[str]:
    """Names the question is about (capitalised words and multi-word names, not part numbers, not inside quotes)
    that the context (`names_text`: its headers and texts, lower-cased) never mentions: a small model would answer
    about something else. Part numbers are checked apart (any one found is enough: order codes extend them), and a
    multi-word name holding a part number found in the context counts as found ("Microchip ATECC608A")."""
    quoted = {t.lower() for t in quoted_words(question)}
    names = [n for n in q.names if n not in q.parts and not n.isdigit() and n.lower() not in quoted
             and not is_class_word(n)]
    missing = [n for n in names if not all(name_found(p, names_text) for p in n.split("/") if p)]  # "J-Link/Blackmagic"
    squashed = squash(names_text)
    for phrase in q.phrases:  # a name of several words counts whole: "Nicla Sense ME" is not "Nicla Sense Env"
        if any(w in q.parts and name_found(w, names_text) for w in phrase):
            missing = [n for n in missing if n not in phrase]  # "Microchip ATECC608A": the part is what is named
            continue
        phrase = trim_class_words(phrase)  # "the Nicla Voice Board": the datasheet says "Nicla Voice"
        if len(phrase) < 2 or any(w.lower() in quoted for w in phrase):
            continue
        if not named_whole(phrase, names_text, squashed):
            missing = [n for n in missing if n not in phrase] + [" ".join(phrase)]
    return missing


def named_whole(phrase: list[str], names_text: str, squashed: str) -> bool:
    """The context writes the name whole, or without leading words it has elsewhere (a vendor: "Arduino UNO R4
    WiFi" where the datasheet says "UNO R4 WiFi"); at least two words must match together."""
    for start in range(len(phrase) - 1):
        if start and not name_found(phrase[start - 1], names_text):
            return False
        if squash(" ".join(phrase[start:])) in squashed:
            return True
    return False


def is_class_word(word: str) -> bool:
    """A class noun ("Board", "Kits", "Sensor"), which a question may capitalise but which names nothing."""
    return word.lower().rstrip("s") in GENERIC_WORDS


def trim_class_words(phrase: list[str]) -> list[str]:
    """The phrase without class nouns at its ends."""
    start, end = 0, len(phrase)
    while start < end and is_class_word(phrase[start]):
        start += 1
    while end > start and is_class_word(phrase[end - 1]):
        end -= 1
    return phrase[start:end]


def squash(text: str) -> str:
    """Lower-case letters and digits only, so "Arduino® Nano 33 BLE" and "arduino nano 33 ble" compare equal."""
    return re.sub(r"[\W_]+", "", text.lower())
