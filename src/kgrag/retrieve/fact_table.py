"""Spec facts for a question as a compact attribute/value table with source numbers.

Facts are collected around the linked entities: their own relations (a component's specs, a product's
components and interfaces), then one hop on (component -> the products that have it -> those products'
components and specs; product -> its components' specs), ranked by hop and by how many question words the
fact shares. Serialized per subject as `attribute | value [n]` lines, `[n]` being the context block of a
chunk the fact comes from whose shown text states the value (a compacted chunk may no longer show it; then the
line carries no number and the fact table itself is the source).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from kgrag.answering.ambient import ambient_quantities
from kgrag.answering.asks import asks_overview
from kgrag.answering.values import QUANTITY_NOUNS, asked_dimensions, value_dimensions
from kgrag.answering.words import content_terms
from kgrag.graph.adjacency import GraphAdjacency
from kgrag.graph.datasheet.vocab import CHECKMARKS, FAMILY_TYPE, PRODUCT_TYPE, TYPE_WORDS, VALUE_TYPE
from kgrag.graph.keys import name_tokens
from kgrag.retrieve.query import question_terms
from kgrag.tokens import count_tokens

MAX_FACTS = 80
MAX_EXPAND = 40  # nodes expanded per hop (a family has tens of products, a product tens of parts)
HOP_WEIGHT = (1.0, 0.55, 0.3)  # facts of a linked entity, one hop on, two hops on
CLASS_WEIGHT = 0.3  # a question word matching only the other end's class ("boards" ~ a Product end) counts this much
UNIT_WEIGHT = 1.0  # a part's value whose unit measures the quantity asked ("up to what distance" ~ "400 cm" of the
# named board's sensor) counts as a word; not the named thing's own values, which share words when they answer
OVERVIEW_WEIGHT = 0.5  # an overview ("Summarize what the A offers") asks every spec and part of the named thing: its own
# facts count as this many words, so rows sharing the question's words (an aspect: "its power options") still lead
_SYMBOL_SPACE = re.compile(r"\s+([^\w\s])")


@dataclass
class Fact:
    """One relation read as (subject, attribute, value) with its score and supporting chunks."""

    rel: int
    subject: int
    attribute: str
    value: str
    score: float
    chunks: list[str] = field(default_factory=list)
    between_entities: bool = False  # "in product | Nano", "has sensor | HS3003": both ends are named things

    def line(self) -> str:
        """The fact as a table line, without its source number: "attribute | value"."""
        return f"{self.attribute} | {self.value}"


def _orient(adj: GraphAdjacency, r: int, node: int) -> tuple[int, str, str]:
    """(subject node, attribute, value) of relation r seen from `node`'s side ("is in" for incoming has-edges)."""
    s, t = int(adj.rel_src[r]), int(adj.rel_dst[r])
    label = adj.rel_types[r]
    if s == node or t != node:
        return s, label, adj.names[t]
    if label.startswith("has "):
        return t, f"in {adj.types[s].lower() or 'product'}", adj.names[s]
    return s, label, adj.names[t]


@lru_cache(maxsize=65536)
def _prefixes(text: str) -> frozenset[str]:
    """Word prefixes (4 letters) of the content words: `sensing`/`sensor`, `measurement`/`measures` meet; and the
    initials of three or four words in a row that hold a hyphenated compound, so "real-time clock" meets "RTC" and
    "deep power-down" "DPD" (any three words would also spell regulatory marks: "relevant current measurements")."""
    words: list[tuple[str, bool]] = []
    for term in question_terms(text):
        parts = [t for t in name_tokens(term) if not t.isdigit()]
        words += [(t, len(parts) > 1) for t in parts]
    initials = {"".join(w[0] for w, _ in words[i:i + n]) for n in (3, 4) for i in range(len(words) - n + 1)
                if any(joined for _, joined in words[i:i + n])}
    return frozenset({t[:4] for t, _ in words if len(t) >= 3} | initials)


