"""Answer-level metrics without a judge: gold-fact recall of the answer, EM/F1, correctness label, wrong-product
answers, refusals where the documents lack the answer, and answer-time percentiles, per query type.

"Answerable" is measured, not labelled: a question is answerable when one document of the corpus holds
at least ANSWERABLE of its gold answer's fact terms (a proxy: paraphrased gold answers can fall short). "Wrong product": the question names a specific product or
part (a name found in few chunks) and none of the sources the answer cites mentions any of them. "Wrong verdict": the
answer opens with "Yes" where the gold answer opens with "No", or the reverse.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kgrag.answering.names import name_found
from kgrag.answering.refusal import CITE, is_refusal
from kgrag.answering.terms import analyse
from kgrag.evaluate import metrics

ANSWERABLE = 0.6  # share of gold fact terms one document must contain for a question to count as answerable
COMMON_NAME = 0.2  # a name in more than this share of chunks identifies no product (e.g. the vendor's name)


@dataclass
class Corpus:
    """The indexed text, lower-cased: per chunk (for name frequencies) and per document (for answerability)."""

    chunks: list[str]
    documents: list[str]

    @classmethod
    def of(cls, chunks: Iterable[tuple[str, str]] | Iterable[str]) -> Corpus:
        """From (doc_id, text) pairs, or plain texts (each its own document)."""
        pairs = [(c, c) if isinstance(c, str) else c for c in chunks]
        by_doc: dict[str, list[str]] = defaultdict(list)
        for doc, text in pairs:
            by_doc[doc].append(text.lower())
        return cls([t.lower() for _, t in pairs], ["\n".join(v) for v in by_doc.values()])

    def answerable(self, gold: str) -> bool:
        if is_refusal(gold):  # the gold answer says the documents do not hold it
            return False
        terms = metrics.gold_fact_terms(gold)
        return any(metrics.gold_fact_recall(d, gold, terms) >= ANSWERABLE for d in self.documents)

    def share(self, name: str) -> float:
        if not self.chunks:
            return 0.0
        return sum(1 for c in self.chunks if name_found(name, c)) / len(self.chunks)


def answer_recall(answer: str, gold: str) -> float:
    """Gold-fact recall of an answer; when the gold answer says the documents do not hold it, 1.0 for a refusal and
    0.0 for anything else (its words, "this information", are no fact an answer could state)."""
    return float(is_refusal(answer)) if is_refusal(gold) else metrics.gold_fact_recall(answer, gold)


def specific_names(question: str, corpus: Corpus) -> list[str]:
    """The question's product/part names that identify something (rare enough in the corpus)."""
    q = analyse(question)
    return [n for n in (q.parts or q.names) if not n.isdigit() and 0 < corpus.share(n) <= COMMON_NAME]


def wrong_product(question: str, answer: str, cited_texts: Sequence[str], corpus: Corpus) -> bool | None:
    """True when the answer cites only sources that mention none of the question's specific names;
    None when it does not apply (a refusal, or a question naming no specific product)."""
    names = specific_names(question, corpus)
    if is_refusal(answer) or not names:
        return None
    cited = "\n".join(cited_texts).lower() + "\n" + CITE.sub("", answer).lower()
    return not any(_mentioned(n, cited) for n in names) if cited_texts else True


def _mentioned(name: str, text: str) -> bool:
    """`name` in `text`, a hyphen also written as a space ("Cortex-M4" ~ "Cortex M4")."""
    return name_found(name, text) or ("-" in name and name_found(name.replace("-", " "), text))


_VERDICT = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)


def wrong_verdict(answer: str, gold: str) -> bool | None:
    """True when the answer opens with the opposite of the gold answer's "Yes"/"No" (fact recall cannot see it: the
    quoted ratings score the same under either word); None when either gives no verdict."""
    said, meant = _VERDICT.match(answer), _VERDICT.match(gold)
    return None if said is None or meant is None else said.group(1).lower() != meant.group(1).lower()


def cited_support(gold: str, answer: str, cited_texts: Sequence[str]) -> float | None:
    """Share of the gold fact terms an answer states that its cited sources state too: does [n] point where the
    fact is? None for a refusal or an answer stating no gold term."""
    if is_refusal(answer):
        return None
    said = [t for t in metrics.gold_fact_terms(gold) if metrics.gold_fact_recall(CITE.sub("", answer), t, [t])]
    if not said:
        return None
    cited = "\n".join(cited_texts)
    return sum(metrics.gold_fact_recall(cited, t, [t]) for t in said) / len(said)


