"""Yes/no questions a release bound decides: "can i set 57600 baud on fw 2.4.3" over "57600 baud from firmware
2.5.0", "Can I downgrade a rev C board to 2.3.1?" over "Rev C main boards cannot be downgraded below 2.4.0". The one
version the question writes is read against the bound that the best passage about the asked feature gives next to
its words; a small model says yes to what it is asked, and the passage alone does not say how 2.4.3 stands to
2.5.0."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgrag.answering.select import Scored
from kgrag.answering.terms import QuestionTerms, asks_yes_no
from kgrag.answering.words import content_terms, words_found

_NUMBER = r"v?(\d+(?:\.\d+){1,3})(?:\.x)?"  # "2.5.0", "v3.1", "2.6.x"
_SOFTWARE = r"(?:(?:firmware|fw|software|release|version|os)\s+)?"
VERSION = re.compile(rf"(?<![\w.]){_NUMBER}(?![\w]|\.\d)", re.IGNORECASE)
# A feature that needs at least this release: "from firmware 2.5.0", "since 3.1", "requires 3.1 or later", "2.5.0 or newer"
_AT_LEAST = re.compile(rf"\b(?:from|since|as\s+of|starting\s+with|introduced\s+in|added\s+in|requires?|needs?)\s+"
                       rf"{_SOFTWARE}{_NUMBER}|(?<![\w.]){_NUMBER}\s+or\s+(?:later|newer|higher|above)\b", re.IGNORECASE)
# Nothing before this release: "cannot be downgraded below 2.4.0", "cannot run firmware older than 2.4.0"
_NOT_BELOW = re.compile(rf"\b(?:below|older\s+than|earlier\s+than|lower\s+than|prior\s+to)\s+{_SOFTWARE}{_NUMBER}",
                        re.IGNORECASE)
_DENIED = re.compile(r"\b(?:cannot|can't|can\s+not|not|never|no\s+longer|refuses?|unable)\b", re.IGNORECASE)
_TO_RELEASE = re.compile(r"\s*(?:to|→|->|–|-)\s*v?\d", re.IGNORECASE)  # "from 2.6.4 to 3.1.2": a path, no bound
_SENTENCE_END = re.compile(r"[.!?;](?:\s|$)")  # not the dots of "2.4.0"
NEAR = 80  # characters between the feature's word and the bound that speaks of it
CANDIDATES = 6  # best-ranked units read for a bound
# Words a release question asks with that say nothing of the feature
_RELEASE_WORDS = frozenset({"firmware", "fw", "software", "release", "version", "versions", "run", "running", "use",
                            "using", "set", "get", "still", "possible", "able", "ok", "okay", "work", "supported",
                            "support", "supports", "available", "update", "upgrade", "unit", "device"})


@dataclass
class Bound:
    """What one unit says of a release: the feature needs at least `version`, or nothing below it runs."""

    unit: Scored
    version: tuple[int, ...]
    written: str
    at_least: bool


def version_key(text: str) -> tuple[int, ...]:
    """"2.4.3" -> (2, 4, 3), padded so that "2.5" and "2.5.0" are one release."""
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (4 - len(parts)))


def _bounds(unit: Scored, feature: set[str]) -> list[Bound]:
    """The bounds a unit writes within NEAR characters of a word of the feature (a denial in the same sentence for
    "below X")."""
    text = unit.unit.text
    places = [m.start() for m in re.finditer(r"[\w-]+", text) if words_found(feature, content_terms(m.group(0)))]
    found = []
    for pattern, at_least in ((_AT_LEAST, True), (_NOT_BELOW, False)):
        for m in pattern.finditer(text):
            if not any(abs(p - m.start()) <= NEAR for p in places) or _TO_RELEASE.match(text, m.end()):
                continue  # far from the feature, or an upgrade's start ("from 2.6.4 to 3.1.2"), no bound
            starts = [x.end() for x in _SENTENCE_END.finditer(text, 0, m.start())]
            sentence = text[starts[-1] if starts else 0:m.start()]
            if not at_least and not _DENIED.search(sentence):
                continue
            written = next(g for g in m.groups() if g)
            found.append(Bound(unit, version_key(written), written, at_least))
    return found


def release_verdict(q: QuestionTerms, ranked: list[Scored]) -> tuple[str, Bound, str] | None:
    """("No." / "Yes.", the deciding bound, why) for a yes/no question writing one release; None when no passage
    about the asked feature gives a bound near its words, when the best passages disagree, or when a "nothing below"
    bound is met (it does not say the feature is there)."""
    asked = [m.group(1) for m in VERSION.finditer(q.text)]
    if len(set(asked)) != 1 or not asks_yes_no(q):
        return None
    version = version_key(asked[0])
    feature = content_terms(VERSION.sub(" ", q.text)) - _RELEASE_WORDS
    if not feature:
        return None
    bounds = [b for s in ranked[:CANDIDATES] for b in _bounds(s, feature)]
    if not bounds:
        return None
    verdicts = {"No." if version < b.version else "Yes." if b.at_least else "" for b in bounds}
    if len(verdicts) != 1 or "" in verdicts:
        return None
    bound = bounds[0]
    relation = "before" if version < bound.version else "at or after"
    return verdicts.pop(), bound, f"{asked[0]} is {relation} {bound.written}"


# "What changed in firmware 4.1?", "what's new in 2.5.0", "Summarise what firmware 2.5.0 changed", "fixed in 3.1.2"
# (not "Which customer was affected by the bug fixed in 4.1?": a thing asked, not the changes)
_ASKS_CHANGES = re.compile(r"^\s*(?:what(?:'s|s|\s+is|\s+was|\s+were)?|(?:summari[sz]e|list|describe)\s+what)\s+"
                           r"(?:[\w.-]+\s+){0,3}?(?:changed|new|fixed|added|removed|different)\b|"
                           r"^\s*(?:summari[sz]e|list|describe)?\s*(?:the\s+)?(?:changes|changelog|release\s+notes?)\b",
                           re.IGNORECASE)
SOURCES = 2  # documents whose section on the release is quoted (a changelog and a deck may both have one)
MAX_NOTES = 10  # lines of a release's section quoted at most


def try_release_notes(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """The lines of the section a release note heads with the one release the question asks about ("Firmware 4.1
    (2026-09-14)" for "What changed in firmware 4.1?"), in order; None when the question asks no change, writes no
    release or two, or no heading names it ("4.1" is not "4.1.2")."""
    asked = {m.group(1) for m in VERSION.finditer(q.text)}
    if len(asked) != 1 or not _ASKS_CHANGES.search(q.text) or asks_yes_no(q):
        return None
    release = re.compile(rf"(?<![\w.])v?{re.escape(asked.pop())}(?![\w]|\.\d)", re.IGNORECASE)
    heads: dict[str, Scored] = {}  # per document, the best-ranked unit under a heading naming the release
    for s in ranked:
        if s.unit.heading and release.search(s.unit.heading) and len(heads) < SOURCES:
            heads.setdefault(titles.get(s.unit.block, ""), s)
    quotes = []
    for title, best in heads.items():  # the section's lines, also where it goes on in the document's next passage
        heading = best.unit.heading
        lines = sorted((s.unit for s in ranked if titles.get(s.unit.block, "") == title and s.unit.heading == heading
                        and s.unit.kind != "heading"), key=lambda u: (u.block, u.pos))
        said = _listed([u.text for u in lines][:MAX_NOTES])
        if said:
            quotes.append(f"{title + ' – ' if title else ''}{heading.rstrip(' :')}: {said} [{best.unit.cited()}].")
    return " ".join(quotes) or None


def _listed(lines: list[str]) -> str:
    """Release-note lines read as one quote: a line ending without a stop is followed by "; " ("Fault current now
    3.6 mA; Fault level selectable …"), not run into the next."""
    out = ""
    for line in (re.sub(r"\s+", " ", x).strip() for x in lines):
        if line and line not in out:
            out = f"{out}{'' if not out else ' ' if out[-1] in '.!?:;' else '; '}{line}"
    return out.rstrip(".")
