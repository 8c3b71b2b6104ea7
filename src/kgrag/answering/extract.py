"""Extractive answers: when one row or sentence states the asked value for the asked product, quote it.

The rules are about the shape of the evidence, never its content: the question asks for a value (not
why/compare/summarise, not yes/no), the best unit names the question's part numbers or names (in its
text, heading, table header or block title), carries most of its attribute words, and states a value
(number with a unit, a range, a tolerance, or a part number the question does not already name) whose
unit measures the quantity asked, when the question names one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from kgrag.answering.asked_versions import qualified_version, version_words
from kgrag.answering.asks import TOKEN, asked_acronyms
from kgrag.answering.model_codes import led_row
from kgrag.answering.names import name_found, title_names, whole_name
from kgrag.answering.select import Scored
from kgrag.answering.sizes import component_read
from kgrag.answering.terms import CLASS_WORDS, REVISION, QuestionTerms, asks_product, asks_yes_no
from kgrag.answering.units import FACT_SUBJECT, Unit
from kgrag.answering.values import (
    ACCURACY_WORDS,
    ASKS_PART_NUMBER,
    ASKS_VERSION,
    COST,
    NUMBER_UNIT,
    NUMBER_WORDS,
    PART,
    PRICE,
    RANGE,
    TOLERANCE,
    VERSION,
    asked_dimensions,
    dimension_of_unit,
    has_value,
    part_numbers,
    value_dimensions,
    versions_after,
    without_conditions,
    without_duration,
    without_tolerances,
    without_values_of,
    writes_values_of,
)
from kgrag.answering.words import (
    all_written,
    code_words,
    content_terms,
    fold,
    opposed_qualifier,
    opposed_scope,
    stem,
    term_list,
    words_found,
)
from kgrag.graph.datasheet.vocab import SKU
from kgrag.graph.rules_patterns import INTERFACE

MIN_ATTRIBUTES = 0.4  # share of the question's attribute words the unit must carry (a value in the asked unit
# counts for the words that ask for it)
MIN_COUNT_ATTRIBUTES = 0.2  # a count of the asked thing ("5-point … touch") is evidence enough of what is asked
MIN_NAMES = 0.35  # share of the question's names found near the unit (block title/section counts half)
CANDIDATES = 4  # units considered for a quote, best-scored first
COUNT_CANDIDATES = 40  # "how many": deeper, a count of the asked thing is a strict test
MIN_WORDS = 3  # a quote shorter than this is a label, not an answer
_ITEM_BREAK = re.compile(r"[,;\n]|\band\b")  # between two items of a list (or two lines: a table's rows)
KIND_WINDOW = 3  # words between the asked kind of part ("IMU") and the part number that names it
_TIMES = re.compile(r"\d+\s?[×x]\s?[^\d\s]")  # "2 × RS-485": two of them; not "10x10 mm"
_COUNT = re.compile(rf"(?<![\w.])(?:{NUMBER_WORDS})(?:\s?[×x]?\s+|-(?=[A-Za-z]))((?:[\w-]+\s+){{0,3}}[\w-]+)", re.IGNORECASE)


@dataclass
class Extraction:
    """The quoted unit and the answer text built from it (without its citation marker)."""

    unit: Unit
    text: str
    score: float


def states_count(thing: str, text: str) -> bool:
    """`text` counts `thing`: "4 relays", "eight RGB LEDs", "8× LC8822-2020 RGB LEDs", a row "relays | 4" or "serial
    ports | 2 × RS-485"; a number with a unit measures ("6 ms for relay output" counts no outputs)."""
    for m in _COUNT.finditer(text):
        words = m.group(1).split()
        if dimension_of_unit(words[0]):
            continue
        if any(fold(w) == thing for w in words[:4]):
            return True
    cells = [c.strip() for c in text.split("|")]  # a row "relays | 4", or "serial ports | 2 × RS-485, 1 × RS-232"
    return (len(cells) == 2 and any(fold(w) == thing for w in cells[0].split())
            and bool(re.fullmatch(r"\d+", cells[1]) or _TIMES.match(cells[1])))


BOARD_POSITION = re.compile(r"[A-Z]{1,2}\d{1,2}(?:-\d{1,2})?")  # "J11", "U3", "IC4", "J8-17"; not "B306", "BMI270"


