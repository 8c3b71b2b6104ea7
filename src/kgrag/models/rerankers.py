"""Rerankers behind one seam: local-LLM yes/no probability, sentence-transformers cross-encoder, HTTP /rerank, lexical.

`make_reranker(name, llm)` picks one by name:
  lexical              content-word overlap, no model (the fallback when nothing else is configured)
  llm                  the index's LLM: P("yes") for "is this passage relevant?" (~3 pairs/s with the local 0.5B)
  cross-encoder:PATH   a sentence-transformers CrossEncoder from a local folder (pip install sentence-transformers)
  http:URL | URL       an OpenAI-compatible / Cohere-style POST {URL}/rerank endpoint (key: KGRAG_RERANKER_API_KEY)
  auto                 llm when the LLM exposes yes_probability (the local model), else lexical
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kgrag.errors import ConfigError, ModelError
from kgrag.models.base import LLM, Message, Reranker
from kgrag.models.layers import supports_yes_probability
from kgrag.models.usage import llm_stage

_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-+/]*[A-Za-z0-9]|[A-Za-z0-9]")
_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has", "have", "how", "i", "in", "is", "it", "its", "of", "on", "or", "that", "the", "this", "to", "was", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your"]
)
MAX_PASSAGE_CHARS = 2000  # what a reranker sees of one candidate (keeps LLM prompts short)


def content_terms(text: str) -> list[str]:
    """Lower-cased words and part numbers of `text` without stop words."""
    return [t for t in (m.lower() for m in _TERM.findall(text)) if t not in _STOP]


class LexicalReranker:
    """Share of the query's content terms present in the passage (+ a small bigram bonus); needs no model."""

    model_name = "lexical"

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        terms = content_terms(query)
        wanted = set(terms)
        bigrams = set(zip(terms, terms[1:], strict=False))
        out = []
        for passage in passages:
            words = content_terms(passage)
            present = set(words)
            hits = sum(1.0 + (t[0].isdigit() or any(c.isdigit() for c in t)) for t in wanted if t in present)
            total = sum(1.0 + any(c.isdigit() for c in t) for t in wanted) or 1.0
            pairs = set(zip(words, words[1:], strict=False))
            bonus = len(bigrams & pairs) / (len(bigrams) or 1)
            out.append(hits / total + 0.25 * bonus)
        return out


def _yes_no_messages(query: str, passage: str) -> list[Message]:
    return [
        {
            "role": "system",
            "content": "Judge whether the passage helps answer the question. Reply with one word: yes or no.",
        },
        {"role": "user", "content": f"Question: {query}\n\nPassage:\n{passage[:MAX_PASSAGE_CHARS]}\n\nRelevant (yes/no)?"},
    ]


class LLMReranker:
    """Relevance = the LLM's probability of answering "yes"; uses `llm.yes_probability` when the client has it.

    Without it (remote or fake clients) a one-token completion is read as 1.0 (yes) / 0.0 (no), with the
    lexical score as a tie-breaker so the order stays meaningful.
    """

    def __init__(self, llm: LLM) -> None:
        self.llm = llm
        self.model_name = f"llm:{getattr(llm, 'model_name', 'llm')}"
        self._lexical = LexicalReranker()

    def _probability(self, messages: list[Message]) -> float:
        yes_probability = getattr(self.llm, "yes_probability", None)
        if callable(yes_probability):
            return float(yes_probability(messages))
        text = self.llm.complete(messages, max_tokens=2, temperature=0.0).text.strip().lower()
        return 1.0 if text.startswith("yes") else 0.0

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        lexical = self._lexical.score(query, passages)
        with llm_stage("rerank"):
            return [
                self._probability(_yes_no_messages(query, p)) + 1e-3 * lex
                for p, lex in zip(passages, lexical, strict=True)
            ]


