"""Issue 13 benchmark: multi-hop retrieval without LLM calls on MuSiQue — every channel and `fused` side by side.

Regenerate:  .venv/bin/python benchmarks/multihop_musique.py [--data ../shared/data] [--limit 150] [--questions F --label L]
             [--strategies dense,hybrid,keyword,ket,trigraph,fused,fused:hop2_weight=0] [--grid]
One chunk per paragraph, MiniLM, no LLM anywhere (the `ket` skeleton comes from the `rules` extractor
on the β = 0.8 PageRank core). Coverage = gold answer string (or an alias) in the context, per budget
λ = 1k/4k/12k and per hop count (2/3/4 from the question id). Latency per question includes embedding
the question with the uncached embedder (no stored question vectors); CPU ms is the process time.
BLAS runs on one thread (OPENBLAS_NUM_THREADS=1 unless set): on 2 shared cores more threads only spin.
`--grid` scores the fusion weights and the tri-graph parameters on the same questions (dev only).
A strategy may carry retrieval options, `name:key=value&key=value` (e.g. `fused:hop2_weight=0`, `fused`
without its second-hop channel), to put variants side by side in one run.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # 2 shared cores: BLAS threads only spin; set before numpy loads

import common as bench  # noqa: E402  (the shared benchmark helpers)

from kgrag.cli.eval import parse_option  # noqa: E402
from kgrag.evaluate.metrics import coverage  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.progress import NullProgress  # noqa: E402

BUDGETS = (1000, 4000, 12000)
STRATEGIES = ("dense", "hybrid", "keyword", "ket", "trigraph", "fused:hop2_weight=0", "fused")
KET_STAGES = ("keywords", "knn", "core", "subchunks", "keyword-graph")
PAPER_12K = {"Text-RAG": 76.8, "Keyword-RAG": 78.2, "KET-RAG (P)": 79.6, "HippoRAG": 81.4}


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_stage(index: Index, name: str) -> float:
    """Run one registered stage; its CPU seconds."""
    from kgrag.stages import all_stages

    stage = next(s for s in all_stages() if s.name == name)
    start = cpu_seconds()
    stage.run(index, NullProgress())
    return cpu_seconds() - start


def prepare(index: Index, beta: float, rebuild_trigraph: bool) -> dict[str, float]:
    """KET stages, the rules skeleton on the β core (once), then the tri-graph stage; CPU seconds each.

    `rebuild_trigraph` drops the tri-graph first so its stage time is measured (sentence vectors then
    come from the embedding cache the keyword-graph stage filled, as in a normal `kgrag index`).
    """
    from kgrag.graph.trigraph import EDGE_KIND, STAGE, VECTOR_KIND

    g = index.settings.graph
    g.beta, g.extractor = beta, "rules"
    seconds = {name: round(run_stage(index, name), 1) for name in KET_STAGES}
    if not index.store.count("entities"):
        seconds["skeleton"] = round(run_stage(index, "skeleton"), 1)
    if rebuild_trigraph:
        with index.store.transaction():
            index.store.clear_progress(STAGE)
            index.store.delete_edges(EDGE_KIND)
            index.store.delete_vectors(VECTOR_KIND)
    seconds["trigraph"] = round(run_stage(index, "trigraph"), 1)
    return seconds


def embed_cost(index: Index, paragraphs: list[str], sample: int = 400) -> float:
    """CPU seconds to embed the whole corpus with the uncached embedder, extrapolated from a sample."""
    inner = getattr(index.embedder, "inner", index.embedder)
    step = max(1, len(paragraphs) // sample)
    part = paragraphs[::step][:sample]
    start = cpu_seconds()
    for first in range(0, len(part), 64):
        inner.embed(part[first:first + 64])
    return (cpu_seconds() - start) * len(paragraphs) / len(part)


def hop(question: dict[str, Any]) -> str:
    """The hop count: a question set's own `hops` field, else MuSiQue's id prefix ("3hop1__…")."""
    return str(question.get("hops") or question["id"][0])


def covered(text: str, q: dict[str, Any]) -> float:
    return max(coverage(text, a) for a in [q["answer"], *q.get("answer_aliases", [])])


def strategy_specs(text: str) -> list[str]:
    """`--strategies` split at the commas outside brackets: `hybrid,fused:weights=[0,1,1]` is two strategies."""
    return [spec for spec in re.split(r",(?![^\[\]]*\])", text) if spec]


def strategy_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """`name:key=value&key=value` -> (name, options), each value read as `kgrag eval --option` reads it (JSON when
    it parses: `weights=[0,1,1]` is a list)."""
    name, _, opts = spec.partition(":")
    return name, dict(parse_option(item) for item in opts.split("&") if item)


def measure(index: Index, questions: list[dict[str, Any]], strategy: str, **options: Any) -> dict[str, Any]:
    """Coverage per budget and per hop count, wall and CPU latency per question (ms)."""
    cov: dict[str, dict[str, float]] = {}
    wall, cpu = [], []
    for budget in BUDGETS:
        hits: dict[str, list[float]] = {}
        for q in questions:
            c0, t0 = cpu_seconds(), time.perf_counter()
            ctx = index.search(q["question"], strategy=strategy, budget=budget, **options)
            wall.append(time.perf_counter() - t0)
            cpu.append(cpu_seconds() - c0)
            hits.setdefault("all", []).append(covered(ctx.text(), q))
            hits.setdefault(hop(q), []).append(covered(ctx.text(), q))
        cov[str(budget)] = {k: round(sum(v) / len(v), 3) for k, v in sorted(hits.items())}
    p50, p95 = bench.percentiles(wall)
    c50, c95 = bench.percentiles(cpu)
    return {"coverage": cov, "p50_ms": round(p50, 1), "p95_ms": round(p95, 1), "cpu_p50_ms": round(c50, 1),
            "cpu_p95_ms": round(c95, 1)}


def channel_rankings(index: Index, questions: list[dict[str, Any]]) -> tuple[dict[tuple[int, int], list[list[str]]], list[Any]]:
    """The ket, hybrid and trigraph chunk rankings of every (question, budget), computed once for the grid."""
    from kgrag.retrieve.chunks import embed_query
    from kgrag.retrieve.multihop import query_scores
    from kgrag.retrieve.strategies.multihop import hybrid_ranking, ket_ranking, trigraph_ranking
    from kgrag.retrieve.trigraph_index import trigraph_arrays

    r = index.settings.retrieval
    graph = trigraph_arrays(index)
    out, all_scores = {}, []
    for n, q in enumerate(questions):
        scores = query_scores(graph, embed_query(index, q["question"]))
        all_scores.append(scores)
        for budget in BUDGETS:
            out[(n, budget)] = [ket_ranking(index, q["question"], scores.qvec, budget, r.theta),
                                hybrid_ranking(index, q["question"], scores, budget, r.alpha),
                                trigraph_ranking(index, q["question"], scores, budget, {})[0]]
    return out, all_scores


def packed_text(ranked: list[str], passage: Any, budget: int) -> str:
    """Passages in rank order as `pack` fits them: whole while they fit, the first one that does not cut."""
    from kgrag.retrieve.packing import MIN_TRUNCATED_TOKENS
    from kgrag.tokens import truncate_tokens

    used, parts = 0, []
    for cid in ranked:
        text, tokens = passage(cid)
        if used + tokens <= budget:
            parts.append(text)
            used += tokens
            continue
        if budget - used >= MIN_TRUNCATED_TOKENS:
            parts.append(truncate_tokens(text, budget - used))
        break
    return "\n".join(parts)


def grid(index: Index, questions: list[dict[str, Any]], keep: int) -> list[dict[str, Any]]:
    """Mean Coverage over λ = 1k/4k/12k for fusion weights (ket, hybrid, trigraph) in {0, 0.5, 1, 2}^3."""
    from kgrag.retrieve.strategies.multihop import cut_passage, fuse
    from kgrag.retrieve.trigraph_index import passage_texts, trigraph_arrays

    rankings, all_scores = channel_rankings(index, questions)
    graph = trigraph_arrays(index)
    texts = passage_texts(index)
    memo: dict[tuple[int, str], tuple[str, int]] = {}

    def passage(n: int) -> Any:
        def get(cid: str) -> tuple[str, int]:
            if (n, cid) not in memo:
                memo[(n, cid)] = cut_passage(graph, texts[cid], all_scores[n].sentences, keep)[:2]
            return memo[(n, cid)]
        return get

    rows = []
    for weights in itertools.product((0.0, 0.5, 1.0, 2.0), repeat=3):
        if max(weights) < 1.0:
            continue
        cov = {}
        for budget in BUDGETS:
            hits = [covered(packed_text([c for c, _ in fuse(rankings[(n, budget)], weights)], passage(n), budget), q)
                    for n, q in enumerate(questions)]
            cov[str(budget)] = round(sum(hits) / len(hits), 3)
        mean = sum(cov.values()) / len(cov)
        rows.append({"weights": weights, "mean": round(mean, 3), **cov})
    return sorted(rows, key=lambda r: -r["mean"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="shared data folder (default ../shared/data or $KGRAG_DATA)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--questions", default="", help="another question set over the same corpus (JSON list: id, "
                        "question, answer, optional answer_aliases and hops); default the MuSiQue dev questions")
    parser.add_argument("--label", default="multihop_musique", help="name of the JSON written to benchmarks/results")
    parser.add_argument("--index", default=str(bench.CACHE / "musique-ket"), help="index folder (reused if built)")
    parser.add_argument("--beta", type=float, default=0.8, help="core share for the rules skeleton of `ket`")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--grid", action="store_true", help="also score the fusion-weight grid")
    parser.add_argument("--rebuild-trigraph", action="store_true", help="drop and rebuild the tri-graph to time its stage")
    args = parser.parse_args()

    data = bench.data_dir(args.data)
    paragraphs = bench.musique_paragraphs(data)
    questions = (json.loads(Path(args.questions).read_text(encoding="utf-8")) if args.questions
                 else bench.musique_questions(data))[: args.limit or None]
    index, build = bench.build_paragraph_index(Path(args.index), paragraphs)
    stage_cpu = prepare(index, args.beta, args.rebuild_trigraph)
    corpus_embed = embed_cost(index, paragraphs)
    print(f"stages (CPU s): {stage_cpu}; corpus embedding ≈ {corpus_embed:.0f} CPU s; "
          f"trigraph/embedding = {stage_cpu['trigraph'] / corpus_embed:.2f}", flush=True)
    index.__dict__["embedder"] = getattr(index.embedder, "inner", index.embedder)  # no cached question vectors

    results: dict[str, Any] = {}
    for spec in strategy_specs(args.strategies):
        strategy, options = strategy_spec(spec)
        index.search("warm-up", strategy=strategy, budget=1000, **options)  # load the cached arrays once
        results[spec] = measure(index, questions, strategy, **options)
        print(f"  {spec}: {results[spec]}", flush=True)

    hops = sorted({hop(q) for q in questions})
    print(f"\nCoverage on MuSiQue ({len(questions)} questions; MiniLM, one chunk per paragraph, no LLM)")
    headers = ["strategy", *[f"λ={b // 1000}k" for b in BUDGETS], *[f"{h}-hop@4k" for h in hops],
               *[f"{h}-hop@12k" for h in hops], "p50 ms", "p95 ms", "CPU p50", "CPU p95"]
    rows = [[s, *[r["coverage"][str(b)]["all"] for b in BUDGETS], *[r["coverage"]["4000"].get(h, 0.0) for h in hops],
             *[r["coverage"]["12000"].get(h, 0.0) for h in hops], r["p50_ms"], r["p95_ms"], r["cpu_p50_ms"], r["cpu_p95_ms"]]
            for s, r in results.items()]
    bench.print_table(headers, rows)
    print("\nKET-RAG paper, λ=12k (text-embedding-3-small + GPT-4o-mini indexing, 500 questions):", PAPER_12K)
    out: dict[str, Any] = {"questions": len(questions), "budgets": BUDGETS, "results": results, "stage_cpu_s": stage_cpu,
                           "corpus_embed_cpu_s": round(corpus_embed, 1), "paper_12k": PAPER_12K, "build": build}
    if args.grid:
        from kgrag.retrieve.strategies.multihop import KEEP_SENTENCES

        out["grid"] = grid(index, questions, KEEP_SENTENCES)
        print("\nFusion weights (ket, hybrid, trigraph), mean Coverage over λ = 1k/4k/12k, best first:")
        bench.print_table(["weights", "mean", "1k", "4k", "12k"],
                    [[str(r["weights"]), r["mean"], r["1000"], r["4000"], r["12000"]] for r in out["grid"][:12]])
    print(f"wrote {bench.write_json(args.label, out)}")


if __name__ == "__main__":
    main()
