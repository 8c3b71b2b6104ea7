"""Product scoping: link the question's products, components and families to the graph, longest name first.

A question naming "Nano 33 BLE Sense Rev2" links that product only: a linked name that is a strict part of a
longer linked name in the same place is dropped, and keys are numeric-safe (graph/keys.py), so a similarly
named product never stands in for the one asked about. Matching is by name/alias key containment (exact and
alias, or a model code that only one product's name holds), then by token-set overlap (fuzzy, for word order
and missing vendor prefixes), then by entity embedding when nothing matched by name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from kgrag.answering.terms import REVISION
from kgrag.graph.adjacency import GraphAdjacency
from kgrag.graph.datasheet.vocab import COMPONENT_TYPES, FAMILY_TYPE, ORDER_CODE, PART_TYPE, PRODUCT_TYPE
from kgrag.graph.keys import entity_key, name_tokens
from kgrag.retrieve.listed_codes import listed_product

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

LINKABLE = COMPONENT_TYPES | {PRODUCT_TYPE, PART_TYPE, FAMILY_TYPE, "Interface"}
FAMILY_WORDS = {"family", "series", "line", "range", "board", "boards", "kit", "kits"}
_MODEL_CODE = re.compile(r"(?<![\w-])(?=[\w-]*[A-Za-z])(?=[\w-]*\d)[A-Za-z0-9][\w-]{3,}(?![\w-])")  # "D1608S", "A0602"
FUZZY_MIN = 0.75  # share of a name's tokens found in the question for a fuzzy link
EMBED_MIN = 0.72  # cosine of an entity vector with the question for an embedding link (only if nothing else)


@dataclass
class Link:
    """A graph entity the question names: node index, how it matched, the question tokens it covers."""

    node: int
    name: str
    type: str
    match: str  # exact | alias | code | variant | fuzzy | embedding | bridge | described
    score: float
    start: int = -1  # token span in the question (exact/alias)
    end: int = -1


def _name_index(adj: GraphAdjacency) -> dict[str, list[tuple[int, bool]]]:
    """Cached key -> [(node, is main name)] over linkable entities; families also by their name minus 'Family'."""
    cached = adj._cache.get("scoping_names")
    if cached is None:
        cached = {}
        for node, (name, etype, aliases) in enumerate(zip(adj.names, adj.types, adj.aliases, strict=True)):
            if etype not in LINKABLE:
                continue
            names = [(name, True), *((a, False) for a in aliases)]
            if etype == FAMILY_TYPE:
                short = " ".join(w for w in name.split() if w.lower() not in FAMILY_WORDS)
                names.append((short, False))
            for text, main in names:
                keys = {entity_key(text)}
                if etype == PRODUCT_TYPE and main:  # a product's name also as written whole: the key drops "Kit" from
                    keys.add(" ".join(name_tokens(text)))  # "Proto Kit ME", which a question writes inside the name
                for key in keys - {""}:
                    cached.setdefault(key, []).append((node, main))
        for key, nodes in _unrevised_names(adj).items():
            cached.setdefault(key, nodes)  # only where no entity has that name ("Nano 33 BLE" is its own product)
        adj._cache["scoping_names"] = cached
    return cached


def _unrevised_names(adj: GraphAdjacency) -> dict[str, list[tuple[int, bool]]]:
    """Product names without their trailing revision ("Mega 2560" for "Mega 2560 Rev3"): what users write when the
    documents hold that one revision; every product of that base if the documents hold several."""
    out: dict[str, list[tuple[int, bool]]] = {}
    for node, (name, etype) in enumerate(zip(adj.names, adj.types, strict=True)):
        words = name.split()
        if etype == PRODUCT_TYPE and len(words) > 1 and REVISION.fullmatch(words[-1]):
            out.setdefault(entity_key(" ".join(words[:-1])), []).append((node, False))
    out.pop("", None)
    return out


def _product_codes(adj: GraphAdjacency, names: dict[str, list[tuple[int, bool]]]) -> dict[str, int]:
    """Cached key -> product for the model codes inside product names ("Opta Digital Expansion D1608E - D1608S"
    is named by "D1608S" alone): codes of one product only, that name no entity of their own (a chip such as the
    "RP2040" of "Nano RP2040 Connect" stays the chip) and are no revision ("Rev2")."""
    cached = adj._cache.get("scoping_codes")
    if cached is None:
        owners: dict[str, set[int]] = {}
        for node, (name, etype) in enumerate(zip(adj.names, adj.types, strict=True)):
            if etype == PRODUCT_TYPE:
                for code in _MODEL_CODE.findall(name):
                    key = entity_key(code)
                    if key and not REVISION.fullmatch(code) and key not in names and key != entity_key(name):
                        owners.setdefault(key, set()).add(node)
        cached = {key: next(iter(nodes)) for key, nodes in owners.items() if len(nodes) == 1}
        adj._cache["scoping_codes"] = cached
    return cached


def _specific_products(links: list[Link]) -> list[Link]:
    """A product named by its model code drops a linked product whose name begins its own: "Opta Ext D1608S"
    means the "Opta Digital Expansion D1608E - D1608S", not the "Opta" its first word also names."""
    coded = [name_tokens(lk.name) for lk in links if lk.match == "code"]

    def generic(lk: Link) -> bool:
        toks = name_tokens(lk.name)
        return lk.type == PRODUCT_TYPE and lk.match != "code" and any(
            len(c) > len(toks) and c[: len(toks)] == toks for c in coded)

    return [lk for lk in links if not generic(lk)]


def _acronym_written(name: str, question: str) -> bool:
    """An all-capital name ("CAN", "LED") links only when the question writes it in capitals too: "how can I"
    is not the CAN bus. Other names match case-insensitively."""
    if not (name.isalpha() and name.isupper()):
        return True
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", question) is not None


MAX_NAME_TOKENS = 12  # a name's key tokens: "R7FA6M5BH2CBG" splits into 9 (digits apart from letters)


def link_question(index: Workspace, question: str, adj: GraphAdjacency, qvec: np.ndarray | None = None) -> list[Link]:
    """Entities named in the question: exact/alias key runs (longest wins), fuzzy token sets, else embeddings."""
    names = _name_index(adj)
    codes = _product_codes(adj, names)
    tokens = name_tokens(question)
    found: list[Link] = []
    for n in range(min(MAX_NAME_TOKENS, len(tokens)), 0, -1):
        for i in range(len(tokens) - n + 1):
            key = " ".join(tokens[i : i + n])
            for node, main in names.get(key, ()):
                if n == 1 and (len(key) < 3 or not _acronym_written(adj.names[node], question)):
                    continue
                found.append(Link(node, adj.names[node], adj.types[node], "exact" if main else "alias",
                                  1.0 if main else 0.9, i, i + n))
            if key in codes:
                found.append(Link(codes[key], adj.names[codes[key]], PRODUCT_TYPE, "code", 0.9, i, i + n))
    found += _listed_codes(index, adj, names, codes, question, tokens)
    links = _specific_products(_prefer_families(_longest(found), adj, names, tokens, question))
    links += _variants(links, adj, tokens)
    taken = {lk.node for lk in links}
    covered = {i for lk in links for i in range(lk.start, lk.end)}
    qset = {t for i, t in enumerate(tokens) if i not in covered}  # fuzzy links only use words not linked yet
    for toks, nodes in _fuzzy_names(adj, names):
        if all(t in qset for t in toks if t.isdigit()) and len(toks & qset) / len(toks) >= FUZZY_MIN:
            for node in nodes:
                if node not in taken:
                    links.append(Link(node, adj.names[node], adj.types[node], "fuzzy", 0.7))
                    taken.add(node)
    if not links and qvec is not None and len(index.store.vector_matrix("entity").ids):
        for eid, sim in index.store.search_vectors("entity", qvec, 5):
            node = adj.index_of.get(eid)
            if node is not None and sim >= EMBED_MIN and adj.types[node] in LINKABLE and node not in taken:
                links.append(Link(node, adj.names[node], adj.types[node], "embedding", float(sim)))
                taken.add(node)
    return links


def _listed_codes(index: Workspace, adj: GraphAdjacency, names: dict[str, list[tuple[int, bool]]],
                  codes: dict[str, int], question: str, tokens: list[str]) -> list[Link]:
    """The products of the order codes the question writes that name no entity, as the documents list them
    ("Arduino Portenta H7 Lite (SKU: ABX00045)")."""
    out = []
    for code in dict.fromkeys(ORDER_CODE.findall(question)):
        key = entity_key(code)
        if key in names or key in codes:
            continue
        node = listed_product(index, adj, names, codes, code)
        span = name_tokens(code)
        start = next((i for i in range(len(tokens)) if tokens[i:i + len(span)] == span), -1)
        if node is not None and start >= 0:
            out.append(Link(node, adj.names[node], PRODUCT_TYPE, "code", 0.9, start, start + len(span)))
    return out


_VARIANT_LEAD = frozenset({"the", "vs", "versus", "or", "and", "a", "an"})
_SET_ASIDE = frozenset({"not", "unlike", "except", "without"})


def _variants(links: list[Link], adj: GraphAdjacency, tokens: list[str]) -> list[Link]:
    """Variants named by what sets them apart, after their base product: "Nano 33 BLE Sense vs Sense Rev2", "the
    original Nano 33 BLE Sense and the Rev2", "Portenta H7 vs H7 Lite vs H7 Lite Connected". A product whose name
    is a linked product's name and more words links when the question writes those words together, not linked yet,
    right after a word of the base's name or "the", "vs", "or", "and" (and not after "not", "unlike")."""
    covered = {i for lk in links for i in range(lk.start, lk.end)}
    taken = {lk.node for lk in links}
    out: list[Link] = []
    for lk in sorted(links, key=lambda x: x.start - x.end):  # the longest base first: its variant takes the words
        if lk.type != PRODUCT_TYPE or lk.start < 0:
            continue
        base = tokens[lk.start : lk.end]
        for name, node in _product_names(adj):
            extra = name[len(base):]
            if node in taken or len(name) <= len(base) or name[: len(base)] != base:
                continue
            for j in range(1, len(tokens) - len(extra) + 1):
                span = range(j, j + len(extra))
                if (tokens[j : j + len(extra)] == extra and not covered.intersection(span)
                        and (tokens[j - 1] in base or tokens[j - 1] in _VARIANT_LEAD)
                        and not _SET_ASIDE.intersection(tokens[max(0, j - 3) : j])):
                    out.append(Link(node, adj.names[node], PRODUCT_TYPE, "variant", 0.8, j, j + len(extra)))
                    taken.add(node)
                    covered.update(span)
                    break
    return out


