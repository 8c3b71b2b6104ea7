"""Does a generated reply say something its sources hold? Small models fill a gap with a plausible number ("The UNO Q
costs $1,000", "weighs about 1.12 kg" from a "1.12 mm mounting hole") when the documents hold none — a stated
quantity whose number the sources never give, or give only as another kind of quantity, is made up — or restate the
question ("The temperature sensor is on the DIN Celsius") or answer a question asking for a quantity without one
("The Proto Shield costs approximately [1] USD"), which answers nothing."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from kgrag.answering.asks import TOKEN, asked_acronyms, asks_overview, asks_remedy, second_question
from kgrag.answering.names import made_up_names, name_found, title_names
from kgrag.answering.numbers import (
    BARE,
    JOINED_WORD,
    MONEY,
    STANDALONE_NUMBER,
    number_form,
    number_uses,
    stated_values,
    without_heading_numbers,
)
from kgrag.answering.on_topic import echoes, off_topic
from kgrag.answering.refusal import CITE
from kgrag.answering.swaps import swapped_subjects
from kgrag.answering.terms import CLASS_WORDS, PRODUCT_WORDS, analyse, asked_head, asks_kind, asks_product
from kgrag.answering.units import FACT_SUBJECT
from kgrag.answering.values import (
    ASKS_PART_NUMBER,
    ASKS_VERSION,
    COST,
    NUMBER_UNIT,
    NUMBER_WORDS,
    RANGE_ENDS,
    RATING_CODES,
    VERSION,
    asked_dimensions,
    count_digits,
    dimension_of_unit,
    part_numbers,
    value_dimensions,
    without_values_of,
    written_dimensions,
)
from kgrag.answering.words import asks_rating, code_words, fold, opposed_qualifier, stem, words_found

_IN_PRODUCT = re.compile(r"^in product \| ([^\[\n]+)", re.MULTILINE)
# A number of its own: a count word, or digits not glued after letters ("U3", "LV52204" and "Cortex-M4" name parts)
_ANY_NUMBER = re.compile(rf"(?<![\w-])(?:{NUMBER_WORDS})(?![\w-])|(?<![A-Za-z\d.])\d+(?:[.,]\d+)?", re.IGNORECASE)
# "SIL 3", "IP 67"; not "BL-3" of a version family "BL-3.x"
DESIGNATION = re.compile(r"\b([A-Z]{2,5}|Class|Level|Grade|Type|Cat)[ -](\d+(?:\.\d+)?)\b(?!\s?%|\.[A-Za-z])")
# A question asking a protection or safety designation ("What IP rating …", "which SIL level"); the codes are general
# engineering knowledge, like the quantities of `values.DIMENSIONS`.
_ASKS_DESIGNATION = re.compile(rf"\b({'|'.join(sorted(RATING_CODES))})\s+(?:rating|code|class|level)s?\b"
                               r"|\b(?i:ingress protection)\b")
_ASKS_YEAR = re.compile(r"\b(?:which|what)\s+year\b|\buntil\s+when\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_VERSION_WORD = re.compile(r"\bversions?\b", re.IGNORECASE)
_ROW_NUMBER = re.compile(r"^[ \t]*\d+[ \t]*\|", re.MULTILINE)  # a number leading a table row numbers the row (a pin, a step)
# a number after what it numbers: "Analog input 10", "pin 3", "channel 2" (a count stands before: "16 analog inputs")
_INDEXED = re.compile(r"\b((?:pin|input|output|channel|port|slot|step|bit|register|relay|terminal|contact)s?)\s+\d+\b",
                      re.IGNORECASE)
_HOW_ADJECTIVE = re.compile(r"^\s*how\s+(\w+)", re.IGNORECASE)  # "how long", "how fast", "how heavy": the asked quantity


def _number_uses_of(sources: Iterable[str]) -> dict[str, set[str]]:
    """`number_uses` of every source together: each number -> every quantity some source writes it with."""
    uses: dict[str, set[str]] = defaultdict(set)
    for text in sources:
        for value, dims in number_uses(text).items():
            uses[value] |= dims
    return uses


def without_indices(text: str) -> str:
    """`text` without the numbers that number a thing: a table row's leading pin or step number, "pin 10", "input
    10" ("10 | A10 | Analog input 10" is pin 10 and input 10: no ten inputs, no 10 mA)."""
    return _INDEXED.sub(r"\1", _ROW_NUMBER.sub("|", text))