def _node_facts(adj: GraphAdjacency, node: int) -> list[tuple[int, int, int, str, str, frozenset[str], frozenset[str]]]:
    """(relation, other end, subject, attribute, value, own words, class words) of every relation at `node`.

    Own words are the prefixes of the label and the other end's name, class words those of the other end's type
    ("board" for a Product end). Cached with the in-memory graph, so a question costs dictionary look-ups only.
    """
    cache = adj._cache.setdefault("node_facts", {})
    rows = cache.get(node)
    if rows is None:
        rows = []
        for r in adj.incident(node).tolist():
            subject, attribute, value = _orient(adj, r, node)
            src = int(adj.rel_src[r])
            other = int(adj.rel_dst[r]) if src == node else src
            own = _prefixes(f"{attribute} {value}")
            kind = _prefixes(" ".join(TYPE_WORDS.get(adj.types[other], (adj.types[other],)))) - own
            rows.append((r, other, subject, attribute, value, own, kind))
        cache[node] = rows
    return rows


@lru_cache(maxsize=65536)
def _quantities(value: str) -> frozenset[str]:
    """The quantities a value node's numbers measure ("400 cm" -> length)."""
    return frozenset(value_dimensions(value))


def collect_facts(adj: GraphAdjacency, seeds: Sequence[int], question: str, max_facts: int = MAX_FACTS,
                  class_weight: float = CLASS_WEIGHT, unit_weight: float = UNIT_WEIGHT, parts: bool = False
                  ) -> list[Fact]:
    """Facts within two hops of the seeds that share a word with the question besides the seeds' names (cut out of
    the question where it writes them, so "sensors" still counts beside "Nano 33 BLE Sense"), or whose value
    measures the quantity the question asks (a part of the named board: its sensor's "detection | 400 cm" for "up
    to what distance"), best first.

    Never walks through value, family or interface nodes (hubs that would connect everything). With `parts`, every
    part a seed product has counts as asked ("how do the A and the B differ": both products' whole lists). An overview
    question asks each seed's own specs and parts (OVERVIEW_WEIGHT).
    """
    rest = question
    for n in seeds:  # the words the question asks besides the seeds' names ("sensors" of "… Sense Rev2 have")
        rest = re.sub(re.escape(adj.names[n]), " ", rest, flags=re.IGNORECASE)
    named = set().union(*(_prefixes(adj.names[n]) for n in seeds if adj.names[n].lower() not in question.lower()))
    nouns = " ".join(QUANTITY_NOUNS[w] for w in re.findall(r"[a-z]+", rest.lower()) if w in QUANTITY_NOUNS)
    wanted = (_prefixes(rest) | _prefixes(nouns)) - named  # "how heavy" asks the row labelled "Weight"
    quantities = asked_dimensions(content_terms(rest)) if unit_weight > 0 else set()
    ambient = ambient_quantities(question) if unit_weight > 0 else set()
    overview = asks_overview(question)
    hop: dict[int, int] = {n: 0 for n in seeds}
    frontier = list(seeds)
    for depth in (1, 2):
        nxt: list[int] = []
        for node in frontier[:MAX_EXPAND]:
            for nb in adj.neighbours(node).tolist():
                if nb not in hop and adj.types[nb] not in (VALUE_TYPE, FAMILY_TYPE, "Interface"):
                    if depth == 2 and adj.types[node] == PRODUCT_TYPE and adj.types[nb] == PRODUCT_TYPE:
                        continue
                    hop[nb] = depth
                    nxt.append(nb)
        frontier = nxt
    best: dict[int, Fact] = {}
    for node, depth in hop.items():
        for r, other, subject, attribute, value, own, kind in _node_facts(adj, node):
            if depth == 2 and adj.types[other] != VALUE_TYPE:
                continue  # two hops out: only that entity's own specs
            hits = len(own & wanted) + class_weight * len(kind & wanted)  # wanted excludes the seeds' own names
            measured = _quantities(value) if adj.types[other] == VALUE_TYPE else frozenset()
            if (depth and quantities & measured) or ambient & measured:  # a part's value of the asked quantity, or
                hits += unit_weight  # any rating of the surroundings the question writes
            if parts and not depth and adj.types[node] == PRODUCT_TYPE and subject == node and attribute.startswith("has "):
                hits = max(hits, 1.0)
            if overview and not depth and subject == node and (attribute.startswith("has ") or (
                    adj.types[other] == VALUE_TYPE and value.lower() not in CHECKMARKS)):
                hits = max(hits, OVERVIEW_WEIGHT)
            if not hits:
                continue  # a fact that answers nothing the question asks costs budget
            score = HOP_WEIGHT[depth] * (1.0 + 2.0 * hits / max(len(wanted), 1)) + 0.01 * min(float(adj.rel_weight[r]), 5.0)
            if r not in best or score > best[r].score:
                best[r] = Fact(r, subject, attribute, value, score, between_entities=adj.types[other] != VALUE_TYPE)
    return sorted(best.values(), key=lambda f: (-f.score, f.rel))[:max_facts]