def answer_scores(
    question: str, gold: str, answer: str, cited_texts: Sequence[str], corpus: Corpus, answer_s: float = 0.0
) -> dict[str, Any]:
    """All answer metrics of one answer."""
    recall = answer_recall(answer, gold)
    refusal = is_refusal(answer)
    return {
        "fact_recall": recall,
        "exact_match": metrics.exact_match(answer, gold),
        "f1": metrics.f1_score(answer, gold),
        "correctness": metrics.correctness_label(recall, refusal=refusal),
        "refusal": refusal,
        "answerable": corpus.answerable(gold),
        "wrong_product": wrong_product(question, answer, cited_texts, corpus),
        "wrong_verdict": wrong_verdict(answer, gold),
        "cited_support": cited_support(gold, answer, cited_texts),
        "answer_s": answer_s,
    }


def _mean(values: Iterable[float]) -> float | None:
    vals = [float(v) for v in values]
    return sum(vals) / len(vals) if vals else None


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (nearest rank) of `values`."""
    vals = sorted(values)
    if not vals:
        return 0.0
    return vals[min(len(vals) - 1, max(0, math.ceil(p / 100 * len(vals)) - 1))]


def summarize(scores: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Means, label counts, rates and time percentiles of a group of answer scores."""
    answerable = [s for s in scores if s["answerable"]]
    unanswerable = [s for s in scores if not s["answerable"]]
    checked = [s["wrong_product"] for s in scores if s["wrong_product"] is not None]
    times = [s["answer_s"] for s in scores]
    out: dict[str, Any] = {
        "n": len(scores),
        "answerable": len(answerable),
        "fact_recall": _mean(s["fact_recall"] for s in scores),
        "fact_recall_answerable": _mean(s["fact_recall"] for s in answerable),
        "context_recall": _mean(s["context_recall"] for s in scores if "context_recall" in s),  # what the answer drew on
        "exact_match": _mean(s["exact_match"] for s in scores),
        "f1": _mean(s["f1"] for s in scores),
        "wrong_product": _mean(float(x) for x in checked),
        "wrong_verdict": _mean(float(s["wrong_verdict"]) for s in scores if s.get("wrong_verdict") is not None),
        "cited_support": _mean(s["cited_support"] for s in scores if s.get("cited_support") is not None),
        "refused_unanswerable": _mean(float(s["refusal"]) for s in unanswerable),
        "refused_answerable": _mean(float(s["refusal"]) for s in answerable),
        "p50_s": statistics.median(times) if times else 0.0,
        "p95_s": percentile(times, 95),
    }
    cpu = [s["cpu_s"] for s in scores if "cpu_s" in s]  # CPU seconds: wall time is inflated on a shared machine
    if cpu:
        out["p50_cpu_s"], out["p95_cpu_s"] = statistics.median(cpu), percentile(cpu, 95)
    prompts = [s["prompt_tokens"] for s in scores if s.get("prompt_tokens")]
    out["llm_calls"] = len(prompts)
    if prompts:
        out["prompt_tokens"] = _mean(prompts)
    labels = [s["correctness"] for s in scores]
    out.update({k: int(v) for k, v in metrics.correctness_rates(labels).items() if k in metrics.CORRECTNESS_LABELS})
    return {k: (round(v, 3) if isinstance(v, float) else v) for k, v in out.items() if v is not None}


def cited_texts(citations: Sequence[dict[str, Any]], sources: Sequence[dict[str, Any]]) -> list[str]:
    """Title, section and quote of each cited block (plus its chunk text when the sources are known; for a graph-fact
    block, which has no chunk, the text of the fact block holding the quoted line: its subject names the part)."""
    by_chunk = {s.get("chunk_id"): s.get("text", "") for s in sources if s.get("chunk_id")}

    def block_text(c: dict[str, Any]) -> str:
        if c.get("chunk_id"):
            return by_chunk.get(c.get("chunk_id"), "")
        quote = str(c.get("quote") or "")
        return next((str(s.get("text", "")) for s in sources if quote and not s.get("chunk_id") and quote in s.get("text", "")), "")

    return [" ".join(str(c.get(k) or "") for k in ("title", "document", "section", "quote")) + " " + block_text(c)
            for c in citations]


def summarize_answers(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """{"overall": summary, "by_type": {query_type: summary}} of records carrying `scores` and `query_type`."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in records:
        groups[r.get("query_type", "general")].append(r["scores"])
    return {"overall": summarize([r["scores"] for r in records]),
            "by_type": {t: summarize(g) for t, g in sorted(groups.items())}}