def unsupported_values(reply: str, sources: Iterable[str]) -> list[str]:
    """The stated quantities of `reply` that no source gives: the number is absent, or written only with units
    of other quantities (the question counts as a source). A number some source writes bare backs the reply's unit
    only when no source writes it with a unit: "20 mA" over "20 MHz" and a bare "20" borrows the clock's number,
    "180 µA" over "180 mA" is another scale."""
    uses = _number_uses_of(sources)
    return [value for value, dims in stated_values(reply)
            if not (uses.get(value, set()) & (dims if MONEY in dims or uses.get(value, set()) - {BARE} else dims | {BARE}))]


_THOUSANDS = re.compile(r"(?<=\d)[,\u202f ](?=\d{3}(?!\d))")  # the separator of "8,000" and "8 000"
_LONG_NUMBER = re.compile(r"(?<![\w.,:/-])\d{3,}(?![\w%°/-]|[.,]\d|\s?%)")  # "port 8083", "register 40045"


def made_up_numbers(reply: str, texts: Sequence[str]) -> list[str]:
    """Whole numbers of three or more digits written without a unit (ports, registers, codes) that no source writes
    anywhere, not even inside an address ("mqtts://host:8883"): a small model's "8083"."""
    written = _THOUSANDS.sub("", "\n".join(texts))  # "8,000 hours" writes 8000
    text = CITE.sub(" ", reply)
    found = [m.group(0) for m in _LONG_NUMBER.finditer(text)
             if not NUMBER_UNIT.match(text, m.start()) and not re.search(rf"(?<!\d){m.group(0)}(?!\d)", written)]
    return list(dict.fromkeys(found))


def unsupported_counts(question: str, reply: str, sources: Iterable[str]) -> list[str]:
    """The counts a reply gives for a how-many question ("The GW-500 has 6 Modbus devices") that no source writes as
    a count (a number without a unit, or in words): a number the sources write only with a unit ("6 W"), or only
    numbering a table row or a thing ("10 | A10 | Analog input 10"), counts nothing, and a small model takes one from
    a nearby row."""
    if not analyse(question).count_of:
        return []
    uses = _number_uses_of(without_indices(text) for text in sources)
    words = {count_digits(w) for w in re.findall(rf"\b(?:{NUMBER_WORDS})\b", " ".join(sources), re.IGNORECASE)
             if not w.isdigit()}  # "two RS-485 ports"
    text = CITE.sub(" ", reply)
    counts = [number_form(m.group(0)) for m in STANDALONE_NUMBER.finditer(text)  # not a unit's value, nor a code's
              if not NUMBER_UNIT.match(text, m.start()) and not JOINED_WORD.match(text, m.end())  # number ("GW-500")
              and not text[:m.start()].endswith("-")]
    return [n for n in dict.fromkeys(counts) if BARE not in uses.get(n, set()) and n not in words]


def other_ratings(question: str, reply: str, sources: Iterable[str]) -> list[str]:
    """The reply's values that the sources give only for another rating of the asked quantity: "the storage
    temperature is -20 to 80 °C" where the only line with those numbers is the operating temperature's."""
    asked = analyse(question).attributes
    stated = {value for value, _ in stated_values(reply)}
    if not stated or not asks_rating(asked):  # most questions name no rating of a pair: nothing to read
        return []
    giving: dict[str, list[str]] = defaultdict(list)
    for text in sources:
        for line in text.splitlines():
            for value in stated & number_uses(line).keys():
                giving[value].append(line)
    return [value for value in sorted(giving) if all(opposed_qualifier(asked, line) for line in giving[value])]


