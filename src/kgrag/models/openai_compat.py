"""Clients for OpenAI-compatible HTTP servers (OpenAI, vLLM, llama.cpp server, Ollama...): chat and embeddings."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import urlparse

import httpx
import numpy as np

from kgrag.errors import LLMOutputError, ModelError
from kgrag.models.base import Completion, Message, Usage
from kgrag.models.json_output import parse_json_output, schema_instruction
from kgrag.models.usage import estimate_prompt_tokens
from kgrag.tokens import count_tokens

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_RETRYABLE_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class ModelHTTPError(ModelError):
    """An HTTP error from a model server; `retryable` tells the retry layer whether trying again can help."""

    def __init__(self, url: str, status: int, body: str, retry_after: float | None = None) -> None:
        self.url = url
        self.status = status
        self.retryable = status in _RETRYABLE_STATUS
        self.retry_after = retry_after
        self.body = body[:2000]
        super().__init__(f"{url}: HTTP {status}: {body.strip()[:300]}")


def api_url(base_url: str, endpoint: str) -> str:
    """`base_url` + endpoint; a bare host (no path) gets the conventional /v1 prefix."""
    base = (base_url or DEFAULT_BASE_URL).rstrip("/")
    if urlparse(base).path in ("", "/"):
        base += "/v1"
    return f"{base}/{endpoint.lstrip('/')}"


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds from a Retry-After header, if it holds a number."""
    try:
        return float(response.headers.get("retry-after", ""))
    except ValueError:
        return None


def _transport_error(url: str, timeout_s: float, exc: httpx.HTTPError) -> ModelError:
    """A ModelError naming the URL for a failure below HTTP (retryable: the server may come back)."""
    if isinstance(exc, httpx.TimeoutException):
        return ModelError(f"{url}: no answer within {timeout_s:g} s ({type(exc).__name__})")
    if isinstance(exc, httpx.ConnectError):
        return ModelError(f"{url}: ConnectError: cannot connect ({exc}); is the model server running? "
                          "(`kgrag llm serve` starts a local one)")
    return ModelError(f"{url}: {type(exc).__name__}: {exc}")


