"""Retriever base class and the registry of named strategies (discovered from `retrieve/strategies/`)."""

from __future__ import annotations

import importlib
import pkgutil
import time
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

from kgrag.errors import UnknownStrategyError
from kgrag.types import Context

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

_REGISTRY: dict[str, type[Retriever]] = {}


class Retriever(ABC):
    """A named retrieval strategy: question + token budget -> Context with provenance."""

    name: ClassVar[str]
    description: ClassVar[str]  # one line, shown by `kgrag strategies` and GET /strategies
    needs_llm: ClassVar[bool] = False  # True when retrieval itself calls the LLM (rewrite, HyDE, rerank)

    def __init__(self, index: Workspace) -> None:
        self.index = index

    @abstractmethod
    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        """The context for `question`, at most `budget` tokens."""

    def timed(self, question: str, budget: int, **options: Any) -> Context:
        """`retrieve` with the wall time recorded in `context.timings['retrieve_s']`."""
        start = time.perf_counter()
        context = self.retrieve(question, budget, **options)
        if options.get("version"):  # every strategy: no chunk-backed item from another version
            from kgrag.retrieve.chunks import allowed_chunks

            allowed = allowed_chunks(self.index, options["version"]) or set()
            context.items = [i for i in context.items if not i.chunk_id or i.chunk_id in allowed]
            context.tokens = sum(i.tokens for i in context.items)
        context.timings["retrieve_s"] = time.perf_counter() - start
        return context


def register(cls: type[Retriever]) -> type[Retriever]:
    """Class decorator adding a strategy to the registry under `cls.name`."""
    _REGISTRY[cls.name] = cls
    return cls


def _load_strategies() -> None:
    from kgrag.retrieve import strategies

    for module in pkgutil.iter_modules(strategies.__path__):
        importlib.import_module(f"{strategies.__name__}.{module.name}")


def strategy_names() -> list[str]:
    _load_strategies()
    return sorted(_REGISTRY)


def strategy_descriptions() -> dict[str, str]:
    _load_strategies()
    return {name: _REGISTRY[name].description for name in sorted(_REGISTRY)}


def make_retriever(name: str, index: Workspace) -> Retriever:
    _load_strategies()
    try:
        cls = _REGISTRY[name]
    except KeyError:
        raise UnknownStrategyError(f"unknown strategy {name!r}; available: {', '.join(sorted(_REGISTRY))}") from None
    return cls(index)
