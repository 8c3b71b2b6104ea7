"""What a document is about: the product its metadata or title names, or no product (an FAQ, a note, a thread).

In a flat folder the title is all a document says of its identity. "KX-410 Edge Gateway – Firmware Release Notes |
Korvath" is the KX-410 Edge Gateway's document; "Frequently Asked Questions – TS-30 and VM-5", "Application Note
AN-112: Reading the TX-20 over Modbus RTU" and a forum thread's "RC-320 shows offline after upgrade" are documents
about products, and naming them products would make every model code they mention ambiguous.
"""

from __future__ import annotations

import functools
import re

from kgrag.graph.datasheet import lines as L
from kgrag.graph.keys import entity_key
from kgrag.ingest.text import DOCUMENT_KIND, MORE_DOCUMENT_KINDS
from kgrag.types import Chunk

_VERSION = re.compile(r"[vV]?\d+(?:\.(?:\d+|x))+|[vV]\d+")  # "3.1", "2.6.x", "v2": a release, not a model number
# what numbers a document, not a model, after its kind: "Selection Guide 2025", "training, module 2", "Revision 1"
_EDITION = re.compile(r"(?i)\b(?:19|20)\d\d\b|\b(?:module|level|part|volume|vol\.|chapter|section|revision|rev\.?|"
                      r"edition|issue|lesson|unit)\s+\d+\b")
_SITE = re.compile(r"\s+\|\s+[^|]+$")  # an HTML title's " | Maker Support" tail
_DANGLING = re.compile(r"^[—–:|-]+\s+|\s+[—–:|-]+$")  # a separator with nothing on one side ("KX-1 —")
_SEPARATOR = re.compile(r"(\s+(?:[—–]|-{1,2})\s+|:\s+)")  # "X — Datasheet", "Application Note AN-031: …"
# words that name a document's kind with the kind word after them ("Firmware Release Notes", "Silicon Errata")
_KIND_QUALIFIERS = frozenset({
    "firmware", "software", "hardware", "silicon", "user", "user's", "users", "owner's", "owners", "operating",
    "operation", "installation", "service", "maintenance", "safety", "quick", "start", "product", "technical",
    "programming", "configuration", "command", "ordering", "code", "api", "setup", "integration", "application",
    "release", "reference", "selection", "support", "ticket", "tickets", "partner", "channel"})
_JOINING = frozenset({"and", "&", "/"})  # "Installation and Maintenance Manual": both words qualify the kind
_SENTENCE_WORDS = frozenset({"the", "a", "an", "over", "between", "after", "before", "into", "via", "using", "when",
                             "how", "why", "what", "shows", "show", "can", "does", "is", "are"})
_PREPOSITIONS = frozenset({"in", "on", "from", "to", "with", "without", "of", "for"})  # two make a phrase, not a name
_JOINED = re.compile(r"\s(?:and|or|vs\.?|versus|&)\s|,\s", re.IGNORECASE)  # "TS-30 and VM-5": two products


def has_model_number(name: str) -> bool:
    """A word with a digit that is no software version: "KX-220", "Cat 4"; not "3.1", "v2"."""
    return any(any(c.isdigit() for c in w) and not _VERSION.fullmatch(w.strip("(),:;")) for w in name.split())


def _kind_head(segment: str, first: bool = False) -> str | None:
    """The words before the document kind a segment names, qualifiers ("Firmware", "Silicon") dropped; None if it
    names no kind. "" for a segment led by its kind ("Application Note AN-031", "Service Bulletin SB-7"). A kind word
    with a model number after it is part of a name ("Zephyr Thread Border Router ZTB-100"), and so is a word a
    question calls a document by ("Training Kit TK-1") that leads a title."""
    found = [m for m in (DOCUMENT_KIND.search(segment), MORE_DOCUMENT_KINDS.search(segment)) if m]
    if not found:
        return None
    m = min(found, key=lambda k: k.start())
    words = segment[: m.start()].split()
    while words and (words[-1].lower() in _KIND_QUALIFIERS
                     or (words[-1].lower() in _JOINING and len(words) > 1 and words[-2].lower() in _KIND_QUALIFIERS)):
        words.pop()
    head = " ".join(words)
    if has_model_number(_EDITION.sub("", segment[m.end():])) and (head or (first and m.re is MORE_DOCUMENT_KINDS)):
        return None
    return head


def _reads_as_sentence(segment: str) -> bool:
    """A thread's or a note's title ("RC-320 shows offline in the cloud after upgrade"), not a product's name."""
    words = segment.split()
    return any(w in _SENTENCE_WORDS for w in words) or sum(w in _PREPOSITIONS for w in words) >= 2


@functools.lru_cache(maxsize=4096)  # every chunk of a document asks for its title's identity
def title_identity(title: str) -> tuple[str, bool]:
    """A flat-folder document's identity from its title: (name, is a product). The site tail and the kind segments
    ("— Datasheet", "– Firmware Release Notes") leave the product's name; a title led by its kind is a product's
    only when the rest is one product's name; a title reading as a sentence, or naming no model number, is a
    document's."""
    text = _DANGLING.sub("", L.clean(title))
    text = _SITE.sub("", text) if text.count(" | ") == 1 else text
    parts = _SEPARATOR.split(text)
    segments, separators = parts[::2], parts[1::2]
    heads = [_kind_head(s, first=i == 0) for i, s in enumerate(segments)]
    named_kind = "" in heads[1:]  # a later "— Datasheet" says what the title is
    if heads[0] == "" and not named_kind:
        rest = [s for s, head in zip(segments[1:], heads[1:], strict=True) if head is None]
        if len(rest) == 1 and has_model_number(rest[0]) and not _JOINED.search(rest[0]) \
                and not _reads_as_sentence(rest[0]):
            return rest[0], True  # "Datasheet: KX-220 Remote I/O Module"
        return text, False
    kept: list[str] = []
    for i, (segment, head) in enumerate(zip(segments, heads, strict=True)):
        # "Sentinel GX-400 firmware changelog" is the GX-400's, "— Datasheet" names no one; a first part led by a
        # kind word ("Reference Design RD-7") before "— Datasheet" is the subject whole
        if head is not None and (i > 0 or head):
            if i > 0 and not has_model_number(head):
                continue
            segment = head
        kept += [separators[i - 1], segment] if kept else [segment]
    name = "".join(kept).strip()
    numbered = next((s for s in kept[::2] if has_model_number(s)), "")
    if not numbered or _reads_as_sentence(numbered):
        return text, False
    return name, True


def document_identity(chunk: Chunk, title: str) -> tuple[str, str]:
    """What a chunk's facts are of and its product ("" for a document about products): the folder / record product
    when the loader found one, else what the document title names (`title_identity`)."""
    product = L.clean(chunk.product)
    if product:
        return product, product
    name, is_product = title_identity(title)
    return name, name if is_product else ""


def title_alias(product: str, title: str) -> str:
    """The document title as an alias when it is the product name with a prefix (vendor): never a sibling name."""
    title = L.clean(title)
    key, tkey = entity_key(product), entity_key(title)
    if title and key and tkey != key and tkey.endswith(" " + key) and len(tkey.split()) - len(key.split()) <= 1:
        return title
    return ""
