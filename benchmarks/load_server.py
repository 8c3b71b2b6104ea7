"""Load check of the HTTP server: N concurrent clients asking questions for D seconds (not a timed test).

Regenerate:  .venv/bin/python benchmarks/load_server.py [--clients 50] [--duration 60] [--endpoint ask|stream]
             [--llm fake|local] [--strategy hybrid] [--index PATH]
Without --index, the bundled sample documents are indexed into a temp folder with the hash embedder and
the chosen LLM (default: the fake LLM, so the numbers measure the server, retrieval and the LLM lock,
not a model). A `kgrag serve` child process is started on a free port; every client loops: POST /ask
(or /ask/stream, read to the `done` event) with the next sample question. Counts errors (non-200,
missing answer, transport errors), p50/p95/p99 latency, throughput; prints a table and writes
benchmarks/results/load_server.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import percentiles, print_table, write_json  # noqa: E402

from kgrag.config import Settings  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.server.background import serve_in_background  # noqa: E402


def sample_questions() -> list[str]:
    path = Path(str(resources.files("kgrag") / "samples" / "questions.jsonl"))
    return [json.loads(line)["question"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def build_index(root: Path, llm: str) -> Path:
    """The bundled samples indexed with the hash embedder and `llm` as the answering model."""
    settings = Settings()
    settings.embedder.provider = "hash"
    settings.llm.provider = llm
    with Index.init(root, settings=settings) as index:
        report = index.add([Path(str(resources.files("kgrag") / "samples" / "docs"))])
        print(f"indexed {report.indexed} sample documents ({report.chunks} chunks) into {root}", file=sys.stderr)
    return root


async def one_request(client: httpx.AsyncClient, endpoint: str, body: dict[str, Any]) -> tuple[bool, str, float]:
    """(ok, error text, time to first answer token or to the JSON answer) of one question."""
    start = time.perf_counter()
    if endpoint == "ask":
        r = await client.post("/ask", json=body)
        ok = r.status_code == 200 and bool(r.json().get("answer"))
        return ok, "" if ok else f"{r.status_code}: {r.text[:200]}", time.perf_counter() - start
    first_token = 0.0
    done = False
    async with client.stream("POST", "/ask/stream", json=body) as r:
        if r.status_code != 200:
            return False, f"{r.status_code}: {(await r.aread())[:200]!r}", 0.0
        async for line in r.aiter_lines():
            if line == "event: token" and not first_token:
                first_token = time.perf_counter() - start
            elif line == "event: error":
                return False, "error event", 0.0
            elif line == "event: done":
                done = True
    return done, "" if done else "stream ended without done", first_token


async def client_loop(
    url: str, endpoint: str, questions: list[str], offset: int, deadline: float, strategy: str | None, out: dict
) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(600.0)) as client:
        n = offset
        while time.perf_counter() < deadline:
            body = {"question": questions[n % len(questions)], "strategy": strategy}
            n += 1
            start = time.perf_counter()
            try:
                ok, error, first = await one_request(client, endpoint, body)
            except httpx.HTTPError as exc:
                ok, error, first = False, f"{type(exc).__name__}: {exc}", 0.0
            out["latency"].append(time.perf_counter() - start)
            if ok:
                out["first"].append(first)
            else:
                out["errors"].append(error)


async def run_load(url: str, args: argparse.Namespace, questions: list[str]) -> dict[str, Any]:
    out: dict[str, list] = {"latency": [], "first": [], "errors": []}
    start = time.perf_counter()
    deadline = start + args.duration
    await asyncio.gather(
        *(client_loop(url, args.endpoint, questions, i, deadline, args.strategy, out) for i in range(args.clients))
    )
    wall = time.perf_counter() - start
    lat = sorted(out["latency"])
    p50, p95 = percentiles(lat)
    f50, f95 = percentiles(out["first"])
    return {
        "endpoint": args.endpoint,
        "llm": args.llm,
        "strategy": args.strategy or "default",
        "clients": args.clients,
        "duration_s": args.duration,
        "wall_s": round(wall, 1),
        "requests": len(lat),
        "errors": len(out["errors"]),
        "error_samples": sorted(set(out["errors"]))[:5],
        "throughput_rps": round(len(lat) / wall, 1),
        "p50_ms": round(p50, 1),
        "p95_ms": round(p95, 1),
        "p99_ms": round(lat[min(len(lat) - 1, int(0.99 * (len(lat) - 1)))] * 1000, 1) if lat else 0.0,
        "max_ms": round(lat[-1] * 1000, 1) if lat else 0.0,
        "first_answer_p50_ms": round(f50, 1),
        "first_answer_p95_ms": round(f95, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="Seconds of load.")
    parser.add_argument("--endpoint", choices=["ask", "stream"], default="ask")
    parser.add_argument("--llm", choices=["fake", "local"], default="fake", help="Answering model of a new index.")
    parser.add_argument("--strategy", default=None, help="Retrieval strategy (default: the index's).")
    parser.add_argument("--index", type=Path, default=None, help="Serve this index instead of the samples.")
    args = parser.parse_args()
    questions = sample_questions()
    with tempfile.TemporaryDirectory(prefix="kgrag-load-") as tmp:
        root = args.index or build_index(Path(tmp) / "idx", args.llm)
        with serve_in_background(root, log_level="error") as url:
            httpx.post(url + "/ask", json={"question": questions[0]}, timeout=600).raise_for_status()  # warm-up
            print(f"{args.clients} clients x {args.duration:.0f} s against {url}/{args.endpoint} ...", file=sys.stderr)
            result = asyncio.run(run_load(url, args, questions))
    headers = ["endpoint", "llm", "clients", "requests", "errors", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms"]
    row = [
        result[k]
        for k in (
            "endpoint",
            "llm",
            "clients",
            "requests",
            "errors",
            "throughput_rps",
            "p50_ms",
            "p95_ms",
            "p99_ms",
            "max_ms",
        )
    ]
    print_table(headers, [row])
    if args.endpoint == "stream":
        print(
            f"time to first answer token: p50 {result['first_answer_p50_ms']} ms, p95 {result['first_answer_p95_ms']} ms"
        )
    print(json.dumps(result, indent=2))
    print(f"written to {write_json('load_server' if args.endpoint == 'ask' else 'load_server_stream', result)}")


if __name__ == "__main__":
    main()
