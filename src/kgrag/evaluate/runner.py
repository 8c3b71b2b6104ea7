"""Running an evaluation: every question through every strategy, metrics per answer, means per group."""

from __future__ import annotations

import json
import math
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgrag.answer import answer_options, generate_answer
from kgrag.errors import KgragError
from kgrag.evaluate import answer_metrics, metrics
from kgrag.evaluate.datasets import Question
from kgrag.evaluate.judge import Judge, rule_correctness
from kgrag.models.usage import llm_stage
from kgrag.progress import NullProgress, Progress

if TYPE_CHECKING:
    from kgrag.index import Index

ANSWER_STAGE = "eval-answer"
# Metrics averaged per group, in report order (a metric missing from every record is not shown).
MEAN_METRICS = (
    "coverage",
    "gold_fact_recall",
    "context_tokens",
    "latency_s",
    "answer_fact_recall",
    "exact_match",
    "f1",
    "cited_support",
    "relevance",
    "completeness",
    "faithfulness",
    "helpfulness",
)


@dataclass
class EvalConfig:
    """What to run: strategies, context budget, whether to generate answers, retriever options."""

    strategies: list[str]
    budget: int = 4000  # the retrieval metrics' context
    answers: bool = False
    answer_budget: int | None = None  # the answer's context; None: the index's budget, as `kgrag ask` retrieves it
    options: dict[str, Any] = field(default_factory=dict)
    mode: str | None = None  # answer mode (auto | extractive | generative); None: the index's [answer] mode
    corpus: answer_metrics.Corpus | None = None  # the indexed text, for answerability and wrong-product checks

    def answers_context_budget(self, index: Index) -> int:
        """The answers' context budget: `answer_budget`, else the index's own (the context `kgrag ask` answers from)."""
        return self.answer_budget or index.settings.retrieval.budget


def available_strategies(index: Index, wanted: Sequence[str]) -> list[str]:
    """`wanted` with "all" expanded to every registered strategy."""
    from kgrag.retrieve.base import strategy_names

    out: list[str] = []
    for name in wanted:
        out.extend(strategy_names() if name == "all" else [name])
    return list(dict.fromkeys(out))


def evaluate_one(index: Index, q: Question, strategy: str, config: EvalConfig, judge: Judge | None) -> dict[str, Any]:
    """One question through one strategy: context, retrieval metrics, and answer metrics if asked."""
    record: dict[str, Any] = {
        "id": q.id,
        "question": q.question,
        "query_type": q.query_type,
        "strategy": strategy,
        "gold": q.gold,
        "answer": None,
        "context_ids": [],
        "scores": {},
    }
    try:
        context = index.search(q.question, strategy=strategy, budget=config.budget, **config.options)
    except KgragError as exc:
        record["error"] = str(exc)
        return record
    text = context.text()
    record["context_ids"] = [i.item_id or i.chunk_id or "" for i in context.items]
    scores: dict[str, Any] = {
        "coverage": metrics.coverage(text, q.golds),
        "gold_fact_recall": metrics.gold_fact_recall(text, q.gold),
        "context_tokens": context.tokens,
        "latency_s": context.timings.get("retrieve_s", 0.0),
    }
    if config.answers:
        answer_budget = config.answers_context_budget(index)
        asked = context if answer_budget == config.budget else index.search(  # the context `kgrag ask` answers from
            q.question, strategy=strategy, budget=answer_budget, **config.options)
        start = time.perf_counter()  # the answer step alone, as before (retrieval time is `latency_s`)
        with llm_stage(ANSWER_STAGE):
            answer = generate_answer(index.llm, asked.question, asked, embedder=index.embedder,
                                     **answer_options(index.settings, config.mode))
        scores["answer_s"] = time.perf_counter() - start
        record["answer"] = answer.text
        record["citations"] = [c.n for c in answer.citations]
        scores["exact_match"] = metrics.exact_match(answer.text, q.golds)
        scores["f1"] = metrics.f1_score(answer.text, q.golds)
        cited = [" ".join((c.title, c.document, c.section, c.quote)) for c in answer.citations]
        corpus = config.corpus or answer_metrics.Corpus.of([])
        scores["answer_fact_recall"] = answer_metrics.answer_recall(answer.text, q.gold)
        scores["refusal"] = not answer.grounded
        scores["answerable"] = corpus.answerable(q.gold)
        scores["wrong_product"] = answer_metrics.wrong_product(q.question, answer.text, cited, corpus)
        scores["wrong_verdict"] = answer_metrics.wrong_verdict(answer.text, q.gold)
        shown = answer_metrics.cited_texts([vars(c) for c in answer.citations],
                                           [{"chunk_id": i.chunk_id, "text": i.text} for i in answer.context.items])
        scores["cited_support"] = answer_metrics.cited_support(q.gold, answer.text, shown)
        if judge is not None:
            scores.update(judge.score(q.question, q.gold, answer.text, asked.text()))
        else:
            scores["correctness"] = rule_correctness(q.gold, answer.text)
    record["scores"] = scores
    return record