def cut_ranges(reply: str, sources: Iterable[str]) -> list[str]:
    """Stated quantities of `reply` that the sources write only as one end of a range the reply does not give whole:
    "1.5 mm²" for "1.5 to 2.5 mm²" (a small model keeps the first number of a range)."""
    ends: dict[str, set[str]] = defaultdict(set)  # a range end -> the other ends it is written with
    alone: set[str] = set()
    for text in sources:
        ranges = list(RANGE_ENDS.finditer(text))
        for m in ranges:
            ends[number_form(m.group(1))].add(number_form(m.group(2)))
            ends[number_form(m.group(2))].add(number_form(m.group(1)))
        inside = {m.start(2) for m in ranges}
        alone |= {number_form(m.group(1)) for m in NUMBER_UNIT.finditer(text) if m.start() not in inside}
    said = {number_form(m.group(0)) for m in STANDALONE_NUMBER.finditer(CITE.sub(" ", reply))}
    return [v for v, _ in stated_values(reply) if ends.get(v) and v not in alone and not ends[v] & said]


def unsupported_designations(reply: str, sources: Iterable[str]) -> list[str]:
    """Ratings and levels written as an acronym and a number ("SIL 13", "IP 67", "Class 2") that no source writes
    (with or without the space): a small model makes them up from a nearby number."""
    written = " ".join(sources).lower()
    found = []
    for m in DESIGNATION.finditer(CITE.sub(" ", reply)):
        code, number = m.group(1).lower(), m.group(2)
        if re.search(rf"(?<![a-z0-9]){re.escape(code)}[\s-]?{re.escape(number)}(?![\d.])", written):
            continue
        if ("." in number or len(number) > 2) and re.search(rf"(?<![\w.]){re.escape(number)}(?![\d])", written):
            continue  # "IEEE 802.11" where the source writes "802.11 b/g/n": the number alone names it
        found.append(m.group(0))
    return list(dict.fromkeys(found))


def unsupported_versions(reply: str, sources: Iterable[str]) -> list[str]:
    """Version numbers of `reply` ("Linux 5.10", "v2.1") that no source writes: a small model makes them up. A section
    number ("section: 2.1 General Specifications", a line "2.1 General …") writes no version."""
    written = " ".join(without_heading_numbers(text) for text in sources).lower()
    said = [m.group(0) for m in VERSION.finditer(CITE.sub(" ", reply))]
    return [v for v in dict.fromkeys(said) if not re.search(rf"(?<![\w.]){re.escape(v.lower())}(?![\w])", written)
            and not _dotted_number_written(v, written)]


def _dotted_number_written(version: str, written: str) -> bool:
    """A dotted version ("version 3.1", "v2.6.0") whose number the sources write, however they name it ("GX Service
    Tool 3.1 or later"); a single number ("version 3") must be written as a version."""
    number = re.search(r"\d+(?:\.\d+)+", version)
    return bool(number) and re.search(rf"(?<![\w.]){re.escape(number.group(0))}(?![\w]|\.\d)", written) is not None


def values_of_other_products(reply: str, question: str, sources: Iterable[tuple[str, str]]) -> list[str]:
    """The stated quantities and part numbers of `reply` that only sources about products the question does not name
    give ("60 fps" for the Nicla Vision's camera, from the Vision Shield's datasheet; "IP20" for the Machine Control,
    from the Opta's). `sources` are (document title, text); a source without a title (facts gathered from several
    documents) is judged per subject group. A title is about a named product when it ends with the name ("Arduino
    Nano 33 BLE" for "Nano 33 BLE", not "Arduino Nano 33 BLE Sense"). When no source is about a named product, the
    sources about another model of its series ("… ThermaCam TX-20 …" for the TX-40) are the other products' (the
    TX-20's "9 Hz" is no frame rate of the TX-40); with neither, nothing is judged."""
    q = analyse(question)
    sources = list(sources)

    def named(title: str) -> bool:
        return any(title_names(p, title) for p in q.phrases)

    sibling = _sibling_model(q.parts)
    by_name = any(named(title) for title, _ in sources if title)
    if not by_name and not any(sibling(title) for title, _ in sources if title):
        return []

    def asked(title: str) -> bool:  # every source not about a sibling model may be about the asked one
        return named(title) if by_name else not sibling(title)
    own: dict[str, set[str]] = defaultdict(set)  # values of the asked products' sources (and untitled ones)
    other: dict[str, set[str]] = defaultdict(set)
    own_text, other_text = [], []
    pieces = [(title, text) for title, text in sources if title] + [("", question)]
    for title, text in sources:
        if not title:  # gathered facts: each subject's group is judged by whom it is about
            pieces += [(_about_product(group, asked), group) for group in _fact_groups(text)]
    for title, text in pieces:
        mine = not title or asked(title)
        (own_text if mine else other_text).append(text.lower())
        for value, dims in number_uses(without_indices(text) if mine else text).items():  # the asked product's pin
            (own if mine else other)[value] |= dims  # 16 gives no "16 mA" another product's table gives
    found = [value for value, dims in stated_values(reply)
             if not own.get(value, set()) & (dims | {BARE}) and other.get(value, set()) & (dims | {BARE})]
    mine_all, theirs = "\n".join(own_text), "\n".join(other_text)
    for part in dict.fromkeys(part_numbers(CITE.sub(" ", reply))):  # a chip or rating ("BMI270", "IP20") too
        if not name_found(part, mine_all) and name_found(part, theirs):
            found.append(part)
    return found


