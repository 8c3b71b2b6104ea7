"""Grounded generation: numbered context blocks in, an answer citing them as [n] out, with quoted sentences."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from kgrag.models.base import LLM, Message
from kgrag.types import Answer, Citation, Context, ContextItem

NO_ANSWER = "The documents do not contain the answer."
SYSTEM_PROMPT = (
    "You answer questions about technical documents using ONLY the numbered sources given.\n"
    "Rules:\n"
    "- Answer briefly and precisely, with the exact values, names and units from the sources.\n"
    "- After each fact, cite the source number in square brackets, like [1].\n"
    f'- If the sources do not contain the answer, reply exactly: "{NO_ANSWER}" Do not guess.'
)
_CITE = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
_REFUSAL = re.compile(
    r"(do(es)? not contain|not (found|mentioned|provided|available) in|no information|cannot (be )?answer|"
    r"can't answer|unable to answer|not enough information|does not (say|specify|mention))",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-_/]*")
_STOP = frozenset(
    [
        "the",
        "a",
        "an",
        "of",
        "to",
        "in",
        "on",
        "for",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "by",
        "with",
        "as",
        "at",
        "from",
        "that",
        "this",
        "it",
        "its",
        "what",
        "which",
    ]
)


# Words that say what is asked, not what about: ignored when checking that the context covers a question.
_QUESTION_WORDS = frozenset(
    [
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "does",
        "do",
        "did",
        "can",
        "could",
        "should",
        "would",
        "will",
        "there",
        "than",
        "then",
        "into",
        "about",
        "between",
        "more",
        "most",
        "less",
        "least",
        "any",
        "all",
        "each",
        "other",
        "such",
        "only",
        "same",
        "so",
        "very",
        "also",
        "use",
        "used",
        "using",
        "uses",
        "have",
        "has",
        "had",
        "your",
        "you",
        "i",
        "we",
        "our",
        "they",
        "them",
        "he",
        "she",
        "his",
        "her",
        "my",
        "me",
        "these",
        "those",
        "their",
    ]
)
MIN_QUESTION_COVERAGE = 0.45


def content_terms(text: str) -> set[str]:
    """Lower-cased content words with possessives and simple plurals folded (`boards'`, `Nano's` -> `board`, `nano`)."""
    out = set()
    for raw in _WORD.findall(text.lower()):
        word = raw.strip(".-_/")
        if word.endswith("'s"):
            word = word[:-2]
        if len(word) < 2 or word in _STOP or word in _QUESTION_WORDS:
            continue
        if word.endswith("s") and len(word) > 3 and not any(ch.isdigit() for ch in word):
            word = word[:-1]
        out.add(word)
    return out


def question_coverage(question: str, context_text: str) -> float:
    """Share of the question's content terms found in the context; low values mean the documents miss the topic.

    A small local LLM tends to answer anyway from loosely related text, so a context that shares less than
    MIN_QUESTION_COVERAGE of the question's terms is answered with a refusal instead of a guess.
    """
    asked = content_terms(question)
    if not asked:
        return 1.0
    return len(asked & content_terms(context_text)) / len(asked)


@dataclass
class Block:
    """One numbered source shown to the LLM: a chunk, or a group of graph facts."""

    n: int
    text: str
    items: list[ContextItem] = field(default_factory=list)

    @property
    def source(self) -> dict[str, Any]:
        return self.items[0].source if self.items else {}

    @property
    def chunk_id(self) -> str | None:
        return next((i.chunk_id for i in self.items if i.chunk_id), None)

    def header(self) -> str:
        src = self.source
        parts = [str(src.get("title") or src.get("path") or "knowledge graph")]
        if src.get("version"):
            parts.append(f"version {src['version']}")
        if src.get("page_start"):
            pages = src["page_start"], src.get("page_end") or src["page_start"]
            parts.append(f"p. {pages[0]}" if pages[0] == pages[1] else f"pp. {pages[0]}-{pages[1]}")
        if src.get("section"):
            parts.append(f"section: {src['section']}")
        return ", ".join(parts)


def build_blocks(context: Context) -> list[Block]:
    """Chunks become one block each; consecutive items without a chunk (graph facts) share one block."""
    blocks: list[Block] = []
    for item in context.items:
        if item.kind in ("chunk", "subchunk") or not blocks or blocks[-1].items[-1].kind != item.kind:
            blocks.append(Block(n=len(blocks) + 1, text=item.text, items=[item]))
        else:
            blocks[-1].text += "\n" + item.text
            blocks[-1].items.append(item)
    return blocks


def build_messages(question: str, blocks: list[Block]) -> list[Message]:
    sources = "\n\n".join(f"[{b.n}] ({b.header()})\n{b.text}" for b in blocks)
    user = f"Sources:\n{sources}\n\nQuestion: {question}\nAnswer (cite sources like [1]):"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def _terms(text: str) -> set[str]:
    return {w.lower().strip(".-") for w in _WORD.findall(text) if w.lower() not in _STOP}


def best_sentence(block_text: str, answer: str) -> str:
    """The sentence of a block that shares most terms with the answer (numbers count double)."""
    from kgrag.ingest import split_sentences

    target = _terms(answer)

    def overlap(sentence: str) -> float:
        shared = _terms(sentence) & target
        return sum(2.0 if any(ch.isdigit() for ch in t) else 1.0 for t in shared)

    lines = [line for line in block_text.splitlines() if line.strip()]  # table rows and headings stay apart
    sentences = [s for line in lines for s in split_sentences(line) if s.strip()] or [block_text]
    return max(sentences, key=overlap).strip()


def is_refusal(text: str) -> bool:
    return not text.strip() or bool(_REFUSAL.search(text))


def cited_numbers(text: str, n_blocks: int) -> list[int]:
    found: list[int] = []
    for group in _CITE.findall(text):
        for part in re.split(r"[,;]", group):
            n = int(part)
            if 1 <= n <= n_blocks and n not in found:
                found.append(n)
    return found


def make_citations(answer_text: str, blocks: list[Block]) -> list[Citation]:
    """Citations for the [n] markers; without markers, the block that best supports the answer."""
    numbers = cited_numbers(answer_text, len(blocks))
    if not numbers and blocks and not is_refusal(answer_text):
        numbers = [max(blocks, key=lambda b: len(_terms(b.text) & _terms(answer_text))).n]
    citations = []
    for n in numbers:
        block = blocks[n - 1]
        src = block.source
        citations.append(
            Citation(
                n=n,
                chunk_id=block.chunk_id,
                document=str(src.get("path") or "knowledge graph"),
                title=str(src.get("title") or ""),
                page=src.get("page_start"),
                section=str(src.get("section") or ""),
                quote=best_sentence(block.text, answer_text),
                version=str(src.get("version") or ""),
            )
        )
    return citations


def finish_answer(question: str, context: Context, blocks: list[Block], text: str, usage: dict[str, int]) -> Answer:
    text = text.strip()
    if is_refusal(text):
        return Answer(question, text or NO_ANSWER, [], context, grounded=False, usage=usage)
    return Answer(question, text, make_citations(text, blocks), context, grounded=True, usage=usage)


def covers(question: str, context: Context, min_coverage: float) -> bool:
    """True when the context is non-empty and shares enough of the question's terms (see question_coverage)."""
    if not context.items:
        return False
    coverage = question_coverage(question, context.text())
    context.info["question_coverage"] = round(coverage, 3)
    return coverage >= min_coverage


