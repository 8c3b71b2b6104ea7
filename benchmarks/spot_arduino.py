"""Spot check of answers on the Arduino PDFs: 25 spec questions written by hand from the documents (not from the
dev set), each with the value strings a right answer contains, or `refuse` when the documents lack the answer.

  .venv/bin/python benchmarks/spot_arduino.py --index benchmarks/.cache/arduino-pdf-kg --label after
  PYTHONPATH=/path/to/old/src .venv/bin/python benchmarks/spot_arduino.py --index … --label before

A pass needs one of `expect_any` (or every `expect_all`) in the answer text, case-insensitive; for `refuse`, a
refusal or "no direct answer" evidence. `--retrieval hybrid,kg-facts` checks the retrieved context instead (no
answers): whether each strategy's context at `--budget` tokens holds the expected value. These questions were used to find the failures fixed in round 8
(docs/benchmarks.md), so they are a regression check, not a held-out set.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE, print_table, write_json  # noqa: E402

from kgrag.answering.refusal import is_refusal  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.retrieve.base import make_retriever  # noqa: E402

QUESTIONS = Path(__file__).resolve().parent / "spot_arduino.jsonl"


def passes(case: dict, text: str) -> bool:
    """Whether the answer text holds what the case expects (case and spacing ignored: "0.25°C" is "0.25 °C")."""
    if case.get("refuse"):
        return is_refusal(text)
    low = _squashed(text)
    if case.get("expect_all"):
        return all(_squashed(s) in low for s in case["expect_all"])
    return any(_squashed(s) in low for s in case.get("expect_any", []))


def _squashed(text: str) -> str:
    return re.sub(r"\s+", "", text.lower())


def check_retrieval(index: Index, cases: list[dict], strategies: list[str], budget: int, label: str) -> None:
    """Per strategy: how many answerable questions have their expected value in the context at `budget` tokens."""
    answerable = [c for c in cases if not c.get("refuse")]
    retrievers = {name: make_retriever(name, index) for name in strategies}
    rows, records = [], []
    for case in answerable:
        found = {name: passes(case, r.retrieve(case["question"], budget).text()) for name, r in retrievers.items()}
        records.append({"question": case["question"], **found})
        rows.append([case["question"][:60], *("yes" if found[n] else "no" for n in strategies)])
    print_table(["question", *strategies], rows)
    totals = {name: sum(r[name] for r in records) for name in strategies}
    print(f"\n{label} @ {budget} tokens: " + ", ".join(f"{n} {t} / {len(records)}" for n, t in totals.items()))
    write_json(f"spot_retrieval_{label}", {"label": label, "budget": budget, "totals": totals, "records": records})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", default=str(CACHE / "arduino-pdf-kg"))
    parser.add_argument("--label", default="run")
    parser.add_argument("--questions", default=str(QUESTIONS), help="JSONL of {question, expect_any | expect_all | refuse}")
    parser.add_argument("--retrieval", default="", help="comma-separated strategies: check their contexts, no answers")
    parser.add_argument("--budget", type=int, default=4000, help="context tokens for --retrieval")
    args = parser.parse_args()
    cases = [json.loads(line) for line in Path(args.questions).read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.retrieval:
        with Index.open(args.index) as index:
            check_retrieval(index, cases, args.retrieval.split(","), args.budget, args.label)
        return
    rows, records = [], []
    with Index.open(args.index) as index:
        for case in cases:
            start = time.perf_counter()
            answer = index.ask(case["question"], mode="auto")
            ok = passes(case, answer.text)
            path = answer.context.info.get("answer_path", "refused")
            records.append({"question": case["question"], "answer": answer.text, "path": path, "pass": ok,
                            "seconds": round(time.perf_counter() - start, 2)})
            rows.append([case["question"][:60], path, "yes" if ok else "no", answer.text[:70].replace("\n", " ")])
    print_table(["question", "path", "pass", "answer"], rows)
    passed = sum(r["pass"] for r in records)
    print(f"\n{args.label}: {passed} / {len(records)} pass")
    write_json(f"spot_arduino_{args.label}", {"label": args.label, "passed": passed, "records": records})


if __name__ == "__main__":
    main()