class CrossEncoderReranker:
    """A sentence-transformers CrossEncoder loaded from a local folder (never downloaded at run time)."""

    def __init__(self, model_path: str) -> None:
        path = Path(model_path).expanduser()
        if not path.exists():
            raise ConfigError(
                f"{path}: cross-encoder model folder not found; download it once yourself and give its path "
                "(kgrag never downloads models at run time)"
            )
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as exc:
            raise ModelError("the cross-encoder reranker needs: pip install sentence-transformers") from exc
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        self.model = CrossEncoder(str(path), device="cpu")
        self.model_name = f"cross-encoder:{path.name}"

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        if not passages:
            return []
        raw = self.model.predict([(query, p[:MAX_PASSAGE_CHARS]) for p in passages], show_progress_bar=False)
        return [float(x) for x in raw]


class HTTPReranker:
    """POST {base_url}/rerank {model, query, documents}; reads Cohere/Jina `results[{index, relevance_score}]`
    or TEI-style `[{index, score}]` answers."""

    def __init__(
        self, base_url: str, model: str = "", api_key: str = "", timeout_s: float = 60.0, client: Any = None
    ) -> None:
        self.client = client  # an httpx.Client (tests pass one with a MockTransport); None = module-level httpx
        self.url = base_url.rstrip("/") + ("" if base_url.rstrip("/").endswith("/rerank") else "/rerank")
        self.model = model
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.model_name = f"http:{model or self.url}"

    def score(self, query: str, passages: Sequence[str]) -> list[float]:
        import httpx

        if not passages:
            return []
        body: dict[str, Any] = {"query": query, "documents": [p[:MAX_PASSAGE_CHARS] for p in passages]}
        if self.model:
            body["model"] = self.model
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        try:
            response = (self.client or httpx).post(self.url, json=body, headers=headers, timeout=self.timeout_s)
            response.raise_for_status()
            data = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise ModelError(f"{self.url}: rerank request failed: {exc}") from exc
        results = data.get("results", data.get("data")) if isinstance(data, dict) else data
        scores = [-math.inf] * len(passages)
        try:
            for row in results:
                value = row.get("relevance_score", row.get("score"))
                scores[int(row["index"])] = float(value)
        except (TypeError, KeyError, ValueError, IndexError) as exc:
            raise ModelError(f"{self.url}: unexpected rerank answer: {str(data)[:200]}") from exc
        return scores


def make_reranker(name: str, llm: Callable[[], LLM] | None = None, *, scripted_llm: bool = False) -> Reranker:
    """The reranker called `name` (see the module docstring); `llm` supplies the LLM for "llm"/"auto".

    `llm` is a zero-argument callable so that the (slow to load) model is only loaded when it is used;
    "auto" never reranks with a scripted (fake) LLM.
    """
    name = (name or "auto").strip()
    if name == "lexical":
        return LexicalReranker()
    if name in ("llm", "auto"):
        if llm is None:
            if name == "auto":
                return LexicalReranker()
            raise ConfigError("reranker 'llm' needs an LLM")
        if name == "auto" and scripted_llm:
            return LexicalReranker()
        model = llm()
        if name == "auto" and not supports_yes_probability(model):
            return LexicalReranker()
        return LLMReranker(model)
    if name.startswith("cross-encoder"):
        path = name.partition(":")[2] or os.environ.get("KGRAG_RERANKER_MODEL", "")
        if not path:
            raise ConfigError("reranker 'cross-encoder' needs a local model folder: cross-encoder:/path/to/model")
        return CrossEncoderReranker(path)
    if name.startswith(("http:", "https:")):
        url = name[5:] if name.startswith("http:") and not name.startswith("http://") else name
        return HTTPReranker(
            url,
            model=os.environ.get("KGRAG_RERANKER_MODEL_NAME", ""),
            api_key=os.environ.get("KGRAG_RERANKER_API_KEY", ""),
        )
    raise ConfigError(f"unknown reranker {name!r}; use lexical, llm, auto, cross-encoder:PATH or http:URL")


def rerank(reranker: Reranker, query: str, passages: Sequence[str]) -> tuple[list[float], str]:
    """Scores from `reranker`, falling back to the lexical reranker when it fails; returns (scores, used name)."""
    try:
        return reranker.score(query, passages), reranker.model_name
    except (ModelError, OSError) as exc:
        fallback = LexicalReranker()
        return fallback.score(query, passages), f"{fallback.model_name} (fallback: {exc})"
