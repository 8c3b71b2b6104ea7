"""LLM clients without a model: FakeLLM, JSON parsing/repair, and the OpenAI-compatible HTTP clients."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import numpy as np
import pytest

from kgrag.errors import LLMOutputError, ModelError
from kgrag.models import LLM, FakeLLM, OpenAICompatibleLLM, OpenAIEmbedder, complete_json, parse_json_output
from kgrag.models.fake import NO_ANSWER
from kgrag.models.openai_compat import ModelHTTPError, api_url

SCHEMA = {
    "type": "object",
    "properties": {"entities": {"type": "array", "items": {"type": "string"}}, "n": {"type": "integer"}},
    "required": ["entities"],
}
USER = [{"role": "user", "content": "hi"}]


# -- FakeLLM -------------------------------------------------------------------------------------
def test_fake_llm_scripted_list_then_exhausted() -> None:
    llm = FakeLLM(replies=["one", "two"])
    assert isinstance(llm, LLM)
    assert [llm.complete(USER).text, llm.complete(USER).text] == ["one", "two"]
    assert llm.calls == 2
    with pytest.raises(ModelError, match="no scripted reply"):
        llm.complete(USER)


def test_fake_llm_dict_function_and_defaults() -> None:
    llm = FakeLLM({"capital": "Paris"})
    assert llm.complete([{"role": "user", "content": "the capital of France?"}]).text == "Paris"
    assert llm.complete(USER).text == NO_ANSWER
    echo = FakeLLM(respond=lambda messages, schema: f"{len(messages)}:{schema is not None}")
    assert echo.complete(USER, schema=SCHEMA).text == "1:True"
    default = FakeLLM()
    assert json.loads(default.complete(USER, schema=SCHEMA).text) == {"entities": []}
    prompt = "Context:\n[1] The BMI270 runs at 1.8 V. It has an FIFO.\n[2] Other text.\n\nQuestion: voltage?"
    answer = default.complete([{"role": "user", "content": prompt}])
    assert answer.text == "The BMI270 runs at 1.8 V [1]." and answer.usage.prompt_tokens > 0
    assert "".join(default.stream([{"role": "user", "content": prompt}])) == answer.text
    assert default.calls == 3 and default.requests[0]["schema"] == SCHEMA
    headed = "[1] (Zephyr Pro (ZPH-P1), section: Power)\nThe gateway draws 4 W. More.\n\n[2] Other."
    assert default.complete([{"role": "user", "content": headed}]).text == "The gateway draws 4 W [1]."
    assert FakeLLM(yes=lambda m: 0.9).yes_probability(USER) == 0.9


# -- JSON output ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    '{"entities": ["a"]}',
    '```json\n{"entities": ["a"]}\n```',
    'Here you go: {"entities": ["a"]} hope this helps {',
    '[1] note first. {"entities": ["a"], "n": 2}',
])
def test_parse_json_output_tolerates_wrapping(text: str) -> None:
    assert parse_json_output(text, SCHEMA)["entities"] == ["a"]


def test_parse_json_output_reports_why() -> None:
    with pytest.raises(LLMOutputError, match="not valid JSON"):
        parse_json_output("no json here")
    with pytest.raises(LLMOutputError, match="missing required key 'entities'"):
        parse_json_output('{"n": 1}', SCHEMA)
    with pytest.raises(LLMOutputError, match=r"\$.n: expected integer"):
        parse_json_output('{"entities": [], "n": "x"}', SCHEMA)
    with pytest.raises(LLMOutputError, match=r"\$.entities\[1\]: expected string"):
        parse_json_output('{"entities": ["a", 3]}', SCHEMA)
    assert parse_json_output("[1, 2]") == [1, 2]


def test_complete_json_repairs_once() -> None:
    llm = FakeLLM(replies=['{"n": 1}', '{"entities": ["x"]}'])
    assert complete_json(llm, USER, SCHEMA) == {"entities": ["x"]}
    repair = llm.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"n": 1}'}
    assert "invalid because" in repair[-1]["content"] and "entities" in repair[-1]["content"]
    with pytest.raises(LLMOutputError, match="after 2 attempt"):
        complete_json(FakeLLM(replies=["nope", "still nope"]), USER, SCHEMA)
    with pytest.raises(LLMOutputError, match="after 1 attempt"):
        complete_json(FakeLLM(replies=["nope"]), USER, SCHEMA, repair_attempts=0)


# -- OpenAI-compatible clients (MockTransport) ---------------------------------------------------
def _chat_reply(content: str, usage: dict[str, int] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"model": "m", "choices": [{"message": {"content": content}, "finish_reason": "stop"}]}
    if usage:
        body["usage"] = usage
    return body


def test_openai_llm_request_shape_and_usage() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=_chat_reply("hello", {"prompt_tokens": 7, "completion_tokens": 2}))

    llm = OpenAICompatibleLLM("m", base_url="http://x:1", api_key="sk-1", transport=httpx.MockTransport(handler))
    out = llm.complete(USER, max_tokens=20, temperature=0.3)
    assert out.text == "hello" and (out.usage.prompt_tokens, out.usage.completion_tokens) == (7, 2)
    assert str(seen[0].url) == "http://x:1/v1/chat/completions"
    assert seen[0].headers["authorization"] == "Bearer sk-1"
    body = json.loads(seen[0].content)
    assert body == {"model": "m", "messages": USER, "max_tokens": 20, "temperature": 0.3}


def test_openai_llm_json_schema_falls_back_and_counts_usage() -> None:
    formats: list[Any] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        formats.append(body.get("response_format"))
        if body.get("response_format", {}).get("type") == "json_schema":
            return httpx.Response(400, json={"error": "response_format json_schema unsupported"})
        if "schema" in body.get("response_format", {}):
            return httpx.Response(422, json={"error": "response_format.schema: extra fields not permitted"})
        assert "JSON schema" in body["messages"][-1]["content"]
        return httpx.Response(200, json=_chat_reply('Sure: ```json\n{"entities": ["a"]}\n```'))

    llm = OpenAICompatibleLLM("m", base_url="http://x/v1", transport=httpx.MockTransport(handler))
    out = llm.complete(USER, schema=SCHEMA)
    assert json.loads(out.text) == {"entities": ["a"]} and out.meta["json_mode"] == "json_object"
    assert out.usage.prompt_tokens > 0 and out.usage.completion_tokens > 0  # counted with cl100k
    assert [f and f["type"] for f in formats] == ["json_schema", "json_object", "json_object"]
    assert formats[1] == {"type": "json_object", "schema": SCHEMA}
    llm.complete(USER, schema=SCHEMA)  # the working mode is remembered
    assert formats[-1] == {"type": "json_object"}


def test_openai_llm_llama_cpp_server_dialect() -> None:
    """llama-cpp-python's server answers json_schema with a 500 validation error and takes json_object + schema."""
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        bodies.append(body)
        if body["response_format"]["type"] == "json_schema":
            return httpx.Response(500, json={"error": {"message": "1 validation error: {'type': 'literal_error', "
                                                                  "'loc': ('body', 'response_format', 'type')}"}})
        return httpx.Response(200, json=_chat_reply('{"entities": ["a"]}'))

    llm = OpenAICompatibleLLM("m", base_url="http://x/v1", transport=httpx.MockTransport(handler))
    out = llm.complete(USER, schema=SCHEMA)
    assert out.meta["json_mode"] == "json_object_schema" and json.loads(out.text) == {"entities": ["a"]}
    assert bodies[-1]["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert bodies[-1]["messages"] == USER  # the schema constrains decoding: the prompt is left as sent


def test_openai_llm_unreachable_server_says_so() -> None:
    llm = OpenAICompatibleLLM("m", base_url=f"http://127.0.0.1:{_closed_port()}/v1", timeout_s=5)
    with pytest.raises(ModelError, match="cannot connect .*is the model server running") as info:
        llm.complete(USER)
    assert getattr(info.value, "retryable", True)  # the retry layer tries again


def _closed_port() -> int:
    from kgrag.models.llm_server import free_port

    return free_port()


def test_openai_llm_errors_name_url_and_status() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("chat/completions"):
            return httpx.Response(429, text="slow down", headers={"Retry-After": "2"})
        raise httpx.ConnectError("refused", request=request)

    llm = OpenAICompatibleLLM("m", base_url="http://h:9/v1", transport=httpx.MockTransport(handler))
    with pytest.raises(ModelHTTPError, match=r"http://h:9/v1/chat/completions: HTTP 429: slow down") as info:
        llm.complete(USER)
    assert info.value.retryable and info.value.retry_after == 2.0
    emb = OpenAIEmbedder("e", base_url="http://h:9/v1", transport=httpx.MockTransport(handler))
    with pytest.raises(ModelError, match="http://h:9/v1/embeddings: ConnectError"):
        emb.embed(["x"])


def test_openai_embedder_batches_orders_and_normalises() -> None:
    batches: list[list[str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        texts = json.loads(request.content)["input"]
        batches.append(texts)
        data = [{"index": i, "embedding": [float(len(t)), 1.0, 0.0]} for i, t in enumerate(texts)]
        return httpx.Response(200, json={"data": list(reversed(data))})

    emb = OpenAIEmbedder("e", base_url="http://h/v1", batch_size=2, transport=httpx.MockTransport(handler))
    out = emb.embed(["a", "bbb", "", "cc"])
    assert batches == [["a", "bbb"], ["cc"]] and emb.dim == 3
    assert np.allclose(np.linalg.norm(out[[0, 1, 3]], axis=1), 1.0) and not out[2].any()
    assert out[1][0] > out[0][0]


def test_api_url_adds_v1_only_to_bare_hosts() -> None:
    assert api_url("http://localhost:8080", "embeddings") == "http://localhost:8080/v1/embeddings"
    assert api_url("https://h/openai/v1/", "chat/completions") == "https://h/openai/v1/chat/completions"


# -- a real local HTTP server: streaming over SSE ------------------------------------------------
class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if body["model"] == "broken":
            self.send_response(503)
            self.end_headers()
            self.wfile.write(b"overloaded")
            return
        if body.get("stream"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for piece in ["The ", "answer ", "[1]."]:
                event = {"choices": [{"delta": {"content": piece}}]}
                self.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")
            return
        payload = json.dumps(_chat_reply("plain")).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_openai_llm_against_a_local_server(server_url: str) -> None:
    llm = OpenAICompatibleLLM("m", base_url=server_url, timeout_s=5)
    assert list(llm.stream(USER)) == ["The ", "answer ", "[1]."]
    assert llm.complete(USER).text == "plain"
    broken = OpenAICompatibleLLM("broken", base_url=server_url, timeout_s=5)
    with pytest.raises(ModelHTTPError, match="HTTP 503: overloaded"):
        list(broken.stream(USER))
    llm.close()


def test_openai_llm_adapts_to_max_completion_tokens_but_not_other_errors() -> None:
    bodies: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        bodies.append(body)
        if "max_tokens" in body:
            return httpx.Response(400, json={"error": "use max_completion_tokens instead"})
        if "too long" in body["messages"][0]["content"]:
            return httpx.Response(400, json={"error": "context length exceeded"})
        return httpx.Response(200, json=_chat_reply('{"entities": []}'))

    llm = OpenAICompatibleLLM("o", base_url="http://x/v1", transport=httpx.MockTransport(handler))
    assert llm.complete(USER, schema=SCHEMA, max_tokens=5).text == '{"entities": []}'
    assert bodies[-1]["max_completion_tokens"] == 5 and bodies[-1]["response_format"]["type"] == "json_schema"
    calls = len(bodies)
    with pytest.raises(ModelHTTPError, match="context length"):
        llm.complete([{"role": "user", "content": "too long"}], schema=SCHEMA)
    assert len(bodies) == calls + 1  # no pointless downgrades for an unrelated 400


# -- the model server's request defaults (no model needed) ---------------------------------------
def test_server_request_defaults_fill_missing_sampling_fields() -> None:
    import asyncio

    from kgrag.models.llm_server import REQUEST_DEFAULTS, RequestDefaults, setup_lines

    seen: list[tuple[dict[str, Any], dict[bytes, bytes]]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message["body"], message.get("more_body", False)
        seen.append((json.loads(body), dict(scope["headers"])))

    async def run(path: str, body: dict[str, Any]) -> None:
        raw = json.dumps(body).encode()
        chunks = [{"type": "http.request", "body": raw[:5], "more_body": True},
                  {"type": "http.request", "body": raw[5:], "more_body": False}]

        async def receive() -> dict[str, Any]:
            return chunks.pop(0)

        scope = {"type": "http", "method": "POST", "path": path, "headers": [(b"content-length", b"1")]}
        await RequestDefaults(app, REQUEST_DEFAULTS)(scope, receive, None)

    asyncio.run(run("/v1/chat/completions", {"messages": [], "temperature": 0}))
    asyncio.run(run("/v1/chat/completions", {"messages": [], "repeat_penalty": 1.3}))
    asyncio.run(run("/v1/embeddings", {"input": ["x"]}))
    assert seen[0][0]["repeat_penalty"] == 1.0 and seen[0][0]["temperature"] == 0
    assert int(seen[0][1][b"content-length"]) == len(json.dumps(seen[0][0]).encode())
    assert seen[1][0]["repeat_penalty"] == 1.3  # what the client sent wins
    assert "repeat_penalty" not in seen[2][0]  # other endpoints untouched (body passed through as is)
    lines = setup_lines("http://127.0.0.1:8080/v1", "qwen2.5-coder-0.5b")
    assert len(lines) == 3 and "KGRAG_LLM__BASE_URL=http://127.0.0.1:8080/v1" in lines[2]