class _HTTPClient:
    """Shared POST logic: auth header, timeout, and every failure turned into a ModelError naming the URL."""

    def __init__(self, base_url: str, api_key: str, timeout_s: float,
                 transport: httpx.BaseTransport | None) -> None:
        self.base_url = base_url or DEFAULT_BASE_URL
        headers = {"Content-Type": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self.timeout_s = timeout_s
        self._client = httpx.Client(headers=headers, timeout=httpx.Timeout(timeout_s, connect=min(10.0, timeout_s)),
                                    transport=transport)

    def post(self, endpoint: str, payload: dict[str, Any]) -> dict[str, Any]:
        """POST JSON and return the decoded JSON body."""
        url = api_url(self.base_url, endpoint)
        try:
            response = self._client.post(url, json=payload)
        except httpx.HTTPError as exc:
            raise _transport_error(url, self.timeout_s, exc) from exc
        if response.status_code >= 400:
            raise ModelHTTPError(url, response.status_code, response.text, _retry_after(response))
        try:
            return response.json()
        except ValueError as exc:
            raise ModelError(f"{url}: the answer is not JSON: {response.text[:200]!r}") from exc

    def stream_lines(self, endpoint: str, payload: dict[str, Any]) -> Iterator[str]:
        """POST and yield the response's text lines as they arrive (server-sent events)."""
        url = api_url(self.base_url, endpoint)
        try:
            with self._client.stream("POST", url, json=payload) as response:
                if response.status_code >= 400:
                    body = response.read().decode("utf-8", "replace")
                    raise ModelHTTPError(url, response.status_code, body, _retry_after(response))
                yield from response.iter_lines()
        except httpx.HTTPError as exc:
            raise _transport_error(url, self.timeout_s, exc) from exc

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()


class OpenAIEmbedder:
    """Embeddings from any OpenAI-compatible /v1/embeddings endpoint, batched and L2-normalised."""

    def __init__(self, model: str = "text-embedding-3-small", *, base_url: str = "", api_key: str = "",
                 batch_size: int = 64, timeout_s: float = 60.0, dim: int | None = None,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.model_name = model
        self.batch_size = max(1, batch_size)
        self._dim = dim
        self._http = _HTTPClient(base_url, api_key, timeout_s, transport)

    @property
    def dim(self) -> int:
        """The vector size (asked from the server once if not given)."""
        if self._dim is None:
            self._dim = int(self._request(["dimension probe"]).shape[1])
        return self._dim

    def _request(self, texts: list[str]) -> np.ndarray:
        """One /embeddings call, rows in input order."""
        data = self._http.post("embeddings", {"model": self.model_name, "input": texts})
        try:
            items = sorted(data["data"], key=lambda d: d.get("index", 0))
            matrix = np.asarray([d["embedding"] for d in items], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"{api_url(self._http.base_url, 'embeddings')}: unexpected answer shape") from exc
        if matrix.ndim != 2 or matrix.shape[0] != len(texts):
            raise ModelError(f"{api_url(self._http.base_url, 'embeddings')}: got {matrix.shape[0]} vectors "
                             f"for {len(texts)} texts")
        return matrix

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed non-empty texts in batches; empty texts give zero rows."""
        todo = [i for i, t in enumerate(texts) if t and t.strip()]
        parts: list[np.ndarray] = []
        for start in range(0, len(todo), self.batch_size):
            parts.append(self._request([texts[i] for i in todo[start : start + self.batch_size]]))
        if parts and self._dim is None:
            self._dim = parts[0].shape[1]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if parts:
            matrix = np.concatenate(parts)
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            out[todo] = matrix / np.where(norms > 0, norms, 1.0)
        return out


class OpenAICompatibleLLM:
    """Chat completions over HTTP with JSON-schema output (falling back to json_object, then plain + parse)."""

    # json_object_schema: {"type": "json_object", "schema": ...}, the JSON-mode extension of llama-cpp-python's
    # server (it rejects json_schema): the schema still constrains decoding there
    _MODES = ("json_schema", "json_object_schema", "json_object", "plain")

    def __init__(self, model: str, *, base_url: str = "", api_key: str = "", timeout_s: float = 120.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.model_name = model
        self._http = _HTTPClient(base_url, api_key, timeout_s, transport)
        self._json_mode = 0  # index into _MODES; advanced when the server rejects a mode
        self._tokens_param = "max_tokens"  # newer OpenAI models want max_completion_tokens

    def _adapt(self, exc: ModelHTTPError, json_request: bool) -> bool:
        """Whether a rejected request is worth resending in an older dialect (switching it if so)."""
        body = exc.body.lower()
        # llama-cpp-python's server reports request validation errors as HTTP 500
        validation_500 = exc.status == 500 and "validation error" in body and "response_format" in body
        if exc.status not in (400, 415, 422) and not validation_500:
            return False
        if "max_completion_tokens" in body and self._tokens_param == "max_tokens":
            self._tokens_param = "max_completion_tokens"
            return True
        if json_request and self._json_mode < len(self._MODES) - 1 and any(w in body for w in ("response_format", "json", "schema")):
            self._json_mode += 1  # the server does not support this response_format: try the next one
            return True
        return False

    def _payload(self, messages: Sequence[Message], max_tokens: int, temperature: float) -> dict[str, Any]:
        """The request body common to complete() and stream()."""
        return {"model": self.model_name, "messages": [dict(m) for m in messages],
                self._tokens_param: max_tokens, "temperature": temperature}

    def _with_schema(self, payload: dict[str, Any], schema: dict[str, Any], mode: str) -> dict[str, Any]:
        """The payload asking for JSON in the given mode."""
        out = dict(payload)
        if mode == "json_schema":
            out["response_format"] = {"type": "json_schema",
                                      "json_schema": {"name": "output", "schema": schema, "strict": False}}
            return out
        if mode == "json_object_schema":
            out["response_format"] = {"type": "json_object", "schema": schema}
            return out
        if mode == "json_object":
            out["response_format"] = {"type": "json_object"}
        out["messages"] = list(out["messages"]) + [{"role": "system", "content": schema_instruction(schema)}]
        return out

    def complete(self, messages: Sequence[Message], *, schema: dict[str, Any] | None = None,
                 max_tokens: int = 512, temperature: float = 0.0) -> Completion:
        """One chat completion; usage from the server or counted with cl100k."""
        mode = "none"
        while True:
            payload = self._payload(messages, max_tokens, temperature)
            if schema is not None:
                mode = self._MODES[self._json_mode]
                body = self._with_schema(payload, schema, mode)
            else:
                body = payload
            try:
                data = self._http.post("chat/completions", body)
                break
            except ModelHTTPError as exc:
                if not self._adapt(exc, schema is not None):
                    raise
        try:
            choice = data["choices"][0]
            text = choice["message"].get("content") or ""
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ModelError(f"{api_url(self._http.base_url, 'chat/completions')}: unexpected answer "
                             f"shape: {str(data)[:200]}") from exc
        if schema is not None and mode not in ("json_schema", "json_object_schema"):
            # unparsable text is left as is: the caller's JSON check reports it (and may ask for a repair)
            with contextlib.suppress(LLMOutputError):
                text = json.dumps(parse_json_output(text), ensure_ascii=False)
        usage_data = data.get("usage") or {}
        usage = Usage(
            prompt_tokens=int(usage_data.get("prompt_tokens") or estimate_prompt_tokens(messages)),
            completion_tokens=int(usage_data.get("completion_tokens") or count_tokens(text)),
        )
        return Completion(text=text, usage=usage, model=str(data.get("model") or self.model_name),
                          meta={"finish_reason": choice.get("finish_reason"), "json_mode": mode})

    def stream(self, messages: Sequence[Message], *, max_tokens: int = 512,
               temperature: float = 0.0) -> Iterator[str]:
        """Yield content deltas from the server-sent event stream."""
        payload = self._payload(messages, max_tokens, temperature) | {"stream": True}
        for line in self._http.stream_lines("chat/completions", payload):
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                return
            try:
                event = json.loads(data)
            except json.JSONDecodeError:
                continue
            for choice in event.get("choices") or []:
                piece = (choice.get("delta") or {}).get("content")
                if piece:
                    yield piece

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._http.close()
