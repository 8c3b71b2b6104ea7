"""The messages that ask the LLM for a grounded answer: the rules (answer from the numbered sources only, cite each
fact as [n], say so when they lack the answer) and the sources with the question."""

from __future__ import annotations

from kgrag.answering.blocks import Block
from kgrag.answering.refusal import NO_ANSWER
from kgrag.models.base import Message

SYSTEM_PROMPT = (
    "You answer questions about technical documents using ONLY the numbered sources given.\n"
    "Rules:\n"
    "- Answer briefly and precisely, with the exact values, names and units from the sources.\n"
    "- After each fact, cite the source number in square brackets, like [1].\n"
    f'- If the sources do not contain the answer, reply exactly: "{NO_ANSWER}" Do not guess.'
)
FOCUSED_PROMPT = (
    "Answer from the numbered sources only, in one to three short sentences with the exact names, values and "
    f'units, each sentence ending with its source number like [1]. If they lack the answer, say: "{NO_ANSWER}"'
)


def build_messages(question: str, blocks: list[Block]) -> list[Message]:
    """The system rules and the numbered sources with the question."""
    sources = "\n\n".join(f"[{b.n}] ({b.header()})\n{b.text}" for b in blocks)
    user = f"Sources:\n{sources}\n\nQuestion: {question}\nAnswer (cite sources like [1]):"
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def answer_messages(question: str, blocks: list[Block], focused: bool) -> list[Message]:
    """The chat messages asking the model to answer from the numbered blocks (the short prompt for a focused context)."""
    messages = build_messages(question, blocks)
    if focused:
        messages[0]["content"] = FOCUSED_PROMPT
    return messages
