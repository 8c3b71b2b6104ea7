"""A shared local model server: llama-cpp-python's own OpenAI-compatible server over a packaged GGUF model.

One process loads the model once; every kgrag process (CLI, web server, evaluation) reaches it with
`[llm] provider = "openai"` and `base_url`. Two things are added to llama-cpp-python's app, so temperature-0
answers through the server equal the in-process ones: a small middleware giving requests kgrag's in-process
sampling defaults, and the in-process KV-cache rule (only the prompt's head is reused, so a reply does not
depend on the request before it). `ServerProcess` starts and stops such a server in a child process
(tests, benchmarks).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from kgrag.errors import ModelError
from kgrag.models.base import usable_threads
from kgrag.models.gguf import DEFAULT_QUANT, resolve_model
from kgrag.models.local_llm import LoadedLlama, keep_prompt_head

DEFAULT_PORT = 8080
# llama-cpp-python's server defaults repeat_penalty to 1.1; kgrag's in-process calls use 1.0 (JSON repeats keys).
REQUEST_DEFAULTS: dict[str, Any] = {"repeat_penalty": 1.0}
_COMPLETION_PATHS = ("/chat/completions", "/completions")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def _import_server() -> Any:
    try:
        import llama_cpp.server.app as server_app
    except ImportError as exc:
        raise ModelError("`kgrag llm serve` needs llama-cpp-python's server extra: "
                         f"pip install 'llama-cpp-python[server]' ({exc})") from exc
    return server_app


class RequestDefaults:
    """ASGI middleware: fills completion-request fields the client left out with `defaults`."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], defaults: dict[str, Any]) -> None:
        self.app = app
        self.defaults = defaults

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST" or not str(scope.get("path", "")).endswith(
                _COMPLETION_PATHS):
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        try:
            data = json.loads(body)
            if isinstance(data, dict):
                for key, value in self.defaults.items():
                    data.setdefault(key, value)
                body = json.dumps(data).encode()
        except ValueError:
            pass  # llama-cpp-python reports the malformed body itself
        replayed = False

        async def replay() -> MutableMapping[str, Any]:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # later calls wait for the client's disconnect

        headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await self.app({**scope, "headers": headers}, replay, send)


def _reuse_prompt_heads_only(llama: Any) -> None:
    """Give the served model the in-process KV-cache rule (local_llm.keep_prompt_head) for chat requests.

    llama-cpp-python reuses the longest cached prefix of the previous request, so the same request got slightly
    other logits, and at times another reply, after another request. Its streaming handler calls
    `Llama.create_chat_completion` on the class, so the rule is installed there, for marked instances only."""
    import llama_cpp

    llama._kgrag_loaded = LoadedLlama(llama)
    create = llama_cpp.Llama.create_chat_completion
    if getattr(create, "_kgrag_head_rule", False):
        return

    def create_chat_completion(self: Any, messages: Any, *args: Any, **kwargs: Any) -> Any:
        loaded = getattr(self, "_kgrag_loaded", None)
        if loaded is not None and messages:
            with contextlib.suppress(ValueError):  # a prompt over the context: llama-cpp-python says so itself
                keep_prompt_head(loaded, messages)
        return create(self, messages, *args, **kwargs)

    create_chat_completion._kgrag_head_rule = True  # type: ignore[attr-defined]
    llama_cpp.Llama.create_chat_completion = create_chat_completion


@dataclass
class ServeConfig:
    """What `kgrag llm serve` runs: which model, where, and the llama.cpp context settings."""

    model: str = "qwen2.5-coder-0.5b"  # a registry name (see models/gguf.py) or a path to a .gguf file
    quant: str = DEFAULT_QUANT  # weight format of a registry model (models/gguf.py QUANTS)
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    n_ctx: int = 4096
    threads: int = 1  # generation threads: 1 is fastest on small shared CPUs
    batch_threads: int = 0  # prompt-processing threads; 0 = the CPUs available, at most 4 (base.usable_threads)
    flash_attn: bool = True  # llama.cpp flash attention (prompt ~15% faster on CPU)
    # also serve /v1/embeddings (mean-pooled) from the same model; slows prompt processing, as llama.cpp
    # then computes outputs for every prompt token
    embeddings: bool = False

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL clients use."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}/v1"


def _architecture(path: Path) -> str:
    """The GGUF's `general.architecture` (read from the vocabulary-only load, no weights)."""
    from llama_cpp import Llama

    return str(Llama(model_path=str(path), vocab_only=True, verbose=False).metadata["general.architecture"])


