"""What to do about a problem, from the record that describes it: "The clock shows 2000-01-01 after a power outage.
What should I do?" over a knowledge-base article "KB-1071 Clock resets to 2000-01-01 after a power outage" with its
"Symptoms", "Cause" and "Resolution" sections is answered by the Resolution's steps. The question's words are those of
the symptom, so the passages they find are the Symptoms and the Cause, quoted as "no direct answer", and a small model
given them says what went wrong, not what to do."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kgrag.answering.select import Scored
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.units import Unit
from kgrag.answering.words import term_list, words_found

# "What should I do?", "How do I fix …?", "how to solve …", "what is the fix / remedy / solution …", "what now"
_ASKS_REMEDY = re.compile(
    r"\bwhat\s+(?:should|do|must|can)\s+(?:i|we|you)\s+do\b|\bwhat\s+now\b|"
    r"\bhow\s+(?:do|can|should|would)\s+(?:i|we|you)\s+(?:fix|solve|resolve|correct|cure|repair|get\s+rid\s+of)\b|"
    r"\bhow\s+to\s+(?:fix|solve|resolve|correct|cure|repair)\b|"
    r"\bwhat\s+(?:is|are)\s+the\s+(?:fix|fixes|remedy|remedies|solution|solutions|resolution)\b", re.IGNORECASE)
_ASKING = frozenset({"fix", "solve", "resolve", "correct", "cure", "repair", "remedy", "solution", "resolution",
                     "rid", "now", "happen", "happens", "problem", "issue"})
REMEDY_HEADS = frozenset({"resolution", "solution", "remedy", "fix", "workaround", "corrective action",
                          "what to do", "remedies", "solutions", "corrective actions"})
MIN_SHARE = 0.6  # of the symptom's words the record (its section path and text) must write
MAX_UNITS = 10  # units of a remedy quoted at most (its steps and the notes under them)


def asks_remedy(question: str) -> bool:
    """The question asks what to do about a problem it describes."""
    return bool(_ASKS_REMEDY.search(question))


def _remedy_units(block: int, ranked: list[Scored]) -> list[Unit]:
    """The units of `block` under a remedy heading ("Resolution", "Workaround"), in order."""
    return sorted((s.unit for s in ranked if s.unit.block == block and s.unit.kind != "heading"
                   and s.unit.heading.strip(" :").lower() in REMEDY_HEADS), key=lambda u: u.pos)


def try_remedy(q: QuestionTerms, ranked: list[Scored], titles: Mapping[int, str],
               sections: Mapping[int, str]) -> str | None:
    """The remedy section of the one record (a block: its section path, "KB-1071 Clock resets … > Resolution", and
    text) that writes most of the problem's words, at least MIN_SHARE of them, quoted in order with its marker; None
    when the question asks no remedy, no block has a remedy section, or two records tie."""
    if not asks_remedy(q.text):
        return None
    symptom = q.attributes - _ASKING
    named = {w for n in [*q.names, *q.parts] for w in term_list(n)}
    if not symptom:
        return None
    candidates: list[tuple[float, int, list[Unit]]] = []
    for block in dict.fromkeys(s.unit.block for s in ranked):
        remedy = _remedy_units(block, ranked)
        if not remedy:
            continue
        record = " ".join([sections.get(block, ""), *(s.unit.scoped() for s in ranked if s.unit.block == block)])
        words = set(term_list(record))
        if words_found(named, words) != named:  # "alarm E14", "the RC-340": the record of that code or product
            continue
        share = len(words_found(symptom, words)) / len(symptom)
        candidates.append((share, block, remedy))
    candidates.sort(key=lambda c: -c[0])
    if not candidates or candidates[0][0] < MIN_SHARE or len(candidates) > 1 and candidates[1][0] == candidates[0][0]:
        return None
    _, block, remedy = candidates[0]
    path = [p for p in sections.get(block, "").split(" > ") if p.strip(" :").lower() not in REMEDY_HEADS]
    lead = " – ".join(x for x in (titles.get(block, ""), *path[:1], remedy[0].heading.strip(" :")) if x)
    said = re.sub(r"\s+", " ", " ".join(u.text for u in remedy[:MAX_UNITS])).strip().rstrip(".")
    return f"{lead}: {said} [{remedy[0].cited()}]."

