"""Issue 4 benchmark: KET-RAG on MuSiQue — Coverage of text/knng/keyword/ket at λ = 12k/4k/1k, stages, EM/F1.

Regenerate:  .venv/bin/python benchmarks/ketrag_musique.py [--data ../shared/data] [--limit 150]
             [--skeleton rules|llm|none] [--beta 0.8] [--qa 10] [--qa-budget 1500]
One chunk per paragraph (as the paper does for MuSiQue), MiniLM embeddings, β = 0 (no LLM) first; then
optionally a skeleton (rule extractor on ⌈β·N⌉ PageRank core chunks, or the local LLM on a small β).
Coverage = share of questions whose gold answer string occurs (case-insensitively) in the context.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common as bench  # noqa: E402  (the shared benchmark helpers)

from kgrag.evaluate.metrics import coverage, exact_match, f1_score  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.progress import NullProgress  # noqa: E402

BUDGETS = (12000, 4000, 1000)
BASE_STRATEGIES = ("text", "knng", "keyword", "ket")
SKELETON_STRATEGIES = ("skeleton", "ket", "local", "hybrid-rag")
PAPER = {  # text-embedding-3-small + GPT-4o-mini, λ = 12k, 500 questions: (chunk 1200, chunk 150)
    "text": (26.4, 76.8),
    "keyword": (50.8, 78.2),
    "ket (P)": (77.0, 79.6),
    "hipporag": (51.6, 81.4),
}
QA_PROMPT = (
    "Answer the question using only the context. Reply with the answer alone: a name, date, number or short "
    "phrase, no sentence, no explanation."
)


def run_stages(index: Index, names: tuple[str, ...]) -> dict[str, float]:
    """Run the named KET-RAG stages in order; seconds per stage."""
    from kgrag.stages import all_stages

    seconds: dict[str, float] = {}
    for stage in all_stages():
        if stage.name in names:
            start = time.perf_counter()
            stage.run(index, NullProgress())
            seconds[stage.name] = round(time.perf_counter() - start, 2)
            print(f"  stage {stage.name}: {seconds[stage.name]:.1f} s", flush=True)
    return seconds


def measure(index: Index, questions: list[dict[str, Any]], strategies: tuple[str, ...], label: str,
            **options: Any) -> tuple[list[list[Any]], dict[str, Any]]:
    """Coverage per strategy and budget, plus retrieval latency p50/p95."""
    rows, out = [], {}
    for strategy in strategies:
        cov, latencies = {}, []
        for budget in BUDGETS:
            hits = 0.0
            for q in questions:
                ctx = index.search(q["question"], strategy=strategy, budget=budget, **options)
                latencies.append(ctx.timings["retrieve_s"])
                hits += coverage(ctx.text(), q["answer"])
            cov[budget] = round(100 * hits / len(questions), 1)
        p50, p95 = bench.percentiles(latencies)
        name = f"{strategy} ({label})"
        rows.append([name, *[cov[b] for b in BUDGETS], round(p50, 1), round(p95, 1)])
        out[name] = {"coverage": cov, "p50_ms": p50, "p95_ms": p95}
        print(f"  {name}: {cov}  p50 {p50:.1f} ms", flush=True)
    return rows, out


def answer_quality(index: Index, questions: list[dict[str, Any]], budget: int) -> dict[str, Any]:
    """EM / F1 of short answers by the configured LLM from the `ket` context."""
    llm = index.llm
    ems, f1s, seconds, rows = [], [], [], []
    for q in questions:
        ctx = index.search(q["question"], strategy="ket", budget=budget)
        messages = [
            {"role": "system", "content": QA_PROMPT},
            {"role": "user", "content": f"Context:\n{ctx.text()}\n\nQuestion: {q['question']}\nAnswer:"},
        ]
        start = time.perf_counter()
        pred = llm.complete(messages, max_tokens=24).text.strip().split("\n")[0]
        seconds.append(time.perf_counter() - start)
        ems.append(exact_match(pred, q["answer"]))
        f1s.append(f1_score(pred, q["answer"]))
        rows.append({"question": q["question"], "gold": q["answer"], "pred": pred, "covered": coverage(ctx.text(), q["answer"])})
        print(f"  QA {len(ems)}/{len(questions)}: {pred!r} vs {q['answer']!r}", flush=True)
    n = len(questions) or 1
    return {"n": len(questions), "budget": budget, "em": round(100 * sum(ems) / n, 1), "f1": round(100 * sum(f1s) / n, 1),
            "llm_s_per_answer": round(sum(seconds) / n, 1), "answers": rows}


def index_size(root: Path) -> dict[str, Any]:
    files = {p.name: p.stat().st_size for p in root.iterdir() if p.is_file()}
    return {"mb": round(sum(files.values()) / 1e6, 1), "files_mb": {k: round(v / 1e6, 1) for k, v in files.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="shared data folder (default ../shared/data or $KGRAG_DATA)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--index", default=str(bench.CACHE / "musique-ket"), help="index folder (reused if built)")
    parser.add_argument("--skeleton", choices=("none", "rules", "llm"), default="rules",
                        help="after the β = 0 runs, build a skeleton with this extractor")
    parser.add_argument("--beta", type=float, default=0.8, help="core share for the skeleton run")
    parser.add_argument("--qa", type=int, default=10, help="questions answered by the LLM for EM/F1 (0: skip)")
    parser.add_argument("--qa-budget", type=int, default=1500, help="λ of the ket context for EM/F1")
    args = parser.parse_args()

    data = bench.data_dir(args.data)
    paragraphs = bench.musique_paragraphs(data)
    questions = bench.musique_questions(data)[: args.limit or None]
    index, build = bench.build_paragraph_index(Path(args.index), paragraphs)
    print(f"index: {len(paragraphs)} paragraphs, chunks+embed {build['index_s']:.1f} s", flush=True)
    g = index.settings.graph
    g.beta, g.extractor = 0.0, "rules"
    stage_s = {"ingest+embed": round(build["index_s"], 1)} if not build["reused"] else {}
    stage_s.update(run_stages(index, ("keywords", "knn", "core", "subchunks", "keyword-graph", "skeleton")))
    start = time.perf_counter()
    from kgrag.graph.core import rank_chunks

    rank_chunks(index)
    stage_s["pagerank only"] = round(time.perf_counter() - start, 2)
    counts = index.stats()["counts"]
    print(f"counts: {counts}", flush=True)

    rows, results = measure(index, questions, BASE_STRATEGIES, "β=0")
    skeleton_info: dict[str, Any] = {}
    if args.skeleton != "none":
        g.beta, g.extractor = args.beta, ("rules" if args.skeleton == "rules" else "llm")
        index.store.set_meta("ket:core", "")  # force a new core selection at this β
        start = time.perf_counter()
        sk_stages = run_stages(index, ("core", "skeleton"))
        usage = index.store.usage()
        skeleton_info = {"beta": args.beta, "extractor": g.extractor, "seconds": round(time.perf_counter() - start, 1),
                         "stages": sk_stages, "llm_tokens": sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage),
                         "entities": index.store.count("entities"), "relations": index.store.count("relations")}
        print(f"skeleton: {skeleton_info}", flush=True)
        more, res = measure(index, questions, SKELETON_STRATEGIES, f"{g.extractor} β={args.beta}")
        rows += more
        results.update(res)

    print(f"\nCoverage % on MuSiQue ({len(questions)} questions; MiniLM, one chunk per paragraph)")
    bench.print_table(["strategy", *[f"λ={b // 1000}k" for b in BUDGETS], "p50 ms", "p95 ms"], rows)
    print("\nPaper (text-embedding-3-small + GPT-4o-mini, λ=12k, 500 questions; chunk 1200 / chunk 150):")
    bench.print_table(["strategy", "chunk 1200", "chunk 150"], [[k, *v] for k, v in PAPER.items()])
    print("\nIndex time by stage (s):", stage_s)
    size = index_size(Path(args.index))
    print(f"Index size: {size['mb']} MB {size['files_mb']}; counts {counts}")

    qa: dict[str, Any] = {}
    if args.qa:
        print(f"\nEM/F1 with the local LLM on {args.qa} questions, ket context λ={args.qa_budget}:", flush=True)
        qa = answer_quality(index, questions[: args.qa], args.qa_budget)
        print(f"EM {qa['em']}  F1 {qa['f1']}  ({qa['llm_s_per_answer']} s per answer)")
    out = bench.write_json("ketrag_musique", {"questions": len(questions), "budgets": BUDGETS, "results": results,
                                         "paper": PAPER, "stage_seconds": stage_s, "index_size": size, "counts": counts,
                                         "skeleton": skeleton_info, "qa": qa})
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
