"""The messages that ask the LLM for a grounded answer: the rules (answer from the numbered sources only, cite each
fact as [n], say so when they lack the answer) and the sources with the question."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kgrag.answering.blocks import Block
from kgrag.answering.names import coded_product
from kgrag.answering.refusal import NO_ANSWER
from kgrag.graph.datasheet.vocab import ORDER_CODE
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


def with_product_name(question: str, linked: Sequence[Mapping[str, str]]) -> str:
    """The question as the model reads it: its one order code followed by the product the retriever linked to it
    (`coded_product`: "Overview of ABX00087 (UNO R4 WiFi) please"). The product's passages seldom write the code, and
    a small model would say the documents lack it."""
    product = coded_product(question, linked)
    code = ORDER_CODE.search(question)
    return question.replace(code[0], f"{code[0]} ({product})", 1) if product and code else question
