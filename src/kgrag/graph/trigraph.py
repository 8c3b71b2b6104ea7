"""Tri-graph index (LinearRAG / HippoRAG 2 style, no LLM): entities <-> sentences <-> passages.

Entities are proper-name spans found by a fast capitalisation pattern (no model run), normalised
to lower-case content tokens. Each sentence of a chunk (same splitter as the keyword graph) gets
its vector (kind 'sentence', stored once and shared with the keyword-graph stage) and an
edge `ent_sent` to every entity it mentions; passages follow from the sentence ids. Resumable per chunk.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kgrag.graph.keywords import STOP_WORDS, tokens
from kgrag.graph.sentence_vectors import VECTOR_KIND, chunk_sentence_vectors, sentence_id
from kgrag.ingest.sentences import split_sentences

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace

STAGE = "trigraph"
EDGE_KIND = "ent_sent"
BATCH = 500
MAX_ENTITY_TOKENS = 8

_WORD = re.compile(r"[^\W_][\w'’.\-&]*")
_CONNECTORS = frozenset({"of", "the", "de", "la", "le", "du", "des", "del", "della", "da", "von", "van", "der", "den",
                         "&", "for", "y", "di", "upon", "bin", "al"})
_CALENDAR = frozenset(["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
_POSSESSIVE = re.compile(r"['’]s?$")


def chunk_of_sentence(sid: str) -> str:
    return sid.rsplit("#t", 1)[0]


def _normalise(words: Sequence[str]) -> str:
    """Lower-case content tokens of a span, leading/trailing stop words and connectors dropped."""
    toks = tokens(" ".join(words))
    while toks and (toks[0] in STOP_WORDS or toks[0] in _CONNECTORS):
        toks = toks[1:]
    while toks and (toks[-1] in STOP_WORDS or toks[-1] in _CONNECTORS):
        toks = toks[:-1]
    if not toks or all(t.replace(".", "").isdigit() for t in toks):
        return ""
    if len(toks) == 1 and (len(toks[0]) < 2 or toks[0] in _CALENDAR):  # dates are hubs, not names
        return ""
    return " ".join(toks[:MAX_ENTITY_TOKENS])


def entity_mentions(sentence: str) -> list[str]:
    """Normalised names of capitalised spans ("University of Texas at Austin", "The Beatles" -> "beatles").

    A span is a run of words starting upper-case, joined only by whitespace, which may hold up to two
    lower-case connectors ("of", "de", ...) between capitalised words.
    """
    out: list[str] = []
    run: list[str] = []
    pending: list[str] = []  # connectors waiting for a following capitalised word
    last_end = -1

    def close() -> None:
        if run:
            name = _normalise(run)
            if name:
                out.append(name)
        run.clear()
        pending.clear()

    for m in _WORD.finditer(sentence):
        word = m.group().rstrip(".-")
        possessive = bool(_POSSESSIVE.search(word))
        word = _POSSESSIVE.sub("", word)
        if not word:
            continue
        gap = sentence[last_end:m.start()] if last_end >= 0 else " "
        last_end = m.end()
        if gap.strip():  # punctuation between words ends a span
            close()
        lower = word.lower()
        if word[0].isupper():
            run.extend(pending)
            pending.clear()
            run.append(word)
        elif run and lower in _CONNECTORS and len(pending) < 2 and (lower != "the" or pending):
            pending.append(word)
        else:
            close()
        if possessive:  # "Korea's invasion": the name ends here
            close()
    close()
    return out


def chunk_sentences(chunk_id: str, text: str) -> tuple[list[str], list[str], list[tuple[str, str, float]]]:
    """Sentence ids, sentence texts and (entity, sentence id, count) edges of one chunk."""
    texts = split_sentences(text)
    ids = [sentence_id(chunk_id, i) for i in range(len(texts))]
    edges = [
        (name, sid, float(n))
        for sid, s in zip(ids, texts, strict=True)
        for name, n in Counter(entity_mentions(s)).items()
    ]
    return ids, texts, edges


def ensure_trigraph(index: Workspace, progress: Progress | None = None) -> int:
    """Sentence vectors and entity-sentence edges for chunks not yet done; returns chunks processed.

    Sentence vectors are shared with the keyword-graph stage (graph/sentence_vectors.py): whichever
    runs first embeds and stores them, so this stage normally embeds nothing new.
    """
    store = index.store
    done = store.done_keys(STAGE)
    todo = [c for c in store.iter_chunks() if c.chunk_id not in done]
    task = progress.task("tri-graph", len(todo)) if progress else None
    for start in range(0, len(todo), BATCH):
        part = todo[start:start + BATCH]
        texts = {c.chunk_id: split_sentences(c.text) for c in part}
        chunk_sentence_vectors(index, list(texts), texts)  # stored once (normally by the keyword-graph stage)
        edges: list[tuple[str, str, float]] = []
        for c in part:
            edges += chunk_sentences(c.chunk_id, c.text)[2]
        with store.transaction():
            store.put_edges(EDGE_KIND, edges)
            store.mark_done(STAGE, [c.chunk_id for c in part])
        if task:
            task.advance(len(part))
    return len(todo)


def forget_trigraph(index: Workspace, chunk_ids: Sequence[str]) -> None:
    """Drop the sentence vectors and entity-sentence edges of removed chunks (their progress goes with them)."""
    store = index.store
    gone = set(chunk_ids)
    if not gone:
        return
    sentences = [s for s in store.vector_matrix(VECTOR_KIND).ids if chunk_of_sentence(s) in gone]
    edges = store.edges(EDGE_KIND)
    kept = [e for e in edges if chunk_of_sentence(e[1]) not in gone]
    with store.transaction():
        if sentences:
            store.delete_vectors(VECTOR_KIND, sentences)
        if len(kept) != len(edges):
            store.delete_edges(EDGE_KIND)
            store.put_edges(EDGE_KIND, kept)
