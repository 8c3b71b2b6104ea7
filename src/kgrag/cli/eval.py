"""`kgrag eval` (run strategies over a question set, write log, report and plots) and `kgrag eval generate`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from kgrag.cli.common import IndexOption, QuietOption, console, progress_for
from kgrag.index import Index


def register(app: typer.Typer) -> None:
    group = typer.Typer(name="eval", help="Evaluate retrieval strategies on a question set.", no_args_is_help=False)
    app.add_typer(group, name="eval")

    @group.callback(invoke_without_command=True)
    def evaluate(
        ctx: typer.Context,
        index: Path = IndexOption,
        questions: Path = typer.Option(None, "--questions", help="JSONL or JSON list: question, gold_answer|answer."),
        strategies: str = typer.Option("hybrid", "--strategies", help="Comma-separated strategy names, or 'all'."),
        budget: int = typer.Option(4000, "--budget", help="Context budget in tokens."),
        answers: bool = typer.Option(False, "--answers", help="Also generate answers and score them (uses the LLM)."),
        answer_budget: int = typer.Option(None, "--answer-budget", help="Context budget the answers read (default: the index's, as `kgrag ask`)."),
        judge: str = typer.Option("none", "--judge", help="local | openai-compatible | index | none."),
        mode: str = typer.Option(None, "--mode", help="Answer mode: auto | extractive | generative (default: answer.mode in kgrag.toml)."),
        limit: int = typer.Option(None, "--limit", help="Only the first N questions."),
        out: Path = typer.Option(Path("results"), "--out", help="Output folder."),
        option: list[str] = typer.Option([], "--option", help="Retriever option key=value (repeatable)."),
        quiet: bool = QuietOption,
    ) -> None:
        """Run every question through every strategy; write answers.jsonl, report.md, summary.json, plots."""
        if ctx.invoked_subcommand is not None:
            return
        if questions is None:
            raise typer.BadParameter("--questions is required (or use `kgrag eval generate` to write some)")
        options = dict(parse_option(o) for o in option)
        names = [s.strip() for s in strategies.split(",") if s.strip()]
        from kgrag.evaluate.pipeline import run_evaluation

        with progress_for(quiet) as progress:
            summaries = run_evaluation(
                Index.open(index), questions, names, out, budget=budget, answers=answers, judge_kind=judge,
                limit=limit, options=options, progress=progress, mode=mode, answer_budget=answer_budget,
            )
        from kgrag.evaluate.report import metrics_table

        console.print(metrics_table(summaries["overall"]), markup=False, highlight=False)
        console.print(f"\nreport: {out / 'report.md'}  log: {out / 'answers.jsonl'}")

    @group.command("generate")
    def generate(
        index: Path = IndexOption,
        n: int = typer.Option(20, "--n", help="Number of questions."),
        out: Path = typer.Option(Path("questions.jsonl"), "--out", help="JSONL file to write."),
        seed: int = typer.Option(42, "--seed"),
        quiet: bool = QuietOption,
    ) -> None:
        """Write typed questions with gold answers from the index's chunks with the LLM."""
        from kgrag.evaluate.generate import generate_questions

        idx = Index.open(index)
        with progress_for(quiet) as progress:
            rows = generate_questions(idx, n, seed=seed, progress=progress)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        console.print(f"wrote {len(rows)} questions to {out}")


def parse_option(text: str) -> tuple[str, Any]:
    """key=value with the value read as JSON when possible (numbers, true/false), else as a string."""
    key, sep, value = text.partition("=")
    if not sep:
        raise typer.BadParameter(f"--option {text!r}: expected key=value")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value