def states_value(q: QuestionTerms, unit: Unit) -> bool:
    """The unit states a value: number+unit, range, tolerance, or a part number not named in the question
    ("which/who" questions need the part number: their answer is a name; "how many" ones a count; one asking a
    quantity such as a distance or a voltage a number)."""
    if q.count_of:
        return states_count(q.count_of, unit.text)
    if COST.search(q.text):  # "How much does it cost?": a price, not an order code
        return bool(PRICE.search(unit.value_text()))  # a row of a "List price (GBP)" column too
    if ASKS_VERSION.search(q.text):  # "Which kernel version …": a version number, not a sentence naming Linux; the
        # heading of a release note's line gives its version ("Firmware 4.1" over "- Fixed a memory leak …")
        return bool(versions_after(f"{unit.heading}: {unit.display()}", version_words(q)))
    values = without_values_of(unit.value_text(), q.text)  # "24V" in "the 24V IN pin" names the pin
    if q.dimensions and not q.wants_name:  # "up to what distance": a part number is no length,
        return has_value(without_tolerances(values, q.attributes))  # nor an accuracy ("±10 cm") an asked length
    asked = {stem(p.lower()) for p in q.parts}  # "gw500" asks about the "GW-500" a passage names: no new part
    skus = {m.lower() for m in SKU.findall(unit.display())}  # a product's order code ("SKU: ABX00102") is no part of it
    new_parts = [p for p in part_numbers(unit.text)
                 if stem(p.lower()) not in asked and p.lower() not in skus and not REVISION.fullmatch(p)  # "Rev2"
                 and not INTERFACE.fullmatch(p)]  # "RS232/422/485: Yes": a bus a product supports, no part of it
    if q.wants_name and q.attributes & CLASS_WORDS and not asks_product(q):  # "Which relay IC …": a board position
        new_parts = [p for p in new_parts if not BOARD_POSITION.fullmatch(p)]  # ("J11", "U3") names no part
    if new_parts and (not q.wants_name or names_the_kind(q, unit)):
        return True
    return has_value(values) and not q.wants_name and not ASKS_PART_NUMBER.search(q.text)  # a rating is no part number


def says_each(group: list[str], unit: Unit) -> bool:
    """The unit gives every asked word of a group ("dimensions and weight"): by the word (or its stem), or by a value
    of the quantity only that word asks ("current and voltage ratings" ~ "10A … 250 VAC"; "Flash, SRAM and EEPROM"
    all ask memory, so "32 kB Flash" gives only Flash)."""
    written = words_found(group, set(term_list(unit.scoped())))
    found = value_dimensions(unit.value_text())
    dims = {w: asked_dimensions({w}) for w in group}
    ranged = bool(RANGE.search(TOLERANCE.sub(" ", unit.value_text())))  # "its range and accuracy": "-10 °C to 125 °C"
    # is the range; "±7 mm to ±3%" is how exact, not how far
    return all(w in written or (w == "range" and ranged)
               or bool(dims[w] & found and not any(dims[w] & dims[o] for o in group if o != w)) for w in group)


def names_the_kind(q: QuestionTerms, unit: Unit) -> bool:
    """For "Which IMU / What camera sensor …": a new part number stands next to the asked kind of part (in one
    table row, or within a few words of a sentence), so "… a crypto chip and a 6 axis IMU" with the processor's part
    number twenty words earlier does not answer which IMU. A row or a line under a heading naming the kind may hold
    it anywhere."""
    kinds = q.attributes & CLASS_WORDS
    if not kinds:
        return True
    asked = {p.lower() for p in q.parts}
    if unit.kind == "row" or any(fold(w) in kinds for w in TOKEN.findall(unit.heading)):
        return any(fold(w) in kinds for w in TOKEN.findall(unit.scoped()))  # a row, or lines under "Microcontroller"
    return kind_next_to(unit.text, kinds, lambda w: bool(PART.fullmatch(w)) and w.lower() not in asked)


def kind_next_to(text: str, kinds: Collection[str], is_name: Callable[[str], bool], window: int = KIND_WINDOW) -> bool:
    """A word of `kinds` (folded) and a word `is_name` accepts stand within `window` words of each other in one
    item of `text` ("GC2145 Camera", "6-axis IMU (LSM6DSOX)"; not across "module based on ESP32, a crypto chip")."""
    words = list(TOKEN.finditer(text))
    spots = [i for i, w in enumerate(words) if fold(w.group(0)) in kinds]
    names = [i for i, w in enumerate(words) if is_name(w.group(0))]

    def one_item(i: int, j: int) -> bool:
        a, b = sorted((i, j))
        return not _ITEM_BREAK.search(text, words[a].end(), words[b].start())

    return any(abs(i - j) <= window and one_item(i, j) for i in spots for j in names)


def unit_fits(q: QuestionTerms, unit: Unit) -> bool:
    """When the question names a quantity (voltage, temperature, ...), the unit's values must measure it. How exact
    something is ("ranging accuracy", no quantity named) is a ± value in the unit of what is measured ("<±10 cm"),
    not only a percentage; "the temperature accuracy" still wants °C."""
    dims = q.dimensions
    found = value_dimensions(unit.value_text())
    exactness = (bool(ACCURACY_WORDS & q.attributes) and dims <= {"ratio"} and bool(TOLERANCE.search(unit.value_text())))
    timed = without_duration(found, unit.scoped(), q.attributes)
    if timed != found and not timed & dims:  # "how often": a response time is no interval
        return False
    return not dims or not found or bool(dims & found) or exactness


