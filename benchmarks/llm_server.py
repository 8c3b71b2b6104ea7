"""Issue 18 benchmark: a second kgrag process against `kgrag llm serve` vs. loading the model in-process.

Regenerate:  nice -n 5 .venv/bin/python benchmarks/llm_server.py [--model qwen2.5-coder-0.5b] [--budget 300] [--runs 3]
Starts the model server and measures how long it takes to come up; then, per run, spawns a fresh Python process
doing what `kgrag ask` does (open the index of the packaged sample documents, MiniLM retrieval, the answer
prompt) but streamed, and one streaming a short message without retrieval, and records the time from spawn to the first answer token, split into process start
(imports + index open), retrieval, and the model's part (request → first token, i.e. prompt processing). The
same child with `[llm] provider = "local"` shows what each process pays without the server (loading the model).
Writes benchmarks/results/llm_server.json.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE, print_table, write_json  # noqa: E402

from kgrag.config import Settings  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.models.llm_server import ServeConfig, ServerProcess, free_port  # noqa: E402

QUESTION = "What is the pressure range of the Zephyr Nano's barometer?"
# The child: `kgrag ask` streamed, printing one JSON line of timestamps (seconds since the epoch).
CHILD = r"""
import json, sys, time
t_spawn = float(sys.argv[1])
from kgrag.answer import stream_answer
from kgrag.index import Index
t_import = time.time()
index = Index.open(sys.argv[2])
context = index.search(sys.argv[3], budget=int(sys.argv[4]))
t_context = time.time()
first = None
for event in stream_answer(index.llm, sys.argv[3], context, max_tokens=32):
    if event["event"] == "token" and first is None:
        first = time.time()
print(json.dumps({"spawn": t_spawn, "imported": t_import, "context": t_context, "first_token": first,
                  "done": time.time(), "answer": event["data"]["answer"]}))
"""


# The same without retrieval: one short chat message streamed from a fresh process (what model loading costs).
CHILD_TINY = r"""
import json, sys, time
t_spawn = float(sys.argv[1])
from kgrag.config import load_settings
from kgrag.models import make_llm
t_import = time.time()
llm = make_llm(load_settings().llm)
first = None
for piece in llm.stream([{"role": "user", "content": "Say hello."}], max_tokens=4):
    first = first or time.time()
print(json.dumps({"spawn": t_spawn, "imported": t_import, "context": t_import, "first_token": first,
                  "done": time.time(), "answer": piece}))
"""


def sample_index(path: Path) -> Path:
    """An index of the packaged sample documents (MiniLM, as `kgrag demo` builds), reused when present."""
    settings = Settings()
    with Index.init(path, settings=settings) as index:
        if index.store.count("chunks") == 0:
            index.add([Path(str(resources.files("kgrag") / "samples" / "docs"))])
    return path


def child_run(index: Path, budget: int, env: dict[str, str], tiny: bool = False) -> dict[str, float]:
    """One fresh process: seconds from spawn to import, context, first token and end, plus its CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    spawn = time.time()
    args = [CHILD_TINY, repr(spawn)] if tiny else [CHILD, repr(spawn), str(index), QUESTION, str(budget)]
    result = subprocess.run([sys.executable, "-c", *args], env={**os.environ, **env}, capture_output=True,
                            text=True, timeout=1800)
    if result.returncode != 0:
        raise SystemExit(f"child failed: {result.stderr[-2000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = json.loads(result.stdout.strip().splitlines()[-1])
    return {
        "start_s": t["imported"] - spawn,
        "retrieve_s": t["context"] - t["imported"],
        "model_first_token_s": t["first_token"] - t["context"],
        "ttft_s": t["first_token"] - spawn,
        "total_s": t["done"] - spawn,
        "child_cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "answer": t["answer"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--budget", type=int, default=300, help="context tokens of the answer prompt")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--index", default=str(CACHE / "llm-server-samples"))
    args = parser.parse_args()

    index = sample_index(Path(args.index))
    results: dict[str, list[dict[str, float]]] = {"server": [], "in-process": [], "server, short message": [],
                                                  "in-process, short message": []}
    local = {"KGRAG_LLM__PROVIDER": "local", "KGRAG_LLM__MODEL": args.model}
    with ServerProcess(ServeConfig(model=args.model, port=free_port())) as server:
        ready_s = server.ready_s
        served = {"KGRAG_LLM__PROVIDER": "openai", "KGRAG_LLM__BASE_URL": server.base_url,
                  "KGRAG_LLM__MODEL": args.model}
        for _ in range(args.runs):
            results["server"].append(child_run(index, args.budget, served))
            results["server, short message"].append(child_run(index, args.budget, served, tiny=True))
    for _ in range(args.runs):  # after the server stopped: the in-process runs do not compete with it
        results["in-process"].append(child_run(index, args.budget, local))
        results["in-process, short message"].append(child_run(index, args.budget, local, tiny=True))
    cols = ("start_s", "retrieve_s", "model_first_token_s", "ttft_s", "total_s", "child_cpu_s")
    rows = [[name, *(statistics.median(r[c] for r in runs) for c in cols)] for name, runs in results.items()]
    print(f"server up (model loaded) in {ready_s:.1f} s; medians of {args.runs} fresh processes each:")
    print_table(["LLM", *cols], rows)
    same = {r["answer"] for r in results["server"]} == {r["answer"] for r in results["in-process"]}
    print("short message: one fresh process streams `Say hello.` (no index, no retrieval)")
    print(f"same RAG answer through the server and in-process: {same}")
    write_json("llm_server", {"model": args.model, "budget": args.budget, "server_ready_s": ready_s,
                              "same_answer": same, "runs": results})


if __name__ == "__main__":
    main()
