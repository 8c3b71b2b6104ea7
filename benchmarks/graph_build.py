"""Graph construction on the Arduino docling chunks: `rules` over all chunks, `llm` on a sample.

Regenerate:  .venv/bin/python benchmarks/graph_build.py --sample 50      (add --skip-llm for rules only)
Prints a table and writes benchmarks/results/graph_build.json. Data: --data, else $KGRAG_DATA, else ../shared/data.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kgrag.config import Settings
from kgrag.errors import BudgetExceeded
from kgrag.graph.build import build_graph
from kgrag.graph.estimate import estimate_build
from kgrag.graph.export import graph_stats
from kgrag.graph.resolve import resolve_entities
from kgrag.index import Index

REPO = Path(__file__).resolve().parent.parent


def data_dir(arg: str | None) -> Path:
    return Path(arg or os.environ.get("KGRAG_DATA") or REPO.parent / "shared" / "data")


def make_index(root: Path, chunks_dir: Path, embedder: str, files: str = "*.jsonl") -> tuple[Index, float]:
    settings = Settings()
    settings.embedder.provider = embedder
    index = Index.init(root, settings=settings)
    start = time.perf_counter()
    report = index.add(sorted(chunks_dir.glob(files)))
    assert report.indexed, report.errors
    print(f"ingested {report.chunks} chunks in {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)
    return index, time.perf_counter() - start


def run_rules(index: Index) -> dict[str, Any]:
    start = time.perf_counter()
    report = build_graph(index, "rules")
    total = time.perf_counter() - start
    before = graph_stats(index.store)
    start = time.perf_counter()
    resolved = resolve_entities(index.store)
    resolve_s = time.perf_counter() - start
    after = graph_stats(index.store)
    return {
        "chunks": report.processed,
        "extract_seconds": round(report.seconds, 1),
        "total_seconds_with_entity_vectors": round(total, 1),
        "ms_per_chunk": round(1000 * report.seconds / max(1, report.processed), 1),
        "resolve_seconds": round(resolve_s, 2),
        "entities_before_resolution": resolved.entities_before,
        "entities_after_resolution": resolved.entities_after,
        "merges": len(resolved.merges),
        "stats_before": before,
        "stats_after": after,
    }


def run_llm(index: Index, sample: int) -> dict[str, Any]:
    total = len(index.store.chunk_ids())
    beta = sample / total
    estimate = estimate_build(index, "llm", budget=beta)
    start = time.perf_counter()
    try:
        report = build_graph(index, "llm", budget=beta, method="uniform", embed=False)
    except BudgetExceeded as exc:
        report = exc.report  # type: ignore[attr-defined]
    wall = time.perf_counter() - start
    n = max(1, report.processed + report.failed)
    resolved = resolve_entities(index.store)
    return {
        "model": f"{index.settings.llm.provider}:{index.settings.llm.model}",
        "chunks": report.processed + report.failed,
        "failed": report.failed,
        "llm_calls": report.llm_calls,
        "prompt_tokens": report.prompt_tokens,
        "completion_tokens": report.completion_tokens,
        "tokens_per_chunk": round((report.prompt_tokens + report.completion_tokens) / n, 1),
        "completion_tokens_per_chunk": round(report.completion_tokens / n, 1),
        "seconds_per_chunk": round(wall / n, 1),
        "entity_mentions": report.entities,
        "relation_mentions": report.relations,
        "dropped_by_validation": report.dropped,
        "estimate": estimate,
        "entities_before_resolution": resolved.entities_before,
        "entities_after_resolution": resolved.entities_after,
        "stats": graph_stats(index.store),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None)
    parser.add_argument("--sample", type=int, default=50, help="Chunks for the LLM extractor (uniform sample).")
    parser.add_argument("--skip-llm", action="store_true")
    parser.add_argument("--skip-rules", action="store_true")
    parser.add_argument("--suffix", default="", help="Appended to the result file name (e.g. _llm10).")
    parser.add_argument("--files", default="*.jsonl", help="Glob of the chunk files to ingest.")
    parser.add_argument("--embedder", default="hash", help="Entity vectors: hash (fast) or minilm (real).")
    args = parser.parse_args()
    chunks_dir = data_dir(args.data) / "arduino" / "docling_chunks"
    out: dict[str, Any] = {"data": str(chunks_dir), "embedder": args.embedder}
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_rules:
            index, ingest_s = make_index(Path(tmp) / "rules", chunks_dir, args.embedder, args.files)
            out["ingest_seconds"] = round(ingest_s, 1)
            out["rules"] = run_rules(index)
            index.close()
        if not args.skip_llm:
            index, _ = make_index(Path(tmp) / "llm", chunks_dir, args.embedder, args.files)
            out["llm"] = run_llm(index, args.sample)
            index.close()
    results = REPO / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / f"graph_build{args.suffix}.json").write_text(json.dumps(out, indent=2, default=str))
    rows = []
    if "rules" in out:
        r = out["rules"]
        rows += [("rules: chunks", r["chunks"]), ("rules: extract s", r["extract_seconds"]),
                 ("rules: ms/chunk", r["ms_per_chunk"]), ("rules: nodes (before resolve)", r["entities_before_resolution"]),
                 ("rules: nodes (after resolve)", r["entities_after_resolution"]), ("rules: edges", r["stats_after"]["edges"]),
                 ("rules: relation types", r["stats_after"]["relation_types"]), ("rules: orphans", r["stats_after"]["orphans"]),
                 ("rules: duplicate candidates left", r["stats_after"]["duplicate_candidates"])]
    if "llm" in out:
        r = out["llm"]
        rows += [("llm: model", r["model"]), ("llm: chunks", r["chunks"]), ("llm: failed", r["failed"]),
                 ("llm: tokens/chunk", r["tokens_per_chunk"]), ("llm: estimated tokens/chunk", r["estimate"]["tokens_per_chunk"]),
                 ("llm: s/chunk", r["seconds_per_chunk"]), ("llm: nodes before/after resolve",
                 f"{r['entities_before_resolution']}/{r['entities_after_resolution']}"), ("llm: edges", r["stats"]["edges"])]
    width = max(len(k) for k, _ in rows) if rows else 0
    for key, value in rows:
        print(f"{key:<{width}}  {value}")


if __name__ == "__main__":
    main()
