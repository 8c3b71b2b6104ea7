"""Questions that ask two things in two clauses ("What ranging accuracy does the Stella's UWB module achieve, and what
frequency range does it cover?"): each clause is answered by its own quote, so one row does not answer half."""

from __future__ import annotations

import re

from kgrag.answering.asks import ASK_WORDS, second_question
from kgrag.answering.extract import Extraction, try_extract
from kgrag.answering.select import score_units
from kgrag.answering.terms import analyse
from kgrag.answering.units import Unit

# "… what CPU does that module contain?": the second clause asks about the first one's answer, which the question
# does not name; only "it" / "its" (the thing the question names) is carried over
_ANSWER_REFERENCE = re.compile(r"\b(?:that|this|these|those|the same)\s+\w+", re.IGNORECASE)


def two_clauses(question: str) -> tuple[str, str] | None:
    """The two questions of "…, and what/which/how …", the second naming what the first names ("… does it cover" ->
    "What frequency range does it cover, on the Arduino Stella?"); None for other questions."""
    m = second_question(question, conjunctions=frozenset({"and"}), words=ASK_WORDS - {"why", "who"})
    if not m:
        return None
    first = question[:m.start()].strip()
    names = ", ".join(" ".join(p) for p in analyse(first).phrases)
    if not names:
        return None
    second = question[m.start("word"):].strip().rstrip("?")
    if _ANSWER_REFERENCE.search(second):
        return None
    return f"{first}?", f"{second[:1].upper()}{second[1:]}, on the {names}?"


def quote_each_clause(question: str, units: list[Unit], scopes: dict[int, str],
                      titles: dict[int, str]) -> list[Extraction] | None:
    """One quote per clause of a two-clause question (one when a single unit answers both), or None when either clause
    has no explicit quote: the model then reads the focus."""
    clauses = two_clauses(question)
    if clauses is None:
        return None
    found: list[Extraction] = []
    for clause in clauses:
        hit = try_extract(analyse(clause), score_units(clause, units, scopes), titles)
        if hit is None:
            return None
        if not any(f.unit == hit.unit for f in found):
            found.append(hit)
    return found


def joined(found: list[Extraction]) -> str:
    """The quotes as one answer, each with its citation; a product lead the previous quote already gave is not repeated."""
    first = found[0].text
    lead = first.split(": ", 1)[0] + ": " if ": " in first else ""
    texts = [first] + [f.text.removeprefix(lead) if lead else f.text for f in found[1:]]
    return " ".join(f"{text} [{f.unit.cited()}]." for text, f in zip(texts, found, strict=True))
