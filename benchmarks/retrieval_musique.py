"""Issue 2 benchmark: dense vs sparse vs hybrid Coverage on MuSiQue at λ = 1k/4k/12k, indexing and latency.

Regenerate:  .venv/bin/python benchmarks/retrieval_musique.py [--data ../shared/data] [--limit 150]
Coverage = share of questions whose gold answer string appears (case-insensitively) in the retrieved
context (KET-RAG's metric; cl100k token budgets).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common as bench  # noqa: E402  (the shared benchmark helpers)

STRATEGIES = ("dense", "sparse", "hybrid")
BUDGETS = (1000, 4000, 12000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="shared data folder (default ../shared/data or $KGRAG_DATA)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--index", default=str(bench.CACHE / "musique-minilm"), help="index folder (reused if built)")
    parser.add_argument("--rebuild", action="store_true", help="delete and rebuild the index to time indexing")
    args = parser.parse_args()

    data = bench.data_dir(args.data)
    paragraphs = bench.musique_paragraphs(data)
    questions = bench.musique_questions(data)[: args.limit or None]
    if args.rebuild:
        import shutil

        shutil.rmtree(args.index, ignore_errors=True)
    index, build = bench.build_paragraph_index(Path(args.index), paragraphs)
    print(f"index: {len(paragraphs)} paragraphs, build {build['index_s']:.1f} s (embedder {build['embed_s']:.1f} s)"
          + (" [reused: pass --rebuild to time indexing]" if build["reused"] else ""))

    rows, results = [], {}
    for strategy in STRATEGIES:
        coverage, latencies = {}, []
        for budget in BUDGETS:
            hits = 0
            for q in questions:
                start = time.perf_counter()
                context = index.search(q["question"], strategy=strategy, budget=budget)
                latencies.append(time.perf_counter() - start)
                hits += q["answer"].lower() in context.text().lower()
            coverage[budget] = 100.0 * hits / len(questions)
        p50, p95 = bench.percentiles(latencies)
        results[strategy] = {"coverage": coverage, "latency_ms_p50": p50, "latency_ms_p95": p95}
        rows.append([strategy, *(coverage[b] for b in BUDGETS), p50, p95])
    print(f"\nMuSiQue, {len(questions)} questions, one paragraph per chunk, all-MiniLM-L6-v2 int8")
    bench.print_table(["strategy", "Cov@1k %", "Cov@4k %", "Cov@12k %", "p50 ms", "p95 ms"], rows)
    out = bench.write_json("retrieval_musique", {"questions": len(questions), "paragraphs": len(paragraphs), "build": build,
                                          "strategies": results})
    print(f"\nwrote {out}")


if __name__ == "__main__":
    main()
