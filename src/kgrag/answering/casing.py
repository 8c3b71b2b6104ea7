"""Product names as users type them: "nano 33 ble sense rev2 flash size", "what's the operating temp of the opta".
A question's names are read by their capitals and digits (answering/terms.py), so a name typed in lower case named
nothing and the answer went to the closest passages. The names the index's documents give are written back in the
documents' casing before the question is read: a document's product whole ("Opta"), and a run of two or more of its
title's words that ends on a code or an acronym ("Nano 33 BLE Sense Rev2", "Portenta H7", "GIGA R1"). A name the
documents hold in one revision only is that revision when typed without it ("Mega 2560" is the "Mega 2560 Rev3")."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

_MARKED = re.compile(r"\d|[A-Z].*[A-Z]")  # "33", "Rev2", "BLE", "GIGA", "EdgeLink": a code or an acronym
MAX_TITLE_RUN = 6  # words of a title run
_DETERMINER = r"\b(?:the|a|an|my|our|your|this|that|its)\s+"


def _capitalised(word: str) -> bool:
    return word[:1].isupper() or word[:1].isdigit()


def known_names(products: Iterable[str], titles: Iterable[str]) -> list[str]:
    """The names to write back: every product, and each run of a title's capitalised words (two or more, the last a
    code or an acronym), longest first."""
    names = {p.strip() for p in products if p.strip()}
    for title in titles:
        words = title.split()
        for i in range(len(words)):
            for j in range(i + 2, min(len(words), i + MAX_TITLE_RUN) + 1):
                run = words[i:j]
                if not all(_capitalised(w) for w in run):
                    break
                if _MARKED.search(run[-1]):  # ends on its code: "LP-4", not "LP-4 Firmware" (a word asked)
                    names.add(" ".join(run))
    return sorted(names, key=lambda n: (-len(n), n))


def with_known_casing(question: str, names: Iterable[str]) -> str:
    """`question` with each known name it writes in another casing ("opta", "nano 33 ble sense rev2") written as the
    documents write it."""
    for pattern, name in _patterns(tuple(names)):
        question = pattern.sub(lambda m, name=name: m.group(0)[: len(m.group(0)) - len(name)] + name, question)
    return question


@functools.lru_cache(maxsize=8)
def _patterns(names: tuple[str, ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each name's pattern, compiled once per name list (an index of many documents has thousands of names, past
    what the `re` module keeps compiled); a one-word product may be a word too ("Due" in "due to"): after a
    determiner only ("the opta", "my stella")."""
    return tuple((re.compile(rf"{'' if ' ' in name else _DETERMINER}(?<![\w-]){re.escape(name)}(?![\w-])",
                             re.IGNORECASE), name) for name in names)


_REVISION_END = re.compile(r"\s+[Rr]ev\.?\s?\d+[a-z]?$")  # "Mega 2560 Rev3", "Portenta Vision Shield Rev 2"
_REVISION_NEXT = re.compile(r"\s*(?:rev\b|rev\.?\s?\d|r\d\b)", re.IGNORECASE)  # a revision written after the name


def sole_revisions(products: Iterable[str], titles: Iterable[str]) -> dict[str, str]:
    """Known names without their trailing revision -> the one revision the documents hold ("Mega 2560" ->
    "Mega 2560 Rev3"), for names no document is about unrevised: "Nano 33 BLE" stays its own product beside the
    "Nano 33 BLE Rev2", and a base held in two revisions is left as typed."""
    product_list, title_list = list(products), list(titles)
    whole = [n.lower() for n in product_list + title_list]
    revised: dict[str, set[str]] = {}
    for name in known_names(product_list, title_list):
        m = _REVISION_END.search(name)
        base = name[:m.start()] if m else ""
        if any(c.isalpha() for c in base) and (" " in base or _MARKED.search(base)):  # no bare "2560"
            revised.setdefault(base, set()).add(name)
    return {base: next(iter(full)) for base, full in revised.items()
            if len(full) == 1 and not any(w == base.lower() or w.endswith(" " + base.lower()) for w in whole)}


def with_sole_revisions(question: str, revisions: dict[str, str]) -> str:
    """`question` with each name typed without the revision the documents hold written with it (longest first)."""
    for pattern, full in _revision_patterns(tuple(revisions.items())):
        question = pattern.sub(lambda m, full=full, text=question: m.group(0)
                               if _REVISION_NEXT.match(text, m.end()) else full, question)
    return question


@functools.lru_cache(maxsize=8)
def _revision_patterns(revisions: tuple[tuple[str, str], ...]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each unrevised name's pattern with its revised name, longest first, compiled once per index."""
    return tuple((re.compile(rf"(?<![\w-]){re.escape(base)}(?![\w-])", re.IGNORECASE), full)
                 for base, full in sorted(revisions, key=lambda r: (-len(r[0]), r[0])))