def value_fit(q: QuestionTerms, unit: Unit) -> tuple[int, int]:
    """(states a value of the asked quantity, minus the values in units that measure nothing asked): for a
    humidity range, "0-100 % RH" beats a sentence with no humidity value, and beats "0-100 % RH, -40 °C …" (values in
    brackets are a value's test conditions, not others). A question asking which part ("Which chip charges the
    battery …") wants a name: a quantity word in it asks no value."""
    dims = q.dimensions
    if not dims or q.wants_name:
        return 0, 0
    text = unit.value_text()
    qualified = TOLERANCE.sub(" ", without_conditions(text))  # "24V DC +/- 20%": the tolerance is the 24 V's own
    off = sum(1 for m in NUMBER_UNIT.finditer(qualified) if not dimension_of_unit(m.group(2)) & dims)
    return int(bool(value_dimensions(text) & dims)), -off


def own_fact(unit: Unit, q: QuestionTerms) -> bool:
    """A gathered graph fact whose subject is a product the question names ("Portenta Machine Control (Product) |
    input voltage | 24V DC +/- 20%"): as much the product's own as a line of its datasheet."""
    m = FACT_SUBJECT.match(unit.heading)
    return bool(m) and m["type"] == "Product" and not m["owner"] and any(title_names(p, m["name"]) for p in q.phrases)


def subject_named(q: QuestionTerms, unit: Unit) -> bool:
    """A graph fact ("Subject (Type)" heading) answers only when its subject is one the question names; other
    units always pass (their product is checked by the name score)."""
    m = FACT_SUBJECT.match(unit.heading)
    if not m:
        return True
    subject = m["name"].lower()
    return name_found(subject, q.text.lower()) or any(whole_name(p, subject) for p in q.phrases)


def label_precision(q: QuestionTerms, unit: Unit) -> float:
    """Share of a row's label words (its cells without a digit) that the question asks for; 0.5 for a sentence
    or a row whose cells all hold values."""
    if unit.kind != "row":
        return 0.5
    label = content_terms(" ".join(c for c in unit.text.split("|") if not any(ch.isdigit() for ch in c)))
    return len(label & q.attributes) / len(label) if label else 0.5


def answer_text(q: QuestionTerms, unit: Unit, title: str) -> str:
    """The quote, led by its document title (the product) and heading when the quote does not name them, or when
    its heading gives the version asked ("Firmware 4.1 (2026-09-14)" over a release note's line)."""
    quote = unit.display().rstrip(" .;")
    low = quote.lower()
    lead = [title] if title and title.lower() not in low else []
    named_by_title = bool(lead) and any(name_found(n, title.lower()) for n in q.names)
    fact = FACT_SUBJECT.match(unit.heading)  # a graph fact: its subject says whose value it is
    if (unit.heading and not named_by_title and unit.heading.lower() not in low
            and (fact or any(name_found(n, unit.heading.lower()) for n in q.names)
                 or bool(ASKS_VERSION.search(q.text) and VERSION.search(unit.heading) and not VERSION.search(quote)))):
        lead.append(fact["name"] if fact else unit.heading)
    quote += component_read(q.attributes, unit.text)  # ", so the width is 45 mm"
    return f"{' – '.join(lead)}: {quote}" if lead else quote


