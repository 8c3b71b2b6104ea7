"""Records of a log or a list, named by a word and a number ("ticket 4502", "case #0193", "alarm E17", a release
note's "firmware 4.0"): a question about one record is answered by its own paragraph. A support log's other tickets
read alike ("Resolution: upgraded to firmware 4.1") and a small model given them too answers with the wrong one."""

from __future__ import annotations

import re
from collections.abc import Iterable

from kgrag.answering.names import name_found
from kgrag.answering.terms import analyse
from kgrag.answering.units import Unit
from kgrag.answering.values import NUMBER_UNIT
from kgrag.answering.words import content_terms

# a lower-case word and its number: three digits or more, or a short code ("E17"); "Nano 33" or "port 2" name no record
_ASKED = re.compile(r"\b([a-z]{3,})\s+(?:#\s?|no\.\s?|number\s+)?(\d{3,}|[A-Z]{1,2}\d{1,4})\b")
# a release and its version ("removed in firmware 4.0", "our gateway is on firmware 3.1.2"): a release note's or a
# log's sections of other versions read alike; "Bluetooth 5.0" names no release (a board may have another one)
_RELEASE = re.compile(r"\b(firmware|software|release|version|revision|update)\s+v?(\d+(?:\.\d+)+)\b", re.IGNORECASE)


# the kinds of record a table or a log numbers: "register 30008", "ticket 10601", "error 203" (a row's own number)
NUMBERED_RECORDS = frozenset({"register", "ticket", "case", "error", "alarm", "fault", "parameter", "object", "article",
                              "bulletin", "rma"})


def asked_record_numbers(question: str) -> list[str]:
    """The numbers of the numbered records the question asks about ("register 30008" -> ["30008"]); a number after
    any word ("address 247", "type 316") is not one: it measured worse on a blind set."""
    return [number for word, number in asked_records(question) if number.isdigit() and word in NUMBERED_RECORDS]


def asked_records(question: str) -> list[tuple[str, str]]:
    """The (word, designation) pairs the question names: "How was ticket 4502 resolved?" -> [("ticket", "4502")];
    not a quantity ("measure 300 hPa") nor after a function word ("from 300 to 1100")."""
    named = [(m.group(1), m.group(2)) for m in _ASKED.finditer(question)
             if content_terms(m.group(1)) and not NUMBER_UNIT.match(question, m.start(2))]
    return named + [(m.group(1).lower(), m.group(2)) for m in _RELEASE.finditer(question)]


def _designations(word: str, text: str) -> set[str]:
    """The designations `text` writes after `word` ("Ticket 4411 — …" -> {"4411"})."""
    found = re.finditer(rf"\b{re.escape(word)}\s+(?:#\s?|no\.\s?|number\s+|v)?([A-Za-z]{{0,2}}\d+(?:\.\d+)*)\b", text,
                        re.IGNORECASE)
    return {m.group(1).upper() for m in found}


def other_records(question: str, units: Iterable[Unit]) -> set[tuple[int, int]]:
    """(block, paragraph) of the paragraphs that name another record of the asked kind and not the asked one, when
    some paragraph names the asked one; empty for a question naming no record or several of one kind."""
    asked = asked_records(question)
    if len({word for word, _ in asked}) != len(asked):  # "tickets 4411 and 4502" asks both
        return set()
    paragraphs: dict[tuple[int, int], str] = {}
    for u in units:
        key = (u.block, u.paragraph)
        paragraphs[key] = f"{paragraphs.get(key, '')}\n{u.text}"
    if not asked:
        return _other_named_records(question, paragraphs)
    others: set[tuple[int, int]] = set()
    for word, wanted in asked:
        named = {key: _designations(word, text) for key, text in paragraphs.items()}
        if any(wanted.upper() in found for found in named.values()):
            others |= {key for key, found in named.items() if found and wanted.upper() not in found}
    return others


_RECORD_HEAD = re.compile(r"^\s*([A-Z][a-z]{2,})\s+(?:#\s?|no\.\s?)?\d{3,}\b")  # "Ticket 4411 — …", "Case #0193: …"


def _other_named_records(question: str, paragraphs: dict[tuple[int, int], str]) -> set[tuple[int, int]]:
    """A log's other records when the question names what only one of them names ("What should Vela Logistics check
    …?" over tickets each opening "Ticket NNNN — Customer: …"): paragraphs of one block opening with the same word and
    a number are one log's records."""
    logs: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for key, text in paragraphs.items():
        head = _RECORD_HEAD.match(text.strip())
        if head:
            logs.setdefault((key[0], head.group(1).lower()), []).append(key)
    names = [" ".join(p).lower() for p in analyse(question).phrases]
    others: set[tuple[int, int]] = set()
    for records in logs.values():
        naming = [k for k in records if any(name_found(n, paragraphs[k].lower()) for n in names)]
        if len(records) > 1 and len(naming) == 1:
            others |= set(records) - set(naming)
    return others
