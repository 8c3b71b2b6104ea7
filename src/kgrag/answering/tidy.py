"""A small model's reply without its loops, its cut-off end and the source headers it copied from the prompt.

Greedy decoding of a 0.5B model often falls into a loop ("The encoder range is used to determine … [13]." four
times) until the token limit cuts the last sentence mid-word. A user reads the same claim again and a dangling
fragment; both go. A sentence is a repeat when most of its content words, and each of its names, were already
written in one earlier sentence (citation markers ignored). A sentence that copies a source's header ("… the Arduino
Nano Every, p. 5, section: 3 Functional Overview > 3.2 Processor [5]", "[6] (Arduino Nano 33 BLE, p. 4, section: …)")
is the prompt's scaffolding, not an answer: it goes too."""

from __future__ import annotations

import re

from kgrag.answering.blocks import GRAPH_FACTS
from kgrag.answering.refusal import CITE, NO_ANSWER, is_refusal
from kgrag.answering.values import NUMBER_UNIT
from kgrag.answering.words import content_terms
from kgrag.ingest.sentences import split_sentences

REPEAT_SHARE = 0.8  # a sentence whose content words are this share of one earlier sentence's is a repeat
# a block header as the prompt writes it: "(Title, p. 4, section: …)", "Title, pp. 5-6, section: …", a page-less
# document's "(Title, section: …)" (Markdown, HTML, text), the facts' label, or its cut-off start copied alone
# ("(Arduino Portenta H7, pp [1].")
_SOURCE_HEADER = re.compile(rf",\s*section:\s|\([^()\n]*,\s*pp?\.\s?\d+[^()\n]*\)|"
                            rf"^\s*\([^()\n]*,\s*pp?\b|{re.escape(GRAPH_FACTS)}")
_ENDED = re.compile(r"(?:[.!?:;)\]\"'…]|\[\d+(?:\s*,\s*\d+)*\])\s*$")  # a sentence end, or its citation marker


def names(sentence: str) -> set[str]:
    """The names a sentence writes (words with a capital or a digit after its first word): "Nicla", "BME688"."""
    words = re.findall(r"[\w-]+", CITE.sub(" ", sentence))[1:]
    return {w.lower() for w in words if any(c.isupper() or c.isdigit() for c in w)}


def said_in(sentence: str) -> tuple[set[str], set[str]]:
    """What a sentence says, for the repeat test: its content words and its names (citation markers ignored)."""
    return content_terms(CITE.sub(" ", sentence)), names(sentence)


def repeats(terms: set[str], named: set[str], said: list[tuple[set[str], set[str]]]) -> bool:
    """True when at least REPEAT_SHARE of `terms` are the words of one sentence in `said` that writes every name
    of this one too ("The Nicla family is designed for …" after "The Nano family is designed for …" is not one)."""
    return bool(terms) and any(len(terms & words) >= REPEAT_SHARE * len(terms) and named <= known
                               for words, known in said)


def _says_nothing(sentences: list[str]) -> bool:
    """True when the sentences hold no content word (a list number, a marker)."""
    return not any(said_in(s)[0] for s in sentences)


def without_repeats(reply: str) -> str:
    """`reply` with every sentence that repeats an earlier one removed; lines and paragraphs are kept."""
    said: list[tuple[set[str], set[str]]] = []
    lines: list[str] = []
    for line in reply.splitlines():
        if not line.strip():
            lines.append("")
            continue
        kept, dropped = [], False
        for sentence in split_sentences(line):
            terms, named = said_in(sentence)
            if repeats(terms, named, said):
                dropped = True
                continue
            if terms:
                said.append((terms, named))
            kept.append(sentence)
        if kept and not (dropped and _says_nothing(kept)):  # "2 [4]." is left of a repeated list item
            lines.append(" ".join(kept))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def without_cut_end(reply: str) -> str:
    """`reply` without a last sentence (or list line) the token limit cut off; kept when nothing else is said."""
    lines = reply.rstrip().splitlines()
    last = split_sentences(lines[-1]) if lines else []
    if not last or _ENDED.search(last[-1]):
        return reply
    if len(last) > 1 and not _says_nothing(last[:-1]):
        lines[-1] = " ".join(last[:-1])
    elif any(line.strip() for line in lines[:-1]):
        lines.pop()
    else:
        return reply
    return "\n".join(lines).strip()


def loops(text: str) -> bool:
    """True when the last finished sentence of a reply being written repeats an earlier one: the model has started
    a loop, and what follows would be removed anyway (a stream stops there)."""
    if not _ENDED.search(text):
        return False
    sentences = [s for line in text.splitlines() for s in split_sentences(line)]
    return len(sentences) > 1 and repeats(*said_in(sentences[-1]), [said_in(s) for s in sentences[:-1]])


def without_source_headers(reply: str) -> str:
    """`reply` without the sentences that copy a source header from the prompt; a refusal when nothing else is left."""
    lines = [" ".join(s for s in split_sentences(line) if not _SOURCE_HEADER.search(s)) if line.strip() else ""
             for line in reply.splitlines()]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return text if text or not reply.strip() else NO_ANSWER


def without_closing_refusal(reply: str) -> str:
    """`reply` without a refusal that closes an answer stating a value ("The maximum fluid temperature is 45 °C. The
    documents do not contain the answer."): the small model's habit of ending on the prompt's refusal sentence."""
    sentences = split_sentences(reply.strip())
    end = len(reply.rstrip())
    while len(sentences) > 1 and is_refusal(sentences[-1]) and reply.rfind(sentences[-1], 0, end) >= 0:
        end = reply.rfind(sentences.pop(), 0, end)  # cut where the refusal starts: the lines before stay as written
    kept = reply[:end].rstrip()
    if end == len(reply.rstrip()) or is_refusal(kept) or not NUMBER_UNIT.search(CITE.sub(" ", kept)):
        return reply
    return kept


# Words of a sentence about the sources rather than the product: "The source number is [1].", "The data is provided in
# [1] [1]." (a small model's habit of talking about its prompt)
_SOURCE_TALK = frozenset({"source", "number", "data", "provide", "provided", "document", "reference", "cited",
                          "citation", "information", "given", "found", "listed", "see", "mentioned", "stated"})


def without_source_talk(reply: str) -> str:
    """`reply` without the sentences that only talk about its sources (every content word one of `_SOURCE_TALK`, no
    number besides citation markers); kept when nothing else is said."""
    lines = []
    for line in reply.splitlines():
        kept = [s for s in split_sentences(line) if not (
            (terms := said_in(s)[0]) and terms <= _SOURCE_TALK and not re.search(r"\d", CITE.sub(" ", s)))]
        lines.append(" ".join(kept))
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return text if text else reply


def tidy_reply(reply: str, truncated: bool) -> str:
    """The reply without repeated sentences, copied source headers, sentences about its sources and a refusal
    closing a stated value and, when the model hit its token limit, without its cut-off end."""
    text = without_closing_refusal(without_source_talk(without_source_headers(without_repeats(reply))))
    return without_cut_end(text) if truncated else text
