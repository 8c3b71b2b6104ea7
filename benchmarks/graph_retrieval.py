"""Graph retrieval strategies beside hybrid on the Arduino gold questions (issues 5, 12) and on MuSiQue.

Regenerate:  .venv/bin/python benchmarks/graph_retrieval.py [--data ../shared/data] [--corpus pdf docling]
             [--extractor datasheet] [--ablation] [--skip-musique] [--llm] [--questions gold.jsonl]
Arduino: three corpora, each its own index with the MiniLM embedder and an LLM-free graph (`--extractor`,
default `datasheet`): `pdf` = arduino/documents (the PDFs users index with `kgrag add`; primary),
`docling` = arduino/docling_chunks (the old benchmark's pre-chunked corpus) and `full` = the PDFs plus the
docling records of the products that have no PDF (a third of the dev questions ask about those; the records
are written to benchmarks/.cache/arduino-records-without-pdf, never into the repo). Every strategy on
arduino/gold_dev.jsonl: gold-fact recall at λ=4k (overall and per question type) and retrieval latency
p50/p95 with the query embedding included (the embedding cache is bypassed while timing; one untimed
warm-up question per strategy first, as a running server has its per-index arrays loaded), and the CPU time
per question (all threads, embedding included: what a query costs on an unshared machine). The graph build
(extraction + resolution + entity vectors) is timed against the embedding time of the same corpus.
MuSiQue: corpus.txt one paragraph per chunk, the `rules` graph, Coverage of qa_dev.json at λ=4k and 12k.
Without --llm the index uses the fake LLM, so kg-hybrid-rerank runs its deterministic fallback.
Indexes are cached in benchmarks/.cache/graph-arduino-<corpus> and graph-musique; a cached graph is built again
when the graph code changed (its fingerprint is kept in the index).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE, CORPORA, TimedEmbedder, build_paragraph_index, corpus_paths, data_dir, musique_paragraphs, musique_questions, percentiles, print_table, write_json  # noqa: E402,I001

from kgrag.config import Settings  # noqa: E402
from kgrag.evaluate.datasets import load_questions  # noqa: E402
from kgrag.evaluate.metrics import coverage, gold_fact_recall  # noqa: E402
from kgrag.graph.build import build_graph, embed_entities  # noqa: E402
from kgrag.graph.resolve import resolve_entities  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.retrieve.base import make_retriever  # noqa: E402

ARDUINO_STRATEGIES = ("hybrid", "kg-facts", "kg-dense", "kg-hybrid", "kg-hybrid-rerank", "khop", "paths")
MUSIQUE_STRATEGIES = ("hybrid", "khop", "paths", "kg-hybrid")
GRAPH_META = "bench.graph_extractor"
GRAPH_CODE = Path(__file__).resolve().parent.parent / "src" / "kgrag" / "graph"
WARM_UP = "Which interfaces and sensors does the board have?"  # generic, not a dev question
# kg-facts with one part switched off at a time (--ablation): what each part adds on the dev questions.
ABLATIONS: dict[str, dict[str, Any]] = {
    "kg-facts without fact table": {"fact_share": 0.0},
    "kg-facts without scoping": {"scope_bonus": 0.0, "component_bonus": 0.0, "other_product": 1.0},
    "kg-facts without hygiene": {"compact": False, "max_overlap": 1.01},
    "kg-facts, hygiene only": {"fact_share": 0.0, "scope_bonus": 0.0, "component_bonus": 0.0, "other_product": 1.0},
    # evidence packing (retrieve/unit_pack.py): whole chunks for this share of the budget, best sentences/rows after
    "kg-facts + unit packing 50 %": {"whole_share": 0.5},
    "kg-facts + unit packing 85 %": {"whole_share": 0.85},
    "kg-facts + unit packing 0 %": {"whole_share": 0.0},
    "kg-facts, class words count fully": {"class_weight": 1.0},  # round 1's fact filter
}


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def clear_graph(index: Index) -> None:
    """Remove a previous graph (entities, relations, vectors, progress, merges) so another extractor starts clean."""
    store = index.store
    store.delete_relations([r.relation_id for r in store.iter_relations()])
    store.delete_entities([e.entity_id for e in store.iter_entities()])
    store.delete_vectors("entity")
    store.clear_progress("graph")
    store.clear_merges()  # forgotten, not undone: an undone merge is a user's "keep these apart" and blocks the pair


def graph_tag(extractor: str) -> str:
    """The extractor's name and a fingerprint of the graph code: a cached graph built by other code is stale."""
    digest = hashlib.sha1()
    for path in sorted(GRAPH_CODE.rglob("*.py")):
        digest.update(path.read_bytes())
    return f"{extractor}:{digest.hexdigest()[:12]}"


