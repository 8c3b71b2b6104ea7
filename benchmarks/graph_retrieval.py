"""Issue 5 benchmark: graph retrieval strategies on the Arduino gold questions and on MuSiQue.

Regenerate:  .venv/bin/python benchmarks/graph_retrieval.py [--data ../shared/data] [--llm] [--skip-musique]
Arduino: arduino/docling_chunks as the corpus (MiniLM embedder), the `rules` graph (graph.build.build_graph),
every strategy on arduino/gold_dev.jsonl: gold-fact recall at λ=4k (overall and per question type) and
retrieval latency p50/p95. MuSiQue: corpus.txt one paragraph per chunk, the `rules` graph, Coverage of
qa_dev.json at λ=4k and 12k for khop, paths, kg-hybrid (hybrid as the chunk-only reference).
Without --llm the index uses the fake LLM, so advanced-* and kg-hybrid-rerank run their deterministic
fallbacks (rule keywords, fused order, lexical reranker); the table says so.
Indexes are cached in benchmarks/.cache/graph-arduino and graph-musique.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE, build_paragraph_index, data_dir, musique_paragraphs, musique_questions, percentiles, print_table, write_json  # noqa: E402,I001

from kgrag.config import Settings  # noqa: E402
from kgrag.evaluate.datasets import load_questions  # noqa: E402
from kgrag.evaluate.metrics import coverage, gold_fact_recall  # noqa: E402
from kgrag.graph.build import build_graph  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.retrieve.base import make_retriever  # noqa: E402

ARDUINO_STRATEGIES = ("naive", "hybrid", "advanced-sparse", "advanced-dense", "advanced-hybrid", "kg-dense",
                      "kg-hybrid", "kg-hybrid-rerank", "khop", "paths")
MUSIQUE_STRATEGIES = ("hybrid", "khop", "paths", "kg-hybrid")


def ensure_graph(index: Index) -> dict[str, float]:
    """Build the rules graph once (with entity vectors); seconds spent."""
    if index.store.count("entities"):
        return {"graph_s": 0.0}
    start = time.perf_counter()
    with index.write_lock():
        build_graph(index, "rules")
    return {"graph_s": time.perf_counter() - start}


def arduino_index(data: Path, use_llm: bool) -> tuple[Index, dict[str, float]]:
    settings = Settings()
    settings.embedder.provider = "minilm"
    settings.llm.provider = "local" if use_llm else "fake"
    index = Index.init(CACHE / "graph-arduino", settings=settings)
    times: dict[str, float] = {}
    if not index.store.count("chunks"):
        start = time.perf_counter()
        index.add([data / "arduino" / "docling_chunks"])
        times["add_s"] = time.perf_counter() - start
    times.update(ensure_graph(index))
    return index, times


def run(index: Index, strategy: str, question: str, budget: int) -> tuple[str, float, dict[str, Any]]:
    retriever = make_retriever(strategy, index)
    start = time.perf_counter()
    context = retriever.retrieve(question, budget)
    return context.text(), time.perf_counter() - start, context.info


def bench_arduino(data: Path, budget: int, use_llm: bool) -> dict[str, Any]:
    index, times = arduino_index(data, use_llm)
    questions = load_questions(data / "arduino" / "gold_dev.jsonl")
    rows, out = [], {"build": times, "counts": index.stats()["counts"], "strategies": {}}
    types = sorted({q.query_type for q in questions})
    for strategy in ARDUINO_STRATEGIES:
        recalls: dict[str, list[float]] = defaultdict(list)
        latencies = []
        fallback = ""
        for q in questions:
            text, seconds, info = run(index, strategy, q.question, budget)
            recall = gold_fact_recall(text, q.gold)
            recalls["all"].append(recall)
            recalls[q.query_type].append(recall)
            latencies.append(seconds)
            if info.get("rerank", "").startswith("fallback") or str(info.get("reranker", "")).startswith("lexical"):
                fallback = "fallback"
        p50, p95 = percentiles(latencies)
        means = {k: sum(v) / len(v) for k, v in recalls.items()}
        out["strategies"][strategy] = {"recall": means, "p50_ms": p50, "p95_ms": p95, "mode": fallback or "full"}
        rows.append([strategy + (" (fallback)" if fallback else ""), means["all"], *[means.get(t, 0.0) for t in types],
                     round(p50), round(p95)])
        print(f"{strategy}: {means['all']:.3f}", file=sys.stderr)
    print(f"\nArduino gold-fact recall at λ={budget} ({len(questions)} questions)")
    print_table(["strategy", "all", *types, "p50 ms", "p95 ms"], rows)
    index.close()
    return out


def bench_musique(data: Path, budgets: tuple[int, ...], limit: int) -> dict[str, Any]:
    index, times = build_paragraph_index(CACHE / "graph-musique", musique_paragraphs(data))
    times.update(ensure_graph(index))
    questions = musique_questions(data)[:limit]
    rows, out = [], {"build": times, "counts": index.stats()["counts"], "strategies": {}}
    for strategy in MUSIQUE_STRATEGIES:
        result: dict[str, Any] = {}
        latencies = []
        for budget in budgets:
            hits = 0.0
            for q in questions:
                text, seconds, _ = run(index, strategy, q["question"], budget)
                hits += coverage(text, q["answer"])
                latencies.append(seconds)
            result[f"coverage@{budget}"] = hits / len(questions)
        result["p50_ms"], result["p95_ms"] = percentiles(latencies)
        out["strategies"][strategy] = result
        rows.append([strategy, *[result[f"coverage@{b}"] for b in budgets], round(result["p50_ms"]), round(result["p95_ms"])])
        print(f"{strategy}: {result}", file=sys.stderr)
    print(f"\nMuSiQue Coverage ({len(questions)} questions)")
    print_table(["strategy", *[f"λ={b}" for b in budgets], "p50 ms", "p95 ms"], rows)
    index.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=None)
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument("--llm", action="store_true", help="use the local LLM (slow) instead of the fallbacks")
    parser.add_argument("--skip-musique", action="store_true")
    parser.add_argument("--skip-arduino", action="store_true")
    parser.add_argument("--musique-limit", type=int, default=150)
    args = parser.parse_args()
    data = data_dir(args.data)
    result: dict[str, Any] = {"llm": "local" if args.llm else "fake (deterministic fallbacks)"}
    if not args.skip_arduino:
        result["arduino"] = bench_arduino(data, args.budget, args.llm)
    if not args.skip_musique:
        result["musique"] = bench_musique(data, (4000, 12000), args.musique_limit)
    print(f"\nwrote {write_json('graph_retrieval', result)}")


if __name__ == "__main__":
    main()
