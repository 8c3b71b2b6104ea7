"""Issue 16 benchmark: answer quality and answer time on the 48 Arduino dev questions, before/after side by side.

Regenerate (one run per row of docs/benchmarks.md; the LLM runs are slow, use nice):
  PYTHONPATH=/work/wt/i16-before/src nice -n 5 .venv/bin/python benchmarks/answers_arduino.py --label before
  nice -n 5 .venv/bin/python benchmarks/answers_arduino.py --label auto --mode auto
  nice -n 5 .venv/bin/python benchmarks/answers_arduino.py --label extractive --mode extractive
  nice -n 5 .venv/bin/python benchmarks/answers_arduino.py --label auto-1.5b --mode auto --model qwen2.5-coder-1.5b
  .venv/bin/python benchmarks/answers_arduino.py --score before,auto,extractive   # the table only
`before` is the code at commit 25a90da (`git worktree add --detach ../i16-before 25a90da`): the old answer
path (full ~2k-token hybrid context to the LLM). The index (arduino/documents PDFs, MiniLM, the default strategy)
with its LLM-free datasheet graph is graph_retrieval.py's (benchmarks/.cache/graph-arduino-pdf, built on first use and
its graph again when the graph code changed); `--corpus full` indexes the PDFs plus the shared records of the
products that have no PDF (a third of the dev questions ask about those), benchmarks/.cache/graph-arduino-full:
  nice -n 5 .venv/bin/python benchmarks/answers_arduino.py --corpus full --label full-auto --mode auto
LLM calls bypass the answer cache so times are real.
Raw answers go to benchmarks/results/answers_arduino/<label>.jsonl, the summary to
benchmarks/results/answers_arduino.json.
"""

from __future__ import annotations

import argparse
import inspect
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import RESULTS, corpus_paths, data_dir, print_table, write_json  # noqa: E402

from kgrag.config import Settings  # noqa: E402
from kgrag.index import Index  # noqa: E402

OUT = RESULTS / "answers_arduino"


def open_index(path: Path, sources: list[Path]) -> Index:
    """The benchmark index of one corpus, with the default settings (built on first use, reused after)."""
    if not path.exists():
        settings = Settings()
        Index.init(path, settings=settings)
        with Index.open(path) as index:
            index.add(sources)
    return Index.open(path)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run(index: Index, questions: list[dict[str, Any]], label: str, mode: str | None, model: str | None) -> Path:
    """Answer every question (new code: with `mode`; old code: its only path) and write the raw records."""
    from kgrag.models.factory import make_llm

    if model:
        index.settings.llm.model = model
    index.__dict__["llm"] = make_llm(index.settings.llm)  # no answer cache: every call is timed for real
    accepts_mode = "mode" in inspect.signature(index.ask).parameters
    try:  # the prompt's fingerprint (new code only): a replay then knows when a stored reply answered another prompt
        from replay_answers import model_prompt as fingerprint
    except ImportError:
        fingerprint = None
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{label}.jsonl"
    with path.open("w", encoding="utf-8") as log:
        for n, q in enumerate(questions, 1):
            start, cpu = time.perf_counter(), _cpu()
            answer = index.ask(q["question"], mode=mode) if accepts_mode and mode else index.ask(q["question"])
            record = {
                "id": q["id"], "query_type": q["query_type"], "question": q["question"], "gold": q["gold_answer"],
                "answer": answer.text, "grounded": answer.grounded,
                "citations": [c.__dict__ for c in answer.citations],
                "sources": [dict(i.source, text=i.text, chunk_id=i.chunk_id) for i in answer.context.items],
                "answer_s": time.perf_counter() - start, "cpu_s": _cpu() - cpu,
                "usage": answer.usage, "info": {k: v for k, v in answer.context.info.items() if isinstance(v, int | float | str)},
                "timings": answer.timings,
            }
            if fingerprint is not None and (record["info"].get("answer_path") == "focused"  # the model answered:
                                            or "set_aside_reply" in record["info"]):  # what a replay checks
                record["prompt"] = fingerprint(index, q["question"], mode)  # the stored reply against
            log.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
            log.flush()
            print(f"[{n}/{len(questions)}] {record['answer_s']:.1f} s  {q['question'][:60]!r} -> {answer.text[:90]!r}",
                  file=sys.stderr)
    return path