def try_extract(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> Extraction | None:
    """The extractive answer from the best-ranked units, or None when the evidence is not explicit enough.

    `titles` maps block numbers to their document titles (the product a quote is about).
    """
    if not q.wants_value or not ranked or q.compares:  # a comparison needs both sides (answering/compare.py)
        return None
    if asks_yes_no(q):  # "I'm framing it behind a 3 mm cover. Will the touch work through it?": a value near the
        return None  # asked words ("a pixel size of 0.108 mm") answers no yes or no; a rating check does (suits.py)
    if not q.names and not q.wants_name:  # "What parameters influence how the robot rotates?": nothing named to
        return named_row(q, ranked, titles)  # quote a value of ("Which board measures ozone?" is answered by the
        # quoted row's product), unless a row's key is named ("How fast is an express repair …?")
    fits: list[Scored] = []
    owned = any(s.own for s in ranked)  # the named product's own documents are in the context: quote only them
    acronyms = asked_acronyms(q.text, q.attributes)
    stated = [s for s in ranked if not s.unit.text.rstrip().endswith("?")]  # an FAQ's question restates what is asked
    versioned = qualified_version(q)
    strict = bool(q.count_of) or versioned  # a count or a qualified version is a strict test: deeper
    for s in stated[:COUNT_CANDIDATES if strict else CANDIDATES]:  # the best few: the top may be a heading
        u = s.unit
        if owned and not s.own and not own_fact(u, q) and not led_row(u, q, titles):  # "How loud is the Modulino
            continue  # Buzzer?" is not answered by the Stella's buzzer row; the graph's fact of the named product is its own
        if u.kind == "heading" or len(u.text.split()) < MIN_WORDS and u.kind != "row":
            continue
        if not states_value(q, u) or not unit_fits(q, u) or not all(says_each(g, u) for g in q.together):
            continue
        if q.attributes and s.attributes < (MIN_COUNT_ATTRIBUTES if q.count_of else MIN_ATTRIBUTES) and not versioned:
            continue  # (a version written after the asked thing, "Requires Python 3.9–3.12", says what is asked)
        if acronyms and not all_written(acronyms, code_words(u.scoped())):  # the "MTBF" asked, written ("RMA-24-08")
            continue
        if opposed_qualifier(q.attributes, u.scoped()):  # "operating temperature" for the storage temperature asked
            continue
        if opposed_scope(q.text, u.scoped()):  # "the total output current … 3 A" for what each output may drive
            continue
        if q.names and (s.names < MIN_NAMES or s.variant or not subject_named(q, u)):
            continue
        fits.append(s)
    # a row of the same table that carries more of the asked words holds the answer in words ("Parity | Even" for
    # "the default parity"): its sibling with a number ("Baud rate | 19200 bit/s") is not it; a table cut between
    # chunks is one table (its header repeated in each, under one document's title)
    named_better: dict[tuple[str, str], float] = {}
    for s in ranked[:CANDIDATES]:
        if s.unit.kind == "row" and s.unit.header:
            key = (titles.get(s.unit.block, ""), s.unit.header)
            named_better[key] = max(named_better.get(key, 0.0), s.attributes)
    fits = [s for s in fits if s.unit.kind != "row"
            or named_better.get((titles.get(s.unit.block, ""), s.unit.header), 0.0) <= s.attributes]
    if not fits:
        return None
    # the asked attribute decides, then the row whose label asks for no more than that ("flash | 2 MB" before
    # "secured flash user memory | 50 kB" for "the flash memory size")
    ranks = [(round(s.attributes, 2), s.names, *value_fit(q, s.unit), writes_values_of(s.unit.value_text(), q.text),
              label_precision(q, s.unit)) for s in fits]
    top = max(ranks)
    tied = [s for s, r in zip(fits, ranks, strict=True) if r == top]
    first = min(tied, key=lambda s: (s.unit.block, s.unit.pos))  # a datasheet lists the main part's values first
    one_passage = all(s.unit.block == first.unit.block and not FACT_SUBJECT.match(s.unit.heading) for s in tied)
    best = first if one_passage else max(tied, key=lambda s: s.score)  # (graph facts come best first already)
    return Extraction(best.unit, answer_text(q, best.unit, titles.get(best.unit.block, "")), best.score)


_BRACKETED = re.compile(r"\([^)]*\)")  # "Express repair (DPX-220, DPX-240)": what the row applies to
_ITEM_END = re.compile(r"[,;(]")  # "Main board, revision C (service exchange)": the item, then what qualifies it


def _row_keys(text: str) -> list[set[str]]:
    """What a table row may be named by: its first cell without brackets, and each other cell's item before its
    qualifiers ("Main board" of a parts list's "Main board, revision C (service exchange)")."""
    cells = text.split("|")
    return [content_terms(_BRACKETED.sub(" ", cells[0]))] + [content_terms(_ITEM_END.split(c, 1)[0]) for c in cells[1:]]


def named_row(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> Extraction | None:
    """The one table row among the best-ranked units whose first cell (or a cell's item, `_row_keys`) the question
    names in two words or more ("How fast is an express repair and what does it cost?" over "Service | Turnaround |
    Charge" / "Express repair (DPX-220, DPX-240) | 3 working days | Surcharge EUR 180"; a bracket says what it applies
    to; "the lead time for a replacement main board" over a parts list's "Main board, revision C"): what it asks is in
    that row's cells, under column names the question need not use; a row that states no value of the quantity asked
    ("What air pressure does the air purge collar need?" over its part-number row) does not answer. None when no row,
    or more than one of a table, is named so."""
    named = [s for s in ranked[:CANDIDATES] if s.unit.kind == "row" and s.unit.header
             and any(len(key) >= 2 and all_written(key, q.terms) for key in _row_keys(s.unit.text))
             and (not q.dimensions or q.dimensions & value_dimensions(s.unit.value_text()))]  # the asked quantity
    tables = {(s.unit.block, s.unit.header) for s in named}
    if len(named) != 1 or len(tables) != 1:
        return None
    best = named[0]
    return Extraction(best.unit, answer_text(q, best.unit, titles.get(best.unit.block, "")), best.score)
