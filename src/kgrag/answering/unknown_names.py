"""The names a question is about that the retrieved context never mentions, or only lists: a small model would answer
about something else ("the Nicla Sense ME" answered from the "Nicla Sense Env" datasheet), so the answer says so."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from kgrag.answering.names import is_class_word, mentioned, name_found, quoted_words, trim_class_words
from kgrag.answering.terms import REVISION, QuestionTerms
from kgrag.answering.units import block_units
from kgrag.answering.values import NUMBER_UNIT
from kgrag.graph.datasheet.vocab import ORDER_CODE
from kgrag.ingest.clean import squash

_QUANTITY = re.compile(r"\d+(?:[.,]\d+)?(?:-[a-z]+|[A-Za-z]{1,3})")  # "16-bit", "9-axis", "2MP", "4GB": a figure
_ACRONYM = re.compile(r"[A-Z]{2,6}s?(?:-[A-Z]|-[a-z]+)?|[A-Z][a-z][A-Z]{1,2}s?")  # "RTC", "PC", "OLEDs", "USB-A",
# "EU-type", "UL-listed", and with a small linking letter "SoC", "ToF", "PoE": technical vocabulary


# Battery chemistries users write as names ("hook a LiPo to it"); datasheets say "Li-Po", "Li-ion" or just "battery"
_CHEMISTRIES = frozenset({"lipo", "li-po", "li-ion", "liion", "lifepo4", "nimh", "nicd"})


def is_vocabulary(word: str) -> bool:
    """A word of the trade, not the name of a product: an all-capital acronym ("RTC", "SWD", "PC", "USB-A"), a
    value the user writes ("5V"), a figure ("16-bit", "2MP") or a battery chemistry ("LiPo"). Documents spell such words out ("Real-Time Clock") or use their own; a context
    without them can still answer, so only products and parts written as names are checked."""
    return (_ACRONYM.fullmatch(word) is not None or NUMBER_UNIT.fullmatch(word) is not None
            or _QUANTITY.fullmatch(word) is not None or word.lower().rstrip("s") in _CHEMISTRIES)


def trim_figures(phrase: list[str]) -> list[str]:
    """The phrase without the figures a question writes before or after a name ("its 16-bit ADC", "the Nicla Vision
    2MP camera", "the Nano 33 BLE 9-axis IMU"): they say what is asked, the name is the rest. Of figures after a
    name two words stay ("Pro 4G" is a name)."""
    start, end = 0, len(phrase)
    while start < end - 1 and _QUANTITY.fullmatch(phrase[start]):
        start += 1
    while end - start > 2 and _QUANTITY.fullmatch(phrase[end - 1]):
        end -= 1
    return phrase[start:end]


_PLURAL_KIND = re.compile(r"[A-Z]{2,6}s")  # "PLCs", "MCUs" after a product's name: its kind, counted
_BY_CHIP = re.compile(r"[\w-]-(?:based|powered|equipped)\b", re.IGNORECASE)  # "the R7FA6M5BH2CBG-based Portenta board"
_NEAR_WORDS = 3  # words between a product line's name and a part number that name one product ("Portenta H7 Lite: ABX00045")


def _product_after_its_chip(phrase: list[str], parts: list[str], names_text: str, titles: Sequence[str],
                            rows: Callable[[], str] = str) -> bool:
    """A name of a part number and a word of the documents' (lower-cased) titles ("Nano ESP32") that the
    (lower-cased) context never writes within a few words of each other: a product of that line named after its chip,
    not the chip (a Nano 33 IoT datasheet's "module based on ESP32" is far from its "Nano"). "Portenta ABX00045" is
    named by "Portenta H7 Lite: ABX00045" (a table's header over its SKU cell, in `rows`), "Blackmoor GX-430" by a
    title writing both ("GX-430 zero drifting negative … - Blackmoor STW")."""
    others = [w.lower() for w in phrase if w not in parts]
    if len(others) != 1 or REVISION.fullmatch(others[0]) or not name_found(others[0], " ".join(titles)):
        return False  # "the Rev2 ABX00073": the code named with its revision, no product named after a chip
    if any(name_found(others[0], t) and all(name_found(p.lower(), t) for p in parts) for t in titles):
        return False
    other = re.escape(others[0])
    near = rf"[^\w\n]+(?:[\w.-]+[^\w\n]+){{0,{_NEAR_WORDS}}}"
    ends = [re.escape(p.lower()) for p in parts]
    patterns = [rf"(?<![\w-]){a}{near}{b}(?![\w-])" for e in ends for a, b in ((other, e), (e, other))]

    def paired(text: str) -> bool:
        return any(re.search(pattern, text) for pattern in patterns)

    return not (paired(names_text) or paired(rows()))  # the rows are read only when the text does not pair them


def named_whole(phrase: list[str], names_text: str, squashed: str) -> bool:
    """The context writes the name whole, or without leading words it has elsewhere (a vendor: "Arduino UNO R4
    WiFi" where the datasheet says "UNO R4 WiFi"), or with alternatives before a slash ("Bluetooth BR/EDR" names
    "Bluetooth EDR"); at least two words must match together."""
    if written_with_alternatives(phrase, names_text):
        return True
    for start in range(len(phrase) - 1):
        if start and not name_found(phrase[start - 1], names_text):
            return False
        if squash(" ".join(phrase[start:])) in squashed:
            return True
    return False


_ALTERNATIVES = r"\s+(?:[a-z0-9.+-]+/)*"  # "br/" in "bluetooth br/edr", "b/g/" in "802.11 b/g/n"


def written_with_alternatives(phrase: list[str], names_text: str) -> bool:
    """The (lower-cased) context writes the phrase's words in order with alternatives joined by slashes before a word,
    as datasheets write one of several modes or standards ("Bluetooth BR/EDR", "802.11 b/g/n")."""
    pattern = _ALTERNATIVES.join(re.escape(w.lower()) for w in phrase)
    return re.search(rf"(?<![a-z0-9]){pattern}(?![a-z0-9])", names_text) is not None


def missing_names(question: str, q: QuestionTerms, names_text: str, titles: Sequence[str] = (),
                  rows: Callable[[], str] = str) -> list[str]:
    """Names the question is about (capitalised words and multi-word names, not part numbers, not inside quotes)
    that the context (`names_text`: its headers and texts, lower-cased) never mentions: a small model would answer
    about something else. Part numbers are checked apart (any one found is enough: order codes extend them), and a
    multi-word name holding a part number found in the context counts as found ("Microchip ATECC608A") unless its
    other word is a word of the context's document `titles`: "Nano ESP32" beside "Arduino Nano 33 IoT" names a
    product of that line after its chip, and the ESP32 in the Nano 33 IoT's datasheet is not it, unless the two
    stand together in the text or in a table row read with its header (`rows`, asked for only then)."""
    quoted = {t.lower() for t in quoted_words(question)}
    names = [n for n in q.names if n not in q.parts and not n.isdigit() and n.lower() not in quoted
             and not is_class_word(n) and not is_vocabulary(n)]
    missing = [n for n in names if not all(mentioned(p, names_text) for p in n.split("/") if p)]  # "J-Link/Blackmagic"
    squashed = squash(names_text)
    lowered = [t.lower() for t in titles]
    for phrase in q.phrases:  # a name of several words counts whole: "Nicla Sense ME" is not "Nicla Sense Env"
        parts = [w for w in phrase if w in q.parts]
        if (len(phrase) - len(parts) <= 1 and any(name_found(w, names_text) for w in parts)
                and (_BY_CHIP.search(question) and phrase[0] in parts  # "the SAM3X8E-based Due": a board by its chip
                     or not _product_after_its_chip(phrase, parts, names_text, lowered, rows))):
            missing = [n for n in missing if n not in phrase]  # "Microchip ATECC608A": the part is what is named
            continue  # (not "Arduino Nano ESP32": a product named after its chip is more than the chip)
        phrase = [w for w in phrase if not (ORDER_CODE.fullmatch(w) and name_found(w.lower(), names_text))]  # its
        phrase = trim_class_words(trim_figures(trim_class_words(phrase)))  # code apart; "the Nicla Voice Board": the datasheet
        if len(phrase) > 2 and _PLURAL_KIND.fullmatch(phrase[-1]) and mentioned(phrase[-1], names_text):
            phrase = phrase[:-1]  # "the Arduino Opta PLCs": the products of that kind, a kind the documents write
        if len(phrase) < 2 or any(w.lower() in quoted for w in phrase):  # says "Nicla Voice"; "its 2MP camera"
            continue
        if all(is_vocabulary(w) for w in phrase):  # "the ERR LED": acronyms of the trade, which a table row
            continue  # writes apart ("LED | State" over "ERR | blinking red"), name no product
        if not named_whole(phrase, names_text, squashed):
            missing = [n for n in missing if n not in phrase] + [" ".join(phrase)]
    return missing


class Unknown(NamedTuple):
    """Names of the question the context does not describe, and how the answer says so."""

    key: str  # the context info key reporting them: missing_names | named_in_passing
    verb: str  # "The documents found do not <verb> X": mention | describe (they only list)
    names: list[str]


def unknown_names(question: str, q: QuestionTerms, names_text: str, sources: list[tuple[str, str, bool]],
                  mode: str) -> Unknown | None:
    """Names the context never mentions, else names it only lists; None when every name is described, and for
    generative mode (a strong model reads the full context and says so itself)."""
    if mode == "generative":
        return None
    @functools.cache
    def rows() -> str:  # the tables' rows with their headers: read only for a name the text does not pair
        return "\n".join(u.display() for _, text, _ in sources for u in block_units(0, text) if u.kind == "row").lower()

    missing = missing_names(question, q, names_text, [title for title, _, _ in sources], rows)
    if missing:
        return Unknown("missing_names", "mention", missing)
    listed = named_in_passing(q, sources)
    return Unknown("named_in_passing", "describe (they only list)", listed) if listed else None


_EXAMPLE = re.compile(r"\((?:e\.g\.|for example|such as)[^)]*\)", re.IGNORECASE)  # "(e.g., Arduino UNO R4 WiFi)"
_SKU_NOTE = re.compile(r"\(\s*sku\b[^)]*\)", re.IGNORECASE)
_LIST_ITEM_WORDS = 2  # words besides the name and its order code that a bare list line may hold (a vendor, a bullet)


def named_in_passing(q: QuestionTerms, sources: list[tuple[str, str, bool]]) -> list[str]:
    """The question's product names (two words or more) that the sources — (title, text, is graph facts) — name
    only in passing: as bare lines of a related-products list or as an example in brackets, with no title, fact or
    table row about them. The documents then hold nothing about the product itself."""
    described = [title for title, _, _ in sources] + [text for _, text, facts in sources if facts]
    passages = [text for _, text, facts in sources if not facts]
    found = []
    for phrase in q.phrases:
        phrase = trim_class_words(phrase)
        if len(phrase) < 2:
            continue
        name = " ".join(phrase).lower()
        if any(name_found(name, text.lower()) for text in described):
            continue
        lines = [line for text in passages for line in text.lower().splitlines() if name_found(name, line)]
        if lines and all(_in_passing(name, line) for line in lines):
            found.append(" ".join(phrase))
    return found


def _in_passing(name: str, line: str) -> bool:
    """The (lower-cased) line names `name` only as a list item ("arduino uno r4 wifi (sku: abx00087)") or an example."""
    if "|" in line:
        return False  # a table row says something about it
    rest = _EXAMPLE.sub(" ", line)
    if not name_found(name, rest):
        return True
    rest = _SKU_NOTE.sub(" ", rest.replace(name, " "))
    return len(rest.split()) <= _LIST_ITEM_WORDS
