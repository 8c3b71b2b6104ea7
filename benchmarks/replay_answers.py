"""Replay a typed answer run without the LLM: answers under the code on PYTHONPATH, each model reply taken from a
stored `answers_arduino.py` run (the local model is deterministic: an unchanged prompt gets the same reply), so a
change to the answer path is measured in seconds instead of an hour of CPU. A question the stored run answered
without the model but the new code sends to it is finished as a refusal (the closest passages follow). With
`--compare` (a JSON this script wrote), the table says how many prompts and answers changed: replies to changed
prompts are the old ones, so only a run of `answers_arduino.py` measures those.

  .venv/bin/python benchmarks/replay_answers.py --index benchmarks/.cache/arduino-pdf-kg-r16 \
      --questions benchmarks/gold_heldout7_arduino.jsonl --replies s17-ho7-after2 --out /tmp/ho7-a.json
  (change the code)
  .venv/bin/python benchmarks/replay_answers.py ... --out /tmp/ho7-b.json --compare /tmp/ho7-a.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE, RESULTS, print_table  # noqa: E402

from kgrag.answer import NO_ANSWER, Plan, answer_options, finish_plan, plan_answer  # noqa: E402
from kgrag.answering.differ import FROM_GRAPH  # noqa: E402
from kgrag.answering.quotes import FROM_DOCUMENTS  # noqa: E402
from kgrag.evaluate.answer_metrics import answer_recall, wrong_verdict  # noqa: E402
from kgrag.index import Index  # noqa: E402

MODEL_PATH = "focused"  # the stored run's answer path when the model's reply was the answer


def stored_replies(label: str) -> dict[str, tuple[str, str]]:
    """Question -> the model's reply in a stored run (its answer without the quotes and notes added after it, or the
    reply set aside for the closest passages) and the fingerprint of the prompt it answered ("" if not recorded)."""
    replies = {}
    for line in (RESULTS / "answers_arduino" / f"{label}.jsonl").read_text().splitlines():
        row = json.loads(line)
        info = row.get("info", {})
        if info.get("answer_path") == MODEL_PATH:
            reply = row["answer"].split(f"\n\n{FROM_DOCUMENTS}")[0].split(f"\n\n{FROM_GRAPH}")[0]
            replies[row["question"]] = (reply, row.get("prompt", ""))
        elif "set_aside_reply" in info:  # a reply shown as the closest passages instead (recorded since round 31)
            replies[row["question"]] = (info["set_aside_reply"], row.get("prompt", ""))
    return replies


def prompt_fingerprint(question: str, plan: Plan) -> str:
    """What the model is shown (the question and the focused blocks), hashed: equal fingerprints, equal replies."""
    shown = json.dumps([getattr(plan, "asked", "") or question, [(b.n, b.text) for b in plan.blocks]])  # (older code: no asked)
    return hashlib.sha1(shown.encode()).hexdigest()[:12]


def model_prompt(index: Index, question: str, mode: str | None = "auto") -> str:
    """The fingerprint of the prompt the current code sends the model for `question` ("" when it sends none)."""
    context = index.search(question)  # the question as `Index.ask` answers it: names in the documents' casing
    plan = plan_answer(context.question, context, embedder=index.embedder, **answer_options(index.settings, mode))
    return prompt_fingerprint(context.question, plan) if plan.action == "generate" else ""


def replay(index: Index, questions: list[dict], replies: dict[str, tuple[str, str]]) -> dict[str, dict]:
    """Per question id: answer path, prompt fingerprint, answer text and fact recall. `stale` marks a stored reply
    to another prompt than the current one (a run that recorded its prompts): only a live run measures that answer."""
    options = answer_options(index.settings, "auto")
    out = {}
    for q in questions:
        context = index.search(q["question"])
        asked = context.question  # as `Index.ask` reads it ("giga display shield" -> "GIGA Display Shield")
        plan = plan_answer(asked, context, embedder=index.embedder, **options)
        fingerprint, stale = "", False
        if plan.action == "generate":
            fingerprint = prompt_fingerprint(asked, plan)
            reply, answered = replies.get(q["question"], (NO_ANSWER, ""))
            stale = bool(answered) and answered != fingerprint
            answer = finish_plan(asked, context, plan, reply, {})
        else:
            answer = finish_plan(asked, context, plan)
        out[str(q["id"])] = {"path": context.info.get("answer_path", plan.action), "prompt": fingerprint,
                             "stale": stale, "text": answer.text,
                             "fact_recall": answer_recall(answer.text, q["gold_answer"]),
                             "wrong_verdict": wrong_verdict(answer.text, q["gold_answer"])}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", default=str(CACHE / "arduino-pdf-kg"))
    parser.add_argument("--questions", required=True, help="typed gold questions (JSONL: id, question, gold_answer)")
    parser.add_argument("--replies", required=True, help="label of a stored answers_arduino.py run")
    parser.add_argument("--out", required=True, help="JSON written here (per question)")
    parser.add_argument("--compare", default="", help="a JSON an earlier replay wrote")
    args = parser.parse_args()
    questions = [json.loads(line) for line in Path(args.questions).read_text().splitlines() if line.strip()]
    result = replay(Index.open(args.index), questions, stored_replies(args.replies))
    Path(args.out).write_text(json.dumps(result, indent=1))
    recall = sum(r["fact_recall"] for r in result.values()) / len(result)
    stale = sum(r["stale"] for r in result.values())
    rows = [[args.out, len(result), recall, "", "", stale]]
    if args.compare:
        old = json.loads(Path(args.compare).read_text())
        shared = [k for k in result if k in old]
        rows = [[args.compare, len(shared), sum(old[k]["fact_recall"] for k in shared) / max(1, len(shared)), "", "", ""],
                [args.out, len(result), recall, sum(old[k]["prompt"] != result[k]["prompt"] for k in shared),
                 sum(old[k]["text"] != result[k]["text"] for k in shared), stale]]
    print_table(["run", "n", "fact recall", "prompts changed", "answers changed", "stale replies"], rows)

if __name__ == "__main__":
    main()