def ensure_graph(index: Index, extractor: str = "rules") -> dict[str, float]:
    """Build the `extractor` graph once per graph code (resolution and entity vectors included); wall and CPU
    seconds spent."""
    tag = graph_tag(extractor)
    if index.store.count("entities") and index.store.get_meta(GRAPH_META) in (tag, None):
        return {"graph_s": 0.0}
    cached = index.embedder
    index.__dict__["embedder"] = getattr(cached, "inner", cached)  # entity vectors timed without the cache
    with index.write_lock():
        clear_graph(index)
        start, cpu = time.perf_counter(), cpu_seconds()
        build_graph(index, extractor, embed=False)
        extract_s = time.perf_counter() - start
        resolved = resolve_entities(index.store)
        embed_start = time.perf_counter()
        embed_entities(index)
        index.store.set_meta(GRAPH_META, tag)
    index.__dict__["embedder"] = cached
    return {"graph_s": time.perf_counter() - start, "graph_cpu_s": cpu_seconds() - cpu, "extract_s": extract_s,
            "entity_vectors_s": time.perf_counter() - embed_start, "merges": float(len(resolved.merges))}


def arduino_index(data: Path, corpus: str, extractor: str, use_llm: bool) -> tuple[Index, dict[str, float]]:
    """The cached index of one Arduino corpus with its graph; add/embedding times kept beside it in build.json."""
    settings = Settings()
    settings.embedder.provider = "minilm"
    settings.llm.provider = "local" if use_llm else "fake"
    root = CACHE / f"graph-arduino-{corpus}"
    index = Index.init(root, settings=settings)
    sidecar = root / "build.json"
    times: dict[str, float] = json.loads(sidecar.read_text()) if sidecar.exists() else {}
    if not index.store.count("chunks"):
        timed = TimedEmbedder(index.embedder)
        index.__dict__["embedder"] = timed  # count the seconds spent embedding chunks
        start, cpu = time.perf_counter(), cpu_seconds()
        index.add(corpus_paths(data, corpus))
        times = {"add_s": time.perf_counter() - start, "add_cpu_s": cpu_seconds() - cpu, "embed_s": timed.seconds}
        sidecar.write_text(json.dumps(times))
        del index.__dict__["embedder"]
    graph = ensure_graph(index, extractor)
    if graph.get("graph_s"):
        times.update(graph)
        sidecar.write_text(json.dumps(times))
    return index, times


def run(index: Index, strategy: str, question: str, budget: int, **options: Any) -> tuple[str, float, dict[str, Any]]:
    retriever = make_retriever(strategy, index)
    start = time.perf_counter()
    context = retriever.retrieve(question, budget, **options)
    return context.text(), time.perf_counter() - start, context.info


