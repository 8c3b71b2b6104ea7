"""Issue 18 benchmark: LLM-as-judge metrics through `kgrag llm serve` next to the rule-based correctness labels.

Regenerate:  nice -n 5 .venv/bin/python benchmarks/judge_arduino.py [--data ../shared/data] [--minutes 60]
             [--limit 48] [--model qwen2.5-coder-1.5b] [--budget 1000] [--base-url http://127.0.0.1:8080/v1]
The same as `kgrag eval --answers --judge openai-compatible --strategies hybrid` with the index's [llm] pointed
at the server, plus the rule label and a time budget. Starts the model server (unless --base-url names a running
one), builds or reuses an index of arduino/documents (MiniLM), then, question by question (query types
interleaved, file order within a type, so a run cut short by --minutes still covers every type),
answers from the hybrid context through the server and judges the answer through the same server (relevance,
grade, faithfulness: three calls). Each record also gets the rule-based label (gold-fact recall of the answer,
refusal → FN) so the two can be compared. Records are appended to benchmarks/results/judge_arduino/answers.jsonl
and a rerun continues after the questions already there; the table per query type goes to stdout and
benchmarks/results/judge_arduino.json.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE, RESULTS, data_dir, print_table, write_json  # noqa: E402

from kgrag.config import Settings  # noqa: E402
from kgrag.evaluate.datasets import Question, load_questions  # noqa: E402
from kgrag.evaluate.judge import make_judge, rule_correctness  # noqa: E402
from kgrag.evaluate.runner import EvalConfig, evaluate_one  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.models.llm_server import ServeConfig, ServerProcess, free_port  # noqa: E402

LABELS = ("TP", "PARTIAL", "FP", "FN")
JUDGE_METRICS = ("relevance", "completeness", "faithfulness", "helpfulness")


def open_index(path: Path, documents: Path) -> Index:
    """The Arduino PDF index (MiniLM), built on first use and reused after."""
    settings = Settings()
    settings.embedder.provider = "minilm"
    index = Index.init(path, settings=settings)
    if index.store.count("chunks") == 0:
        report = index.add([documents])
        print(f"indexed {report.indexed} documents ({len(report.errors)} errors)", file=sys.stderr)
    return index


def round_robin(questions: list[Question]) -> list[Question]:
    """File order within each query type, types interleaved: a partial run still covers every type."""
    by_type: dict[str, list[Question]] = defaultdict(list)
    for q in questions:
        by_type[q.query_type].append(q)
    queues = list(by_type.values())
    return [queue[i] for i in range(max(map(len, queues), default=0)) for queue in queues if i < len(queue)]


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of a process (Linux /proc), 0 if unknown."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def summarize(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per query type (and `all`): judge metric means, both label counts, and how often the labels agree."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups[r["query_type"]].append(r)
        groups["all"].append(r)
    out: dict[str, dict[str, Any]] = {}
    for name, rows in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        judged = [r for r in rows if "correctness" in r["scores"]]
        row: dict[str, Any] = {"n": len(rows), "judged": len(judged)}
        for metric in JUDGE_METRICS:
            values = [r["scores"][metric] for r in rows if isinstance(r["scores"].get(metric), int | float)]
            row[metric] = sum(values) / len(values) if values else None
        row["judge"] = dict(Counter(r["scores"]["correctness"] for r in judged))
        row["rule"] = dict(Counter(r["rule_correctness"] for r in rows))
        row["agree"] = sum(r["scores"]["correctness"] == r["rule_correctness"] for r in judged) / len(judged) \
            if judged else None
        out[name] = row
    return out


def _counts(counts: dict[str, int]) -> str:
    return "/".join(str(counts.get(k, 0)) for k in LABELS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="shared data folder (default ../shared/data or $KGRAG_DATA)")
    parser.add_argument("--index", default=str(CACHE / "arduino-pdf"), help="index folder (built on first use)")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b", help="model served (answers and judge)")
    parser.add_argument("--base-url", default="", help="use this running server instead of starting one")
    parser.add_argument("--budget", type=int, default=1000, help="context tokens per answer")
    parser.add_argument("--answer-tokens", type=int, default=160)
    parser.add_argument("--limit", type=int, default=48, help="at most this many questions (file order)")
    parser.add_argument("--minutes", type=float, default=0, help="stop starting new questions after this long")
    parser.add_argument("--out", default=str(RESULTS / "judge_arduino"))
    args = parser.parse_args()

    data = data_dir(args.data)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "answers.jsonl"
    done = [json.loads(line) for line in log_path.read_text(encoding="utf-8").splitlines()] \
        if log_path.exists() else []
    seen = {r["id"] for r in done}
    questions = round_robin(load_questions(data / "arduino" / "gold_dev.jsonl"))[: args.limit]
    todo = [q for q in questions if q.id not in seen]

    server = None
    base_url = args.base_url
    if not base_url:
        server = ServerProcess(ServeConfig(model=args.model, port=free_port(), n_ctx=4096),
                               log_path=out / "server.log").start(timeout_s=300)
        base_url = server.base_url
        print(f"server {args.model} up at {base_url} in {server.ready_s:.1f} s", file=sys.stderr)
    index = open_index(Path(args.index), data / "arduino" / "documents")
    llm = index.settings.llm
    llm.provider, llm.base_url, llm.model = "openai", base_url, args.model
    llm.timeout_s, llm.max_answer_tokens = 1800.0, args.answer_tokens  # a queue of CPU-bound calls: be patient
    judge = make_judge("openai-compatible", index)
    config = EvalConfig(strategies=["hybrid"], budget=args.budget, answers=True, answer_budget=args.budget)
    pid = server.process.pid if server and server.process else None
    start = time.perf_counter()
    try:
        with log_path.open("a", encoding="utf-8") as log:
            for n, q in enumerate(todo, 1):
                if args.minutes and time.perf_counter() - start > args.minutes * 60:
                    print(f"time budget reached after {n - 1} new questions", file=sys.stderr)
                    break
                t0, c0 = time.perf_counter(), cpu_seconds(pid)
                record = evaluate_one(index, q, "hybrid", config, judge)
                record["rule_correctness"] = rule_correctness(q.gold, record.get("answer") or "")
                record["seconds"] = time.perf_counter() - t0
                record["server_cpu_s"] = cpu_seconds(pid) - c0
                log.write(json.dumps(record, ensure_ascii=False) + "\n")
                log.flush()
                done.append(record)
                s = record["scores"]
                print(f"[{len(done)}/{len(questions)}] {q.query_type:<15} judge {s.get('correctness', '-'):<7} "
                      f"rule {record['rule_correctness']:<7} {record['seconds']:.0f} s "
                      f"(server CPU {record['server_cpu_s']:.0f} s){' ' + s['judge_error'] if 'judge_error' in s else ''}",
                      file=sys.stderr)
    finally:
        if server is not None:
            server.stop()
    summary = summarize([r for r in done if "error" not in r])
    rows = [[name, r["n"], *(r[m] if r[m] is not None else "" for m in JUDGE_METRICS), _counts(r["judge"]),
             _counts(r["rule"]), r["agree"] if r["agree"] is not None else ""] for name, r in summary.items()]
    print_table(["query type", "n", *JUDGE_METRICS, "judge TP/P/FP/FN", "rule TP/P/FP/FN", "agree"], rows)
    seconds = [r["seconds"] for r in done if "seconds" in r]
    print(f"\n{len(done)} of {len(questions)} questions judged; {sum(seconds) / max(1, len(seconds)):.0f} s "
          "per question (answer + 3 judge calls)")
    write_json("judge_arduino", {"model": args.model, "budget": args.budget, "answer_tokens": args.answer_tokens,
                                 "questions": len(questions), "judged": len(done), "by_type": summary,
                                 "seconds_per_question": seconds,
                                 "server_cpu_per_question": [r.get("server_cpu_s") for r in done]})


if __name__ == "__main__":
    main()
