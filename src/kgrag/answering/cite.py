"""Inline citations: every sentence of an answer ends with the [n] of the block that supports it.

Small models often drop the markers, cite a number that does not exist, or pile every source number onto a
sentence; the repair keeps valid markers, removes invalid ones, keeps of several numbers on one sentence only
the blocks that support it about as well as the best of them, and gives each uncited sentence the block it
overlaps most (numbers weigh double), falling back to the citation of the sentence before it. A citation then
quotes the sentence of its block closest to what its marker stands behind.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from kgrag.answering.refusal import CITE, markers_only
from kgrag.answering.words import content_terms, term_list
from kgrag.ingest.sentences import split_sentences

_END = re.compile(r"([.!?:;]*)\s*$")
KEEP_SHARE = 0.5  # of several numbers on one sentence, keep those supporting it at least this share of the best


def _weight(term: str) -> float:
    return 2.0 if any(c.isdigit() for c in term) else 1.0


def _overlap(wanted: set[str], text: str) -> float:
    return sum(_weight(t) for t in wanted & set(term_list(text)))


def support(sentence: str, texts: Mapping[int, str]) -> int | None:
    """Number of the text sharing most (number-weighted) terms with `sentence`, None when nothing is shared."""
    wanted = set(term_list(CITE.sub("", sentence)))
    best, best_score = None, 0.0
    for i, text in texts.items():
        score = _overlap(wanted, text)
        if score > best_score:
            best, best_score = i, score
    return best


def marker_numbers(group: str) -> list[int]:
    """The numbers of one marker's inside ("3", "1, 4")."""
    return [int(x) for x in re.split(r"\s*[,;]\s*", group) if x.strip()]


def prune_markers(sentence: str, texts: Mapping[int, str]) -> str:
    """A sentence citing several (valid) blocks keeps those that support it at least KEEP_SHARE as well as the
    best one; when none shares a term with it, the first cited block stays. Marker positions are kept."""
    cited = list(dict.fromkeys(n for g in CITE.findall(sentence) for n in marker_numbers(g) if n in texts))
    if len(cited) < 2:
        return sentence
    wanted = set(term_list(CITE.sub("", sentence)))
    scores = {n: _overlap(wanted, texts[n]) for n in cited}
    top = max(scores.values())
    keep = {n for n in cited if top > 0 and scores[n] >= KEEP_SHARE * top} or {cited[0]}

    def rewrite(match: re.Match[str]) -> str:
        kept = [str(n) for n in marker_numbers(match.group(1)) if n in keep]
        keep.difference_update(int(k) for k in kept)  # each number once
        return f" [{', '.join(kept)}]" if kept else ""

    return CITE.sub(rewrite, sentence).strip()


def _valid(match: re.Match[str], numbers: Mapping[int, str]) -> str:
    keep = [str(n) for n in dict.fromkeys(marker_numbers(match.group(1))) if n in numbers]
    return f" [{', '.join(keep)}]" if keep else ""


def _append(sentence: str, n: int) -> str:
    body = _END.sub("", sentence)
    tail = _END.search(sentence)
    return f"{body} [{n}]{tail.group(1) if tail else ''}"


def repair_citations(answer: str, texts: Mapping[int, str] | Sequence[str]) -> str:
    """`answer` with a valid [n] in every sentence; `texts` maps source numbers to their text (a list is
    numbered from 1). Paragraphs and lines are kept."""
    if not isinstance(texts, Mapping):
        texts = {i: t for i, t in enumerate(texts, 1)}
    out_lines: list[str] = []
    last: int | None = None
    for line in answer.splitlines():
        if not line.strip():
            out_lines.append(line)
            continue
        pieces: list[str] = []
        for piece in split_sentences(line):
            if pieces and markers_only(piece):
                pieces[-1] += " " + piece.strip()  # a marker split off its sentence goes back to it
            else:
                pieces.append(piece)
        sentences = []
        for sentence in pieces:
            sentence = prune_markers(CITE.sub(lambda m: _valid(m, texts), sentence).strip(), texts)
            if not sentence:
                continue
            found = CITE.findall(sentence)
            if found:
                last = marker_numbers(found[-1])[-1]
            else:
                best = support(sentence, texts)
                n = best if best is not None else last
                if n is not None:
                    sentence = _append(sentence, n)
                    last = n
            sentences.append(sentence)
        out_lines.append(" ".join(sentences))
    return "\n".join(out_lines).strip()


def best_sentence(block_text: str, answer: str) -> str:
    """The sentence of a block that shares most terms with the answer (numbers count double)."""
    target = content_terms(answer)

    def overlap(sentence: str) -> float:
        shared = content_terms(sentence) & target
        return sum(2.0 if any(ch.isdigit() for ch in t) else 1.0 for t in shared)

    lines = [line for line in block_text.splitlines() if line.strip()]  # table rows and headings stay apart
    sentences = [s for line in lines for s in split_sentences(line) if s.strip()] or [block_text]
    return max(sentences, key=overlap).strip()


def cited_numbers(text: str, n_blocks: int) -> list[int]:
    found: list[int] = []
    for group in CITE.findall(text):
        for n in marker_numbers(group):
            if 1 <= n <= n_blocks and n not in found:
                found.append(n)
    return found


def cited_segment(answer_text: str, n: int) -> str:
    """The words a marker [n] stands behind: from the previous marker (or the text's start) up to the first marker
    citing n ("…: BPX-210 [2]; HTS-30 [3]" -> "HTS-30" for 3); the whole answer when n is not cited or nothing
    stands there."""
    start = 0
    for m in CITE.finditer(answer_text):
        if n in marker_numbers(m.group(1)):
            segment = answer_text[start:m.start()].strip(" ;,.")
            return segment if content_terms(segment) else answer_text
        start = m.end()
    return answer_text
