"""Parts lists from the knowledge graph's fact table. How two named products differ ("Is the A just a renamed B, or
did its components change?", "Do the A and the B have the same sensors?"): the parts each one lists that the other
does not, then the parts both list. What one product has of the asked kind, after a small model's overview
("Summarize the sensing capabilities of the A"), or its parts and spec rows when no kind is asked. A small model
reading datasheets names a few parts; the graph holds the lists, so they are read from it, every part with the number
of its source."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from kgrag.answering.asks import asks_difference, asks_overview
from kgrag.answering.aspects import aspect_terms
from kgrag.answering.graph_lists import fact_groups
from kgrag.answering.names import title_names
from kgrag.answering.terms import CLASS_WORDS, QuestionTerms
from kgrag.answering.values import has_value
from kgrag.answering.words import fold, term_list
from kgrag.graph.datasheet.vocab import CHECKMARKS, PRODUCT_TYPE, TYPE_RULES, TYPE_WORDS

GENERIC_KINDS = frozenset({"component", "part", "chip", "hardware"} | {fold(w) for w in TYPE_WORDS[PRODUCT_TYPE]})
PLUMBING = frozenset({"interface", "connector"})  # "has interface | I2C", "has connector | B2B-PH-SM4-TB": no part
MIN_PARTS = 2  # parts each product must list before their lists are compared
FROM_GRAPH = "From the knowledge graph:"  # leads the parts list that follows an overview answer
MAX_SPECS = 8  # spec rows of a product after an overview answer that asks no kind of part ("what the A offers")
MIN_PREFIX = 5  # "LPS22HB" and "LPS22HBTR" (an ordering suffix) are one part; "BMI" and "BMI270" are not
Part = tuple[str, int]  # name, source block
# the words a question may use for a kind of part ("processors" for the microcontroller, "power regulation")
_KIND_WORDS = {fold(t.lower()): frozenset(fold(w) for w in words) for t, words in TYPE_WORDS.items()}
# How an overview question names a kind of part besides the kinds' own words ("the sensing capabilities")
_CAPABILITY = {"sensing": "sensor", "measurement": "sensor", "processing": "microcontroller", "compute": "microcontroller",
               "computing": "microcontroller", "regulation": "power", "supply": "power", "wireless": "module",
               "connection": "interface", "connectivity": "interface", "i/o": "interface"}


def _kinds_of(word: str, kinds: set[str]) -> set[str]:
    """The kinds of part a question word names: a kind's own word ("microphone" ~ sensor, "processors" ~
    microcontroller) or a capability word ("sensing" ~ sensor, "power regulation" ~ power)."""
    return {k for k in kinds if word == k or _CAPABILITY.get(word) == k or word in _KIND_WORDS.get(k, frozenset())}


def asked_kinds(q: QuestionTerms, facts: Iterable[tuple[str, str, int | None]]) -> set[str]:
    """The kinds of part the question asks of those the facts list ("has sensor | BMI270" lists sensors)."""
    kinds = {fold(attr.split()[-1]) for attr, _, _ in facts if attr.startswith("has ")}
    return {k for w in q.attributes for k in _kinds_of(w, kinds)}


def _key(name: str) -> str:
    return re.sub(r"[\s\-_/]", "", name).upper()


def same_part(a: str, b: str) -> bool:
    """One part written two ways: "APDS-9960" / "APDS9960", "LPS22HB" / "LPS22HBTR" (a suffix of the order code)."""
    ka, kb = _key(a), _key(b)
    short, long_ = sorted((ka, kb), key=len)
    return ka == kb or (len(short) >= MIN_PREFIX and long_.startswith(short) and any(c.isdigit() for c in short))


def parts_of_kinds(facts: list[tuple[str, str, int | None]], n: int, kinds: set[str]) -> list[Part]:
    """The product's parts of the asked kinds ("has sensor | BMI270"), each once; all parts but interfaces when the
    question names no kind."""
    out: list[Part] = []
    for attr, value, cited in facts:
        words = attr.split()
        kind = fold(words[-1])
        if words[:1] != ["has"] or (kind not in kinds if kinds else kind in PLUMBING):
            continue  # the asked kind; else every part but the buses and connectors every board has
        if not any(same_part(value, p) for p, _ in out):
            out.append((value, cited or n))
    return out


# what a parts list or a sentence says a part is, right after its name: "HTS221 Humidity Sensor IC", "LSM6DS3 6-axis IMU"
_KIND = "|".join(sorted((re.escape(w) for _, words in TYPE_RULES for w in words), key=len, reverse=True))
_WORD = r"(?!(?:and|or|the|a|an|of|with|for|to|in|on|is|are|has|have|via|from)\b)(?:\d+-)?[A-Za-z]+(?:-[A-Za-z]+)*"
_WHAT = re.compile(rf"[ \t]+((?:{_WORD}[ \t]+){{0,3}}(?:{_KIND})s?)(?![\w-])", re.IGNORECASE)  # on the name's line


def part_kinds(parts: Iterable[str], texts: Iterable[str]) -> dict[str, str]:
    """Part name -> what the documents call it where they name it ("HTS221" -> "humidity sensor"), for the part
    numbers (letters and digits; not a bus such as "SPI" or "Bluetooth") some text describes with a class word (sensor,
    IMU, regulator, module …) within four plain words after the name."""
    joined = "\n".join(texts)
    out = {}
    for name in parts:
        if not (re.search(r"\d", name) and re.search(r"[A-Za-z]", name)):
            continue
        said = (_WHAT.match(joined, at.end()) for at in re.finditer(rf"(?<![\w-]){re.escape(name)}[\w-]*", joined, re.I))
        m = next((m for m in said if m), None)  # the first place the name is followed by what it is
        if m:  # "Humidity Sensor" -> "humidity sensor"; "IMU", "DC-DC" stay as written
            out[name] = " ".join(w.lower() if w[1:].islower() else w for w in m.group(1).split())
    return out


def graph_kinds(facts: Iterable[tuple[str, str, int | None]], asked: set[str]) -> dict[str, str]:
    """Part name -> the class its "has <class>" fact gives ("has sensor | HTS221" -> "sensor"), for a part no passage
    describes; a bare "has component" says nothing, and neither does the class the question asks for."""
    return {value: attr.removeprefix("has ") for attr, value, _ in facts
            if attr.startswith("has ") and attr not in ("has component", "has part")
            and fold(attr.split()[-1]) not in asked}


def listed_parts(parts: list[Part], kinds: Mapping[str, str] | None = None) -> str:
    """Each part with what it is, when known, and its source number: "QB270 (6-axis IMU) [3], QS3003 [1]"."""
    kinds = kinds or {}
    return ", ".join(f"{name} ({kinds[name]}) [{n}]" if name in kinds else f"{name} [{n}]" for name, n in parts)


def try_differences(q: QuestionTerms, fact_blocks: Mapping[int, str], texts: Iterable[str] = ()) -> str | None:
    """The parts two named products do not share, from their fact groups, each with what `texts` (the context's
    passages) call it; None unless the question asks how they differ and each product lists at least MIN_PARTS parts
    of the asked kind (sensors, or any when it names none)."""
    if not asks_difference(q.text) or len(q.phrases) < 2:
        return None
    kinds = (q.attributes & CLASS_WORDS) - GENERIC_KINDS
    if kinds and kinds <= PLUMBING:  # "are the analog Grove connectors the same": their pins, not part numbers
        return None
    found: dict[int, tuple[str, list[Part], int]] = {}  # question phrase -> (product, its parts, fact block)
    classes: dict[str, str] = {}  # part -> the class its product's "has <class>" fact gives
    for n, text in fact_blocks.items():
        for subject, stype, facts in fact_groups(text):
            matched = [i for i, p in enumerate(q.phrases) if stype == PRODUCT_TYPE and title_names(p, subject)]
            if len(matched) == 1 and matched[0] not in found:
                found[matched[0]] = (subject, parts_of_kinds(facts, n, kinds), n)
                classes |= graph_kinds(facts, kinds)
    if len(found) != 2:
        return None
    (a, parts_a, table), (b, parts_b, _) = (found[i] for i in sorted(found))
    if min(len(parts_a), len(parts_b)) < MIN_PARTS:
        return None
    only_a = [p for p in parts_a if not any(same_part(p[0], o) for o, _ in parts_b)]
    only_b = [p for p in parts_b if not any(same_part(p[0], o) for o, _ in parts_a)]
    both = [p for p in parts_a if p not in only_a]
    if not only_a and not only_b:
        return None  # the same lists: a graph may simply miss what differs, so no verdict from it
    kinds = classes | part_kinds([name for name, _ in only_a + only_b + both], texts)
    said = [f"The {a} and the {b} differ in the parts the documents list [{table}]."]
    if only_a:
        said.append(f"The {a} has {listed_parts(only_a, kinds)}, which the {b} does not list.")
    if only_b:
        said.append(f"The {b} has {listed_parts(only_b, kinds)}, which the {a} does not list.")
    if both:
        said.append(f"Both list {listed_parts(both, kinds)}.")
    return " ".join(said)


def parts_overview(q: QuestionTerms, fact_blocks: Mapping[int, str], texts: Iterable[str] = ()) -> str:
    """For an overview of one named product ("Summarize the sensing capabilities of the A"): the parts of the asked
    kinds its fact group lists ("sensing" ~ sensor, "processors" ~ microcontroller, "power regulation" ~ power), as a
    line that follows the answer; when it asks no kind ("Summarize what the A offers"), its parts and its first
    MAX_SPECS spec rows (the fact table's order: the rows sharing the question's words first); each part with what
    `texts` call it. "" when the graph lists fewer than MIN_PARTS of them."""
    if not asks_overview(q.text) or not q.phrases:
        return ""
    for n, text in fact_blocks.items():
        for subject, stype, facts in fact_groups(text):
            if stype != PRODUCT_TYPE or not any(title_names(p, subject) for p in q.phrases):
                continue
            asked = asked_kinds(q, facts)
            if asked:
                parts = parts_of_kinds(facts, n, asked)
                if len(parts) >= MIN_PARTS:  # then its spec rows of the asked aspect ("wi-fi | 802.11b/g/n")
                    rows = [f"; {attr} {value} [{cited}]" for attr, value, cited in _specs(facts, n, _aspect_words(q))]
                    listed = listed_parts(parts, graph_kinds(facts, asked) | part_kinds([p for p, _ in parts], texts))
                    return f"{FROM_GRAPH} the {subject} lists {listed}{''.join(rows)}."
                continue
            parts, specs = parts_of_kinds(facts, n, set()), _specs(facts, n)
            if len(parts) + len(specs) >= MIN_PARTS:
                rows = [f"{attr} {value} [{cited}]" for attr, value, cited in specs]
                listed = listed_parts(parts, graph_kinds(facts, set()) | part_kinds([p for p, _ in parts], texts))
                said = "; ".join([f"the {subject} lists {listed}", *rows]) if parts else f"the {subject}: {'; '.join(rows)}"
                return f"{FROM_GRAPH} {said}."
    return ""


def _aspect_words(q: QuestionTerms) -> set[str]:
    """The words an overview's rows of the asked aspect use: the question's asked words and the domain's for them."""
    return set(q.attributes) | set(aspect_terms(q.text))


# A restricted substance's limit from a RoHS table ("mercury hg maximum limit ppm | 1000"): a declaration about the
# materials, no spec a product overview lists
_SUBSTANCE_LIMIT = re.compile(r"\bppm\b", re.IGNORECASE)


def _specs(facts: list[tuple[str, str, int | None]], n: int, words: set[str] | None = None) -> list[tuple[str, str, int]]:
    """A product's own spec rows ("range | 0–1200 mm"), rows stating a value first (a pin's "scl | I2C Clock" is no
    spec), not its parts, the products it is in, compliance marks or substance limits; with `words`, only rows stating a value whose
    label opens with one ("pressure | 300-1100 hPa" for sensors, not "input voltage from usb connector" for connectivity)."""
    rows = [(attr, value, cited or n) for attr, value, cited in facts
            if attr.split()[0] not in ("has", "in") and value.lower() not in CHECKMARKS
            and not _SUBSTANCE_LIMIT.search(f"{attr} {value}")
            and (words is None or has_value(value) and bool(set(term_list(attr)[:1]) & words))]
    return sorted(rows, key=lambda row: not has_value(row[1]))[:MAX_SPECS]

