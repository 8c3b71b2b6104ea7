"""Which products have a kind of part ("Which boards have an IMU?"): the graph's has-relations whose part the
documents call so.

The datasheet graph types parts coarsely (a camera, an IMU and a microphone are all `Sensor`), but each has-relation
keeps the line it came from ("GC2145: 2 Megapixel CMOS Camera", "LSM6DSOX: 6-axis IMU"). A relation is of the asked
kind when that line (or the part's name) writes the kind word next to the part, and the part's type is the kind's (or
untyped). A kind is a class word narrower than a type ("IMU", "camera", "relay") or the word before a type's own
word ("humidity sensor", "LoRa module"). Nothing here names a product or a part: only the class words of
graph/datasheet/vocab.py.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from kgrag.answering.asks import ASK_WORDS, TOKEN, second_question
from kgrag.answering.graph_lists import TYPE_SYNONYMS, called_near, kinds_any_of
from kgrag.answering.terms import CLASS_WORDS, PRODUCT_WORDS, analyse, asks_product
from kgrag.answering.words import fold
from kgrag.graph.adjacency import GraphAdjacency
from kgrag.graph.datasheet.vocab import (
    FEATURE_TYPE,
    INTERFACE_TYPE,
    PART_TYPE,
    PRODUCT_TYPE,
    TYPE_RULES,
    TYPE_WORDS,
    VALUE_TYPE,
)
from kgrag.ingest.clean import squash
from kgrag.retrieve.fact_table import Fact

GENERIC_KINDS = frozenset(fold(t) for t in TYPE_WORDS)  # "sensor", "module": every part of a type, too many to list
KIND_TYPE = {fold(w): t for t, words in reversed(TYPE_RULES) for w in words}  # the first rule naming a word wins
# Words before a type's word that say where or how a part sits, not what it is ("an onboard sensor")
PLACEMENT = frozenset({"onboard", "on-board", "built-in", "integrated", "embedded", "external", "internal", "main",
                       "additional", "dedicated", "extra", "optional", "own", "other", "separate", "single", "any"})
NOT_PARTS = frozenset({INTERFACE_TYPE, VALUE_TYPE, FEATURE_TYPE})  # "has interface | HDMI" near "camera & HDMI"
KIND_PREFIX = 7  # letters a kind word and its other forms share ("barometer", "barometric")
KIND_SCORE = 10.0  # above any collected fact: these lines are what the question asks


@dataclass(frozen=True)
class Kind:
    """A kind of part asked for: its word (folded) and the graph type its parts have."""

    word: str
    type: str


@dataclass(frozen=True)
class AskedKinds:
    """The kinds a which-product question asks for, the words in capitals right before one ("RGB" of "an RGB LED"),
    which the part's line must write too, and whether any of the kinds will do ("a pressure sensor or barometer")."""

    kinds: tuple[Kind, ...] = ()
    qualifiers: frozenset[str] = frozenset()
    any_of: bool = False


def asked_kinds(question: str) -> AskedKinds:
    """"Which boards have an IMU and a camera?" -> imu, camera; "… a humidity sensor?" -> humidity (a Sensor);
    nothing for other questions and for whole types ("Which boards have sensors?")."""
    q = analyse(question)
    # "Which board has X, and what …": the bridge to that board answers (retrieve/strategies/facts.bridge_product)
    if not asks_product(q) or second_question(question, bare_and=True, conjunctions=frozenset({"", "and"}),
                                              words=ASK_WORDS - {"why"}):
        return AskedKinds()
    # "IMU", written in capitals, is read as a name; "WiFi" of "GIGA R1 WiFi" is a product's, whose name has a number
    written = q.attributes | {fold(w) for p in q.phrases if not any(c.isdigit() for w in p for c in w) for w in p}
    words = TOKEN.findall(question)
    pairs = list(zip(words, words[1:], strict=False))
    narrow = (written & KIND_TYPE.keys()) - GENERIC_KINDS - TYPE_SYNONYMS  # kinds of part, not of interface ("bus")
    kinds = [Kind(word, KIND_TYPE[word]) for word in sorted(narrow)]
    for before, word in pairs:  # "a humidity sensor", "a gas or air-quality sensor"; not "the GIGA Display Shield"
        head, kind = fold(word), fold(before)
        if (head in GENERIC_KINDS and head in KIND_TYPE and before.islower() and kind in q.attributes
                and kind not in CLASS_WORDS | PRODUCT_WORDS | PLACEMENT):
            kinds += [Kind(k, KIND_TYPE[head]) for k in _alternatives(words, before, q.attributes)]
    qualifiers = {fold(before) for i, (before, word) in enumerate(pairs)  # not the question's first word
                  if i and fold(word) in narrow and not before.islower() and fold(before) not in CLASS_WORDS | PRODUCT_WORDS}
    # "a LoRa radio", "a time-of-flight distance sensor": one kind, named by its first word
    second = {fold(word) for before, word in pairs if fold(before) in {k.word for k in kinds}}
    unique = tuple(dict.fromkeys(k for k in kinds if k.word not in second))
    return AskedKinds(unique, frozenset(qualifiers), kinds_any_of(question) and len(unique) > 1)


