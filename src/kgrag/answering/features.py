"""A product's own features list, quoted for an overview question ("What are the key specs of the A?", "What
connectors and features does the A provide?"): a datasheet opens with a "Features" section that names what the
product offers a few words a line, which passages picked one sentence at a time leave scattered or out."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from kgrag.answering.asks import asks_overview
from kgrag.answering.blocks import Block
from kgrag.answering.names import coded_product, documented_names, title_names
from kgrag.answering.refusal import is_refusal
from kgrag.answering.terms import analyse
from kgrag.answering.words import content_terms, stem
from kgrag.graph.datasheet.vocab import ORDER_CODE

# "Features", "2 Features", "2.2 Key Features" alone on their line (a record's "[Product: …]" prefix line before it)
FEATURES_HEADING = re.compile(r"^[ \t]*(?:\d+(?:\.\d+)*\.?[ \t]+)?(?:key[ \t]+|main[ \t]+|product[ \t]+)?features[ \t]*:?[ \t]*$",
                              re.IGNORECASE | re.MULTILINE)
# "2.1 Contents", "3 Related Products": the list has ended (not "64 MHz Arm Cortex-M4F", "4 Digital inputs at 24 V")
NEXT_SECTION = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+[A-Z][a-z]+(?:\s+[A-Za-z&/-]+){0,4}$")
# a question asking what a product offers as a whole: its features or specs ("Summarise the key specs of the A for a
# robotics lab"), what is on it ("What hardware is on the shield?"); not a value "according to the specifications"
ASKS_FEATURES = re.compile(r"(?<!according to the )(?<!according to its )(?<!in the )(?<!in its )"
                           r"\b(?:features|specs|specifications)\b"
                           r"|\bwhat(?:'s|\s+(?:\w+\s+){0,2}(?:is|are))\s+on(?:board)?\b", re.IGNORECASE)
# words of a request for the whole list, not an aspect of it ("Give me an overview of the key specs of the A")
_WHOLE = frozenset(stem(w) for w in ("feature", "features", "spec", "specs", "specification", "specifications", "key",
                                     "main", "capability", "capabilities", "overview", "summary", "summarize",
                                     "summarise", "give", "provide", "offer", "list", "board", "product", "please"))
MIN_PART_WORDS = 3  # a continued part of the list shorter than this is a sub-heading cut from its lines
MAX_FEATURE_WORDS = 90  # the list's first lines: a whole page of features would bury the answer


def features_lines(text: str) -> list[str]:
    """The lines of the features section `text` holds, up to the next numbered section and MAX_FEATURE_WORDS words;
    empty when it has none."""
    heading = FEATURES_HEADING.search(text)
    return [] if heading is None else _list_lines(text[heading.end():], MAX_FEATURE_WORDS, opens=True)


def _list_lines(text: str, budget: int, opens: bool = False) -> list[str]:
    """The non-empty lines of `text` up to the next numbered section or features heading and `budget` words; where
    the text `opens` the list, a first line longer than the budget is kept cut (one long paragraph)."""
    lines: list[str] = []
    count = 0
    for raw in text.split("\n"):
        line = " ".join(raw.split())
        if not line:
            continue
        if NEXT_SECTION.match(line) or FEATURES_HEADING.fullmatch(line):
            break
        words = line.split()
        if count + len(words) > budget:
            if not lines and opens:  # one long paragraph: its first words
                lines.append(" ".join(words[:budget]) + " …")
            break
        lines.append(line.rstrip(".;"))
        count += len(words)
    return lines


# a chunk of the features section cut after its heading: its section path says so ("Features > 3.97" TFT Display")
_IN_FEATURES = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?(?:key\s+|main\s+|product\s+)?features\s*(?:>|$)", re.IGNORECASE)


def _continued(block: Block, blocks: Sequence[Block], budget: int) -> str:
    """The features list's lines in the other retrieved chunks of `block`'s document that its section path puts under
    the features heading, in document order, each part with its citation ("; 480x800 resolution; … [12]")."""
    parts = []
    later = sorted((b for b in blocks if b is not block and b.title == block.title and b.chunk_id
                    and _IN_FEATURES.match(str(b.source.get("section") or ""))), key=lambda b: str(b.chunk_id))
    for other in later:
        lines = _list_lines(other.text, budget)
        words = sum(len(line.split()) for line in lines)
        budget -= words
        if words >= MIN_PART_WORDS:  # not a sub-heading alone ("Power")
            parts.append(f"; {'; '.join(lines)} [{other.n}]")
    return "".join(parts)


def features_wanted(question: str, product: Sequence[str], lines: Sequence[str]) -> bool:
    """The question asks the features list `lines` of the named `product` gives: its features or specs whatever else it
    says ("List its main features"), or an overview of it or of an aspect the list names (not "Summarize its RTC
    battery backup" over a list without one)."""
    whole = ASKS_FEATURES.search(question) is not None
    if not lines or not (whole or asks_overview(question)):
        return False
    aspect = {stem(w) for w in content_terms(ORDER_CODE.sub(" ", question))} - _WHOLE - {stem(w.lower()) for w in product}
    return whole or not aspect or bool(aspect & {stem(w) for w in content_terms(" ".join(lines))})


def features_quote(question: str, blocks: Sequence[Block], titles: Mapping[int, str],
                   linked: Sequence[Mapping[str, str]] = ()) -> str:
    """The asked product's features list as a quote ("A: features: Power ON button; Boot mode DIP switch; … [n].")
    for a question that wants it (`features_wanted`) about one product with documents here; empty otherwise. A
    question naming the product only by its order code ("Overview of ABX00087") asks about the one product the
    retriever `linked` (context info "linked") to it."""
    if ASKS_FEATURES.search(question) is None and not asks_overview(question):  # most questions: read no further
        return ""
    products = documented_names(analyse(question).phrases, titles.values())
    if not products and (product := coded_product(question, linked)):
        products = [product.split()]
    if len(products) != 1:
        return ""
    for block in blocks:
        if title_names(products[0], block.title):
            lines = features_lines(block.text)
            if features_wanted(question, products[0], lines):
                more = _continued(block, blocks, MAX_FEATURE_WORDS - sum(len(line.split()) for line in lines))
                return f"{block.title}: features: {'; '.join(lines)} [{block.n}]{more}."
    return ""


def first_quote(first: str, quotes: str) -> str:
    """`quotes` led by the quote `first` (a features list), either alone when the other is empty or a refusal."""
    if not first:
        return quotes
    return first if is_refusal(quotes) else f"{first} {quotes}"
