"""Numbered context blocks (a chunk, or a group of graph facts) and the answers that cite them as [n]."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kgrag.answering.cite import best_sentence, cited_numbers, cited_segment, repair_citations
from kgrag.answering.refusal import NO_ANSWER, is_refusal
from kgrag.answering.words import content_terms
from kgrag.types import Answer, Citation, Context, ContextItem

GRAPH_FACTS = "knowledge graph facts, each line citing its source"


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

    @property
    def gathered(self) -> bool:
        """Graph facts of several subjects, each from its own document."""
        return bool(self.items) and self.items[0].kind == "relation" and len(self.items) > 1

    @property
    def title(self) -> str:
        """The document title (the product) of the block; none for gathered facts (each line has its subject)."""
        return "" if self.gathered else str(self.source.get("title") or "")

    def header(self) -> str:
        """What the block is: its document, pages and section; graph facts gathered from several documents say
        so instead of borrowing the first fact's document (which would name one product for all of them)."""
        if self.gathered:
            return GRAPH_FACTS
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
            blocks[-1].text += "\n\n" + item.text  # one paragraph per subject: its name heads its facts
            blocks[-1].items.append(item)
    return blocks


def make_citations(answer_text: str, blocks: list[Block], support: str = "") -> list[Citation]:
    """Citations for the [n] markers; without markers, the block that best supports the answer. Each quotes the
    block's sentence closest to `support` (the quoted unit of an extractive answer) or else to the words the
    marker stands behind."""
    by_n = {b.n: b for b in blocks}
    numbers = [n for n in cited_numbers(answer_text, max(by_n, default=0)) if n in by_n]
    if not numbers and blocks and not is_refusal(answer_text):
        numbers = [max(blocks, key=lambda b: len(content_terms(b.text) & content_terms(answer_text))).n]
    citations = []
    for n in numbers:
        block = by_n[n]
        src = block.source
        citations.append(
            Citation(
                n=n,
                chunk_id=block.chunk_id,
                document=str(src.get("path") or "knowledge graph"),
                title=str(src.get("title") or ""),
                page=src.get("page_start"),
                section=str(src.get("section") or ""),
                quote=best_sentence(block.text, support or cited_segment(answer_text, n)),
                version=str(src.get("version") or ""),
            )
        )
    return citations


def finish_answer(question: str, context: Context, blocks: list[Block], text: str, usage: dict[str, int],
                  support: str = "", repair: bool = True, tail: str = "", sources: list[Block] | None = None) -> Answer:
    """The model's reply as an Answer: a refusal, or the text with a [n] on every sentence and its citations.
    Quotes built here (`repair` False) keep their markers: a list cites each item, not the sentence; so does a
    `tail` (quotes, a list from the graph) added after the repaired reply, whose markers may name any of `sources`
    (every block, numbered as in `blocks`)."""
    text = text.strip()
    if is_refusal(text):
        return Answer(question, NO_ANSWER, [], context, grounded=False, usage=usage)
    if repair:
        text = repair_citations(text, {b.n: b.text for b in blocks})
    if tail:
        text = f"{text}\n\n{tail}"
    return Answer(question, text, make_citations(text, sources or blocks, support), context, grounded=True, usage=usage)