def _alternatives(words: list[str], last: str, written: Collection[str]) -> list[str]:
    """The kind words "gas or air-quality sensor" lists before its type word: each content word joined by "or"."""
    at = words.index(last)
    found = [fold(last)]
    while at >= 2 and words[at - 1].lower() in ("or", "and") and fold(words[at - 2]) in written:
        at -= 2
        found.append(fold(words[at]))
    return found


def _same_part(word: str, key: str) -> bool:
    """A word of a relation's line names the part `key` (squashed): as written, as a longer order code of it, or as
    the shorter code the line was read from before the part merged with its variant ("ATECC608" for "ATECC608A")."""
    w = squash(word)
    return bool(key) and (w.startswith(key) or (len(w) >= 5 and any(c.isdigit() for c in w) and key.startswith(w)))


def _spelled(word: str, kind: str) -> bool:
    """`word` (folded) writes `kind` or a word of its stem ("barometric" for "barometer"): the first KIND_PREFIX
    letters, so "microphone" and "microcontroller" stay apart."""
    return word == kind or (len(kind) >= KIND_PREFIX and word[:KIND_PREFIX] == kind[:KIND_PREFIX])


def _written_near(adj: GraphAdjacency, r: int, words: Collection[str]) -> set[str]:
    """Those of `words` (folded) the relation's lines, or its part's name, write next to the part (`called_near`)."""
    part = adj.names[int(adj.rel_dst[r])]
    key = squash(part)
    found = {k for k in words for w in TOKEN.findall(part) if _spelled(fold(w), k)}  # "Rotary Encoder", "RGB LED"
    for line in adj.rel_desc[r].splitlines():
        tokens = {fold(w) for w in TOKEN.findall(line)}
        for k in set(words) - found:
            spellings = {t for t in tokens if _spelled(t, k)}
            if spellings and called_near(line, spellings, lambda w: _same_part(w, key)):
                found.add(k)
    return found


def relations_of_kind(adj: GraphAdjacency, kind: Kind) -> list[int]:
    """Products' has-relations to a part of this kind (its type's or untyped); cached with the in-memory graph."""
    cache = adj._cache.setdefault("relations_of_kind", {})
    if kind not in cache:
        cache[kind] = [r for r, label in enumerate(adj.rel_types)
                       if label.startswith("has ") and adj.types[int(adj.rel_src[r])] == PRODUCT_TYPE
                       and adj.types[int(adj.rel_dst[r])] in (kind.type, PART_TYPE)
                       and adj.types[int(adj.rel_dst[r])] not in NOT_PARTS and _written_near(adj, r, {kind.word})]
    return cache[kind]


def kind_facts(adj: GraphAdjacency, asked: AskedKinds, within: Collection[int] | None = None
               ) -> tuple[list[Fact], dict[str, list[str]]]:
    """The parts of each asked kind with the products (of `within`, when given: a named family's) that have them, as
    "in product | Name" facts of the part, and the names of those parts per kind."""
    facts: dict[int, Fact] = {}
    parts: dict[str, set[str]] = {kind.word: set() for kind in asked.kinds}
    for kind in asked.kinds:
        for r in relations_of_kind(adj, kind):
            product, part = int(adj.rel_src[r]), int(adj.rel_dst[r])
            if within is not None and product not in within:
                continue
            if asked.qualifiers and _written_near(adj, r, asked.qualifiers) != asked.qualifiers:
                continue
            facts.setdefault(r, Fact(r, part, f"in {adj.types[product].lower()}", adj.names[product], KIND_SCORE,
                                     between_entities=True))
            parts[kind.word].add(adj.names[part])
    return list(facts.values()), {kind: sorted(names) for kind, names in parts.items()}
