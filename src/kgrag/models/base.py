"""The model seams: Embedder, LLM and Reranker protocols and the value types they exchange."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

Message = dict[str, str]  # {"role": "system"|"user"|"assistant", "content": "..."}
MAX_THREADS = 4


def usable_threads(requested: int = 0) -> int:
    """Threads for one large batch of model work (a prompt read, an embedding batch): `requested`, or (0) the CPUs
    this process may use, at most MAX_THREADS. Token-by-token generation is not such work (see [llm] threads).

    Measured on two idle vCPUs: a 600-token prompt read 7.5 s on one thread, 4.4 s on two; 41 focus units embedded
    in 0.32 s on one, 0.18 s on two. With the other core busy two threads were 1.2x slower: set 1 there."""
    if requested > 0:
        return requested
    try:
        available = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        available = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, available))


@dataclass
class Usage:
    """Token counts of one LLM call."""

    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class Completion:
    """The result of one LLM call."""

    text: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    cached: bool = False
    meta: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    model_name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Shape (len(texts), dim), float32, each row unit length (zero rows for empty text)."""
        ...


@runtime_checkable
class LLM(Protocol):
    """A chat model. `schema` asks for JSON output matching that JSON schema."""

    model_name: str

    def complete(
        self,
        messages: Sequence[Message],
        *,
        schema: dict[str, Any] | None = None,
        max_tokens: int = 512,
        temperature: float = 0.0,
    ) -> Completion: ...

    def stream(self, messages: Sequence[Message], *, max_tokens: int = 512, temperature: float = 0.0) -> Iterator[str]:
        """Yields the answer text piece by piece."""
        ...


@runtime_checkable
class Reranker(Protocol):
    """Scores (query, passage) pairs; higher is more relevant."""

    model_name: str

    def score(self, query: str, passages: Sequence[str]) -> list[float]: ...
