"""Inline citations: every sentence of an answer ends with the [n] of the block that supports it.

Small models often drop the markers or cite a number that does not exist; the repair keeps valid markers,
removes invalid ones and gives each uncited sentence the block it overlaps most (numbers weigh double),
falling back to the citation of the sentence before it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from kgrag.answering.terms import CITE, markers_only, term_list
from kgrag.ingest.sentences import split_sentences

_END = re.compile(r"([.!?:;]*)\s*$")


def _weight(term: str) -> float:
    return 2.0 if any(c.isdigit() for c in term) else 1.0


def support(sentence: str, texts: Mapping[int, str]) -> int | None:
    """Number of the text sharing most (number-weighted) terms with `sentence`, None when nothing is shared."""
    wanted = set(term_list(CITE.sub("", sentence)))
    best, best_score = None, 0.0
    for i, text in texts.items():
        score = sum(_weight(t) for t in wanted & set(term_list(text)))
        if score > best_score:
            best, best_score = i, score
    return best


def _valid(match: re.Match[str], numbers: Mapping[int, str]) -> str:
    nums = [int(x) for x in re.split(r"\s*[,;]\s*", match.group(1)) if x.strip()]
    keep = [str(n) for n in dict.fromkeys(nums) if n in numbers]
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
            sentence = CITE.sub(lambda m: _valid(m, texts), sentence).strip()
            if not sentence:
                continue
            found = CITE.findall(sentence)
            if found:
                last = int(re.split(r"\s*[,;]\s*", found[-1])[-1])
            else:
                best = support(sentence, texts)
                n = best if best is not None else last
                if n is not None:
                    sentence = _append(sentence, n)
                    last = n
            sentences.append(sentence)
        out_lines.append(" ".join(sentences))
    return "\n".join(out_lines).strip()