def _product_names(adj: GraphAdjacency) -> list[tuple[list[str], int]]:
    """Cached (name key tokens, node) of every product's name and aliases, from the one name index."""
    cached = adj._cache.get("scoping_products")
    if cached is None:
        cached = [(key.split(), node) for key, entries in _name_index(adj).items()
                  for node, _ in entries if adj.types[node] == PRODUCT_TYPE]
        adj._cache["scoping_products"] = cached
    return cached


def _fuzzy_names(adj: GraphAdjacency, names: dict[str, list[tuple[int, bool]]]) -> list[tuple[frozenset[str], list[int]]]:
    """Product names that may be matched loosely: several words with a number ("Nano 33 IoT"), never plain words."""
    cached = adj._cache.get("scoping_fuzzy")
    if cached is None:
        cached = []
        for key, entries in names.items():
            toks = frozenset(key.split())
            nodes = [n for n, _ in entries if adj.types[n] == PRODUCT_TYPE]
            if nodes and len(toks) >= 2 and any(t.isdigit() for t in toks):
                cached.append((toks, nodes))
        adj._cache["scoping_fuzzy"] = cached
    return cached


def _longest(found: list[Link]) -> list[Link]:
    """Longest (then exact before alias, then a product before another entity of the same name: "Portenta C33" is
    the product, not its mention as a carrier's component) names first; a link overlapping a kept one is dropped."""
    out: list[Link] = []
    seen: set[int] = set()
    for lk in sorted(found, key=lambda x: (-(x.end - x.start), -x.score, x.type != PRODUCT_TYPE, x.start)):
        overlaps = any(lk.start < o.end and o.start < lk.end for o in out)
        if not overlaps and lk.node not in seen:
            out.append(lk)
            seen.add(lk.node)
    return out