def fit_facts(adj: GraphAdjacency, facts: Sequence[Fact], budget: int) -> list[Fact]:
    """The facts with each subject's group (a header, then "attribute | value [n]" lines) cut to its best rows that fit
    `budget` tokens: a group larger than the fact share (an overview's product) would otherwise be left out whole.
    A row extracted twice (a table and its sentence) shows once."""
    kept: list[Fact] = []
    used: dict[int, int] = {}
    said: set[tuple[int, str, str]] = set()
    for f in facts:
        row = (f.subject, f.attribute.lower(), f.value.lower())
        if row in said:
            continue
        said.add(row)
        if f.subject not in used:  # "Name (Type, in Owner)": the owner's name taken as long as the subject's
            used[f.subject] = count_tokens(f"{adj.names[f.subject]} ({adj.types[f.subject]}, in {adj.names[f.subject]})") + 1
        cost = count_tokens(f"{f.line()} [99]") + 1  # a two-digit source number
        if used[f.subject] + cost <= budget:
            kept.append(f)
            used[f.subject] += cost
    return kept


@lru_cache(maxsize=4096)
def _joined_tokens(text: str) -> str:
    """Normalised tokens joined by spaces, symbols glued to their number ("100 %" = "100%"), padded."""
    return " " + _SYMBOL_SPACE.sub(r"\1", " ".join(name_tokens(text))) + " "


def states(value: str, text: str) -> bool:
    """The text states the value (normalised tokens in sequence: "0-100%" is "0 to 100 %" in both)."""
    wanted = _joined_tokens(value)
    return wanted.strip() != "" and wanted in _joined_tokens(text)


def shows(adj: GraphAdjacency, fact: Fact, text: str) -> bool:
    """The text states the fact: its value, and for a relation between two named things both names."""
    return states(fact.value, text) and (not fact.between_entities or states(adj.names[fact.subject], text))


def part_owner(adj: GraphAdjacency, node: int) -> str:
    """The one product that has this part ("WisGate Edge Lite 2" for its SX1302), so the part's values are not read as
    the asked product's; "" for a product, or a part in several products (a common chip says nothing of any one)."""
    if adj.types[node] in (PRODUCT_TYPE, VALUE_TYPE, FAMILY_TYPE):
        return ""
    owners = {int(adj.rel_src[r]) for r in adj.incident(node).tolist() if int(adj.rel_dst[r]) == node
              and adj.types[int(adj.rel_src[r])] == PRODUCT_TYPE and adj.rel_types[r].startswith("has ")}
    return adj.names[owners.pop()] if len(owners) == 1 else ""


def fact_lines(adj: GraphAdjacency, facts: Iterable[Fact], block_of: dict[str, int],
               shown: dict[str, str] | None = None) -> list[tuple[int, str, list[int]]]:
    """Per subject (in order of its best fact): a header line and `attribute | value [n]` lines.

    `shown` maps chunk ids to the text the context shows: a block is cited only when it states the fact (`shows`),
    so a reader (or an answer quoting the line) finds the fact where the number points.
    """
    shown = shown or {}
    groups: dict[int, list[Fact]] = defaultdict(list)
    for f in facts:
        groups[f.subject].append(f)
    out: list[tuple[int, str, list[int]]] = []
    for subject, items in groups.items():
        etype = adj.types[subject]
        owner = part_owner(adj, subject) if etype else ""
        if any(f.between_entities and f.value == owner for f in items):
            owner = ""  # an "in product | X" line already says it
        lines = [f"{adj.names[subject]} ({etype}{f', in {owner}' if owner else ''})" if etype else adj.names[subject]]
        rels = []
        for f in items:
            refs = sorted({block_of[c] for c in f.chunks if c in block_of and (c not in shown or shows(adj, f, shown[c]))})
            cite = f" [{refs[0]}]" if refs else ""
            lines.append(f"{f.line()}{cite}")
            rels.append(f.rel)
        out.append((subject, "\n".join(lines), rels))
    return out
