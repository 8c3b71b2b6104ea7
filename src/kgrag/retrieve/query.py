"""Question processing before retrieval: candidate spans, LLM rewrite + keywords, decomposition, HyDE.

Every LLM step has a deterministic fallback (no LLM configured, or invalid output), so retrieval never
fails because of the model. Entity linking and relation mapping live in `query_linking.py`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from kgrag.errors import KgragError
from kgrag.models.rerankers import content_terms
from kgrag.models.usage import llm_stage

if TYPE_CHECKING:
    from kgrag.models.base import LLM
    from kgrag.workspace import Workspace

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-+/]*[A-Za-z0-9%]|[A-Za-z0-9]")
QUESTION_WORDS = frozenset(
    ["what", "which", "who", "whom", "whose", "when", "where", "why", "how", "does", "do", "did", "is", "are", "was", "were", "can", "could", "should", "would", "will", "list", "name", "describe", "explain", "tell", "give", "compare", "please"]
)
SPAN_STOP = frozenset(
    ["a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has", "have", "how", "in", "into", "is", "it", "its", "of", "on", "or", "than", "that", "the", "their", "there", "these", "this", "those", "to", "was", "what", "when", "where", "which", "who", "why", "will", "with", "between", "both", "each", "about", "any", "all", "more", "most", "other", "some", "such"]
)
MIN_KEYWORDS, MAX_KEYWORDS = 3, 8

REWRITE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "rewrite": {"type": "string"},
        "keywords": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": MAX_KEYWORDS},
    },
    "required": ["rewrite", "keywords"],
}
REWRITE_PROMPT = (
    "Rewrite the user's question as a short search query for technical documentation, keeping every "
    "product name, part number, value and unit. Then list 3 to 8 keywords (names, part numbers, technical "
    'terms). Reply as JSON: {"rewrite": "...", "keywords": ["...", "..."]}.\n'
    'Example: question "How much flash memory does the Nano 33 BLE have?" -> '
    '{"rewrite": "Nano 33 BLE flash memory size", "keywords": ["Nano 33 BLE", "flash memory", "nRF52840"]}'
)
DECOMPOSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"questions": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4}},
    "required": ["questions"],
}
HYDE_PROMPT = (
    "Write one short paragraph (3 sentences) from a technical datasheet that would answer the question. "
    "Use plausible specific names and values; do not say that you are unsure."
)


def words(text: str) -> list[str]:
    """Tokens of `text` with their original case (part numbers and values like `3.3V` stay whole)."""
    return _TOKEN.findall(text)


def candidate_spans(question: str, max_n: int = 4) -> list[str]:
    """Word n-grams (longest first) that could name an entity: no span starts or ends with a stop word."""
    tokens = words(question)
    spans: dict[str, None] = {}
    for n in range(min(max_n, len(tokens)), 0, -1):
        for i in range(len(tokens) - n + 1):
            part = tokens[i : i + n]
            first, last = part[0].lower(), part[-1].lower()
            if first in SPAN_STOP or last in SPAN_STOP or first in QUESTION_WORDS:
                continue
            spans.setdefault(" ".join(part), None)
    return list(spans)


def _term_weight(term: str) -> float:
    """Keywords that name things rank first: part numbers/values, then capitalised names, then long words."""
    if any(c.isdigit() for c in term):
        return 3.0
    if term[:1].isupper() or term.isupper():
        return 2.0
    return 1.0 + min(len(term), 12) / 24


def fallback_keywords(question: str, n: int = MAX_KEYWORDS) -> list[str]:
    """3–8 keywords without an LLM: capitalised multi-word names, part numbers, then content words."""
    tokens = [t for t in words(question) if t.lower() not in QUESTION_WORDS]
    names: list[str] = []
    run: list[str] = []
    for t in [*tokens, ""]:
        if t and (t[:1].isupper() or any(c.isdigit() for c in t)) and t.lower() not in SPAN_STOP:
            run.append(t)
            continue
        if len(run) > 1:
            names.append(" ".join(run))
        run = []
    singles = sorted(
        {t for t in tokens if t.lower() not in SPAN_STOP and len(t) > 2 or any(c.isdigit() for c in t)},
        key=lambda t: (-_term_weight(t), tokens.index(t)),
    )
    out: list[str] = []
    for term in [*names, *singles]:
        if term.lower() not in {o.lower() for o in out}:
            out.append(term)
    return out[:n]


def fallback_rewrite(question: str) -> str:
    """The question without question words and punctuation: a keyword-style search string."""
    kept = [t for t in words(question) if t.lower() not in QUESTION_WORDS]
    return " ".join(kept) or question.strip()


@dataclass
class QueryRewrite:
    """A retrieval-oriented form of the question and its keywords; `source` is "llm" or "fallback"."""

    text: str
    keywords: list[str]
    source: str = "fallback"
    error: str = ""

    def sparse_query(self) -> str:
        """Rewrite + keywords, the BM25 query of the thesis's Algorithm 1."""
        return " ".join([self.text, *self.keywords])