def create_server_app(config: ServeConfig) -> tuple[Any, str]:
    """(ASGI app, model alias): llama-cpp-python's server app for the model, wrapped in RequestDefaults."""
    server_app = _import_server()
    from llama_cpp.server.settings import ModelSettings, ServerSettings

    name, path = resolve_model(config.model, quant=config.quant)
    model_settings = ModelSettings(
        model=str(path), model_alias=name, n_ctx=config.n_ctx, n_threads=config.threads,
        n_threads_batch=usable_threads(config.batch_threads), flash_attn=config.flash_attn,
        embedding=config.embeddings, verbose=False,
        kv_overrides=[f"{_architecture(path)}.pooling_type=int:1"] if config.embeddings else None,
    )
    # interrupt_requests=False: a request from another client must not cut a running stream short
    server_settings = ServerSettings(host=config.host, port=config.port, interrupt_requests=False)
    app = server_app.create_app(server_settings=server_settings, model_settings=[model_settings])
    proxy = getattr(server_app, "_llama_proxy", None)  # llama-cpp-python 0.3's loaded model (not public API)
    if proxy is None:
        raise ModelError("llama-cpp-python's server has no _llama_proxy: this llama-cpp-python version is not "
                         "supported by `kgrag llm serve` (0.3.x is)")
    _reuse_prompt_heads_only(proxy())
    return RequestDefaults(app, REQUEST_DEFAULTS), name


def setup_lines(base_url: str, model: str) -> list[str]:
    """The three lines telling a user how to point kgrag at a running model server."""
    return [
        f"serving {model} at {base_url} (OpenAI-compatible; one loaded model shared by every client)",
        f'index setting (kgrag.toml): [llm] provider = "openai"  base_url = "{base_url}"  model = "{model}"',
        f"or per process: KGRAG_LLM__PROVIDER=openai KGRAG_LLM__BASE_URL={base_url} KGRAG_LLM__MODEL={model} "
        "kgrag ask \"...\"",
    ]


def serve(config: ServeConfig, *, log_level: str = "warning", announce: Callable[[str], None] = print) -> None:
    """Load the model and serve until interrupted (blocking)."""
    import uvicorn

    app, name = create_server_app(config)
    for line in setup_lines(config.base_url, name):
        announce(line)
    uvicorn.run(app, host=config.host, port=config.port, log_level=log_level)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def server_ready(base_url: str, timeout_s: float = 2.0) -> bool:
    """Whether a model server answers GET {base_url}/models."""
    try:
        return httpx.get(f"{base_url.rstrip('/')}/models", timeout=timeout_s).status_code == 200
    except httpx.HTTPError:
        return False


class ServerProcess:
    """`kgrag llm serve` in a child process: start (waiting until it answers), kill, restart, stop."""

    def __init__(self, config: ServeConfig, *, log_path: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.config = config
        self.log_path = log_path
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.ready_s = 0.0  # seconds from spawn until the server answered, for the last start

    @property
    def base_url(self) -> str:
        return self.config.base_url

    def command(self) -> list[str]:
        c = self.config
        cmd = [sys.executable, "-m", "kgrag", "llm", "serve", "--model", c.model, "--quant", c.quant, "--host", c.host,
               "--port", str(c.port), "--n-ctx", str(c.n_ctx), "--threads", str(c.threads),
               "--batch-threads", str(c.batch_threads), "--flash-attn" if c.flash_attn else "--no-flash-attn"]
        return cmd + (["--embeddings"] if c.embeddings else [])

    def start(self, timeout_s: float = 120.0) -> ServerProcess:
        """Spawn the server and wait until it answers; ModelError with its log tail if it does not."""
        if self.process is not None and self.process.poll() is None:
            return self
        out = self.log_path.open("ab") if self.log_path else subprocess.DEVNULL
        start = time.perf_counter()
        self.process = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT,
                                        env={**os.environ, **(self.env or {})})
        while time.perf_counter() - start < timeout_s:
            if self.process.poll() is not None:
                raise ModelError(f"model server exited with code {self.process.returncode}: {self._log_tail()}")
            if server_ready(self.base_url, timeout_s=1.0):
                self.ready_s = time.perf_counter() - start
                return self
            time.sleep(0.2)
        self.stop()
        raise ModelError(f"model server did not answer at {self.base_url} within {timeout_s:g} s: {self._log_tail()}")

    def _log_tail(self) -> str:
        if self.log_path and self.log_path.is_file():
            return self.log_path.read_text(encoding="utf-8", errors="replace")[-1500:]
        return "(no log)"

    def kill(self) -> None:
        """SIGKILL the server (a crash, as the retry tests need) and reap it."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=30)

    def stop(self) -> None:
        """Terminate the server gracefully (kill after 10 s)."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