_CHOICE = frozenset({"which", "what", "any", "all", "each", "every"})


def _prefer_families(links: list[Link], adj: GraphAdjacency, names: dict[str, list[tuple[int, bool]]],
                     tokens: list[str], question: str) -> list[Link]:
    """A bare family name means the family when the question speaks of families ("the Nano and Nicla families") or
    of a choice among its members ("which Nano board", "Nano boards") or names a member the graph does not know
    ("the Opta Analog Expansion": the name goes on in capitals), else the product of that name ("the Opta's
    real-time clock" is the Opta, not every Opta product)."""
    families = bool({"family", "families", "series"} & set(tokens))
    out = []
    for lk in links:
        before = tokens[lk.start - 1] if lk.start > 0 else ""
        after = tokens[lk.end] if lk.end < len(tokens) else ""
        key = " ".join(tokens[lk.start : lk.end])
        longer = re.search(r"(?<![\w-])(?i:" + r"\W+".join(map(re.escape, key.split())) + r")\s+[A-Z]", question)
        if not (families or longer or before in _CHOICE or after in ("boards", "products", "modules")):
            out.append(lk)  # "the Opta's clock": the product; "which Nano board", "the Opta Analog Expansion": a member
            continue
        family = next((n for n, _ in names.get(key, ()) if adj.types[n] == FAMILY_TYPE), None)
        if lk.type == PRODUCT_TYPE and family is not None and family not in {o.node for o in links}:
            lk = Link(family, adj.names[family], FAMILY_TYPE, "alias", 0.9, lk.start, lk.end)
        out.append(lk)
    return out


