"""Issue 13, default choice: `fused`, `trigraph`, `kg-facts` and `hybrid` on the Arduino dev questions.

Regenerate:  nice -n 10 .venv/bin/python benchmarks/fused_arduino.py [--data ../shared/data] [--budget 4000]
The index is the PDF corpus (arduino/documents) with the `datasheet` graph, as benchmarks/graph_retrieval.py
builds it (same cache folder, benchmarks/.cache/graph-arduino-pdf); this script adds the LLM-free stages
`fused` needs (keywords, KNN, core, sub-chunks, keyword graph, tri-graph) and times them in CPU seconds.
Gold-fact recall at λ (overall and per question type); latency per question with the question embedding
included (uncached embedder), CPU and wall p50/p95.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # 2 shared cores: BLAS threads only spin; set before numpy loads

from common import data_dir, percentiles, print_table, write_json  # noqa: E402
from graph_retrieval import arduino_index  # noqa: E402
from multihop_musique import cpu_seconds, run_stage, strategy_spec  # noqa: E402

from kgrag.evaluate.datasets import load_questions  # noqa: E402
from kgrag.evaluate.metrics import gold_fact_recall  # noqa: E402

STRATEGIES = ("hybrid", "kg-facts", "trigraph", "fused:hop2_weight=0", "fused")
STAGES = ("keywords", "knn", "core", "subchunks", "keyword-graph", "trigraph")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="shared data folder (default ../shared/data or $KGRAG_DATA)")
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    args = parser.parse_args()
    data = data_dir(args.data)
    index, build = arduino_index(data, "pdf", "datasheet", use_llm=False)
    with index.write_lock():
        stage_cpu = {name: round(run_stage(index, name), 1) for name in STAGES}
    print(f"stages (CPU s): {stage_cpu}", flush=True)
    index.__dict__["embedder"] = getattr(index.embedder, "inner", index.embedder)  # no cached question vectors
    questions = load_questions(data / "arduino" / "gold_dev.jsonl")
    types = sorted({q.query_type for q in questions})
    results: dict[str, Any] = {}
    rows = []
    for spec in args.strategies.split(","):  # `name:key=value&...` as in multihop_musique.py
        strategy, options = strategy_spec(spec)
        index.search("warm-up", strategy=strategy, budget=args.budget, **options)
        recalls: dict[str, list[float]] = defaultdict(list)
        wall, cpu = [], []
        for q in questions:
            c0, t0 = cpu_seconds(), time.perf_counter()
            ctx = index.search(q.question, strategy=strategy, budget=args.budget, **options)
            wall.append(time.perf_counter() - t0)
            cpu.append(cpu_seconds() - c0)
            r = gold_fact_recall(ctx.text(), q.gold)
            recalls["all"].append(r)
            recalls[q.query_type].append(r)
        means = {k: round(sum(v) / len(v), 3) for k, v in recalls.items()}
        (p50, p95), (c50, c95) = percentiles(wall), percentiles(cpu)
        results[spec] = {"recall": means, "p50_ms": round(p50, 1), "p95_ms": round(p95, 1),
                             "cpu_p50_ms": round(c50, 1), "cpu_p95_ms": round(c95, 1)}
        rows.append([spec, means["all"], *[means.get(t, 0.0) for t in types], round(p50), round(p95), round(c50), round(c95)])
        print(f"  {spec}: {results[spec]}", flush=True)
    print(f"\nArduino PDFs, gold-fact recall at λ={args.budget} ({len(questions)} dev questions)")
    print_table(["strategy", "all", *types, "p50 ms", "p95 ms", "CPU p50", "CPU p95"], rows)
    out = {"budget": args.budget, "questions": len(questions), "results": results, "stage_cpu_s": stage_cpu, "build": build}
    print(f"wrote {write_json('fused_arduino', out)}")


if __name__ == "__main__":
    main()
