"""One evaluation end to end: load questions, run strategies, write the log, report, summary and plots."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgrag.progress import Progress

if TYPE_CHECKING:
    from kgrag.index import Index


def run_evaluation(
    idx: Index,
    questions_path: Path,
    strategies: list[str],
    out: Path,
    *,
    budget: int = 4000,
    answers: bool = False,
    judge_kind: str = "none",
    limit: int | None = None,
    options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    mode: str | None = None,
    answer_budget: int | None = None,
) -> dict[str, Any]:
    """Run, then write answers.jsonl, summary.json, report.md and plots into `out`; returns the summaries."""
    from kgrag.answer import answer_options
    from kgrag.evaluate.datasets import load_questions
    from kgrag.evaluate.judge import make_judge
    from kgrag.evaluate.plots import write_plots
    from kgrag.evaluate.report import graph_quality, indexing_cost, render_report
    from kgrag.evaluate.runner import EvalConfig, available_strategies, group_summaries, run_eval

    questions = load_questions(questions_path, limit=limit)
    config = EvalConfig(strategies=strategies, budget=budget, answers=answers, options=options or {}, mode=mode,
                        answer_budget=answer_budget)
    judge = make_judge(judge_kind, idx) if answers else None
    out.mkdir(parents=True, exist_ok=True)
    records = run_eval(idx, questions, config, judge=judge, log_path=out / "answers.jsonl", progress=progress)
    summaries = group_summaries(records)
    setup = {
        "index": str(idx.root),
        "questions": f"{questions_path} ({len(questions)})",
        "strategies": ", ".join(available_strategies(idx, strategies)),
        "budget": f"{budget} tokens",
        "embedder": idx.settings.embedder.provider,
        "answers": (f"yes (LLM {idx.settings.llm.provider} {idx.settings.llm.model}, "
                    f"mode {answer_options(idx.settings, mode)['mode']}, "
                    f"context {config.answers_context_budget(idx)} tokens, judge {judge_kind})")
        if answers else "no (retrieval only)",
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    plots = write_plots(summaries, out)
    cost, quality = indexing_cost(idx.store), graph_quality(idx.store)
    report = render_report(summaries, setup=setup, cost=cost, quality=quality, plots=plots)
    (out / "report.md").write_text(report, encoding="utf-8")
    (out / "summary.json").write_text(
        json.dumps({"setup": setup, **summaries, "cost": cost, "graph_quality": quality}, indent=2), encoding="utf-8"
    )
    return summaries
