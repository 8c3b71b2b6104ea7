"""Evaluation harness: both shared question formats, the runner with a fake judge, report, plots and CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kgrag.evaluate.datasets import DatasetError, load_questions
from kgrag.evaluate.judge import FAITHFULNESS_SCHEMA, GRADE_SCHEMA, RELEVANCE_SCHEMA, Judge
from kgrag.evaluate.pipeline import run_evaluation
from kgrag.evaluate.runner import EvalConfig, group_summaries, run_eval
from kgrag.index import Index
from kgrag.models.fake import FakeLLM
from kgrag.types import Context

DOCS = {
    "zephyr.md": "# Zephyr Nano\n\n## Barometer\n\nThe Zephyr Nano barometer measures pressure from 260 to 1260 hPa "
    "with a resolution of 0.01 hPa. It is read over I2C at up to 75 Hz.\n\n## Power\n\nThe Zephyr Nano draws "
    "less current than other boards: 2 mA in sleep mode, which makes it good for battery use.\n",
    "orion.md": "# Orion Max\n\n## Radio\n\nThe Orion Max has a Bluetooth 5 radio module and Wi-Fi. It needs "
    "a 5 V supply and draws 120 mA when the radio is active.\n",
}


@pytest.fixture
def sample_index(empty_index: Index, tmp_path: Path) -> Index:
    """A small index over two Markdown datasheets written here (hash embedder, fake LLM)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    report = empty_index.add([docs])
    assert report.indexed == 2, report.errors
    return empty_index


def _musique(path: Path) -> Path:
    rows = [
        {"id": "2hop__191125_781346", "answer": "Eastern Equatoria", "question": "Where is Juba?"},
        {"id": "3hop1__529164_567566_84283", "answer": "Warner Music Group", "question": "Who owns the label?"},
        {"id": "4hop1__88342_75218_128008_80487", "answer": "July 11, 2017", "question": "When is the game?"},
    ]
    path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return path


def _arduino(path: Path) -> Path:
    rows = [
        {"id": 2, "query_type": "factual", "question": "What is the pressure range of the Zephyr Nano barometer?",
         "gold_answer": "260 to 1260 hPa."},
        {"id": 7, "query_type": "reasoning", "question": "Which board is better for battery use?",
         "gold_answer": "The Zephyr Nano, because it draws less current."},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "\n", encoding="utf-8")
    return path


def test_loads_musique_list_with_hop_types(tmp_path: Path) -> None:
    qs = load_questions(_musique(tmp_path / "qa_dev.json"))
    assert [q.query_type for q in qs] == ["2hop", "3hop", "4hop"]
    assert qs[1].gold == "Warner Music Group" and qs[1].id.startswith("3hop1__")


def test_loads_arduino_jsonl_with_types_and_limit(tmp_path: Path) -> None:
    qs = load_questions(_arduino(tmp_path / "gold_dev.jsonl"))
    assert [(q.id, q.query_type) for q in qs] == [("2", "factual"), ("7", "reasoning")]
    assert qs[0].gold == "260 to 1260 hPa."
    assert len(load_questions(tmp_path / "gold_dev.jsonl", limit=1)) == 1


def test_bad_question_file_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "q?", "gold_answer": "a"}\n{"question": "no gold"}\n', encoding="utf-8")
    with pytest.raises(DatasetError, match="bad.jsonl:2"):
        load_questions(bad)


def _judge_reply(messages: list[dict[str, str]], schema: dict | None) -> str:
    if schema == RELEVANCE_SCHEMA:
        return json.dumps({"questions": ["What is the pressure range?", "Range?", "Which barometer?"]})
    if schema == GRADE_SCHEMA:
        return json.dumps({"covered": ["260 hPa"], "omitted": ["1260 hPa"], "wrong": [],
                           "high_severity_error": False, "refusal": False, "helpfulness": 4})
    if schema == FAITHFULNESS_SCHEMA:
        return json.dumps({"verdicts": ["yes", "partial"]})
    return "The barometer measures 260 hPa. It is accurate [1]."


