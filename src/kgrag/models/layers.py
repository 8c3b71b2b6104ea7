"""Composable wrappers around any LLM. Order, outermost first: cache -> retry -> rate limit -> accounting.

The cache answers repeats before anything else (a hit is counted in the ledger as `cached`, free);
retry re-runs failed calls; the rate limiter spaces the real requests; accounting, next to the client,
sees every real attempt, records tokens, seconds and USD per stage, and enforces the token cap.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import httpx

from kgrag.errors import BudgetExceeded, LLMOutputError, ModelError
from kgrag.models.base import LLM, Completion, Message, Usage
from kgrag.models.cache_db import CacheFile
from kgrag.models.usage import UsageLedger, current_stage, deadline_passed, estimate_prompt_tokens
from kgrag.tokens import count_tokens

log = logging.getLogger(__name__)
T = TypeVar("T")


def unwrap(llm: Any) -> Any:
    """The innermost client under any number of layers."""
    while isinstance(llm, LLMLayer):
        llm = llm.inner
    return llm


def supports_yes_probability(llm: Any) -> bool:
    """Whether the client under the layers can score P(yes) for the next token (local models can)."""
    return callable(getattr(unwrap(llm), "yes_probability", None))


class LLMLayer:
    """Base of the layers: delegates everything to `inner`."""

    def __init__(self, inner: LLM) -> None:
        self.inner = inner

    @property
    def model_name(self) -> str:
        """The wrapped client's model name."""
        return self.inner.model_name

    def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                 max_tokens: int = 512, temperature: float = 0.0) -> Completion:
        """Pass the call through."""
        return self.inner.complete(messages, schema=schema, max_tokens=max_tokens, temperature=temperature)

    def stream(self, messages: Sequence[Message], *, max_tokens: int = 512,
               temperature: float = 0.0) -> Iterator[str]:
        """Pass the stream through."""
        return self.inner.stream(messages, max_tokens=max_tokens, temperature=temperature)

    @property
    def yes_probability(self) -> Callable[[Sequence[Message]], float]:
        """P(next token is "yes") scoring; absent (AttributeError) when the client below cannot score."""
        if not supports_yes_probability(self.inner):
            raise AttributeError(f"{self.model_name}: this model cannot score yes/no probabilities")
        return self._yes_probability

    def _yes_probability(self, messages: Sequence[Message]) -> float:
        """The inner client's score (layers override this to add their concern)."""
        return float(self.inner.yes_probability(messages))  # type: ignore[attr-defined]

    def close(self) -> None:
        """Close the inner client if it has resources."""
        closer = getattr(self.inner, "close", None)
        if callable(closer):
            closer()


class CachedLLM(LLMLayer, CacheFile):
    """SQLite (WAL) cache keyed by the sha256 of the whole request; only successful answers are stored."""

    def __init__(self, inner: LLM, path: str | Path, *, ledger: UsageLedger | None = None) -> None:
        LLMLayer.__init__(self, inner)
        self.ledger = ledger
        CacheFile.__init__(
            self,
            path,
            "CREATE TABLE IF NOT EXISTS llm_cache (key TEXT PRIMARY KEY, model TEXT NOT NULL, text TEXT NOT NULL,"
            " prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, created REAL NOT NULL)",
        )

    def request_key(self, kind: str, messages: Sequence[Message], **params: Any) -> str:
        """sha256 of the model name, the messages and every parameter that changes the answer."""
        body = {"kind": kind, "model": self.model_name, "messages": [dict(m) for m in messages], **params}
        return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def _get(self, key: str) -> tuple[str, str, int, int] | None:
        with self._lock:
            return self._db.execute("SELECT model, text, prompt_tokens, completion_tokens FROM llm_cache "
                                    "WHERE key = ?", (key,)).fetchone()

    def _put(self, key: str, model: str, text: str, usage: Usage) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO llm_cache VALUES (?, ?, ?, ?, ?, ?)",
                             (key, model, text, usage.prompt_tokens, usage.completion_tokens, time.time()))
            self._db.commit()

    def _hit(self) -> None:
        self.hits += 1
        if self.ledger is not None:
            self.ledger.record_cached(current_stage(), self.model_name)

    def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                 max_tokens: int = 512, temperature: float = 0.0) -> Completion:
        """The stored answer to an identical request, else the inner answer (then stored)."""
        key = self.request_key("complete", messages, schema=schema, max_tokens=max_tokens,
                               temperature=temperature)
        row = self._get(key)
        if row is not None:
            self._hit()
            return Completion(text=row[1], usage=Usage(row[2], row[3]), model=row[0], cached=True)
        self.misses += 1
        completion = self.inner.complete(messages, schema=schema, max_tokens=max_tokens, temperature=temperature)
        self._put(key, completion.model or self.model_name, completion.text, completion.usage)
        return completion

    def _yes_probability(self, messages: Sequence[Message]) -> float:
        """Cached P(yes) scores (reranking the same pairs again is free)."""
        key = self.request_key("yes_probability", messages)
        row = self._get(key)
        if row is not None:
            self._hit()
            return float(row[1])
        self.misses += 1
        value = super()._yes_probability(messages)
        self._put(key, self.model_name, repr(value), Usage())
        return value

    def close(self) -> None:
        """Close the cache database and the inner client."""
        self._close_db()
        super().close()