_CODE_LETTERS = re.compile(r"([A-Za-z]{2,})-?\d")  # the series letters of a model code: "TX" of "TX-40"
# a title about a whole series: "GX-400 Series", "RC-3xx", "GX-400 parts, pricing and service data"
_SERIES = re.compile(r"\b(?:series|family|range)\b|[A-Za-z]-?\d+(?:00|xx?)\b", re.IGNORECASE)


def _sibling_model(parts: Sequence[str]) -> Callable[[str], bool]:
    """Whether a document title is about another model of an asked model's series: it names a code with the same
    letters and other digits ("TX-20" for the asked "TX-40") and none of the asked codes, and is no series' title."""
    letters = {m.group(1).lower() for p in parts if (m := _CODE_LETTERS.match(p))}

    def sibling(title: str) -> bool:
        low = title.lower()
        return bool(letters) and not _SERIES.search(title) and not any(name_found(p, low) for p in parts) and any(
            (m := _CODE_LETTERS.match(code)) is not None and m.group(1).lower() in letters for code in part_numbers(title))

    return sibling


def _fact_groups(text: str) -> list[str]:
    """A gathered fact block cut at its "Subject (Type)" lines."""
    groups: list[list[str]] = [[]]
    for line in text.splitlines():
        if FACT_SUBJECT.match(line.strip()) and groups[-1]:
            groups.append([])
        groups[-1].append(line)
    return ["\n".join(g) for g in groups if g]


def _about_product(group: str, asked: Callable[[str], bool]) -> str:
    """The product a fact group is about when that is not an asked one: a product subject ("Opta (Product)"), or a
    part whose `in product` lines name only other products ("BMI270 (Sensor) / in product | Nano 33 BLE Rev2");
    "" when it may be about an asked product."""
    head = FACT_SUBJECT.match(group.splitlines()[0].strip()) if group.strip() else None
    if head and (head["type"] == "Product" or head["owner"]):  # "SX1302 (Component, in WisGate Edge Lite 2)"
        product = head["name"] if head["type"] == "Product" else head["owner"]
        return "" if asked(product) else product
    owners = [m.group(1).strip() for m in _IN_PRODUCT.finditer(group)]
    return owners[0] if owners and not any(asked(o) for o in owners) else ""