def generate_answer(
    llm: LLM, question: str, context: Context, *, max_tokens: int = 256, min_coverage: float = MIN_QUESTION_COVERAGE
) -> Answer:
    """Ask the LLM to answer from the context only; refuse without calling it when the context misses the question."""
    blocks = build_blocks(context)
    if not covers(question, context, min_coverage):
        return Answer(question, NO_ANSWER, [], context, grounded=False)
    start = time.perf_counter()
    completion = llm.complete(build_messages(question, blocks), max_tokens=max_tokens)
    usage = {"prompt_tokens": completion.usage.prompt_tokens, "completion_tokens": completion.usage.completion_tokens}
    answer = finish_answer(question, context, blocks, completion.text, usage)
    answer.timings = {**context.timings, "generate_s": time.perf_counter() - start}
    return answer


def stream_answer(
    llm: LLM, question: str, context: Context, *, max_tokens: int = 256, min_coverage: float = MIN_QUESTION_COVERAGE
) -> Iterator[dict[str, Any]]:
    """Events: one `sources` (the numbered blocks), `token` pieces, then `done` with the full answer."""
    blocks = build_blocks(context)
    yield {
        "event": "sources",
        "data": [
            {"n": b.n, "header": b.header(), "text": b.text, "chunk_id": b.chunk_id, "source": b.source} for b in blocks
        ],
    }
    if not covers(question, context, min_coverage):
        yield {"event": "token", "data": NO_ANSWER}
        yield {"event": "done", "data": Answer(question, NO_ANSWER, [], context, grounded=False).to_dict()}
        return
    pieces: list[str] = []
    for piece in llm.stream(build_messages(question, blocks), max_tokens=max_tokens):
        pieces.append(piece)
        yield {"event": "token", "data": piece}
    yield {"event": "done", "data": finish_answer(question, context, blocks, "".join(pieces), {}).to_dict()}
