"""Which products have a kind of part ("Which boards have an IMU?"): the graph's has-relations whose part the
documents call so.

The datasheet graph types parts coarsely (a camera, an IMU and a microphone are all `Sensor`), but each has-relation
keeps the line it came from ("GC2145: 2 Megapixel CMOS Camera", "LSM6DSOX: 6-axis IMU"). A relation is of the asked
kind when that line (or the part's name) writes the kind word next to the part, and the part's type is the kind's (or
untyped). Nothing here names a product or a part: only the class words of graph/datasheet/vocab.py.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from kgrag.answering.asks import TOKEN
from kgrag.answering.extract import kind_next_to
from kgrag.answering.graph_lists import CALLED_WINDOW, ROLE, TYPE_SYNONYMS
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
NOT_PARTS = frozenset({INTERFACE_TYPE, VALUE_TYPE, FEATURE_TYPE})  # "has interface | HDMI" near "camera & HDMI"
KIND_SCORE = 10.0  # above any collected fact: these lines are what the question asks


@dataclass(frozen=True)
class AskedKinds:
    """The kinds of part a which-product question asks for, folded, and the words written in capitals right before
    one ("RGB" of "an RGB LED"), which the part's line must write too."""

    kinds: frozenset[str]
    qualifiers: frozenset[str] = frozenset()


def asked_kinds(question: str) -> AskedKinds:
    """"Which boards have an IMU and a camera?" -> imu, camera; nothing for other questions and for whole types
    ("Which boards have sensors?")."""
    q = analyse(question)
    if not asks_product(q):
        return AskedKinds(frozenset())
    written = q.attributes | {fold(n) for n in q.names}  # "IMU", written in capitals, is read as a name
    kinds = frozenset(written & CLASS_WORDS) - GENERIC_KINDS - TYPE_SYNONYMS
    words = TOKEN.findall(question)
    # "a LoRa radio": one kind, named by its first word (the second is the class any such part belongs to)
    kinds -= {fold(word) for before, word in zip(words, words[1:], strict=False) if fold(before) in kinds}
    qualifiers = {fold(before) for before, word in zip(words, words[1:], strict=False)
                  if fold(word) in kinds and not before.islower() and fold(before) not in CLASS_WORDS | PRODUCT_WORDS}
    return AskedKinds(kinds, frozenset(qualifiers))


def _same_part(word: str, key: str) -> bool:
    """A word of a relation's line names the part `key` (squashed): as written, as a longer order code of it, or as
    the shorter code the line was read from before the part merged with its variant ("ATECC608" for "ATECC608A")."""
    w = squash(word)
    return bool(key) and (w.startswith(key) or (len(w) >= 5 and any(c.isdigit() for c in w) and key.startswith(w)))


def _lines(adj: GraphAdjacency, r: int) -> list[str]:
    """The relation's source lines without "<word> driver / connector …" pairs (`ROLE`)."""
    return [ROLE.sub(" ", raw) for raw in adj.rel_desc[r].splitlines()]


def _written_near(adj: GraphAdjacency, r: int, words: Collection[str]) -> set[str]:
    """Those of `words` (folded) the relation's lines, or its part's name, write next to the part."""
    part = adj.names[int(adj.rel_dst[r])]
    key = squash(part)
    found = {fold(w) for w in TOKEN.findall(part)} & set(words)  # "Rotary Encoder", "RGB LED" name their kind
    for line in _lines(adj, r):
        near = {fold(w) for w in TOKEN.findall(line)} & set(words) - found
        found |= {k for k in near if kind_next_to(line, {k}, lambda w: _same_part(w, key), CALLED_WINDOW)}
    return found


def product_parts(adj: GraphAdjacency) -> list[tuple[int, frozenset[str]]]:
    """(relation, kinds) of every product's has-relation whose part the documents call by a class word of its type;
    cached with the in-memory graph (one pass over the relations)."""
    cached = adj._cache.get("product_parts")
    if cached is None:
        cached = []
        for r, label in enumerate(adj.rel_types):
            part_type = adj.types[int(adj.rel_dst[r])]
            if label.startswith("has ") and adj.types[int(adj.rel_src[r])] == PRODUCT_TYPE and part_type not in NOT_PARTS:
                kinds = frozenset(k for k in _written_near(adj, r, CLASS_WORDS) if KIND_TYPE.get(k) in (part_type, None)
                                  or part_type == PART_TYPE)
                if kinds:
                    cached.append((r, kinds))
        adj._cache["product_parts"] = cached
    return cached


def kind_facts(adj: GraphAdjacency, asked: AskedKinds) -> tuple[list[Fact], dict[str, list[str]]]:
    """The parts of each asked kind with the products that have them, as "in product | Name" facts of the part, and
    the names of those parts per kind."""
    facts: list[Fact] = []
    parts: dict[str, set[str]] = {kind: set() for kind in asked.kinds}
    for r, written in product_parts(adj):
        kinds = written & asked.kinds
        if kinds and (not asked.qualifiers or _written_near(adj, r, asked.qualifiers) == asked.qualifiers):
            product, part = int(adj.rel_src[r]), int(adj.rel_dst[r])
            facts.append(Fact(r, part, f"in {adj.types[product].lower()}", adj.names[product], KIND_SCORE,
                              between_entities=True))
            for kind in kinds:
                parts[kind].add(adj.names[part])
    return facts, {kind: sorted(names) for kind, names in parts.items()}
