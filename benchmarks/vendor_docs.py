"""Documents of another make: corpora of fictional vendors (benchmarks/vendor_docs/set_*), each with 40 typed
questions. Sets A and B: Markdown and HTML datasheets, an FAQ, release notes, a manual and a support log in text, in
a flat folder with no product folders; set C: a folder per product family, half of its documents PDFs; set D: eleven
long documents (12-25 KB) with variant tables in columns. A-D were written blind; set E (a gateway manual, release
notes, a support log and a probe's FAQ) was written in round 43 for a new user's walk and tuned on, and so was set F
(an application note, a silicon errata sheet, a compatibility matrix, an installation guide, a spare-parts list) in
round 44. Round 45 added two makers' ordering-code guides, command/parameter references, alarm and fault code lists,
compliance sheets, a warranty/RMA policy, a service bulletin and PDF manuals: set G, tuned on, and set H, written
blind (aggregates only). Indexed as a user would (`kgrag add` + `kgrag index`,
default settings), then gold-fact recall of each strategy's context at 4k tokens per query type, side by side;
`--answers` adds the local model's answers for the listed answer strategies (slow: ~10 s per answer on one core), each
over the context `kgrag ask` retrieves (the index's 2,000-token budget, not the 4k of the retrieval table).

  .venv/bin/python benchmarks/vendor_docs.py                                   # retrieval, every set
  nice -n 5 .venv/bin/python benchmarks/vendor_docs.py --sets a --answers auto,fused   # plus answers
Indexes are cached in benchmarks/.cache/vendor-<set> (rebuilt when the documents change); the table goes to
benchmarks/results/vendor_docs.json.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE, REPO, RESULTS, print_table, write_json  # noqa: E402

from kgrag.evaluate.pipeline import run_evaluation  # noqa: E402
from kgrag.index import Index  # noqa: E402
from kgrag.ingest.base import PARSER_VERSION  # noqa: E402
from kgrag.retrieve.strategies.auto import choose_strategy  # noqa: E402

SETS = REPO / "benchmarks" / "vendor_docs"
SET_NAMES = sorted(p.name.removeprefix("set_") for p in SETS.glob("set_*"))
STRATEGIES = "hybrid,kg-facts,fused,auto"
TYPES = ("disambiguation", "factual", "multi_hop", "reasoning", "summary")


def build(name: str) -> Index:
    """The set's index as `kgrag add` + `kgrag index` build it, kept while its documents are unchanged."""
    root = CACHE / f"vendor-{name}"
    docs = SETS / f"set_{name}" / "docs"
    files = sorted(p for p in docs.rglob("*") if p.is_file())  # set C keeps a folder per product
    stamp = "\n".join([f"parser {PARSER_VERSION}",  # a loader that reads differently rebuilds the index
                       *(f"{p.relative_to(docs)} {p.stat().st_size} {p.stat().st_mtime_ns}" for p in files)])
    if not (root / "docs.stamp").is_file() or (root / "docs.stamp").read_text() != stamp:
        shutil.rmtree(root, ignore_errors=True)
        for command in (["init", str(root)], ["add", str(docs), "--index", str(root), "-q"],
                        ["index", "--index", str(root), "-q"]):
            subprocess.run([sys.executable, "-m", "kgrag", *command], check=True, stdout=subprocess.DEVNULL)
        (root / "docs.stamp").write_text(stamp)
    return Index.open(root)


def rows_of(name: str, summaries: dict, key: str, label: str = "") -> list[list[str]]:
    rows = []
    for strategy, overall in summaries["overall"].items():
        if overall.get(key) is None:
            continue
        per_type = [summaries["by_type"].get(t, {}).get(strategy, {}).get(key) for t in TYPES]
        rows.append([name, f"{strategy}{label}", f"{overall[key]:.3f}", *(f"{v:.3f}" if v is not None else "" for v in per_type)])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", default=",".join(SET_NAMES), help=f"comma-separated: {', '.join(SET_NAMES)}")
    parser.add_argument("--strategies", default=STRATEGIES)
    parser.add_argument("--answers", default="", help="strategies whose answers the local model writes (slow)")
    parser.add_argument("--budget", type=int, default=4000)
    args = parser.parse_args()
    table: list[list[str]] = []
    out: dict = {}
    for name in args.sets.split(","):
        index = build(name)
        questions = SETS / f"set_{name}" / "questions.jsonl"
        chosen, reason = choose_strategy(index)
        print(f"set {name}: auto -> {chosen} ({reason})")
        found = run_evaluation(index, questions, args.strategies.split(","), RESULTS / "vendor_docs" / name,
                               budget=args.budget)
        table += rows_of(name, found, "gold_fact_recall")
        out[name] = {"auto": [chosen, reason], "context": found["overall"]}
        if args.answers:
            answered = run_evaluation(index, questions, args.answers.split(","), RESULTS / "vendor_docs" / f"{name}-answers",
                                      budget=args.budget, answers=True)
            table += rows_of(name, answered, "answer_fact_recall", " (answers)")
            out[name]["answers"] = answered["overall"]
    print_table(["set", "strategy", "all", *TYPES], table)
    write_json("vendor_docs", out)


if __name__ == "__main__":
    main()
