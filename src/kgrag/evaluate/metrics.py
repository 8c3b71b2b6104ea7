"""Pure evaluation formulas (no LLM, no I/O) so every number in a report can be checked by hand.

Retrieval metrics: `coverage`, `gold_fact_terms`, `gold_fact_recall`.
Answer metrics: `normalize_answer`, `exact_match`, `f1_score`.
Judge-metric arithmetic (the judge only supplies counts and verdicts): `relevance_score`,
`completeness_score`, `correctness_label`, `correctness_rates`, `faithfulness_score`,
`gated_helpfulness`.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from collections.abc import Iterable, Sequence

GoldLike = str | Sequence[str]

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation)
_WS = re.compile(r"\s+")


def _golds(gold: GoldLike) -> list[str]:
    """A gold answer as a list of accepted strings (a plain string is one alias)."""
    if isinstance(gold, str):
        return [gold]
    return [g for g in gold if isinstance(g, str)]


def _round_half_up(x: float) -> int:
    """Round .5 upwards (Python's round() is banker's rounding, which surprises hand checks)."""
    return int(math.floor(x + 0.5))


# --- answer metrics (SQuAD / MuSiQue conventions) -------------------------------------------


def normalize_answer(text: str) -> str:
    """Lower case, drop punctuation and articles (a, an, the), collapse whitespace."""
    text = text.lower().translate(_PUNCT)
    text = _ARTICLES.sub(" ", text)
    return _WS.sub(" ", text).strip()


def exact_match(prediction: str, gold: GoldLike) -> float:
    """1.0 when the normalised prediction equals a normalised gold alias, else 0.0."""
    pred = normalize_answer(prediction)
    return float(any(pred == normalize_answer(g) for g in _golds(gold)))


def _f1(pred_tokens: list[str], gold_tokens: list[str]) -> float:
    if not pred_tokens or not gold_tokens:
        return float(pred_tokens == gold_tokens)
    common = Counter(pred_tokens) & Counter(gold_tokens)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision = same / len(pred_tokens)
    recall = same / len(gold_tokens)
    return 2 * precision * recall / (precision + recall)


def f1_score(prediction: str, gold: GoldLike) -> float:
    """Token-level F1 between normalised prediction and gold (best over aliases)."""
    pred = normalize_answer(prediction).split()
    return max((_f1(pred, normalize_answer(g).split()) for g in _golds(gold)), default=0.0)


# --- retrieval metrics ----------------------------------------------------------------------


def _squash(text: str) -> str:
    return _WS.sub(" ", text.lower()).strip()


def coverage(context: str, gold: GoldLike) -> float:
    """KET-RAG Coverage: 1.0 when a gold string occurs in the context (case/whitespace-insensitive)."""
    ctx = _squash(context)
    return float(any(g.strip() and _squash(g) in ctx for g in _golds(gold)))


_STOP_WORDS_TEXT = """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each either else etc
    for from further had has have having he her here hers him his how however i if in into is it
    its itself just like may me might more most much must my neither no nor not now of off on once
    only or other our ours out over own per same shall she should so some such than that the their
    them then there these they this those through thus to too under until up upon us very via was
    we were what when where whether which while who whom whose why will with within without would
    yes yet you your one two three four five six seven eight nine ten used use uses using based
    provide provides provided offer offers offered support supports supported include includes
    including included allow allows allowed make makes made get gets set sets well way ways
    thing things instead rather answer question document documents contain contains"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())

_UNITS = (
    r"%|°\s?[CF]|[kKMGTmµun]?(?:Hz|V|A|W|Wh|Ah|B|b|bit|bits|bps|Bps|byte|bytes|s|sec|g|m|Ω|ohm|"
    r"ohms|F|H|Pa|dB|dBm|dBi|lux|lx)|mAh|mm|cm|km|ppm|ppb|RH|°|deg|degrees|hPa|kPa|V/m|mm/s|"
    r"mg|kg|ms|us|ns|µs|min|h|hours|seconds|pins?|cores?|channels?|bits?"
)
_NUMBER_UNIT = re.compile(rf"(?<![\w.])[-+±]?\d+(?:[.,]\d+)?\s?(?:{_UNITS})(?![\w-])")
_WORD = re.compile(r"[A-Za-z0-9µΩ](?:[\w\-/+]|\.(?=\d))*")
_NUMBER = re.compile(r"[\d.,]+")


def _is_part_number(tok: str) -> bool:
    return any(c.isdigit() for c in tok) and any(c.isalpha() for c in tok)


def _is_capitalised(tok: str) -> bool:
    return tok[:1].isupper() or _is_part_number(tok)


