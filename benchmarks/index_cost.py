"""Issue 14 benchmark: the cost of a full LLM-free `kgrag index` — per stage wall/CPU time, ratio to embedding
time, index size on disk and peak RSS — plus MuSiQue coverage (hybrid, ket at 4k/12k), before vs after.

Regenerate (one process per corpus and code version; each builds its index from scratch):
  PYTHONPATH=src .venv/bin/python benchmarks/index_cost.py --corpus musique --label after
  PYTHONPATH=src .venv/bin/python benchmarks/index_cost.py --corpus arduino --label after
  # the "before" numbers: the same script against the old code (commit 25a90da) in a second worktree
  git worktree add --detach ../i14-before 25a90da
  PYTHONPATH=../i14-before/src .venv/bin/python benchmarks/index_cost.py --corpus musique --label before
  .venv/bin/python benchmarks/index_cost.py --compare      # the side-by-side table from the JSON results
  (--paragraphs N: only the first N MuSiQue paragraphs, for a shorter run on a loaded machine)
MuSiQue: 6,761 paragraphs, one chunk each (benchmarks/common.py build_paragraph_index); Arduino: the datasheet
PDFs under <data>/arduino/documents through `index.add`. MiniLM embeddings, every default stage with the default
extractor (`--extractor rules` for the old one), then `compact` (cache emptied, VACUUM); no LLM call
(the LLM provider is set to `fake` so that the old code's communities stage also writes extractive summaries).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (  # noqa: E402
    CACHE,
    RESULTS,
    TimedEmbedder,
    build_paragraph_index,
    data_dir,
    musique_paragraphs,
    musique_questions,
    print_table,
    write_json,
)

from kgrag.config import Settings  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.progress import NullProgress  # noqa: E402

STAGES = ("keywords", "knn", "core", "subchunks", "keyword-graph", "trigraph", "graph", "skeleton", "communities",
          "compact")
RECALL = ("hybrid", "kg-facts", "kg-hybrid")
COVERAGE = tuple((s, b) for s in ("hybrid", "ket", "fused", "kg-hybrid") for b in (4000, 12000))
ISSUE_BEFORE = {"musique": {"add_s": 151.0, "stages_s": 16 * 60.0, "size_mb": 1300.0, "peak_rss_mb": 2200.0},
                "arduino": {"stages_s": 17 * 60.0}}  # as reported in issue 14 (Arduino stages incl. no LLM)


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def folder_mb(path: Path) -> dict[str, float]:
    """Size of every file in the index folder (MB) and the total."""
    sizes = {p.name: round(p.stat().st_size / 1e6, 1) for p in path.iterdir() if p.is_file()}
    sizes["total"] = round(sum(v for k, v in sizes.items()), 1)
    return sizes


def table_mb(db: Path) -> dict[str, float]:
    """MB per table and index of an SQLite file (the `dbstat` virtual table), largest first; vectors per kind."""
    import sqlite3

    if not db.exists():
        return {}
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall()
        kinds = conn.execute("SELECT kind, count(*), sum(length(vec)) FROM vectors GROUP BY kind").fetchall()
    except sqlite3.Error:
        return {}
    finally:
        conn.close()
    out = {name: round(size / 1e6, 1) for name, size in rows if size >= 1e5}
    out.update({f"vectors:{kind} ({n} rows, payload)": round(size / 1e6, 1) for kind, n, size in kinds})
    return out


def build(corpus: str, data: Path, root: Path, paragraphs: int = 0) -> tuple[Index, dict[str, Any]]:
    """A fresh index of `corpus` (MuSiQue: the first `paragraphs`, 0 = all); seconds of `add` and its embedding."""
    shutil.rmtree(root, ignore_errors=True)
    cpu0, start = _cpu(), time.perf_counter()
    if corpus == "musique":
        index, t = build_paragraph_index(root, musique_paragraphs(data)[: paragraphs or None])
        embed_s = t["embed_s"]
    else:
        index = Index.init(root, settings=Settings())
        timed = TimedEmbedder(index.embedder)
        index.__dict__["embedder"] = timed
        report = index.add([data / "arduino" / "documents"], progress=NullProgress())
        print(f"  added {report.added} documents, {report.chunks} chunks, {len(report.errors)} errors", flush=True)
        embed_s = timed.seconds
    add = {"wall_s": round(time.perf_counter() - start, 1), "cpu_s": round(_cpu() - cpu0, 1),
           "embed_s": round(embed_s, 1), "chunks": index.store.count("chunks"), "peak_rss_mb": round(_rss_mb())}
    return index, add


def run_stages(index: Index, embed_s: float) -> dict[str, dict[str, float]]:
    """Every LLM-free stage in order, timed (wall, CPU, embedding inside it), with the ratio to `embed_s`."""
    from kgrag.stages import all_stages

    index.settings.llm.provider = "fake"  # no LLM anywhere (the old communities stage summarises otherwise)
    timed = index.embedder if isinstance(index.embedder, TimedEmbedder) else TimedEmbedder(index.embedder)
    index.__dict__["embedder"] = timed
    out: dict[str, dict[str, float]] = {}
    for stage in all_stages():
        if not stage.default:
            continue
        e0, cpu0, start = timed.seconds, _cpu(), time.perf_counter()
        stage.run(index, NullProgress())
        for method in ("reclaim_space", "drop_vector_cache"):  # what `kgrag index` does after a stage (if present)
            release = getattr(index.store, method, None)
            if callable(release):
                release()
        wall = time.perf_counter() - start
        out[stage.name] = {"wall_s": round(wall, 1), "cpu_s": round(_cpu() - cpu0, 1),
                           "embed_s": round(timed.seconds - e0, 1), "ratio": round(wall / max(embed_s, 1e-9), 2),
                           "peak_rss_mb": round(_rss_mb())}
        print(f"  stage {stage.name}: {out[stage.name]}", flush=True)
    try:  # what a complete `kgrag index` does at the end (this code version's, if it has it)
        from kgrag.cli.index_run import compact_index
    except ImportError:
        return out
    index.__dict__["embedder"] = timed.inner
    cpu0, start = _cpu(), time.perf_counter()
    compact_index(index)
    out["compact"] = {"wall_s": round(time.perf_counter() - start, 1), "cpu_s": round(_cpu() - cpu0, 1),
                      "embed_s": 0.0, "ratio": round((time.perf_counter() - start) / max(embed_s, 1e-9), 2),
                      "peak_rss_mb": round(_rss_mb())}
    print(f"  stage compact: {out['compact']}", flush=True)
    return out


def measure_coverage(index: Index, data: Path, limit: int) -> dict[str, float]:
    """Coverage (gold answer string in the context) of hybrid and ket at 4k/12k on the MuSiQue dev questions."""
    from kgrag.evaluate.metrics import coverage

    questions = musique_questions(data)[: limit or None]
    out = {}
    for strategy, budget in COVERAGE:
        hits = sum(coverage(index.search(q["question"], strategy=strategy, budget=budget).text(), q["answer"])
                   for q in questions)
        out[f"{strategy}@{budget // 1000}k"] = round(hits / len(questions), 4)
    return out


def measure_recall(index: Index, data: Path, limit: int) -> dict[str, float]:
    """Arduino gold-fact recall at 4k of hybrid, kg-facts and kg-hybrid on arduino/gold_dev.jsonl."""
    from kgrag.evaluate.datasets import load_questions
    from kgrag.evaluate.metrics import gold_fact_recall

    questions = load_questions(data / "arduino" / "gold_dev.jsonl")[: limit or None]
    return {f"{s}@4k": round(sum(gold_fact_recall(index.search(q.question, strategy=s, budget=4000).text(), q.gold)
                                 for q in questions) / len(questions), 4) for s in RECALL}


def run(corpus: str, label: str, data: Path, limit: int, paragraphs: int = 0, extractor: str = "") -> dict[str, Any]:
    name = f"{corpus}{paragraphs or ''}{'-' + extractor if extractor else ''}"
    root = CACHE / "index_cost" / f"{name}-{label}"
    print(f"{name} ({label}): building {root}", flush=True)
    index, add = build(corpus, data, root, paragraphs)
    print(f"  add: {add}", flush=True)
    if extractor:
        index.settings.graph.extractor = extractor
    start = time.perf_counter()
    stages = run_stages(index, add["embed_s"])
    total = {"wall_s": round(time.perf_counter() - start, 1), "cpu_s": round(sum(s["cpu_s"] for s in stages.values()), 1)}
    total["ratio"] = round(total["wall_s"] / max(add["embed_s"], 1e-9), 2)
    total["cpu_ratio"] = round(total["cpu_s"] / max(add["embed_s"], 1e-9), 2)
    peak = round(_rss_mb())
    index.close()
    result = {"corpus": name, "label": label, "add": add, "stages": stages, "stages_total": total,
              "size_mb": folder_mb(root), "tables_mb": table_mb(root / "index.sqlite"), "peak_rss_mb": peak}
    if limit < 0:  # --limit -1: cost only
        pass
    elif corpus == "musique":
        result["coverage"] = measure_coverage(Index.open(root), data, limit)
    else:
        result["coverage"] = measure_recall(Index.open(root), data, limit)
    print(json.dumps(result, indent=1))
    write_json(f"index_cost_{name}_{label}", result)
    return result


def compare() -> None:
    """The side-by-side table of every stored before/after result, with the issue's reported numbers."""
    for corpus in sorted({p.name.split("_")[2] for p in RESULTS.glob("index_cost_*_*.json")}):
        runs = {}
        for label in ("before", "after"):
            path = RESULTS / f"index_cost_{corpus}_{label}.json"
            if path.exists():
                runs[label] = json.loads(path.read_text(encoding="utf-8"))
        if not runs:
            continue
        labels = list(runs)
        print(f"\n{corpus}: wall s / CPU s / ratio of wall to the embedding time of `add`")
        rows: list[list[Any]] = []
        rows.append(["add (embed s)"] + [f"{r['add']['wall_s']} / {r['add']['cpu_s']} ({r['add']['embed_s']})"
                                         for r in runs.values()])
        for stage in STAGES:
            rows.append([stage] + [(f"{r['stages'][stage]['wall_s']} / {r['stages'][stage]['cpu_s']} / "
                                    f"{r['stages'][stage]['ratio']}×") if stage in r["stages"] else "-"
                                   for r in runs.values()])
        rows.append(["all stages"] + [f"{r['stages_total']['wall_s']} / {r['stages_total']['cpu_s']} / "
                                      f"{r['stages_total']['ratio']}×" for r in runs.values()])
        rows.append(["index size MB"] + [str(r["size_mb"]["total"]) for r in runs.values()])
        rows.append(["peak RSS MB"] + [str(r["peak_rss_mb"]) for r in runs.values()])
        for key in next(iter(runs.values())).get("coverage", {}):
            rows.append([f"coverage {key}"] + [str(r.get("coverage", {}).get(key, "-")) for r in runs.values()])
        print_table(["", *labels], rows)
        if corpus in ISSUE_BEFORE:
            print(f"issue 14 reported before: {ISSUE_BEFORE[corpus]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", choices=("musique", "arduino"), default="musique")
    parser.add_argument("--label", default="after", help="name of this code version in the results (before/after)")
    parser.add_argument("--data", default=None)
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions for coverage / recall (-1: none)")
    parser.add_argument("--paragraphs", type=int, default=0, help="only the first N MuSiQue paragraphs (0: all)")
    parser.add_argument("--extractor", default="", help="graph extractor (default: the settings' default)")
    parser.add_argument("--compare", action="store_true", help="print the stored before/after results side by side")
    args = parser.parse_args()
    if args.compare:
        compare()
        return
    run(args.corpus, args.label, data_dir(args.data), args.limit, args.paragraphs, args.extractor)


if __name__ == "__main__":
    main()
