"""LLM-as-judge: prompts and parsing for the thesis's answer metrics; the arithmetic lives in metrics.py.

Three judge calls per answer: `relevance` (3 questions the answer would answer, compared with the
real question by the index embedder), `grade` (gold items covered / omitted / wrong, high-severity
error, refusal, raw helpfulness 1-5) and `faithfulness` (each answer statement checked against the
context). Any LLM works (the local model, an OpenAI-compatible server, a FakeLLM in tests).
Without a judge (`judge=none`) correctness is approximated from gold-fact recall of the answer.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from kgrag.answering.refusal import is_refusal
from kgrag.errors import ConfigError, KgragError
from kgrag.evaluate import metrics
from kgrag.models.base import LLM, Embedder
from kgrag.models.json_output import complete_json
from kgrag.models.usage import llm_stage
from kgrag.tokens import truncate_tokens

if TYPE_CHECKING:
    from kgrag.index import Index

JUDGE_STAGE = "eval-judge"
CONTEXT_TOKENS = 2500  # context shown to the faithfulness judge
MAX_STATEMENTS = 8
# Bounds in the schemas: constrained decoding then cannot loop inside one string or list until max_tokens
# (the 0.5B model repeated one "wrong" item until its output was cut, leaving no valid JSON).
ITEM_CHARS = 160
MAX_ITEMS = 8

RELEVANCE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"questions": {"type": "array", "items": {"type": "string", "maxLength": ITEM_CHARS},
                                 "minItems": 1, "maxItems": 5}},
    "required": ["questions"],
}
GRADE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "covered": {"type": "array", "items": {"type": "string", "maxLength": ITEM_CHARS}, "maxItems": MAX_ITEMS},
        "omitted": {"type": "array", "items": {"type": "string", "maxLength": ITEM_CHARS}, "maxItems": MAX_ITEMS},
        "wrong": {"type": "array", "items": {"type": "string", "maxLength": ITEM_CHARS}, "maxItems": MAX_ITEMS},
        "high_severity_error": {"type": "boolean"},
        "refusal": {"type": "boolean"},
        "helpfulness": {"type": "integer"},
    },
    "required": ["covered", "omitted", "wrong", "high_severity_error", "refusal", "helpfulness"],
}
FAITHFULNESS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "verdicts": {"type": "array", "items": {"type": "string", "enum": ["yes", "partial", "no"]},
                     "maxItems": MAX_STATEMENTS},
    },
    "required": ["verdicts"],
}
RELEVANCE_PROMPT = (
    "Read the answer and write exactly 3 different questions that this answer would answer. "
    'Reply as JSON: {"questions": ["...", "...", "..."]}.'
)
GRADE_PROMPT = (
    "You grade an answer against a gold answer. Split the gold answer into its key items (facts, values, "
    "names). List the gold items the answer states correctly (covered), the gold items it leaves out "
    "(omitted), and claims in the answer that contradict the gold answer (wrong). high_severity_error is "
    "true when a wrong claim would mislead a user (wrong value, wrong part, wrong yes/no). refusal is true "
    "when the answer declines or only talks about the documents instead of answering. helpfulness is 1-5 "
    "(5 = fully answers the question usefully). Reply as JSON with keys covered, omitted, wrong, "
    "high_severity_error, refusal, helpfulness."
)
FAITHFULNESS_PROMPT = (
    "For each numbered statement, say whether the context supports it: yes (fully supported), partial "
    "(partly supported) or no (not supported or contradicted). Reply as JSON: "
    '{"verdicts": ["yes", "partial", ...]} with one verdict per statement, in order.'
)


@dataclass
class Grade:
    """The judge's grading of one answer against its gold answer."""

    covered: int
    omitted: int
    wrong: int
    high_severity_error: bool
    refusal: bool
    helpfulness: int

    @property
    def gold_coverage(self) -> float:
        total = self.covered + self.omitted
        return self.covered / total if total else 0.0


def _cosines(embedder: Embedder, question: str, others: list[str]) -> list[float]:
    vectors = np.asarray(embedder.embed([question, *others]), dtype=np.float32)
    return [float(x) for x in vectors[1:] @ vectors[0]]


def answer_statements(answer: str) -> list[str]:
    """The answer's sentences (citation markers kept), at most MAX_STATEMENTS."""
    from kgrag.ingest.sentences import split_sentences

    return [s.strip() for s in split_sentences(answer) if len(s.strip()) > 3][:MAX_STATEMENTS]


