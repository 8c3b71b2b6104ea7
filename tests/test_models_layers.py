"""The LLM layers (cache, retry, rate limit, accounting), the usage ledger and make_llm's wiring."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from kgrag.config import LLMSettings
from kgrag.errors import BudgetExceeded, ConfigError, LLMOutputError, ModelError
from kgrag.models import (
    AccountingLLM,
    CachedLLM,
    FakeLLM,
    OpenAICompatibleLLM,
    RateLimitedLLM,
    RetryingLLM,
    UsageLedger,
    llm_stage,
    make_llm,
    supports_yes_probability,
    unwrap,
)
from kgrag.models.openai_compat import ModelHTTPError
from kgrag.models.usage import current_stage

USER = [{"role": "user", "content": "What is the BMI270?"}]


class Flaky(FakeLLM):
    """Fails with the given exceptions first, then answers."""

    def __init__(self, errors: list[Exception], reply: str = "ok") -> None:
        super().__init__(respond=lambda m, s: reply)
        self.errors = list(errors)

    def complete(self, messages, **kwargs):  # type: ignore[no-untyped-def]
        if self.errors:
            self.calls += 1
            raise self.errors.pop(0)
        return super().complete(messages, **kwargs)


# -- cache ---------------------------------------------------------------------------------------
def test_cache_hits_only_identical_requests(tmp_path: Path) -> None:
    inner = FakeLLM(respond=lambda m, s: f"answer {len(m)}")
    llm = CachedLLM(inner, tmp_path / "llm.sqlite")
    first = llm.complete(USER)
    second = llm.complete(USER)
    assert not first.cached and second.cached and second.text == first.text
    assert second.usage == first.usage and inner.calls == 1
    llm.complete(USER, max_tokens=99)
    llm.complete(USER, temperature=0.5)
    llm.complete(USER, schema={"type": "object"})
    llm.complete(USER + [{"role": "user", "content": "more"}])
    assert inner.calls == 5 and (llm.hits, llm.misses) == (1, 5)


def test_cache_is_shared_across_processes_and_skips_failures(tmp_path: Path) -> None:
    path = tmp_path / "llm.sqlite"
    script = (
        "import sys; from kgrag.models import CachedLLM, FakeLLM;"
        f"llm = CachedLLM(FakeLLM(replies=['from child']), {str(path)!r});"
        f"print(llm.complete({USER!r}).text)"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "from child"
    inner = Flaky([ModelError("down")], reply="never used")
    llm = CachedLLM(inner, path)
    hit = llm.complete(USER)
    assert hit.cached and hit.text == "from child" and inner.calls == 0
    other = [{"role": "user", "content": "new"}]
    with pytest.raises(ModelError):
        llm.complete(other)
    again = llm.complete(other)  # the failure was not cached
    assert again.text == "never used" and not again.cached
    assert llm.complete(other).cached


def test_cache_records_hits_in_the_ledger_and_caches_yes_probability(tmp_path: Path) -> None:
    ledger = UsageLedger()
    inner = FakeLLM(yes=lambda m: 0.8)
    llm = CachedLLM(AccountingLLM(inner, ledger), tmp_path / "c.sqlite", ledger=ledger)
    with llm_stage("rerank"):
        assert llm.yes_probability(USER) == 0.8
        assert llm.yes_probability(USER) == 0.8
    assert inner.calls == 1
    row = ledger.by_stage()["rerank"]
    assert (row.calls, row.cached, row.completion_tokens) == (1, 1, 1)


# -- retry ---------------------------------------------------------------------------------------
def test_retry_then_success_with_backoff() -> None:
    sleeps: list[float] = []
    inner = Flaky([ModelError("boom"), httpx.ConnectError("refused"), TimeoutError()])
    llm = RetryingLLM(inner, max_retries=3, backoff=1.0, sleep=sleeps.append)
    assert llm.complete(USER).text == "ok"
    assert inner.calls == 4 and llm.retries == 3
    assert 0.5 <= sleeps[0] <= 1.0 and 1.0 <= sleeps[1] <= 2.0 and 2.0 <= sleeps[2] <= 4.0


def test_retry_gives_up_and_skips_permanent_errors() -> None:
    sleeps: list[float] = []
    inner = Flaky([ModelError("a"), ModelError("b"), ModelError("c")])
    with pytest.raises(ModelError, match="b"):
        RetryingLLM(inner, max_retries=1, sleep=sleeps.append).complete(USER)
    assert len(sleeps) == 1
    for error in (LLMOutputError("bad json"), ModelHTTPError("http://h/v1", 401, "no key"),
                  BudgetExceeded("cap")):
        inner = Flaky([error])
        with pytest.raises(type(error)):
            RetryingLLM(inner, max_retries=5, sleep=sleeps.append).complete(USER)
        assert inner.calls == 1
    inner = Flaky([ModelHTTPError("http://h/v1", 429, "later", retry_after=7.0)])
    RetryingLLM(inner, max_retries=1, sleep=sleeps.append).complete(USER)
    assert sleeps[-1] == 7.0


def test_retry_of_streams_only_before_the_first_piece() -> None:
    class FlakyStream(FakeLLM):
        attempts = 0

        def stream(self, messages, **kwargs):  # type: ignore[no-untyped-def]
            self.attempts += 1
            if self.attempts == 1:
                raise ModelError("not yet")
            yield "a"
            yield "b"

    llm = RetryingLLM(FlakyStream(), max_retries=2, sleep=lambda s: None)
    assert "".join(llm.stream(USER)) == "ab"


# -- rate limit ----------------------------------------------------------------------------------
def test_rate_limit_spaces_calls() -> None:
    now = [100.0]
    sleeps: list[float] = []

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    llm = RateLimitedLLM(FakeLLM(respond=lambda m, s: "x"), requests_per_minute=60, clock=lambda: now[0],
                         sleep=sleep)
    for _ in range(3):
        llm.complete(USER)
    assert sleeps == [1.0, 1.0]


# -- accounting ----------------------------------------------------------------------------------
def test_accounting_per_stage_with_prices_and_sink() -> None:
    rows: list[tuple] = []
    ledger = UsageLedger(prices={"gpt-4o-mini": [0.15, 0.6]}, sink=lambda *a: rows.append(a))
    llm = AccountingLLM(FakeLLM(respond=lambda m, s: "one two three", model_name="gpt-4o-mini-2024"), ledger)
    assert current_stage() == "default"
    with llm_stage("extract"):
        llm.complete(USER)
        llm.complete(USER)
        with llm_stage("answer"):
            assert "".join(llm.stream(USER)) == "one two three"
    llm.complete(USER)
    stages = ledger.by_stage()
    assert set(stages) == {"extract", "answer", "default"}
    extract = stages["extract"]
    assert extract.calls == 2 and extract.completion_tokens == 6 and extract.prompt_tokens > 0
    assert extract.usd == pytest.approx((extract.prompt_tokens * 0.15 + 6 * 0.6) / 1e6)
    assert stages["answer"].completion_tokens == 3
    assert len(rows) == 4 and rows[0][:3] == ("extract", "gpt-4o-mini-2024", 1)
    assert ledger.totals().calls == 4 and "extract" in ledger.summary()


def test_ledger_flush_without_sink_and_on_sink_failure() -> None:
    ledger = UsageLedger()
    llm = AccountingLLM(FakeLLM(respond=lambda m, s: "x"), ledger)
    with llm_stage("summarise"):
        llm.complete(USER)
        llm.complete(USER)
    flushed: list[tuple] = []
    assert ledger.flush_to(lambda *a: flushed.append(a)) == 1
    assert flushed[0][0:3] == ("summarise", "fake", 2)
    assert ledger.flush_to(lambda *a: flushed.append(a)) == 0

    def failing(*args: object) -> None:
        raise RuntimeError("db locked")

    ledger = UsageLedger(sink=failing)
    AccountingLLM(FakeLLM(respond=lambda m, s: "x"), ledger).complete(USER)  # the call still succeeds
    assert ledger.flush_to(lambda *a: flushed.append(a)) == 1


def test_token_cap_raises_before_the_call() -> None:
    ledger = UsageLedger()
    inner = FakeLLM(respond=lambda m, s: "x")
    llm = AccountingLLM(inner, ledger, max_tokens_total=100)
    llm.complete(USER, max_tokens=50)
    with pytest.raises(BudgetExceeded, match="cap"):
        llm.complete(USER, max_tokens=95)
    assert inner.calls == 1
    capped = AccountingLLM(FakeLLM(), UsageLedger(baseline_tokens=1000), max_tokens_total=1000)
    with pytest.raises(BudgetExceeded):
        capped.complete(USER, max_tokens=1)


def test_accounting_counts_errors() -> None:
    ledger = UsageLedger()
    with pytest.raises(ModelError):
        AccountingLLM(Flaky([ModelError("x")]), ledger).complete(USER)
    assert ledger.totals().errors == 1 and ledger.totals().calls == 0


# -- wiring --------------------------------------------------------------------------------------
def test_make_llm_wires_layers_in_documented_order(tmp_path: Path) -> None:
    settings = LLMSettings(provider="openai", model="gpt-x", base_url="http://127.0.0.1:9/v1", max_retries=2)
    llm = make_llm(settings, cache_path=tmp_path / "c.sqlite", ledger=UsageLedger(), max_tokens_total=10,
                   requests_per_minute=600)
    chain = []
    node = llm
    while hasattr(node, "inner"):
        chain.append(type(node).__name__)
        node = node.inner
    assert chain == ["CachedLLM", "RetryingLLM", "RateLimitedLLM", "AccountingLLM"]
    assert isinstance(unwrap(llm), OpenAICompatibleLLM) and llm.model_name == "gpt-x"
    assert not supports_yes_probability(llm) and getattr(llm, "yes_probability", None) is None

    fake = make_llm(LLMSettings(provider="fake"))
    assert isinstance(fake, FakeLLM) and supports_yes_probability(fake)
    local = make_llm(LLMSettings(), ledger=UsageLedger())
    assert type(local).__name__ == "AccountingLLM" and unwrap(local).model_name == "qwen2.5-coder-0.5b-q4_0"
    assert supports_yes_probability(local) and callable(local.yes_probability)
    with pytest.raises(ConfigError):
        make_llm(LLMSettings(provider="bogus"))