def rewrite_query(question: str, llm: LLM | None = None) -> QueryRewrite:
    """LLM rewrite + 3–8 keywords via schema-constrained JSON; deterministic fallback without an LLM or on failure."""
    fallback = QueryRewrite(fallback_rewrite(question), fallback_keywords(question))
    if llm is None:
        return fallback
    from kgrag.models.json_output import complete_json

    messages = [{"role": "system", "content": REWRITE_PROMPT}, {"role": "user", "content": question}]
    try:
        with llm_stage("query"):
            data = complete_json(llm, messages, REWRITE_SCHEMA, max_tokens=120)
    except KgragError as exc:
        fallback.error = str(exc)
        return fallback
    text = " ".join(str(data.get("rewrite", "")).split())
    keywords = list(dict.fromkeys(" ".join(str(k).split()) for k in data.get("keywords", []) if str(k).strip()))
    if not text or not keywords:
        fallback.error = "empty rewrite or keywords"
        return fallback
    for extra in fallback.keywords:  # pad to at least 3 with the deterministic ones
        if len(keywords) >= MIN_KEYWORDS:
            break
        if extra.lower() not in {k.lower() for k in keywords}:
            keywords.append(extra)
    return QueryRewrite(text, keywords[:MAX_KEYWORDS], source="llm")


_SPLIT = re.compile(r"\?\s+|;\s*|\s+and\s+(?=(?:what|which|who|when|where|why|how|does|do|is|are|can)\b)", re.I)
_COMPARE = re.compile(r"^(?:compare|what is the difference between|how does)\s+(.+?)\s+(?:and|with|vs\.?|versus)\s+(.+?)[?.]?$", re.I)


@dataclass
class Decomposition:
    """Sub-questions of a multi-part question (the question itself when it has one part)."""

    questions: list[str] = field(default_factory=list)
    source: str = "rules"


def decompose(question: str, llm: LLM | None = None) -> Decomposition:
    """Split a multi-part question: by the LLM when given (JSON list), else by ?/;/"and what…" and comparisons."""
    if llm is not None:
        from kgrag.models.json_output import complete_json

        prompt = (
            "Split the question into the simpler sub-questions needed to answer it (1 to 4). A simple "
            'question stays as it is. Reply as JSON: {"questions": ["..."]}.'
        )
        try:
            with llm_stage("query"):
                data = complete_json(llm, [{"role": "system", "content": prompt}, {"role": "user", "content": question}],
                                     DECOMPOSE_SCHEMA, max_tokens=160)
            parts = [" ".join(str(q).split()) for q in data["questions"] if str(q).strip()]
            if parts:
                return Decomposition(parts, "llm")
        except KgragError:
            pass
    text = " ".join(question.split())
    match = _COMPARE.match(text)
    if match:
        rest = text[: match.start(1)].strip()
        return Decomposition([f"{rest} {match.group(1)}?".strip(), f"{rest} {match.group(2)}?".strip()])
    parts = [p.strip(" ?") for p in _SPLIT.split(text) if p and p.strip(" ?")]
    if len(parts) <= 1:
        return Decomposition([question.strip()])
    return Decomposition([p + "?" for p in parts])


def hyde_passage(question: str, llm: LLM | None) -> str:
    """A hypothetical answer passage written by the LLM (HyDE); "" without an LLM or on failure."""
    if llm is None:
        return ""
    messages = [{"role": "system", "content": HYDE_PROMPT}, {"role": "user", "content": question}]
    try:
        with llm_stage("query"):
            return llm.complete(messages, max_tokens=120, temperature=0.0).text.strip()
    except KgragError:
        return ""


def hyde_vector(index: Workspace, question: str, llm: LLM | None = None) -> np.ndarray:
    """Unit query vector: mean of the question's and the hypothetical passage's embeddings (question alone on failure)."""
    passage = hyde_passage(question, llm)
    texts: Sequence[str] = [question, passage] if passage else [question]
    matrix = index.embedder.embed(list(texts))
    vec = matrix.mean(axis=0)
    norm = float(np.linalg.norm(vec))
    return (vec / norm).astype(np.float32) if norm > 0 else vec.astype(np.float32)


def question_terms(text: str) -> list[str]:
    """Lower-case content terms of a question (question words and stop words dropped)."""
    return [t for t in content_terms(text) if t not in QUESTION_WORDS]