def lacks_asked_value(question: str, reply: str) -> bool:
    """A question asking for a year answered without one, or a part number without a part number the question does
    not write; a question asking for a quantity (a value of a named kind such as a weight or a voltage, a count, a
    price) answered without any number: "The Mid Carrier is a lightweight board" does not say how heavy it is; or with
    values of other quantities only: "-40 - +85 °C" is no operating altitude; or a question asking an IP / IK / NEMA /
    SIL rating answered without that code and a number ("… is 5V compatible")."""
    q = analyse(question)
    plain = CITE.sub(" ", reply)
    if _ASKS_YEAR.search(question):  # "Until which year is it produced?": a year, not an MTBF table
        return not _YEAR.search(plain)
    if asks_remedy(question) or asks_overview(question):  # "… keeps rising. What can I do?", "a rundown of …": no value
        return False
    how = _HOW_ADJECTIVE.match(question)  # "How long does it show the firmware version?" asks a time, no version
    if ASKS_VERSION.search(question) and q.wants_value and not q.yes_no and not how:  # "What firmware version …?"
        return not VERSION.search(without_heading_numbers(plain))
    if ASKS_PART_NUMBER.search(question) and not q.yes_no:  # "the part number of the switch": one the question lacks
        return not set(part_numbers(plain)) - set(part_numbers(question))
    code = _ASKS_DESIGNATION.search(question)  # "What IP rating …": answered by "IP20", not "it is 5V compatible"
    if code and not q.yes_no:
        return not re.search(rf"\b{code.group(1) or 'IP'}\s?-?\d", plain, re.IGNORECASE)
    asks = q.wants_value and not q.wants_name and not q.yes_no and (
        bool(q.dimensions) or bool(q.count_of) or bool(COST.search(question)))
    if not asks:
        return False
    # "the Nano 33 IoT": a number naming the product; "the two relays": a count the question gives ("2x" restates it)
    written = {count_digits(m.group(0)) for m in _ANY_NUMBER.finditer(question)}
    text = without_releases(without_values_of(plain, question))  # "… only runs firmware 2.4.0" is no lead time
    if all(count_digits(m.group(0)) in written for m in _ANY_NUMBER.finditer(text)):
        return True
    stated = value_dimensions(text)
    in_unit = written_dimensions(question)  # "How bright are its LEDs, in mcd?": "rated at 4.1" gives no brightness
    if in_unit and not stated & in_unit:
        return True
    if q.count_of and not q.dimensions:  # "How many switching cycles …" is not answered by "28 V": a count has no unit
        counted = {d for u in (q.count_of, q.count_of + "s") for d in dimension_of_unit(u)}  # "how many bits": a unit
        valued = {m.start(1) for m in NUMBER_UNIT.finditer(text)} | {m.start(1) for m in RANGE_ENDS.finditer(text)}
        bare = [m for m in _ANY_NUMBER.finditer(text) if m.start() not in valued and count_digits(m.group(0)) not in written
                and not JOINED_WORD.match(text, m.end())]
        return bool(stated) and not bare and not stated & counted
    asked = asked_dimensions({fold(how.group(1))}) if how else set()  # "How long does it take to boot …?" asks a time
    return bool(stated) and not stated & (asked or q.dimensions)


def without_releases(text: str) -> str:
    """`text` without the release numbers it writes ("2.4.0", "v3.1", "firmware 3.2"): they number a release, not a
    quantity; a bare decimal ("2.5") stays, it may be one."""
    return VERSION.sub(lambda m: " " if m.group(0).count(".") >= 2 or not m.group(0)[0].isdigit() else m.group(0), text)


def count_unstated(question: str, texts: Iterable[str]) -> bool:
    """A how-many question whose counted thing no source names ("How many detents per turn …" over passages that never
    say "detent"): whatever number the reply gives counts something else. A question asking more ("How many lanes
    …, and what size is the display?") may still be answered in part."""
    counted = analyse(question).count_of
    asked = re.search(r"\bhow\s+many\b", question, re.IGNORECASE)
    if not counted or asked and second_question(question[asked.end():]):
        return False
    said = re.compile(rf"(?<![a-z]){re.escape(stem(counted))}", re.IGNORECASE)  # "switches", "5-point"
    return not any(said.search(text) for text in texts)


def acronyms_unstated(question: str, texts: Iterable[str]) -> list[str]:
    """The acronyms a question asks about ("What MTBF …") that no source writes: whatever the reply says of it is
    not from the documents."""
    asked = asked_acronyms(question, analyse(question).attributes)
    return sorted(asked - words_found(asked, code_words(" ".join(texts)))) if asked else []