def bench_arduino(data: Path, corpus: str, extractor: str, budget: int, use_llm: bool,
                  ablation: bool = False, gold: Path | None = None) -> dict[str, Any]:
    index, times = arduino_index(data, corpus, extractor, use_llm)
    cached_embedder = index.embedder
    index.__dict__["embedder"] = getattr(cached_embedder, "inner", cached_embedder)  # time the query embedding too
    index.embedder.embed(["warm-up: load the embedding model before timing"])
    questions = load_questions(gold or data / "arduino" / "gold_dev.jsonl")
    rows, out = [], {"corpus": corpus, "extractor": extractor, "build": times, "counts": index.stats()["counts"],
                     "strategies": {}}
    types = sorted({q.query_type for q in questions})
    runs: list[tuple[str, str, dict[str, Any]]] = [(s, s, {}) for s in ARDUINO_STRATEGIES]
    runs += [(name, "kg-facts", opts) for name, opts in ABLATIONS.items()] if ablation else []
    for label, strategy, options in runs:
        recalls: dict[str, list[float]] = defaultdict(list)
        latencies, cpu = [], []
        fallback = ""
        run(index, strategy, WARM_UP, budget, **options)  # per-index arrays (graph, vectors) load once, untimed
        for q in questions:
            before = cpu_seconds()
            text, seconds, info = run(index, strategy, q.question, budget, **options)
            cpu.append(cpu_seconds() - before)
            recall = gold_fact_recall(text, q.gold)
            recalls["all"].append(recall)
            recalls[q.query_type].append(recall)
            latencies.append(seconds)
            if info.get("rerank", "").startswith("fallback") or str(info.get("reranker", "")).startswith("lexical"):
                fallback = "fallback"
        p50, p95 = percentiles(latencies)
        cpu95 = percentiles(cpu)[1]
        means = {k: sum(v) / len(v) for k, v in recalls.items()}
        out["strategies"][label] = {"recall": means, "p50_ms": p50, "p95_ms": p95, "cpu_p95_ms": cpu95,
                                    "mode": fallback or "full"}
        rows.append([label + (" (fallback)" if fallback else ""), means["all"], *[means.get(t, 0.0) for t in types],
                     round(p50), round(p95), round(cpu95)])
        print(f"{corpus} {label}: {means['all']:.3f}", file=sys.stderr)
    ceiling = best_document_recall(index, questions)  # what one whole document holds, whatever the budget
    out["ceiling"] = {"best_document": ceiling}
    rows.append(["ceiling: best single document", ceiling["all"], *[ceiling.get(t, 0.0) for t in types], "", "", ""])
    counts = out["counts"]
    print(f"\nArduino [{corpus}] gold-fact recall at λ={budget} ({len(questions)} questions; {counts['chunks']} chunks, "
          f"{extractor} graph {counts['entities']} entities / {counts['relations']} relations)")
    print_table(["strategy", "all", *types, "p50 ms", "p95 ms", "CPU p95 ms"], rows)
    if times.get("embed_s") and times.get("graph_s"):
        print(f"graph build {times['graph_s']:.1f} s (CPU {times.get('graph_cpu_s', 0):.1f} s) vs chunk embedding "
              f"{times['embed_s']:.1f} s: ratio {times['graph_s'] / times['embed_s']:.2f}")
    index.close()
    return out


def best_document_recall(index: Index, questions: list[Any]) -> dict[str, float]:
    """Per query type, the mean over questions of the gold-fact recall of the one indexed document holding most of
    the gold answer: how much of it the documents state in one place. A context can exceed it only by collecting
    facts from several documents (or terms that any text has, like "3.3 V")."""
    texts: dict[str, list[str]] = defaultdict(list)
    for chunk in index.store.get_chunks(index.store.chunk_ids()):
        texts[chunk.doc_id].append(chunk.text)
    documents = ["\n".join(parts) for parts in texts.values()]
    recalls: dict[str, list[float]] = defaultdict(list)
    for q in questions:
        best = max((gold_fact_recall(text, q.gold) for text in documents), default=0.0)
        recalls["all"].append(best)
        recalls[q.query_type].append(best)
    return {k: sum(v) / len(v) for k, v in recalls.items()}


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
    parser.add_argument("--corpus", nargs="+", default=["pdf", "docling"], choices=sorted(CORPORA))
    parser.add_argument("--extractor", default="datasheet", help="graph extractor for the Arduino indexes")
    parser.add_argument("--llm", action="store_true", help="use the local LLM (slow) instead of the fallbacks")
    parser.add_argument("--ablation", action="store_true", help="also kg-facts with each part switched off")
    parser.add_argument("--skip-musique", action="store_true")
    parser.add_argument("--skip-arduino", action="store_true")
    parser.add_argument("--musique-limit", type=int, default=150)
    parser.add_argument("--questions", default=None,
                        help="typed gold questions for the Arduino corpora (default <data>/arduino/gold_dev.jsonl)")
    args = parser.parse_args()
    data = data_dir(args.data)
    result: dict[str, Any] = {"llm": "local" if args.llm else "fake (deterministic fallbacks)"}
    if not args.skip_arduino:
        for corpus in args.corpus:
            result[f"arduino-{corpus}"] = bench_arduino(data, corpus, args.extractor, args.budget, args.llm,
                                                        args.ablation, Path(args.questions) if args.questions else None)
    if not args.skip_musique:
        result["musique"] = bench_musique(data, (4000, 12000), args.musique_limit)
    name = f"graph_retrieval-{Path(args.questions).stem}" if args.questions else "graph_retrieval"
    print(f"\nwrote {write_json(name, result)}")


if __name__ == "__main__":
    main()