def products_of(links: list[Link]) -> list[Link]:
    return [lk for lk in links if lk.type == PRODUCT_TYPE]


def chunk_products(index: Workspace, adj: GraphAdjacency, chunk_ids: list[str]) -> dict[str, set[int]]:
    """chunk id -> the product nodes it belongs to (every chunk of a product's document mentions the product)."""
    mentions = index.store.entities_of_chunks(chunk_ids)
    out: dict[str, set[int]] = {}
    for cid, ids in mentions.items():
        nodes = {adj.index_of[e] for e in ids if e in adj.index_of}
        out[cid] = {n for n in nodes if adj.types[n] == PRODUCT_TYPE}
    return out


def mentioned_products(index: Workspace, adj: GraphAdjacency, chunk_ids: list[str]) -> dict[str, set[int]]:
    """chunk id -> the product nodes its text names ("… the Braccio Carrier, run by a Nano RP2040 Connect"), each
    name read whole: the longest product name at a place, so "Nano RP2040 Connect" is not also "Nano"."""
    named = _product_names_pattern(adj) if chunk_ids else None
    if named is None:  # no chunk to read, or no product
        return {}
    pattern, node = named
    return {c.chunk_id: {node[m.group(0).lower()] for m in pattern.finditer(c.text) if m.group(0).lower() in node}
            for c in index.store.get_chunks(chunk_ids)}


def _product_names_pattern(adj: GraphAdjacency) -> tuple[re.Pattern[str], dict[str, int]] | None:
    """Cached: one pattern of every product name, longest first, and lower-cased name -> node; None without products."""
    if "product_names_pattern" not in adj._cache:
        products = sorted((n for n in range(adj.n_nodes) if adj.types[n] == PRODUCT_TYPE), key=lambda n: -len(adj.names[n]))
        pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(adj.names[n]) for n in products) + r")(?![\w-])",
                             re.IGNORECASE) if products else None
        node = {adj.names[n].lower(): n for n in reversed(products)}
        adj._cache["product_names_pattern"] = (pattern, node) if pattern else None
    return adj._cache["product_names_pattern"]


def product_neighbours(adj: GraphAdjacency, node: int) -> set[int]:
    """The products one edge from `node`: a family's members, the products that have a part or an interface."""
    return {int(n) for n in adj.neighbours(node).tolist() if adj.types[int(n)] == PRODUCT_TYPE}
