"""The model seams: Embedder, LLM and Reranker protocols and the value types they exchange."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

Message = dict[str, str]  # {"role": "system"|"user"|"assistant", "content": "..."}


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
