"""Lists from the graph's fact table: "Which boards use the X?", "Which sensors does the Y have?", "What camera does
the Y have?" (its parts the documents call so) and "Which boards have an IMU?" (the products with a part of that kind).

The fact table is retrieve/fact_table.py's: per subject a "Name (Type)" line, then "attribute | value [n]" lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence

from kgrag.answering.asks import TOKEN
from kgrag.answering.extract import kind_next_to
from kgrag.answering.names import name_found
from kgrag.answering.terms import CLASS_WORDS, PRODUCT_WORDS, QuestionTerms, asked_head
from kgrag.answering.units import FACT_SUBJECT
from kgrag.answering.words import fold
from kgrag.graph.datasheet.vocab import TYPE_WORDS
from kgrag.ingest.clean import squash

# A class word followed by one of these names what a part drives or connects ("RGB LED Driver", "camera connector"),
# not what it is
ROLE = re.compile(r"[\w-]+\s+(?:driver|controller|connector|interface|port|socket|header|jack|support)s?\b", re.I)
CALLED_WINDOW = 5  # words between a kind word and a graph part the documents call so ("CAN transceiver based on the
# TJA1049T/3J"; extract.KIND_WINDOW is the stricter one for a quoted unit)
_FACT_LINE = re.compile(r"^(?P<attr>[^|]+?) \| (?P<value>.+?)(?: \[(?P<n>\d+)\])?$")  # "in product | Nicla Voice [4]"
_CONTAINS = re.compile(r"^(has\b|in \w+$|based on|powered by|integrates|embeds|uses|includes)")  # part-of relations
# Words that say "contains" in a list question ("which boards use / have / integrate the X"): not attributes.
_LIST_VERB_TEXT = ("has have use uses used using integrate integrates feature features include includes contain contains "
                   "carry carries embed embeds based built come comes equipped")
_LIST_VERBS = frozenset(fold(w) for w in _LIST_VERB_TEXT.split())
# The words that name a whole type ("sensors", "modules", "boards"): a list question asks for all of its kind.
_GENERIC = frozenset({fold(t) for t in TYPE_WORDS} | {fold(w) for w in TYPE_WORDS["Product"]})
# Other words for a whole type ("What processor does the Y have?" asks its microcontroller, not its neural processor):
# no narrower kind to list by, so no graph list (the passages decide)
TYPE_SYNONYMS = frozenset({"mcu", "processor", "cpu", "soc", "system-on-chip", "core"})


def fact_groups(text: str) -> list[tuple[str, str, list[tuple[str, str, int | None]]]]:
    """(subject, type, [(attribute, value, cited block)]) of a fact-table block ("Subject (Type)" then lines)."""
    groups: list[tuple[str, str, list[tuple[str, str, int | None]]]] = []
    for line in text.splitlines():
        head, fact = FACT_SUBJECT.match(line.strip()), _FACT_LINE.match(line.strip())
        if fact and groups:
            groups[-1][2].append((fact["attr"], fact["value"], int(fact["n"]) if fact["n"] else None))
        elif head:
            groups.append((head["name"], head["type"], []))
    return groups


def try_list(q: QuestionTerms, fact_blocks: Mapping[int, str], documents: Sequence[str] = ()) -> str | None:
    """"Which boards use the X?" / "Which sensors does the Y have?" answered from the graph's fact table: every
    entity of the asked type that contains the named one (or that it contains), each with its source number.

    Only when the question asks for nothing but the list: a class word (boards, sensors), a containment verb and
    the names; any other attribute ("which sensor measures pressure") needs the passages. A narrower kind of part
    than the graph's type ("What camera does the Y have?": the graph's sensors) lists only the parts the
    `documents` write next to that kind word ("GC2145 Camera"); none so written, no list.
    """
    if not q.wants_name or q.yes_no:
        return None
    groups = [(n, group) for n, text in fact_blocks.items() for group in fact_groups(text)]
    subjects = {squash(subject) for _, (subject, _, _) in groups}
    lowered = {squash(a) for a in q.attributes if squash(a) in subjects}  # "which boards have wifi": "Wi-Fi"
    if not (q.names or lowered):
        return None
    kinds, narrowing = list_qualifiers(q)
    attributes = {a for a in q.attributes - kinds if squash(a) not in lowered}
    asked_types = {t for t, words in TYPE_WORDS.items() if any(fold(w) in attributes for w in words)}
    class_words = {fold(w) for t in asked_types for w in TYPE_WORDS[t]}
    kind = (attributes & class_words) - _GENERIC  # "which FPGA", "what camera": narrower than the graph's types
    if (not asked_types or attributes - class_words - _LIST_VERBS - narrowing or kind & TYPE_SYNONYMS
            or (kind and "Product" in asked_types)):
        return None  # something else asked too, or products with a kind of part ("which boards have a camera")
    question = q.text.lower()
    squashed = squash(question)

    def asked(name: str) -> bool:  # "BPX210" in the graph is the question's "BPX-210", "Wi-Fi" its "wifi"
        return (name_found(name, question) or (any(c.isdigit() for c in name) and squash(name) in squashed)
                or squash(name) in lowered)

    found: dict[str, int] = {}
    subject_named = label = ""
    for n, (subject, stype, facts) in groups:
        named = asked(subject)
        for attr, value, cited in facts:
            if not _CONTAINS.match(attr):
                continue
            inward = attr.startswith("in ")  # "X (Sensor): in product | Board": Board contains X
            typed = attr[3:] in {t.lower() for t in asked_types} if inward else fold(attr.split()[-1]) in class_words
            if named and typed:  # the named entity's own list: its boards, or its sensors ("has sensor")
                found.setdefault(value, cited or n)
                subject_named, label = subject_named or subject, label or attr
            elif not named and not inward and stype in asked_types and asked(value):
                found.setdefault(subject, cited or n)  # "Board (Product): powered by | X": Board contains X
                subject_named, label = subject_named or value, label or f"in {stype.lower()}"
    if kind:  # the parts the documents call so, under the kind word as the question writes it
        found = {name: n for name, n in found.items() if _called(name, kind, documents)}
        label = "has " + kind_as_written(q.text, kind, class_words)
    # a part's technology written as a name before its class word ("What GPS module", "the CAN transceiver"): only
    # the parts that carry it or that the documents write next to it, and none when none does (a product's list
    # narrowed by "Arduino" or a part's by "onboard" keeps every item when none carries the word)
    head = asked_head(q.text)
    at = next((i for i, w in enumerate(head) if fold(w) in class_words), 0)
    named = {fold(w) for w in head[:at] if not w.islower()} if "Product" not in asked_types else set()
    if named:
        found = {name: n for name, n in found.items() if named & _name_words(name) or _called(name, named, documents)}
    if not found:
        return None
    narrowed = {name: n for name, n in found.items() if narrowing & _name_words(name)}
    items = "; ".join(f"{name} [{n}]" for name, n in (narrowed or found).items())
    return f"{subject_named} – {label}: {items}."


def _name_words(name: str) -> set[str]:
    return {fold(w) for w in TOKEN.findall(name)}


def kinds_any_of(question: str) -> bool:
    """Kinds of part asked as alternatives ("a pressure sensor or barometer"): a product with any of them will do."""
    return re.search(r"\bor\b", question, re.IGNORECASE) is not None


def kind_as_written(question: str, kind: Collection[str], class_words: Collection[str]) -> str:
    """The asked kind of part as the question writes it, with the class words after it ("time-of-flight sensor") and
    a word in capitals before it ("RGB LED")."""
    words = TOKEN.findall(question)
    start = next((i for i, w in enumerate(words) if fold(w) in kind), None)
    if start is None:  # a kind read from a phrase the tokens split otherwise
        return " ".join(sorted(kind))
    end = start + 1
    if start > 1 and not words[start - 1].islower() and fold(words[start - 1]) not in CLASS_WORDS | PRODUCT_WORDS:
        start -= 1
    while end < len(words) and fold(words[end]) in class_words:
        end += 1
    return " ".join(words[start:end])


def _called(name: str, kinds: Collection[str], documents: Sequence[str]) -> bool:
    """A one-word part name the documents write near a kind word ("GC2145 Camera", "6-axis IMU (LSM6DSOX)", "CAN
    transceiver based on the TJA1049T/3J": a longer order code of the part is the part)."""
    key = squash(name)
    if len(TOKEN.findall(name)) != 1:
        return False
    return any(called_near(text, kinds, lambda w: squash(w).startswith(key))
               for text in documents if name_found(name, text.lower()))


def called_near(text: str, kinds: Collection[str], is_name: Callable[[str], bool]) -> bool:
    """A word of `kinds` stands within CALLED_WINDOW words of a name `is_name` accepts, in one item of `text`, and not
    as what a part drives or connects (`ROLE`: "camera connector", "LED driver")."""
    return kind_next_to(ROLE.sub(" ", text), kinds, is_name, CALLED_WINDOW)


def list_qualifiers(q: QuestionTerms) -> tuple[set[str], set[str]]:
    """Words of a list question that qualify what it lists rather than ask more: a kind of part right after a name
    ("a LoRa radio", "the BME688 sensor": the named thing is one), and the asked head's words before its class word
    ("Which Arduino boards", "Which Pro boards"), which narrow the list to the items that carry them, if any do."""
    kinds = set()
    for name in q.names:
        for m in re.finditer(rf"(?<![\w-]){re.escape(name)}\s+([A-Za-z][\w-]*)", q.text):
            if fold(m.group(1)) in CLASS_WORDS - _GENERIC:  # (a generic "sensor" lists its type as before)
                kinds.add(fold(m.group(1)))
    head = [fold(w) for w in asked_head(q.text)]
    at = next((i for i, w in enumerate(head) if w in CLASS_WORDS | PRODUCT_WORDS), 0)
    return kinds, {w for w in head[:at] if w in q.attributes}


def try_kind_list(q: QuestionTerms, fact_blocks: Mapping[int, str], parts_of_kind: Mapping[str, Collection[str]]
                  ) -> str | None:
    """"IMU – in product: Nano 33 IoT (LSM6DSOXTR) [3]; Nicla Vision (LSM6DSOX) [2]." for the products that have a
    part of every asked kind (of any, when the question joins them by "or"), narrowed to those whose names carry the question's words before its product word
    ("Which Nano boards …") when any does; None when the fact table holds none."""
    if not parts_of_kind:
        return None
    kinds = {kind: {p.lower() for p in parts} for kind, parts in parts_of_kind.items()}
    having: dict[str, dict[str, list[tuple[str, int]]]] = {}  # product -> kind -> [(part, cited block)]
    for n, text in fact_blocks.items():
        for subject, _, facts in fact_groups(text):
            for kind, parts in kinds.items():
                if subject.lower() not in parts:
                    continue
                for attr, value, cited in facts:
                    if attr.startswith("in "):
                        listed = having.setdefault(value, {}).setdefault(kind, [])
                        if all(part != subject for part, _ in listed):
                            listed.append((subject, cited or n))
    any_of = kinds_any_of(q.text)
    complete = {product: parts for product, parts in having.items() if any_of or len(parts) == len(kinds)}
    if not complete:
        return None
    _, narrowing = list_qualifiers(q)
    narrowed = {p: parts for p, parts in complete.items() if narrowing & _name_words(p)}

    def item(product: str, parts: dict[str, list[tuple[str, int]]]) -> str:
        found = [pair for kind in kinds for pair in parts.get(kind, [])]
        names = dict.fromkeys(part for part, _ in found)  # a part typed twice ("LPS22HB" sensor and component) once
        return f"{product} ({', '.join(names)}) [{found[0][1]}]"

    items = "; ".join(item(product, parts) for product, parts in (narrowed or complete).items())
    asked = (" or " if any_of else " and ").join(kind_as_written(q.text, {kind}, CLASS_WORDS) for kind in kinds)
    return f"{asked} – in product: {items}."
