"""LLM usage accounting: the current pipeline stage (a contextvar) and a thread-safe ledger with prices."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields

from kgrag.models.base import Message
from kgrag.tokens import count_tokens

log = logging.getLogger(__name__)
DEFAULT_STAGE = "default"
_STAGE: ContextVar[str] = ContextVar("kgrag_llm_stage", default=DEFAULT_STAGE)
_DEADLINE: ContextVar[float] = ContextVar("kgrag_llm_deadline", default=0.0)  # time.monotonic(); 0 = none

# sink(stage, model, calls, prompt_tokens, completion_tokens, seconds, usd)
UsageSink = Callable[[str, str, int, int, int, float, float], None]


@contextmanager
def llm_stage(name: str) -> Iterator[str]:
    """Attribute LLM calls made inside the block to pipeline stage `name` (e.g. "extract", "answer")."""
    token = _STAGE.set(name)
    try:
        yield name
    finally:
        _STAGE.reset(token)


@contextmanager
def llm_deadline(seconds: float) -> Iterator[None]:
    """Refuse new LLM calls (BudgetExceeded from the accounting layer) once `seconds` have passed; 0 = no limit."""
    token = _DEADLINE.set(time.monotonic() + seconds if seconds > 0 else 0.0)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def deadline_passed() -> bool:
    """Whether the innermost `llm_deadline` block's time is up."""
    deadline = _DEADLINE.get()
    return bool(deadline) and time.monotonic() >= deadline


def current_stage() -> str:
    """The stage set by the innermost `llm_stage` block, or "default"."""
    return _STAGE.get()


def estimate_prompt_tokens(messages: Sequence[Message]) -> int:
    """cl100k count of a chat prompt plus a few tokens of framing per message."""
    return sum(count_tokens(m.get("content", "")) + 4 for m in messages)


@dataclass
class StageUsage:
    """Totals for one (stage, model) pair, or for everything."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    usd: float = 0.0
    cached: int = 0
    errors: int = 0

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def add(self, other: StageUsage) -> None:
        """Add `other`'s counts into this one."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


class UsageLedger:
    """Per-stage, per-model LLM usage and cost, kept in memory; a sink or `flush_to` lets a store persist it.

    With a `sink`, each call is handed over as it is recorded; without one (or if the sink fails),
    usage accumulates until `flush_to(callback)`.

    `prices` maps a model name (or a name prefix) to [USD per 1M input tokens, USD per 1M output tokens].
    `baseline_tokens` counts tokens spent before this process (e.g. by an interrupted run) against caps.
    """

    def __init__(self, prices: Mapping[str, Sequence[float]] | None = None, *, sink: UsageSink | None = None,
                 baseline_tokens: int = 0) -> None:
        self.prices = {k: (float(v[0]), float(v[1])) for k, v in (prices or {}).items()}
        self.sink = sink
        self.baseline_tokens = baseline_tokens
        self._rows: dict[tuple[str, str], StageUsage] = {}
        self._pending: dict[tuple[str, str], StageUsage] = {}
        self._lock = threading.Lock()

    def price(self, model: str, prompt_tokens: int, completion_tokens: int) -> float:
        """USD for a call: exact price entry, else the longest entry that prefixes the model name, else 0."""
        entry = self.prices.get(model)
        if entry is None:
            matches = [k for k in self.prices if model.startswith(k)]
            entry = self.prices[max(matches, key=len)] if matches else (0.0, 0.0)
        return (prompt_tokens * entry[0] + completion_tokens * entry[1]) / 1_000_000

    def _bump(self, key: tuple[str, str], delta: StageUsage, pending: bool = False) -> None:
        with self._lock:
            self._rows.setdefault(key, StageUsage()).add(delta)
            if pending:
                self._pending.setdefault(key, StageUsage()).add(delta)

    def record(self, stage: str, model: str, prompt_tokens: int, completion_tokens: int,
               seconds: float) -> float:
        """Add one completed model call; returns its cost in USD."""
        usd = self.price(model, prompt_tokens, completion_tokens)
        delta = StageUsage(1, prompt_tokens, completion_tokens, seconds, usd)
        sent = False
        if self.sink is not None:
            try:
                self.sink(stage, model, 1, prompt_tokens, completion_tokens, seconds, usd)
                sent = True
            except Exception as exc:  # the call itself succeeded: keep its usage for a later flush
                log.warning("usage sink failed (%s); usage kept for flush_to()", exc)
        self._bump((stage, model), delta, pending=not sent)
        return usd

    def record_cached(self, stage: str, model: str) -> None:
        """Count a call answered from the cache (free)."""
        self._bump((stage, model), StageUsage(cached=1))

    def record_error(self, stage: str, model: str, seconds: float) -> None:
        """Count a failed model call."""
        self._bump((stage, model), StageUsage(errors=1, seconds=seconds))

    def rows(self) -> dict[tuple[str, str], StageUsage]:
        """A copy of the totals per (stage, model)."""
        with self._lock:
            return {k: StageUsage(**vars(v)) for k, v in self._rows.items()}

    def by_stage(self) -> dict[str, StageUsage]:
        """Totals per stage over all models."""
        out: dict[str, StageUsage] = {}
        for (stage, _), usage in self.rows().items():
            out.setdefault(stage, StageUsage()).add(usage)
        return out

    def totals(self) -> StageUsage:
        """Totals over everything recorded in this process."""
        total = StageUsage()
        for usage in self.rows().values():
            total.add(usage)
        return total

    @property
    def total_tokens(self) -> int:
        """Tokens spent, including the baseline: what token caps are checked against."""
        return self.baseline_tokens + self.totals().total_tokens

    def flush_to(self, callback: UsageSink) -> int:
        """Hand the usage recorded since the last flush to `callback`, one call per (stage, model)."""
        with self._lock:
            pending, self._pending = self._pending, {}
        for (stage, model), u in pending.items():
            callback(stage, model, u.calls, u.prompt_tokens, u.completion_tokens, u.seconds, u.usd)
        return len(pending)

    def summary(self) -> str:
        """A small text table: one line per stage and model, then the total."""
        lines = [f"{'stage':<14}{'model':<28}{'calls':>7}{'cached':>8}{'in tok':>10}{'out tok':>9}"
                 f"{'sec':>9}{'USD':>10}"]
        rows = sorted(self.rows().items()) + [(("total", ""), self.totals())]
        for (stage, model), u in rows:
            lines.append(f"{stage:<14}{model[:27]:<28}{u.calls:>7}{u.cached:>8}{u.prompt_tokens:>10}"
                         f"{u.completion_tokens:>9}{u.seconds:>9.1f}{u.usd:>10.4f}")
        return "\n".join(lines)
