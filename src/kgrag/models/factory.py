"""Build embedders and LLMs from settings, wiring the layers in the documented order."""

from __future__ import annotations

import os
from pathlib import Path

from kgrag.config import EmbedderSettings, LLMSettings
from kgrag.errors import ConfigError
from kgrag.models.base import LLM, Embedder, usable_threads
from kgrag.models.embedders import CachedEmbedder, HashEmbedder, MiniLMEmbedder
from kgrag.models.fake import FakeLLM
from kgrag.models.layers import AccountingLLM, CachedLLM, RateLimitedLLM, RetryingLLM
from kgrag.models.local_llm import LocalLLM
from kgrag.models.openai_compat import OpenAICompatibleLLM, OpenAIEmbedder
from kgrag.models.usage import UsageLedger

EMBEDDER_PROVIDERS = ("minilm", "hash", "openai")
LLM_PROVIDERS = ("local", "openai", "fake")
DEFAULT_OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"


def make_embedder(settings: EmbedderSettings, cache_path: Path | None = None) -> Embedder:
    """The configured embedder; model-backed ones get an SQLite cache at `cache_path` if given."""
    provider = settings.provider.strip().lower()
    embedder: Embedder
    if provider == "hash":
        return HashEmbedder()  # cheaper to recompute than to look up
    if provider == "minilm":
        embedder = MiniLMEmbedder(batch_size=settings.batch_size, threads=usable_threads(settings.threads))
    elif provider == "openai":
        embedder = OpenAIEmbedder(
            settings.model or DEFAULT_OPENAI_EMBEDDING_MODEL,
            base_url=settings.base_url,
            api_key=settings.api_key or os.environ.get("OPENAI_API_KEY", ""),
            batch_size=settings.batch_size,
        )
    else:
        raise ConfigError(f"[embedder] provider = {settings.provider!r}: use one of {', '.join(EMBEDDER_PROVIDERS)}")
    if cache_path is None or settings.cache_rows <= 0:
        return embedder
    return CachedEmbedder(embedder, cache_path, max_rows=settings.cache_rows)


def make_base_llm(settings: LLMSettings) -> LLM:
    """The bare client for `settings.provider`, without layers."""
    provider = settings.provider.strip().lower()
    if provider == "local":
        return LocalLLM(settings.model, n_ctx=settings.n_ctx, threads=settings.threads, quant=settings.quant,
                        batch_threads=settings.batch_threads, flash_attn=settings.flash_attn)
    if provider == "openai":
        if not settings.model:
            raise ConfigError("[llm] model is required with provider = \"openai\"")
        return OpenAICompatibleLLM(settings.model, base_url=settings.base_url, api_key=settings.api_key,
                                   timeout_s=settings.timeout_s)
    if provider == "fake":
        return FakeLLM()
    raise ConfigError(f"[llm] provider = {settings.provider!r}: use one of {', '.join(LLM_PROVIDERS)}")


def make_llm(settings: LLMSettings, *, cache_path: Path | None = None, ledger: UsageLedger | None = None,
             max_tokens_total: int = 0, requests_per_minute: float = 0.0, base: LLM | None = None) -> LLM:
    """The configured LLM wrapped, outermost first, as cache -> retry -> rate limit -> accounting -> client.

    Retries apply to remote providers only (a local model's failures are not transient). A token cap
    without a ledger gets a private ledger. `base` replaces the client (e.g. a scripted FakeLLM in tests).
    """
    llm: LLM = base if base is not None else make_base_llm(settings)
    remote = base is None and settings.provider.strip().lower() == "openai"
    if ledger is None and max_tokens_total:
        ledger = UsageLedger()
    if ledger is not None:
        llm = AccountingLLM(llm, ledger, max_tokens_total=max_tokens_total)
    if requests_per_minute > 0:
        llm = RateLimitedLLM(llm, requests_per_minute)
    if remote and settings.max_retries > 0:
        llm = RetryingLLM(llm, settings.max_retries)
    if cache_path is not None:
        llm = CachedLLM(llm, cache_path, ledger=ledger)
    return llm
