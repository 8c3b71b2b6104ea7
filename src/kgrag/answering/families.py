"""Product families a question names ("the Nano family", "the Nano and Nicla families", "the Portenta H7 series") and
what the graph lists for their products: a question about a family is about every product named after it, which no
single passage lists, while the graph's fact table holds each product's parts ("has sensor | BMI270")."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from kgrag.answering.differ import FROM_GRAPH, asked_kinds, graph_kinds, listed_parts, part_kinds, parts_of_kinds
from kgrag.answering.graph_lists import fact_groups
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.words import QUESTION_WORDS
from kgrag.graph.datasheet.vocab import PRODUCT_TYPE

MAX_PRODUCTS = 8  # products of one family listed (the fact table's order: the best matches of the question first)
_NAME_WORD = r"(?:[A-Z][\w-]*|\d[\w-]*)"  # "Nano", "Portenta", "H7", "33"
_FAMILY = re.compile(rf"((?:{_NAME_WORD}\s+)*{_NAME_WORD})((?:\s*,\s*|\s+(?:and|or)\s+)(?:the\s+)?"
                     rf"(?:(?:{_NAME_WORD}\s+)*{_NAME_WORD}))*\s+(famil(?:y|ies)|series|product lines?)\b")
_NOT_NAMES = QUESTION_WORDS | {"the", "a", "an", "summarize", "compare", "list", "name", "describe"}  # capitalised, no name
_JOINER = re.compile(r"\s*,\s*|\s+(?:and|or)\s+(?:the\s+)?")


def named_families(q: QuestionTerms) -> list[list[str]]:
    """The families a question names, each as its name words (not "Which" or "Do" before them): "the Acme Nano family
    and the Nicla family" -> [["Acme", "Nano"], ["Nicla"]]; "the Nano and Nicla families" -> [["Nano"], ["Nicla"]]. A
    singular "family" after a list ("the H7 and Nano family") is its last name's."""
    out: list[list[str]] = []
    for m in _FAMILY.finditer(q.text):
        plural = m.group(3).lower().endswith(("ies", "lines")) or m.group(3).lower() == "series"
        names = _JOINER.split(m.group(0)[: m.start(3) - m.start(0)].strip())
        for name in names if plural else names[-1:]:
            words = name.split()
            while words and words[0].lower() in _NOT_NAMES:
                words = words[1:]  # a capitalised question word ("Which Nano family boards")
            if words and words not in out:
                out.append(words)
    return out


def member_of(family: list[str], product: str) -> bool:
    """The product's name starts with the family's words, either one may have a maker's name first ("Acme Nano 33
    IoT" and "Nano 33 IoT" are of the Nano family and of the Acme Nano family); "Portenta H7 Lite" is of the Portenta H7
    family, "Nicla Vision" not of the Nano family, "Nano" not of its own."""
    words = [w.lower() for w in product.split()]
    names = [w.lower() for w in family]
    return any(len(p) > len(f) and p[: len(f)] == f for p in (words, words[1:]) for f in (names, names[1:]) if f)


def family_overview(q: QuestionTerms, fact_blocks: Mapping[int, str], texts: Iterable[str] = ()) -> str:
    """For a question about named families that asks a kind of part ("the sensing capabilities of the Nano family
    and the Nicla family", "the microcontroller architecture of the Portenta H7 family"): per family, its products'
    parts of that kind from the graph, each with what `texts` call it and its source. "" when the question names no
    family, asks no kind of part, or the graph lists such parts for none of the family's products."""
    families = named_families(q)
    if not families:
        return ""
    groups = [(n, subject, facts) for n, text in fact_blocks.items()
              for subject, stype, facts in fact_groups(text) if stype == PRODUCT_TYPE]
    asked = asked_kinds(q, [fact for _, _, facts in groups for fact in facts])
    if not asked:
        return ""
    said: list[str] = []
    seen: set[str] = set()
    docs = list(texts)
    for family in families:
        listed = []
        for n, subject, facts in groups:
            if subject in seen or not member_of(family, subject) or len(listed) >= MAX_PRODUCTS:
                continue
            parts = parts_of_kinds(facts, n, asked)
            if not parts:
                continue
            seen.add(subject)
            named = graph_kinds(facts, asked) | part_kinds([p for p, _ in parts], docs)
            listed.append(f"the {subject} lists {listed_parts(parts, named)}")
        if listed:
            said.append(f"the {' '.join(family)} family: {'; '.join(listed)}")
    return f"{FROM_GRAPH} {'. '.join(s[0].upper() + s[1:] for s in said)}." if said else ""
