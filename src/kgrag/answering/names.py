"""Names in texts: whether a name occurs in a text or a document title names it, the kinds of part and listed items
a product's own passages lack, and names a reply makes up. Which of the question's names the context never
mentions is `unknown_names`."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence

from kgrag.answering.asks import TOKEN, asks_overview
from kgrag.answering.refusal import CITE
from kgrag.answering.words import content_terms, words_found
from kgrag.graph.datasheet.vocab import ORDER_CODE, PRODUCT_TYPE
from kgrag.graph.keys import GENERIC_WORDS
from kgrag.ingest.clean import squash

_QUOTED = re.compile(r"(?<![\w'’])['\"‘“]([^'\"‘’“”]+)['\"’”](?!\w)")


def quoted_words(question: str) -> list[str]:
    """Words inside quotation marks (an error message, a label on screen): text, not names of things."""
    return [w for span in _QUOTED.findall(question) for w in TOKEN.findall(span)]


def is_model_code(name: str) -> bool:
    """A name of letters and digits ("KX-220", "STM32F4xx"), not a word or a number alone."""
    return any(c.isdigit() for c in name) and any(c.isalpha() for c in name)


def name_found(name: str, text_lower: str) -> bool:
    """A name occurs in the (lower-cased) text; one written without a hyphen also where the text hyphenates it ("LiPo"
    in "Li-Po"; "Wi-Fi", written with one, stays as written); a model code also without its hyphen ("KX-220" in
    "kx220"); a part number also matches as the prefix of a longer order code; "A-to-B" where both sides occur."""
    low = name.lower()
    if "-to-" in low:  # "v3-to-v2", "RS-232-to-RS-485": a pair the documents write apart ("from v3 back to v2")
        return all(name_found(side, text_lower) for side in low.split("-to-"))
    bare = "-" not in low and low.isascii() and len(low) <= 40
    pattern = "-?".join(re.escape(c) for c in low) if bare else re.escape(low)
    if is_model_code(low):  # a model code: "KX-220" also as a file
        pattern = pattern.replace(re.escape("-"), "[-_ ]?")  # name writes it, "korvath_kx220_user_manual"
        return (re.search(rf"(?<![a-z0-9]){pattern}", text_lower) is not None
                or re.search(_family_code(low), text_lower) is not None
                or bool(_ORDER_SUFFIX.search(low)) and name_found(_ORDER_SUFFIX.sub("", low), text_lower))
    return re.search(rf"(?<![a-z0-9]){pattern}(?![a-z0-9])", text_lower) is not None


_ORDER_SUFFIX = re.compile(r"(?<=[a-z0-9]{5})/[a-z0-9]{1,2}$")  # "VL53L1CBV0FY/1": the part with a packing suffix
_CODE_DIGITS = re.compile(r"^(?P<head>.*[a-z][-_ ]?\d)(?P<tail>\d{1,3})$")  # "rc-3" + "40", "stm32f4" + "07"


@functools.lru_cache(maxsize=1024)
def _family_code(code: str) -> str:
    """A pattern of the family codes that write a model code's last digits as "x" ("RC-3xx" and "RC-34x" cover
    "RC-340", "STM32F4xx" covers "STM32F407"); one that matches nothing when the code ends in no digits."""
    m = _CODE_DIGITS.match(code)
    if m is None:
        return r"(?!)"
    head, tail = m["head"], m["tail"]
    heads = [re.escape(head + tail[:k]).replace(re.escape("-"), "[-_ ]?") for k in range(len(tail))]
    return "(?<![a-z0-9])(?:" + "|".join(f"{h}x{{{len(tail) - k}}}" for k, h in enumerate(heads)) + ")(?![a-z0-9])"


def code_stem_found(code: str, text_lower: str) -> bool:
    """An order code built from a model the documents name and option segments they list apart ("GX-440-A-R-M20"
    where they write "GX-440" and the ordering guide its option letters): its leading segments name a model."""
    segments = code.split("-")
    stems = ("-".join(segments[:k]) for k in range(len(segments) - 1, 0, -1))
    return any(len(stem) >= 3 and any(c.isdigit() for c in stem) and any(c.isalpha() for c in stem)
               and name_found(stem, text_lower) for stem in stems)


_KIND_WORD = r"(?:board|shield|carrier|kit|module|adapter)"  # what a title may add after a product's name
# … and a model code or two ("Opta Analog Expansion A0602", "… D1608E - D1608S"): a letter or three and four digits or
# more, so a chip ("Nano ESP32") or a generation ("Portenta C33", "UNO R4") stays a name of its own
_MODEL_CODES = r"(?:\s+[a-z]{1,3}\d{4,}[a-z]?(?:\s*[-/]\s*[a-z]{1,3}\d{4,}[a-z]?)*)?"


def title_names(phrase: list[str], title: str) -> bool:
    """A document title ends with the name ("Arduino Nicla Vision" names "Nicla Vision"; "Arduino Nano 33 BLE Sense"
    does not name "Nano 33 BLE", another product), or is the name's last words ("Stella" for "Arduino Stella")."""
    pattern = r"\.?[\s®™]+".join(re.escape(w.lower()) for w in phrase)  # "Cat. M1" for "Cat M1"
    low = title.lower().rstrip(" ®™")  # "Arduino Portenta Breakout Board" names "Portenta Breakout" too
    low = low.replace("_", "/")  # a title from a file name: "M1_NB" was "M1/NB" before "/" was replaced
    if bool(phrase) and re.search(rf"(?<![a-z0-9]){pattern}(?:\s+{_KIND_WORD})?{_MODEL_CODES}$", low) is not None:
        return True
    words = low.split()  # a fact's subject "Stella" for the question's "Arduino Stella": the name without its vendor
    return bool(words) and [w.lower() for w in phrase[-len(words):]] == words and len(phrase) > len(words)