def is_retryable(exc: BaseException) -> bool:
    """Transient failures: timeouts, connection errors, HTTP 429/5xx; never bad output or a spent budget."""
    if isinstance(exc, LLMOutputError | BudgetExceeded):
        return False
    if isinstance(exc, ModelError):
        return bool(getattr(exc, "retryable", True))
    return isinstance(exc, TimeoutError | ConnectionError | httpx.TransportError)


class RetryingLLM(LLMLayer):
    """Retries transient failures with exponential backoff and jitter (honours a server's Retry-After)."""

    def __init__(self, inner: LLM, max_retries: int = 3, backoff: float = 1.0, *, max_backoff: float = 30.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(inner)
        self.max_retries = max(0, max_retries)
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._sleep = sleep
        self.retries = 0

    def _delay(self, attempt: int, exc: BaseException) -> float:
        delay = min(self.max_backoff, self.backoff * 2**attempt) * (0.5 + 0.5 * random.random())
        retry_after = getattr(exc, "retry_after", None)
        return max(delay, min(float(retry_after), self.max_backoff)) if retry_after else delay

    def _call(self, fn: Callable[[], T]) -> T:
        for attempt in range(self.max_retries + 1):
            try:
                return fn()
            except Exception as exc:
                if attempt >= self.max_retries or not is_retryable(exc):
                    raise
                delay = self._delay(attempt, exc)
                log.warning("%s: %s; retry %d/%d in %.1f s", self.model_name, exc, attempt + 1,
                            self.max_retries, delay)
                self.retries += 1
                self._sleep(delay)
        raise AssertionError("unreachable")

    def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                 max_tokens: int = 512, temperature: float = 0.0) -> Completion:
        """The inner answer, retrying transient failures."""
        return self._call(lambda: self.inner.complete(messages, schema=schema, max_tokens=max_tokens,
                                                      temperature=temperature))

    def stream(self, messages: Sequence[Message], *, max_tokens: int = 512,
               temperature: float = 0.0) -> Iterator[str]:
        """The inner stream; a failure before the first piece is retried, later ones are raised."""
        for attempt in range(self.max_retries + 1):
            started = False
            try:
                for piece in self.inner.stream(messages, max_tokens=max_tokens, temperature=temperature):
                    started = True
                    yield piece
                return
            except Exception as exc:
                if started or attempt >= self.max_retries or not is_retryable(exc):
                    raise
                self.retries += 1
                self._sleep(self._delay(attempt, exc))

    def _yes_probability(self, messages: Sequence[Message]) -> float:
        """The inner score, retrying transient failures."""
        return self._call(lambda: super(RetryingLLM, self)._yes_probability(messages))


