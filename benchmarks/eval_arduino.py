"""Issue 6 benchmark: `kgrag eval` over the Arduino docling chunks, every strategy, retrieval metrics only.

Regenerate:  .venv/bin/python benchmarks/eval_arduino.py [--data ../shared/data] [--budget 4000] [--rebuild]
Builds (or reuses) an index of arduino/docling_chunks with the MiniLM embedder, the `rules` graph
extractor and the fake LLM (no LLM calls: HyDE falls back to the question, community summaries are
the deterministic profile summaries), runs every default indexing stage, then evaluates
arduino/gold_dev.jsonl. Writes the report, log and plots to benchmarks/results/eval_arduino/ and
the summary to benchmarks/results/eval_arduino.json.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE, RESULTS, data_dir, print_table, write_json  # noqa: E402

from kgrag.config import Settings  # noqa: E402
from kgrag.evaluate.pipeline import run_evaluation  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.stages import all_stages  # noqa: E402


def build_index(path: Path, chunks_dir: Path, rebuild: bool) -> dict[str, float]:
    """The benchmark index (reused when it exists); seconds per indexing step."""
    if rebuild and path.exists():
        shutil.rmtree(path)
    fresh = not path.exists()
    settings = Settings()
    settings.embedder.provider = "minilm"
    settings.llm.provider = "fake"
    settings.graph.extractor = "rules"
    index = Index.init(path, settings=settings)
    times: dict[str, float] = {}
    start = time.perf_counter()
    report = index.add([chunks_dir])
    times["add"] = time.perf_counter() - start
    if report.errors:
        print(f"ingest errors: {[str(e) for e in report.errors[:3]]}", file=sys.stderr)
    for stage in all_stages():
        if stage.default:
            start = time.perf_counter()
            with index.write_lock():
                stage.run(index, _null())
            times[stage.name] = time.perf_counter() - start
            print(f"stage {stage.name}: {times[stage.name]:.1f} s", file=sys.stderr)
    index.close()
    times["fresh"] = float(fresh)
    return times


def _null():  # noqa: ANN202 - tiny local helper
    from kgrag.progress import NullProgress

    return NullProgress()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="shared data folder (default ../shared/data or $KGRAG_DATA)")
    parser.add_argument("--index", default=str(CACHE / "arduino-eval"), help="index folder (reused if built)")
    parser.add_argument("--budget", type=int, default=4000)
    parser.add_argument("--strategies", default="all")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--rebuild", action="store_true", help="delete and rebuild the index to time indexing")
    args = parser.parse_args()

    data = data_dir(args.data)
    start = time.perf_counter()
    times = build_index(Path(args.index), data / "arduino" / "docling_chunks", args.rebuild)
    index_s = time.perf_counter() - start
    out = RESULTS / "eval_arduino"
    start = time.perf_counter()
    with Index.open(args.index) as index:
        summaries = run_evaluation(
            index,
            data / "arduino" / "gold_dev.jsonl",
            [s.strip() for s in args.strategies.split(",")],
            out,
            budget=args.budget,
            limit=args.limit or None,
        )
    eval_s = time.perf_counter() - start
    cols = ("n", "coverage", "gold_fact_recall", "context_tokens", "latency_s")
    rows = [[name, *[row.get(c, "") for c in cols]] for name, row in summaries["overall"].items()]
    print_table(["strategy", *cols], rows)
    for qtype, group in summaries["by_type"].items():
        print(f"\n{qtype}")
        print_table(["strategy", "coverage", "gold_fact_recall"],
                    [[s, r.get("coverage", ""), r.get("gold_fact_recall", "")] for s, r in group.items()])
    if summaries["errors"]:
        print("\nerrors:", {s: e[:1] for s, e in summaries["errors"].items()})
    print(f"\nindexing {index_s:.1f} s (stages: {', '.join(f'{k} {v:.1f}' for k, v in times.items())}); "
          f"evaluation {eval_s:.1f} s; report {out / 'report.md'}")
    write_json("eval_arduino", {"budget": args.budget, "index_seconds": index_s, "eval_seconds": eval_s,
                                "stage_seconds": times, **summaries})


if __name__ == "__main__":
    main()