def documented_names(phrases: Sequence[list[str]], titles: Iterable[str]) -> list[list[str]]:
    """The question's names (`phrases`) that a document title names (`title_names`): the products with documents
    here, not a word such as "USB" or "VIN"."""
    held = [t for t in titles if t]
    return [p for p in phrases if any(title_names(p, t) for t in held)]


_PLURAL_ACRONYM = re.compile(r"[A-Z0-9]{2,}s")  # "VOCs", "LEDs": the acronym, counted


def mentioned(name: str, names_text: str) -> bool:
    """A one-word name occurs in the (lower-cased) context (hyphens aside, either way: "Li-Po" is "LiPo", "Micro-USB"
    "micro USB"), as the singular of a plural acronym, or, for a "USB-C-to-HDMI" adapter, as each of its names."""
    if name_found(name, names_text):
        return True
    if "-" in name and any(name_found(name.replace("-", sep), names_text) for sep in ("", " ")):
        return True
    if _PLURAL_ACRONYM.fullmatch(name):
        return name_found(name[:-1], names_text)
    if in_a_label_range(name, names_text):
        return True
    ends = re.split(r"-(?:to|and)-", name)
    return len(ends) > 1 and all(mentioned(e, names_text) for e in ends if e)


_LABEL = re.compile(r"([a-z]{1,3})(\d{1,3})")  # a pin or channel label: "A6", "D13", "CH5"


def in_a_label_range(name: str, names_text: str) -> bool:
    """A pin or channel label falls in a range the (lower-cased) context writes: "A6" in "A4-A7", "CH6" in "CH5 to CH9"."""
    label = _LABEL.fullmatch(name.lower())
    if not label:
        return False
    prefix, number = re.escape(label[1]), int(label[2])
    ranges = re.finditer(rf"(?<![\w-]){prefix}(\d{{1,3}})\s?(?:-|–|to|~|\.\.)\s?(?:{prefix})?(\d{{1,3}})(?![\w-])", names_text)
    return any(int(r[1]) <= number <= int(r[2]) for r in ranges)


_CATALOGUE_WORDS = frozenset({"sku", "variant", "version", "model", "family", "series"})  # "the Zephyr Max SKUs"


def is_class_word(word: str) -> bool:
    """A class noun ("Board", "Kits", "Sensor") or a catalogue word ("SKUs", "Variants"), which a question may
    capitalise or put after a product's name but which names nothing."""
    return word.lower().rstrip("s") in GENERIC_WORDS | _CATALOGUE_WORDS


def trim_class_words(phrase: list[str]) -> list[str]:
    """The phrase without class nouns at its ends."""
    start, end = 0, len(phrase)
    while start < end and is_class_word(phrase[start]):
        start += 1
    while end > start and is_class_word(phrase[end - 1]):
        end -= 1
    return phrase[start:end]