class Judge:
    """Answer metrics from an LLM judge plus the index embedder (for answer relevance)."""

    def __init__(self, llm: LLM, embedder: Embedder) -> None:
        self.llm = llm
        self.embedder = embedder

    def _ask(self, system: str, user: str, schema: dict[str, Any], max_tokens: int = 300) -> Any:
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        with llm_stage(JUDGE_STAGE):
            return complete_json(self.llm, messages, schema, max_tokens=max_tokens)

    def relevance(self, question: str, answer: str) -> tuple[int, list[str]]:
        """(1-5 score, the judge's questions)."""
        data = self._ask(RELEVANCE_PROMPT, f"Answer: {answer}", RELEVANCE_SCHEMA)
        asked = [q for q in data["questions"] if isinstance(q, str) and q.strip()][:3]
        return metrics.relevance_score(_cosines(self.embedder, question, asked) if asked else []), asked

    def grade(self, question: str, gold: str, answer: str) -> Grade:
        user = f"Question: {question}\nGold answer: {gold}\nAnswer to grade: {answer}"
        data = self._ask(GRADE_PROMPT, user, GRADE_SCHEMA, max_tokens=400)
        return Grade(
            covered=len(data["covered"]),
            omitted=len(data["omitted"]),
            wrong=len(data["wrong"]),
            high_severity_error=bool(data["high_severity_error"]),
            refusal=bool(data["refusal"]) or is_refusal(answer),
            helpfulness=min(5, max(1, int(data["helpfulness"]))),
        )

    def faithfulness(self, answer: str, context: str) -> tuple[float, list[str]]:
        """(mean statement support, verdicts); an answer without statements scores 1.0."""
        statements = answer_statements(answer)
        if not statements:
            return metrics.faithfulness_score([]), []
        numbered = "\n".join(f"{n}. {s}" for n, s in enumerate(statements, 1))
        user = f"Context:\n{truncate_tokens(context, CONTEXT_TOKENS)}\n\nStatements:\n{numbered}"
        verdicts = [str(v) for v in self._ask(FAITHFULNESS_PROMPT, user, FAITHFULNESS_SCHEMA)["verdicts"]]
        verdicts = (verdicts + ["no"] * len(statements))[: len(statements)]  # a missing verdict counts as "no"
        return metrics.faithfulness_score(verdicts), verdicts

    def score(self, question: str, gold: str, answer: str, context: str) -> dict[str, Any]:
        """All judge metrics of one answer; a judge failure leaves that metric out and notes why."""
        out: dict[str, Any] = {}
        try:
            out["relevance"], _ = self.relevance(question, answer)
        except KgragError as exc:
            out["judge_error"] = f"relevance: {exc}"
        try:
            grade = self.grade(question, gold, answer)
            out["completeness"] = metrics.completeness_score(grade.covered, grade.omitted, grade.wrong)
            out["correctness"] = metrics.correctness_label(
                grade.gold_coverage, high_severity_error=grade.high_severity_error, refusal=grade.refusal
            )
            out["helpfulness_raw"] = float(grade.helpfulness)
        except KgragError as exc:
            out["judge_error"] = f"grade: {exc}"
        try:
            out["faithfulness"], _ = self.faithfulness(answer, context)
        except KgragError as exc:
            out["judge_error"] = f"faithfulness: {exc}"
        if "helpfulness_raw" in out and "faithfulness" in out:
            out["helpfulness"] = metrics.gated_helpfulness(out["helpfulness_raw"], out["faithfulness"])
        return out


def rule_correctness(gold: str, answer: str) -> str:
    """Correctness without a judge: refusal → FN, else by the share of gold-fact terms the answer states."""
    return metrics.correctness_label(metrics.gold_fact_recall(answer, gold), refusal=is_refusal(answer))


def make_judge(kind: str, index: Index) -> Judge | None:
    """`none`, `local` (llama.cpp) or `openai-compatible` (KGRAG_JUDGE_BASE_URL/_MODEL/_API_KEY override
    the index's [llm] settings); `index` (the index's own LLM, e.g. the fake one in tests)."""
    from kgrag.models.factory import make_llm

    kind = (kind or "none").strip().lower()
    if kind == "none":
        return None
    if kind == "index" or (kind == "local" and index.settings.llm.provider == "local"):
        return Judge(index.llm, index.embedder)  # one loaded model serves answers and judging
    settings = dataclasses.replace(index.settings.llm)
    if kind == "local":
        settings.provider = "local"
    elif kind in ("openai-compatible", "openai"):
        settings.provider = "openai"
        settings.base_url = os.environ.get("KGRAG_JUDGE_BASE_URL", settings.base_url)
        settings.model = os.environ.get("KGRAG_JUDGE_MODEL", settings.model)
        settings.api_key = os.environ.get("KGRAG_JUDGE_API_KEY", settings.api_key)
    else:
        raise ConfigError(f"unknown judge {kind!r}; use local, openai-compatible, index or none")
    llm = make_llm(settings, cache_path=index.root / "llm_cache.sqlite", ledger=index.ledger)
    return Judge(llm, index.embedder)