def run_eval(
    index: Index,
    questions: Sequence[Question],
    config: EvalConfig,
    *,
    judge: Judge | None = None,
    log_path: Path | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """All records (question × strategy), appended to `log_path` as JSONL while running."""
    progress = progress or NullProgress()
    strategies = available_strategies(index, config.strategies)
    if config.answers and config.corpus is None:
        config.corpus = answer_metrics.Corpus.of((c.doc_id, c.text) for c in index.store.iter_chunks())
    task = progress.task("questions × strategies", len(questions) * len(strategies))
    records: list[dict[str, Any]] = []
    log = log_path.open("w", encoding="utf-8") if log_path else None
    try:
        for q in questions:
            for strategy in strategies:
                record = evaluate_one(index, q, strategy, config, judge)
                records.append(record)
                if log:
                    log.write(json.dumps(record, ensure_ascii=False) + "\n")
                    log.flush()
                task.advance(1, strategy=strategy)
    finally:
        if log:
            log.close()
    return records


def _mean(values: Iterable[Any]) -> float | None:
    nums = [float(v) for v in values if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)]
    return sum(nums) / len(nums) if nums else None


def summarize(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Means of every metric per strategy, with correctness rates; errors counted separately."""
    ok = [r for r in records if "error" not in r]
    out: dict[str, Any] = {"n": len(ok), "errors": len(records) - len(ok)}
    for name in MEAN_METRICS:
        value = _mean(r["scores"].get(name) for r in ok)
        if value is not None:
            out[name] = value
    labels = [r["scores"]["correctness"] for r in ok if "correctness" in r["scores"]]
    if labels:
        out.update(metrics.correctness_rates(labels))
    answered = [r["scores"] for r in ok if "answer_s" in r["scores"]]
    if answered:
        times = [s["answer_s"] for s in answered]
        out["answer_p50_s"] = answer_metrics.percentile(times, 50)
        out["answer_p95_s"] = answer_metrics.percentile(times, 95)
        checked = [s["wrong_product"] for s in answered if s.get("wrong_product") is not None]
        if checked:
            out["wrong_product"] = sum(checked) / len(checked)
        verdicts = [s["wrong_verdict"] for s in answered if s.get("wrong_verdict") is not None]
        if verdicts:
            out["wrong_verdict"] = sum(verdicts) / len(verdicts)
        lacking = [s for s in answered if not s.get("answerable", True)]
        if lacking:
            out["refused_unanswerable"] = sum(s["refusal"] for s in lacking) / len(lacking)
    return out


def group_summaries(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """{"overall": {strategy: summary}, "by_type": {query_type: {strategy: summary}}, "errors": {...}}."""
    by_strategy: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_type: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        by_strategy[r["strategy"]].append(r)
        by_type[r["query_type"]][r["strategy"]].append(r)
    errors = {s: sorted({r["error"] for r in rs if "error" in r}) for s, rs in by_strategy.items()}
    return {
        "overall": {s: summarize(rs) for s, rs in by_strategy.items()},
        "by_type": {t: {s: summarize(rs) for s, rs in group.items()} for t, group in sorted(by_type.items())},
        "errors": {s: e for s, e in errors.items() if e},
    }
