"""A "How do I …?" question over a manual's numbered procedure: "How do I prime the pump?" under "3 Priming the pump"
/ "1. Open the bleed valve …" / "2. Press and hold the PRIME key …" is answered by the section's steps, quoted whole
and in order. Quoted by relevance, the steps come out of order and partly; a small model picks one of them."""

from __future__ import annotations

import re

from kgrag.answering.select import Scored
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.units import Unit, read_together
from kgrag.answering.words import content_terms

_HOW = (r"(?:how\s+(?:do|can|should|would|must)\s+(?:i|we|you|one)\s+|how\s+to\s+|what\s+are\s+the\s+steps\s+(?:to|for)\s+)"
        r"(?P<task>[^?]+)")
_HOW_DO = re.compile(rf"^\s*{_HOW}", re.IGNORECASE)
# after the user's situation: "My RC-340 battery is flat, how do I replace it?"
_HOW_DO_AFTER = re.compile(rf"(?:[,;:.!]\s+|\s[-–]\s)(?:so\s+|and\s+)?{_HOW}", re.IGNORECASE)
# "rma steps for sending back a broken unit", "commissioning procedure": a task typed as a keyword before "steps"
_TYPED_TASK = re.compile(r"^\s*(?P<task>(?:[\w-]+\s+){0,2}[\w-]+)\s+(?:steps|procedure)\b", re.IGNORECASE)
_STEP = re.compile(r"^\s*(?:\d{1,2}[.)]|step\s+\d{1,2}\b)", re.IGNORECASE)  # "1.", "2)", "Step 3"
_FIRST_STEP = re.compile(r"^\s*(?:1[.)]|step\s+1\b)", re.IGNORECASE)
MAX_UNITS = 12  # a procedure's units quoted at most (its steps and the notes under them)
PROSE_UNITS = 4  # a section without numbered steps is quoted as the procedure when it is this short


def asked_task(question: str) -> set[str]:
    """The content words of the task a how-to question asks ("How do I prime the pump?" -> {"prime", "pump"}), less
    numbers ("roll back to 2.6.4": the target, not the task)."""
    m = _HOW_DO.match(question) or _HOW_DO_AFTER.search(question) or _TYPED_TASK.match(question)
    return {w for w in content_terms(m["task"]) if not w[0].isdigit()} if m else set()  # "to 2.6.4": a target


def _same_root(a: str, b: str) -> bool:
    """"set" and "setting", "prime" and "priming", "calibrate" and "calibrating": forms of one word (the shorter, of
    three letters or more, opens the longer, less a closing "e")."""
    short, long_ = sorted((a, b), key=len)
    if len(short) < 3:
        return a == b
    return long_.startswith(short) or (len(short) >= 4 and short.endswith("e") and long_.startswith(short[:-1]))


def _names_task(heading: str, task: set[str]) -> bool:
    """The heading writes every word of the task, in some form of it ("3 Priming the pump" for "prime the pump")."""
    words = content_terms(heading)
    return bool(task) and all(any(_same_root(t, w) or _joined(t, w, task) for w in words) for t in task)


def _joined(word: str, heading_word: str, task: set[str]) -> bool:
    """The heading writes the word joined to another task word: "Rollback" for "roll back", "Setup" for "set up"."""
    return any(heading_word in (word + other, other + word) for other in task if other != word)


def _heading_is_task(heading: str, task: set[str]) -> bool:
    """A heading of two words or more, each a word of the task: "7. Factory reset" for "reset the gateway to factory
    defaults" (its section says how, in prose); or one that is the whole task: "1. Installation" for "How do I
    install the SDK?" (the SDK is the document's title), not "Maintenance" for "service the pump during maintenance"."""
    words = {w for w in content_terms(heading) if not w[0].isdigit()}
    each = bool(words) and all(any(_same_root(w, t) for t in task) for w in words)
    return each and (len(words) >= 2 or all(any(_same_root(t, w) for w in words) for t in task))


def try_procedure(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """The numbered steps under the best-ranked heading that names the asked task, in order, with their source's
    marker (or a short section in prose under a heading that is the task's name); None when the question asks no
    task or no such section has two steps or more."""
    asked = asked_task(q.text)  # "the pump" of a pump manual is no task word, unless it is the only one ("rma steps"
    task = (asked - {w for t in titles.values() for w in content_terms(t)}) or asked  # in an RMA policy)
    found: list[tuple[Scored, str, list[Unit]]] = []
    for s in ranked:
        heading = s.unit.heading
        named = bool(heading) and _names_task(heading, task)
        is_task = bool(heading) and _heading_is_task(heading, task)
        if not (named or is_task) or any(f[0].unit.block == s.unit.block for f in found):
            continue
        section = sorted((x.unit for x in ranked if x.unit.block == s.unit.block and x.unit.heading == heading
                          and x.unit.kind != "heading"), key=lambda u: u.pos)
        steps = sum(1 for u in section if _STEP.match(u.text))
        if named and steps >= 2 or not steps and len(section) <= PROSE_UNITS and is_task:
            found.append((s, heading, section))  # numbered steps, or a short section the task names ("Factory reset")
    if not found:
        return None
    # a procedure cut between passages: the part that starts it, else the best ranked
    s, heading, section = next((f for f in found if any(_FIRST_STEP.match(u.text) for u in f[2])), found[0])
    title = titles.get(s.unit.block, "")
    lead = f"{title} – {heading}" if title else heading
    return f"{lead}: {read_together(section[:MAX_UNITS])} [{s.unit.cited()}]."