def score(labels: list[str], chunk_texts: list[tuple[str, str]]) -> dict[str, Any]:
    """Per-label, per-type answer metrics from the raw records (see kgrag.evaluate.answer_metrics)."""
    from kgrag.evaluate.answer_metrics import Corpus, answer_scores, cited_texts, summarize_answers
    from kgrag.evaluate.metrics import gold_fact_recall

    corpus = Corpus.of(chunk_texts)
    out: dict[str, Any] = {}
    for label in labels:
        records = [json.loads(line) for line in (OUT / f"{label}.jsonl").read_text(encoding="utf-8").splitlines()]
        for r in records:
            cited = cited_texts(r["citations"], r.get("sources", []))
            r["scores"] = answer_scores(r["question"], r["gold"], r["answer"], cited, corpus, r.get("answer_s", 0.0))
            r["scores"].update(cpu_s=r.get("cpu_s", 0.0), prompt_tokens=(r.get("usage") or {}).get("prompt_tokens", 0))
            sources = "\n\n".join(str(s.get("text", "")) for s in r.get("sources", []))  # the retrieved context: how
            r["scores"]["context_recall"] = gold_fact_recall(sources, r["gold"])  # much of the gold the answer could hold
        out[label] = summarize_answers(records)
        (OUT / f"{label}.scored.jsonl").write_text(
            "".join(json.dumps({k: r[k] for k in ("id", "query_type", "answer", "scores")}, ensure_ascii=False) + "\n"
                    for r in records), encoding="utf-8")
    return out


def print_summary(summary: dict[str, Any]) -> None:
    cols = ("n", "answerable", "fact_recall", "context_recall", "fact_recall_answerable", "f1", "exact_match", "TP", "PARTIAL", "FP",
            "FN", "wrong_product", "wrong_verdict", "cited_support", "refused_unanswerable", "refused_answerable", "llm_calls", "prompt_tokens", "p50_s", "p95_s",
            "p50_cpu_s", "p95_cpu_s")
    print_table(["run", *cols], [[label, *[s["overall"].get(c, "") for c in cols]] for label, s in summary.items()])
    types = sorted({t for s in summary.values() for t in s["by_type"]})
    for qtype in types:
        print(f"\n{qtype}")
        print_table(["run", *cols], [[label, *[s["by_type"].get(qtype, {}).get(c, "") for c in cols]]
                                     for label, s in summary.items()])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="shared data folder (default ../shared/data or $KGRAG_DATA)")
    parser.add_argument("--corpus", default="pdf", choices=("pdf", "full"),
                        help="pdf: the datasheet PDFs; full: the PDFs plus the shared records of the products without one")
    parser.add_argument("--index", default=None,
                        help="index folder (default: graph_retrieval.py's benchmarks/.cache/graph-arduino-<corpus>)")
    parser.add_argument("--label", default="", help="name of this run (answers written to <label>.jsonl)")
    parser.add_argument("--mode", default=None, help="auto | extractive | generative (new code only)")
    parser.add_argument("--model", default=None, help="local model, e.g. qwen2.5-coder-1.5b")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--every", type=int, default=1, help="only every N-th question (a subset for slow runs)")
    parser.add_argument("--score", default="", help="comma-separated labels to score (default: this run's label)")
    parser.add_argument("--questions", default=None, help="JSONL of typed gold questions (default <data>/arduino/gold_dev.jsonl)")
    args = parser.parse_args()

    data = data_dir(args.data)
    gold = Path(args.questions) if args.questions else data / "arduino" / "gold_dev.jsonl"
    questions = [json.loads(line) for line in gold.read_text().splitlines() if line]
    questions = questions[:: args.every]
    questions = questions[: args.limit] if args.limit else questions
    if args.index:
        index = open_index(Path(args.index), corpus_paths(data, args.corpus))
    else:  # the corpus's cached index with its datasheet graph, as graph_retrieval.py builds it; answered locally
        from graph_retrieval import arduino_index

        index, _ = arduino_index(data, args.corpus, "datasheet", use_llm=True)
        index.settings.llm.provider = "local"
    if args.label:
        run(index, questions, args.label, args.mode, args.model)
    labels = [x for x in (args.score or args.label).split(",") if x]
    if not labels:
        return
    try:
        import kgrag.evaluate.answer_metrics  # noqa: F401
    except ImportError:
        print("scoring needs the new code (kgrag.evaluate.answer_metrics); run --score with it", file=sys.stderr)
        return
    summary = score(labels, [(c.doc_id, c.text) for c in index.store.iter_chunks()])
    print_summary(summary)
    write_json("answers_arduino", summary)


if __name__ == "__main__":
    main()
