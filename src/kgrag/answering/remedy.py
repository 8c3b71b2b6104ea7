"""What to do about a problem, from the record that describes it: "The clock shows 2000-01-01 after a power outage.
What should I do?" over a knowledge-base article "KB-1071 Clock resets to 2000-01-01 after a power outage" with its
"Symptoms", "Cause" and "Resolution" sections is answered by the Resolution's steps. The question's words are those of
the symptom, so the passages they find are the Symptoms and the Cause, quoted as "no direct answer", and a small model
given them says what went wrong, not what to do. "Why does X happen?" asked alone is answered by the record's Cause."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kgrag.answering.asks import asks_remedy
from kgrag.answering.select import Scored
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.units import Unit, read_together
from kgrag.answering.words import term_list, words_found

_ASKING = frozenset({"fix", "solve", "resolve", "correct", "cure", "repair", "clear", "stop", "prevent", "avoid",
                     "recover", "remedy", "solution", "resolution", "workaround", "rid", "now", "happen", "happens",
                     "problem", "issue", "done", "fixed", "solved", "resolved", "why", "cause", "causes", "caused",
                     "causing", "reason"})
REMEDY_HEADS = frozenset({"resolution", "solution", "remedy", "fix", "workaround", "corrective action",
                          "what to do", "remedies", "solutions", "corrective actions"})
CAUSE_HEADS = frozenset({"cause", "causes", "root cause", "reason", "explanation"})
_ASKS_WHY = re.compile(r"\bwhy\b|\bwhat\s+(?:is\s+|was\s+)?caus", re.IGNORECASE)  # and what to do about it
# "Why does the clock reset after an outage?", "What causes …?": the record's Cause, when no remedy is asked
_ASKS_CAUSE = re.compile(r"^\s*why\b|\bwhy\s*\?\s*$|\bwhat\s+(?:causes|caused|is\s+causing|could\s+cause)\b|"
                         r"\bwhat\s+is\s+the\s+(?:root\s+)?cause\b", re.IGNORECASE)
MIN_SHARE = 0.6  # of the symptom's words the record (its section path and text) must write
CLOSEST = 0.9  # else the record must hold a passage scoring this share of the best passage's score
MAX_UNITS = 10  # units of a remedy quoted at most (its steps and the notes under them)
SYMPTOM_WORDS = 14  # a troubleshooting entry's leading sentence states its symptom in at most this many words


def _label(text: str) -> str:
    return text.strip(" :").lower()


def _under(units: list[Unit], heads: frozenset[str], paths: Mapping[int, list[str]]) -> list[Unit]:
    """The units of a record's section headed by one of `heads` ("Resolution"), in order: those under such a
    heading, or in a block whose section path ends on it ("KB-1078 … > Cause"), less the heading and title lines;
    of the first block that has them, so the section is cited once."""
    found = sorted((u for u in units if u.kind != "heading" and _label(u.text) not in heads
                    and u.text != paths[u.block][0]  # the record's title line
                    and (_label(u.heading) in heads or _label(paths[u.block][-1]) in heads)),
                   key=lambda u: (u.block, u.pos))
    return [u for u in found if u.block == found[0].block]


def _record_of(block: int, title: str, path: list[str]) -> tuple[str, str]:
    """A block's record: its document and the first element of its section path that is no remedy heading
    ("KB-1042 CO2 value stuck near 400 ppm" for "KB-1042 … > Resolution"), so an article cut between chunks is one."""
    return title, next((p for p in path if _label(p) not in REMEDY_HEADS), f"#{block}")


def try_remedy(q: QuestionTerms, ranked: list[Scored], titles: Mapping[int, str],
               sections: Mapping[int, str]) -> str | None:
    """The remedy of the record describing the problem (`record_remedy`), else of the troubleshooting paragraph
    that states it (`symptom_paragraph`)."""
    return record_remedy(q, ranked, titles, sections) or symptom_paragraph(q, ranked, titles)


def symptom_paragraph(q: QuestionTerms, ranked: list[Scored], titles: Mapping[int, str]) -> str | None:
    """"Modbus devices time out, what should I do?" over a manual's troubleshooting list, each entry a paragraph led
    by its symptom ("Modbus devices time out. Increase poll.interval_ms, check the termination resistor …"): the best
    ranked paragraph whose first sentence writes every word of the problem is quoted whole, its cause and remedy
    after it. None when the question asks no remedy or no paragraph starts with the problem."""
    symptom = q.attributes - _ASKING
    if not asks_remedy(q.text) or not symptom:
        return None
    paragraphs: dict[tuple[int, int], list[Unit]] = {}  # each paragraph's sentences, read once
    for s in ranked:
        if s.unit.kind == "sentence":
            paragraphs.setdefault((s.unit.block, s.unit.paragraph), []).append(s.unit)
    for group in paragraphs.values():
        group.sort(key=lambda u: u.pos)
    for s in ranked:
        unit = s.unit
        paragraph = paragraphs.get((unit.block, unit.paragraph), [])
        if (not paragraph or paragraph[0] is not unit or len(paragraph) < 2 or len(unit.text.split()) > SYMPTOM_WORDS
                or words_found(symptom, set(term_list(unit.text))) != symptom):
            continue
        said = read_together(paragraph[:MAX_UNITS])
        title = titles.get(unit.block, "")
        return f"{title}: {said} [{unit.cited()}]." if title else f"{said} [{unit.cited()}]."
    return None


def record_remedy(q: QuestionTerms, ranked: list[Scored], titles: Mapping[int, str],
                  sections: Mapping[int, str]) -> str | None:
    """The remedy section of one record (its section path, "KB-1071 Clock resets … > Resolution", and its text, in
    one block or cut between several), or its Cause when the question asks why and no remedy, quoted in order with
    its marker: the record that writes most of the problem's words, at least MIN_SHARE of them, else the one holding
    the closest passage when the problem is told in the user's own words. None when the question asks no remedy, no
    record has a remedy section, or two records tie."""
    remedy_asked = asks_remedy(q.text)
    heads = REMEDY_HEADS if remedy_asked else CAUSE_HEADS if _ASKS_CAUSE.search(q.text) else None
    if heads is None or not (symptom := q.attributes - _ASKING):
        return None
    named = {w for n in [*q.names, *q.parts] for w in term_list(n)}
    paths = {s.unit.block: sections.get(s.unit.block, "").split(" > ") for s in ranked}
    record_of = {b: _record_of(b, titles.get(b, ""), path) for b, path in paths.items()}
    records: dict[tuple[str, str], list[Scored]] = {}
    for s in ranked:
        records.setdefault(record_of[s.unit.block], []).append(s)
    candidates: list[tuple[float, float, tuple[str, str], list[Unit]]] = []
    for key, units in records.items():
        remedy = _under([s.unit for s in units], heads, paths)
        words = set(term_list(" ".join([key[1], *(s.unit.scoped() for s in units)])))
        if remedy and words_found(named, words) == named:  # "alarm E14", "the RC-340": that code's or product's record
            share = len(words_found(symptom, words)) / len(symptom)
            candidates.append((share, max(s.score for s in units), key, remedy))
    top = max((s.score for s in ranked), default=0.0)
    by_share = sorted(candidates, key=lambda c: -c[0])
    by_score = sorted(candidates, key=lambda c: -c[1])
    if by_share and by_share[0][0] >= MIN_SHARE and (len(by_share) == 1 or by_share[1][0] < by_share[0][0]):
        _, _, (title, record), remedy = by_share[0]
    elif by_score and by_score[0][1] >= CLOSEST * top and (len(by_score) == 1 or by_score[1][1] < by_score[0][1]):
        _, _, (title, record), remedy = by_score[0]
    else:
        return None
    lead = " – ".join(x for x in (title, record if not record.startswith("#") else "") if x)
    default = "Resolution" if remedy_asked else "Cause"
    parts = [_section(remedy[0].heading if _label(remedy[0].heading) in heads else default, remedy)]
    cause = _under([s.unit for s in records[(title, record)]], CAUSE_HEADS, paths) if remedy_asked else []
    if cause and _ASKS_WHY.search(q.text):  # "Why, and what can be done?": the record's cause first
        parts.insert(0, _section("Cause", cause))
    return f"{lead}: {' '.join(parts)}" if lead else " ".join(parts)


def _section(label: str, units: list[Unit]) -> str:
    """A record's section quoted under its label, in order, with its marker ("Resolution: 1. … 2. … [3].")."""
    said = read_together(units[:MAX_UNITS])
    return f"{label.strip(' :')}: {said} [{units[0].cited()}]."
