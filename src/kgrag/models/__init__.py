"""Embedders, LLM clients (local llama.cpp, OpenAI-compatible, fake), composable layers and factories.

Imports are light: llama-cpp-python and onnxruntime load only when a model is first used.
"""

from kgrag.models.base import LLM, Completion, Embedder, Message, Reranker, Usage
from kgrag.models.embedders import CachedEmbedder, HashEmbedder, MiniLMEmbedder
from kgrag.models.factory import make_base_llm, make_embedder, make_llm
from kgrag.models.fake import FakeLLM
from kgrag.models.json_output import complete_json, parse_json_output
from kgrag.models.layers import (
    AccountingLLM,
    CachedLLM,
    RateLimitedLLM,
    RetryingLLM,
    supports_yes_probability,
    unwrap,
)
from kgrag.models.local_llm import LocalLLM
from kgrag.models.openai_compat import ModelHTTPError, OpenAICompatibleLLM, OpenAIEmbedder
from kgrag.models.usage import StageUsage, UsageLedger, current_stage, llm_stage

__all__ = [
    "LLM", "AccountingLLM", "CachedEmbedder", "CachedLLM", "Completion", "Embedder", "FakeLLM",
    "HashEmbedder", "LocalLLM", "Message", "MiniLMEmbedder", "ModelHTTPError", "OpenAICompatibleLLM",
    "OpenAIEmbedder", "RateLimitedLLM", "Reranker", "RetryingLLM", "StageUsage", "Usage", "UsageLedger",
    "complete_json", "current_stage", "llm_stage", "make_base_llm", "make_embedder", "make_llm",
    "parse_json_output", "supports_yes_probability", "unwrap",
]