class RateLimitedLLM(LLMLayer):
    """Spaces requests to at most `requests_per_minute` (shared by all threads using this object)."""

    def __init__(self, inner: LLM, requests_per_minute: float, *,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(inner)
        self.interval = 60.0 / requests_per_minute if requests_per_minute > 0 else 0.0
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self._lock = threading.Lock()

    def _wait(self) -> None:
        with self._lock:
            now = self._clock()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            self._sleep(start - now)

    def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                 max_tokens: int = 512, temperature: float = 0.0) -> Completion:
        """Wait for a slot, then call."""
        self._wait()
        return super().complete(messages, schema=schema, max_tokens=max_tokens, temperature=temperature)

    def stream(self, messages: Sequence[Message], *, max_tokens: int = 512,
               temperature: float = 0.0) -> Iterator[str]:
        """Wait for a slot, then stream."""
        self._wait()
        yield from super().stream(messages, max_tokens=max_tokens, temperature=temperature)

    def _yes_probability(self, messages: Sequence[Message]) -> float:
        """Wait for a slot, then score."""
        self._wait()
        return super()._yes_probability(messages)


class AccountingLLM(LLMLayer):
    """Records calls, tokens, seconds and USD per stage in a ledger; refuses calls past `max_tokens_total`."""

    def __init__(self, inner: LLM, ledger: UsageLedger, *, max_tokens_total: int = 0) -> None:
        super().__init__(inner)
        self.ledger = ledger
        self.max_tokens_total = max_tokens_total

    def _check_budget(self, estimate: int) -> None:
        """Raise BudgetExceeded if a call of `estimate` tokens could pass the cap, or the time budget is used up."""
        if deadline_passed():
            raise BudgetExceeded("LLM time budget (--max-minutes) used up; run the same command again to continue")
        used = self.ledger.total_tokens
        if self.max_tokens_total and used + estimate > self.max_tokens_total:
            raise BudgetExceeded(f"LLM token cap reached: {used} of {self.max_tokens_total} tokens used, "
                                 f"the next call may need {estimate}; raise the cap to continue")

    def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                 max_tokens: int = 512, temperature: float = 0.0) -> Completion:
        """Call the inner client and record the usage under the current stage."""
        stage = current_stage()
        self._check_budget(estimate_prompt_tokens(messages) + max_tokens)
        start = time.perf_counter()
        try:
            completion = self.inner.complete(messages, schema=schema, max_tokens=max_tokens,
                                             temperature=temperature)
        except Exception:
            self.ledger.record_error(stage, self.model_name, time.perf_counter() - start)
            raise
        usd = self.ledger.record(stage, self.model_name, completion.usage.prompt_tokens,
                                 completion.usage.completion_tokens, time.perf_counter() - start)
        completion.meta.setdefault("usd", usd)
        return completion

    def stream(self, messages: Sequence[Message], *, max_tokens: int = 512,
               temperature: float = 0.0) -> Iterator[str]:
        """Pass the stream through; its tokens are counted (cl100k) when it ends or is abandoned."""
        stage = current_stage()
        prompt_tokens = estimate_prompt_tokens(messages)
        self._check_budget(prompt_tokens + max_tokens)
        pieces: list[str] = []
        start = time.perf_counter()
        try:
            for piece in self.inner.stream(messages, max_tokens=max_tokens, temperature=temperature):
                pieces.append(piece)
                yield piece
        except Exception:
            self.ledger.record_error(stage, self.model_name, time.perf_counter() - start)
            raise
        finally:
            if pieces:
                self.ledger.record(stage, self.model_name, prompt_tokens, count_tokens("".join(pieces)),
                                   time.perf_counter() - start)

    def _yes_probability(self, messages: Sequence[Message]) -> float:
        """Score, recorded as one call with a one-token completion."""
        stage = current_stage()
        prompt_tokens = estimate_prompt_tokens(messages)
        self._check_budget(prompt_tokens + 1)
        start = time.perf_counter()
        try:
            value = super()._yes_probability(messages)
        except Exception:
            self.ledger.record_error(stage, self.model_name, time.perf_counter() - start)
            raise
        self.ledger.record(stage, self.model_name, prompt_tokens, 1, time.perf_counter() - start)
        return value