def names_no_product(question: str, reply: str, titles: Iterable[str]) -> bool:
    """A question asking which product ("Which board comes with four isolated relays?") answered without naming one
    of the sources' products: "The board comes with four … relays [5]" does not say which."""
    keys = [product_key(title) for title in titles if title.split()]
    if not keys or not asks_product(analyse(question)):  # no source names a product: nothing to check against
        return False
    said = CITE.sub(" ", reply).lower()
    return not any(name_found(key, said) for key in keys)


_SENTENCE_START = re.compile(r"(?:^|[.!?:]\s+)\W*$")  # a capital after it starts a sentence, it names nothing
# Words of a technology, not one part ("a 2 Megapixel CMOS camera"); kinds ("TFT", "IMU") are `CLASS_WORDS`
TECHNOLOGY_WORDS = frozenset({"cmos", "ccd", "mems", "megapixel", "mp", "rgb", "ips", "hd", "ir", "uv", "ac", "dc"})


def names_no_part(question: str, reply: str) -> bool:
    """A question asking which part of a kind ("What battery connector does the A have?", "Which IMU …") answered
    without naming any part the question does not: "The A has a connector [1]" does not say which one."""
    q, head = analyse(question), asked_head(question)  # "What battery connector": the asked words end in a kind of part
    if (not head or fold(head[-1]) not in CLASS_WORDS or asks_product(q) or asks_kind(q.attributes) or q.yes_no
            or q.count_of or ASKS_VERSION.search(question)):  # ("Which Wi-Fi standard" asks no part)
        return False
    asked = {w.lower() for w in TOKEN.findall(question)}
    text = CITE.sub(" ", reply)
    said = [m.group(0) for m in TOKEN.finditer(text) if part_numbers(m.group(0)) or any(c.isupper() for c in m.group(0)[1:])
            or m.group(0)[0].isupper() and not _SENTENCE_START.search(text[:m.start()])]  # "BM03B", "JST", "Qwiic"
    said = [w for w in said if part_numbers(w) or not {w.lower(), fold(w)} & (CLASS_WORDS | TECHNOLOGY_WORDS)]
    return all(w.lower() in asked for w in said)


def product_key(title: str) -> str:
    """What a reply must write to name a document's product: the first two words of its title after the vendor
    ("Edge Control" of "Arduino Edge Control", "MKR IoT" of "Arduino MKR IoT Carrier Rev2"); the whole title when
    what follows the first word is only a class word ("Orbit Carrier")."""
    words = title.split()
    rest = words[1:3]
    return " ".join(rest) if any(fold(w) not in PRODUCT_WORDS for w in rest) else title


def reply_problems(question: str, reply: str, sources: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """Why a generated reply is no answer (empty when it is one), by name: values no source gives or only other
    products' sources give, no value for a question asking one, an echo of the question, no product or part for a
    question asking which. `sources` are (title,
    text) of every block the model could read."""
    texts = [question, *(text for _, text in sources)]
    found: dict[str, Any] = {
        "unsupported_values": unsupported_values(reply, texts) + unsupported_designations(reply, texts)
        + unsupported_counts(question, reply, texts) + made_up_numbers(reply, texts) + (
            unsupported_versions(reply, texts) if _VERSION_WORD.search(question) else []),  # "which version of the
        # Matter specification …": a version, whatever "version of the X" means elsewhere (a variant, `ASKS_VERSION`)
        "unsupported_names": made_up_names(reply, texts),  # "English, Spanish, …" where no source names a language
        "values_of_other_products": values_of_other_products(reply, question, sources),
        "answer_without_value": lacks_asked_value(question, reply),
        "cut_range": cut_ranges(reply, texts[1:]),
        "other_rating": other_ratings(question, reply, texts[1:]),
        "count_unstated": count_unstated(question, texts[1:]),
        "acronym_unstated": acronyms_unstated(question, texts[1:]),
        "echo": echoes(question, reply, " ".join(title for title, _ in sources)),
        "off_topic": off_topic(question, reply, sources),
        "swapped_subject": swapped_subjects(reply, sources),  # another product's sentence under the asked name
        "no_product_named": names_no_product(question, reply, [title for title, _ in sources if title]),
        "no_part_named": names_no_part(question, reply),
    }
    return {key: value for key, value in found.items() if value}