def names_item(item: str, others: list[str], text: str) -> bool:
    """The text names a listed item by the words that set it apart from the list's other items: "BT EDR" names
    "Bluetooth EDR" beside "Bluetooth LE"; a word may be written without its hyphen ("WiFi" for "Wi-Fi"), one of
    several a slash joins ("BR/EDR"), or inside a longer acronym ("BLE" for "LE")."""
    shared = {w.lower() for o in others for w in o.split()}
    own = [w for w in item.split() if w.lower() not in shared] or item.split()
    tokens = [t for t in re.split(r"[\s/(),;:|]+", text) if t]
    written = {squash(t) for t in tokens}
    acronyms = [t for t in tokens if t.isupper() and len(t) <= 5]
    return all(squash(w) in written or w.isupper() and len(w) >= 2 and any(a.endswith(w) for a in acronyms) for w in own)


# Kinds of part a question may ask about that a product either has or not, each with the words datasheets use for it.
PART_KINDS = {"camera": ("camera", "image sensor"), "microphone": ("microphone", "mic"),
              "display": ("display", "screen", "lcd", "oled", "tft"), "buzzer": ("buzzer", "speaker"),
              "speaker": ("speaker", "buzzer"), "motor": ("motor",), "barometer": ("barometer", "pressure sensor"),
              "magnetometer": ("magnetometer", "magnetic"), "gyroscope": ("gyroscope", "imu"),
              "accelerometer": ("accelerometer", "imu")}


def missing_kind(asked: set[str], own_texts: list[str]) -> str | None:
    """A kind of part the question asks about ("What is the camera frame rate of the X?") that none of the asked
    product's own passages in the context names: the product has none that its documents describe, so a value of
    something else ("data rate: 5 Mbit/s") must not answer it. None when no own passage was found."""
    if not own_texts:
        return None
    low = "\n".join(own_texts).lower()
    for kind, words in PART_KINDS.items():
        if kind in asked and not any(re.search(rf"(?<![a-z]){re.escape(w)}", low) for w in words):
            return kind
    return None


_ITEM_SPLIT = re.compile(r",\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")


def missing_items(question: str, names: list[list[str]], own_texts: list[str]) -> list[str]:
    """The things an overview question lists after a colon ("Summarize its SMT guidance: reflow profile, moisture
    sensitivity level, and tape and reel") when no passage of the asked product's own names any one of them with all
    its words: its documents do not cover what is asked, and a small model would make the overview up. Empty when
    one item is covered, the question lists fewer than two, or no own passage was found."""
    head, colon, tail = question.rpartition(":")
    if not colon or not own_texts or not asks_overview(head):
        return []
    named = {w.lower() for name in names for w in name}
    items = [i.strip(" ?.") for i in _ITEM_SPLIT.split(tail) if i.strip(" ?.")]
    wanted = [(item, terms) for item in items if (terms := content_terms(item) - named)]
    if len(wanted) < 2:
        return []
    units = [content_terms(text) for text in own_texts]
    if any(words_found(terms, words) == terms for _, terms in wanted for words in units):
        return []
    return [item for item, _ in wanted]


# A capitalised word inside a sentence ("… English, Spanish, Portuguese and Catalan"): a name; not the first word of a
# sentence, a list item or a bold lead, which any word may be
_INNER_NAME = re.compile(r"(?<![\w-])[A-Z][a-z]{2,}(?![\w-])")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*(?:[-*•]|\d+\.)?\s*|\*\*|[(\"“])$")


def made_up_names(reply: str, sources: list[str]) -> list[str]:
    """Capitalised words inside the sentences of `reply` whose first five letters no source writes, even inside a word
    ("Nose" of "eNose" is written): "Spanish", "Catalan" as the languages a board understands, where no datasheet names
    any. A small model makes names up as it makes up values."""
    text = CITE.sub(" ", reply)
    written = " ".join(sources).lower()
    found = [m.group(0) for m in _INNER_NAME.finditer(text) if not _SENTENCE_START.search(text[:m.start()])
             and m.group(0).lower()[:5] not in written]
    return list(dict.fromkeys(found))


def whole_name(phrase: list[str], text_lower: str) -> bool:
    """All words of a several-word name, in order and adjacent, in the (lower-cased) text."""
    pattern = r"[\s®™]+".join(re.escape(w.lower()) for w in phrase)
    return re.search(rf"(?<![a-z0-9]){pattern}(?![a-z0-9])", text_lower) is not None


def coded_product(question: str, linked: Sequence[Mapping[str, str]]) -> str:
    """The product a question names only by its one order code ("Overview of ABX00087 please"): the one product the
    retriever linked (context info "linked") that the question does not name; "" otherwise."""
    codes = set(ORDER_CODE.findall(question))
    products = {link["name"] for link in linked if link.get("type") == PRODUCT_TYPE
                and link["name"].lower() not in question.lower()}
    return products.pop() if len(codes) == 1 and len(products) == 1 else ""
