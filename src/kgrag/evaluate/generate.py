"""`kgrag eval generate`: typed questions with gold answers written by the LLM from the index's chunks.

For users without a gold set. Chunks are sampled with a seed; multi_hop questions get two chunks
that mention a shared entity (or two chunks of the same document when there is no graph).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kgrag.errors import KgragError
from kgrag.models.json_output import complete_json
from kgrag.models.usage import llm_stage
from kgrag.progress import NullProgress, Progress
from kgrag.tokens import count_tokens, truncate_tokens
from kgrag.types import Chunk

if TYPE_CHECKING:
    from kgrag.index import Index

QUERY_TYPES = ("factual", "reasoning", "disambiguation", "multi_hop", "summary")
MIN_CHUNK_TOKENS = 40
PASSAGE_TOKENS = 500
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"question": {"type": "string", "minLength": 8}, "answer": {"type": "string", "minLength": 1}},
    "required": ["question", "answer"],
}
INSTRUCTIONS = {
    "factual": "Ask for one specific fact (a value with its unit, a name, a part number) stated in the text.",
    "reasoning": "Ask a question whose answer needs a short inference from facts in the text (why, which is better).",
    "disambiguation": "Ask about a term, abbreviation or name in the text that could be confused; answer what it means here.",
    "multi_hop": "Ask a question that needs facts from BOTH passages together.",
    "summary": "Ask for an overview of what the text describes; the answer lists its main points in 1-2 sentences.",
}
SYSTEM = (
    "You write evaluation questions for a question-answering system over technical documents. "
    "The answer must be fully supported by the given text and name the product it concerns. "
    'Reply as JSON: {"question": "...", "answer": "..."}.'
)


def _pairs(index: Index, chunks: list[Chunk], rng: random.Random) -> Iterator[list[Chunk]]:
    """Two chunks sharing an entity (from different chunks), else two chunks of one document."""
    by_id = {c.chunk_id: c for c in chunks}
    entities = index.store.entities_of_chunks(list(by_id))
    holders: dict[str, list[str]] = {}
    for cid, eids in entities.items():
        for e in eids:
            holders.setdefault(e, []).append(cid)
    shared = [sorted(cs) for cs in holders.values() if len(cs) > 1]
    by_doc: dict[str, list[str]] = {}
    for c in chunks:
        by_doc.setdefault(c.doc_id, []).append(c.chunk_id)
    groups = shared or [cs for cs in by_doc.values() if len(cs) > 1]
    while groups:
        a, b = rng.sample(rng.choice(groups), 2)
        yield [by_id[a], by_id[b]]


def generate_questions(
    index: Index, n: int, *, seed: int = 42, types: tuple[str, ...] = QUERY_TYPES, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """`n` questions cycling through `types`, each {id, query_type, question, gold_answer, chunk_ids}."""
    rng = random.Random(seed)
    chunks = [c for c in index.store.iter_chunks() if (c.tokens or count_tokens(c.text)) >= MIN_CHUNK_TOKENS]
    if not chunks:
        raise KgragError(f"{index.root}: no chunks with at least {MIN_CHUNK_TOKENS} tokens to write questions from")
    rng.shuffle(chunks)
    pairs = _pairs(index, chunks, rng)
    task = (progress or NullProgress()).task("questions", n)
    out: list[dict[str, Any]] = []
    attempts = 0
    while len(out) < n and attempts < 2 * n:
        qtype = types[attempts % len(types)]
        attempts += 1
        passages = next(pairs, None) if qtype == "multi_hop" else None
        passages = passages or [chunks[attempts % len(chunks)]]
        text = "\n\n".join(f"Passage {i}:\n{truncate_tokens(c.text, PASSAGE_TOKENS)}" for i, c in enumerate(passages, 1))
        messages = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": f"{text}\n\nQuestion type: {qtype}. {INSTRUCTIONS[qtype]}\nJSON:"},
        ]
        try:
            with llm_stage("eval-generate"):
                data = complete_json(index.llm, messages, SCHEMA, max_tokens=200)
        except KgragError:
            continue  # an unusable reply costs one attempt
        out.append({
            "id": f"gen-{len(out) + 1}",
            "query_type": qtype,
            "question": data["question"].strip(),
            "gold_answer": data["answer"].strip(),
            "chunk_ids": [c.chunk_id for c in passages],
        })
        task.advance(1)
    return out
