"""Errors a user can act on: each names the file or setting and the reason."""

from __future__ import annotations

from pathlib import Path


class KgragError(Exception):
    """Base class for every error kgrag reports to users (printed as one line, no traceback)."""


class ConfigError(KgragError):
    """A setting is missing or invalid."""


class IngestError(KgragError):
    """A file could not be read or parsed; names the file and the reason."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class IndexNotFoundError(KgragError):
    """The index folder does not exist or was never initialised."""


class IndexLockedError(KgragError):
    """Another process is writing to the index."""


class ModelError(KgragError):
    """A model (embedder, LLM, reranker) is unavailable or returned an unusable answer."""


class LLMOutputError(ModelError):
    """The LLM's output could not be parsed or validated (after repair attempts)."""


class BudgetExceeded(KgragError):
    """A configured LLM token cap was reached; work stopped cleanly and can resume."""


class UnknownStrategyError(KgragError):
    """A retrieval strategy name that is not registered."""