def gold_fact_terms(gold: str) -> list[str]:
    """Content terms of a gold answer: numbers with units, part numbers, capitalised names, technical words.

    Multi-word capitalised names (e.g. "Nicla Sense ME") are kept as one phrase; stop words and
    single letters are dropped; terms are lower-cased and de-duplicated in order of appearance.
    An answer made only of stop words (e.g. "five") is its own single term.
    """
    terms: list[str] = []
    taken: list[tuple[int, int]] = []
    for m in _NUMBER_UNIT.finditer(gold):
        if m.group(0).strip():
            terms.append(m.group(0))
            taken.append(m.span())

    def free(span: tuple[int, int]) -> bool:
        return all(span[1] <= a or span[0] >= b for a, b in taken)

    run: list[str] = []

    def flush() -> None:
        while run and run[0].lower() in STOP_WORDS:
            run.pop(0)
        if run:
            terms.append(" ".join(run[:4]))
            terms.extend(run[4:])
        run.clear()

    prev_end = -1
    for m in _WORD.finditer(gold):
        tok = m.group(0)
        if not free(m.span()):
            flush()
            continue
        gap = gold[prev_end : m.start()] if prev_end >= 0 else " "
        prev_end = m.end()
        if _NUMBER.fullmatch(tok):  # a bare number belongs to a name ("Nano 33") or stands alone
            if run and gap.strip() == "":
                run.append(tok)
            else:
                flush()
                terms.append(tok)
            continue
        if _is_capitalised(tok) and (not run or gap.strip() == ""):
            if tok.lower() in STOP_WORDS and not run:
                continue
            run.append(tok)
            continue
        flush()
        if _is_capitalised(tok):
            if tok.lower() not in STOP_WORDS:
                run.append(tok)
            continue
        low = tok.lower()
        if len(low) > 2 and low not in STOP_WORDS:
            terms.append(tok)
    flush()
    seen: dict[str, None] = {}
    for t in terms:
        seen.setdefault(_squash(t), None)
    out = [t for t in seen if t]
    if not out and normalize_answer(gold):  # e.g. "five": the whole normalised answer is the fact
        out = [normalize_answer(gold)]
    return out


_DECIMAL_POINT = re.compile(r"(?<=\d)\\\.(?=\d)")  # an escaped "." between two digits


def _term_pattern(term: str) -> re.Pattern[str]:
    """Case-insensitive pattern for a term: flexible whitespace, optional space before a unit, and a decimal point
    that a document may write as a decimal comma ("4.4 V" is "4,4 V")."""
    parts = [_DECIMAL_POINT.sub("[.,]", re.escape(p)) for p in term.split(" ")]
    body = r"\s*".join(parts) if term[:1].isdigit() else r"\s+".join(parts)
    return re.compile(rf"(?<![\w]){body}(?![\w])", re.IGNORECASE)


def gold_fact_recall(context: str, gold: str, terms: Iterable[str] | None = None) -> float:
    """Share of the gold answer's content terms found in the context (1.0 if it has none)."""
    wanted = list(terms) if terms is not None else gold_fact_terms(gold)
    if not wanted:
        return 1.0
    found = sum(1 for t in wanted if _term_pattern(t).search(context))
    return found / len(wanted)


# --- judge-metric arithmetic ----------------------------------------------------------------


def relevance_score(similarities: Sequence[float]) -> int:
    """Answer relevance 1-5: round(1 + 4·clip(mean cosine of the judge's questions, 0, 1))."""
    if not similarities:
        return 1
    s = sum(similarities) / len(similarities)
    return _round_half_up(1 + 4 * min(1.0, max(0.0, s)))


def completeness_score(covered: int, omitted: int, wrong: int = 0) -> int:
    """Completeness 1-5: 1 + 4·covered/(covered+omitted), minus 1 per wrong item, clipped, rounded."""
    total = covered + omitted
    frac = covered / total if total else 0.0
    return _round_half_up(min(5.0, max(1.0, 1 + 4 * frac - wrong)))


CORRECTNESS_LABELS = ("TP", "PARTIAL", "FP", "FN")


def correctness_label(gold_coverage: float, *, high_severity_error: bool = False, refusal: bool = False) -> str:
    """TP / PARTIAL / FP / FN for one answer.

    Order of the rules: a refusal or meta answer is FN; a high-severity error is FP (even when the
    gold items are present); otherwise coverage ≥ 0.6 is TP, ≥ 0.2 is PARTIAL, and an answer that
    covers less is FP (it answered, but wrongly).
    """
    if refusal:
        return "FN"
    if high_severity_error:
        return "FP"
    if gold_coverage >= 0.6:
        return "TP"
    if gold_coverage >= 0.2:
        return "PARTIAL"
    return "FP"


def correctness_rates(labels: Iterable[str]) -> dict[str, float]:
    """Counts plus precision = (TP + ½·PARTIAL)/answered and hard recall = TP/all questions."""
    counts = Counter(labels)
    n = sum(counts[k] for k in CORRECTNESS_LABELS)
    answered = counts["TP"] + counts["PARTIAL"] + counts["FP"]
    out: dict[str, float] = {k: float(counts[k]) for k in CORRECTNESS_LABELS}
    out["precision"] = (counts["TP"] + 0.5 * counts["PARTIAL"]) / answered if answered else 0.0
    out["hard_recall"] = counts["TP"] / n if n else 0.0
    return out


FAITHFULNESS_VALUES = {"yes": 1.0, "partial": 0.75, "no": 0.25}


def faithfulness_score(verdicts: Sequence[str]) -> float:
    """Mean statement support: yes 1 / partial 0.75 / no 0.25; an answer with no claims scores 1.0."""
    if not verdicts:
        return 1.0
    vals = [FAITHFULNESS_VALUES.get(v.strip().lower(), 0.25) for v in verdicts]
    return sum(vals) / len(vals)


def gated_helpfulness(h_raw: float, faithfulness: float, beta: float = 0.5) -> float:
    """Faithfulness-gated helpfulness h = h_raw·(β + (1-β)·faithfulness)."""
    return h_raw * (beta + (1 - beta) * faithfulness)