def test_runner_scores_answers_with_a_judge(sample_index: Index, tmp_path: Path) -> None:
    llm = FakeLLM(respond=_judge_reply)
    sample_index.__dict__["llm"] = llm
    qs = load_questions(_arduino(tmp_path / "q.jsonl"))
    config = EvalConfig(strategies=["hybrid", "no-such-strategy"], budget=800, answers=True, mode="generative")
    records = run_eval(sample_index, qs, config, judge=Judge(llm, sample_index.embedder), log_path=tmp_path / "a.jsonl")
    assert len(records) == 4
    ok = [r for r in records if r["strategy"] == "hybrid"]
    scores = ok[0]["scores"]
    assert {"coverage", "gold_fact_recall", "context_tokens", "latency_s", "exact_match", "f1"} <= set(scores)
    assert scores["completeness"] == 3 and scores["correctness"] == "PARTIAL"  # 1 of 2 gold items
    assert scores["faithfulness"] == pytest.approx(0.875)
    assert scores["helpfulness"] == pytest.approx(4 * (0.5 + 0.5 * 0.875))
    assert 1 <= scores["relevance"] <= 5
    assert all("unknown strategy" in r["error"] for r in records if r["strategy"] == "no-such-strategy")
    logged = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert len(logged) == 4 and logged[0]["question"] and "context_ids" in logged[0]
    summary = group_summaries(records)
    assert set(summary["by_type"]) == {"factual", "reasoning"}
    assert summary["overall"]["hybrid"]["PARTIAL"] == 2 and summary["errors"]["no-such-strategy"]


def test_answers_read_the_context_kgrag_ask_retrieves_not_the_metrics_budget(sample_index: Index, tmp_path: Path) -> None:
    sample_index.__dict__["llm"] = FakeLLM(respond=_judge_reply)
    qs = load_questions(_arduino(tmp_path / "q.jsonl"))[:1]
    seen: list[int] = []
    search = sample_index.search

    def spy(question: str, **kw: Any) -> Context:
        seen.append(kw["budget"])
        return search(question, **kw)

    sample_index.__dict__["search"] = spy
    run_eval(sample_index, qs, EvalConfig(strategies=["hybrid"], budget=4000, answers=True, mode="generative"))
    assert seen == [4000, sample_index.settings.retrieval.budget]  # the metrics' context, then `kgrag ask`'s
    seen.clear()
    run_eval(sample_index, qs, EvalConfig(strategies=["hybrid"], budget=4000, answers=True, answer_budget=4000))
    assert seen == [4000]  # the same budget: retrieved once


def test_pipeline_writes_report_plots_and_log(sample_index: Index, tmp_path: Path) -> None:
    out = tmp_path / "results"
    summaries = run_evaluation(sample_index, _arduino(tmp_path / "q.jsonl"), ["dense", "hybrid"], out, budget=500)
    assert set(summaries["overall"]) == {"dense", "hybrid"}
    report = (out / "report.md").read_text()
    assert "## Overall" in report and "### factual" in report and "### reasoning" in report
    assert "| hybrid |" in report and "Coverage" in report and "## Graph quality" in report
    for name in ("metrics_by_strategy.png", "coverage_by_type.png", "cost_vs_quality.png"):
        assert (out / name).stat().st_size > 1000 and name in report
    assert (out / "answers.jsonl").exists() and json.loads((out / "summary.json").read_text())["overall"]


def test_cli_eval_runs(sample_index: Index, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kgrag.cli import registered_app

    app = registered_app()
    q = _musique(tmp_path / "qa.json")
    result = CliRunner().invoke(app, ["eval", "--index", str(sample_index.root), "--questions", str(q),
                                      "--strategies", "hybrid", "--out", str(tmp_path / "r"), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "hybrid" in result.output and (tmp_path / "r" / "report.md").exists()


def test_generate_questions_with_fake_llm(sample_index: Index) -> None:
    from kgrag.evaluate.generate import generate_questions

    reply = json.dumps({"question": "What is the range of the barometer?", "answer": "260 to 1260 hPa"})
    sample_index.__dict__["llm"] = FakeLLM(respond=lambda messages, schema: reply)
    rows = generate_questions(sample_index, 5)
    assert [r["query_type"] for r in rows] == ["factual", "reasoning", "disambiguation", "multi_hop", "summary"]
    assert all(r["gold_answer"] == "260 to 1260 hPa" and r["chunk_ids"] for r in rows)
