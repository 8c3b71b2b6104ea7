"""Table rows led by a code the question names: "What does alarm code E14 mean?", "whats err E32", "What is the
difference between alarms E09 and E10?", "E15 on my transmitter, what now?" over an alarm list "Code | Name | Class | Cause | Remedy" / "E14 | Output
fault – external voltage | F | …". The row whose first cell is the code is that code's record, and its cells together
are the answer (name, cause, remedy). A small model given the row answered from another passage that mentions the
code ("alarm clear E14 clears a latched alarm"), or said the documents do not hold it; the difference of two codes
was told from one sentence on one of them."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kgrag.answering.asks import asks_remedy
from kgrag.answering.extract import answer_text
from kgrag.answering.names import name_found
from kgrag.answering.select import Scored
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.words import content_terms, term_list, words_found

# "What does … mean", "whats …" (written out: "what is …"), "the difference between …", "E09 vs E10"
_ASKS = re.compile(r"\b(?:mean|means|meaning|stand\s+for|difference|differ|vs|versus)\b|^\s*what\s+(?:is|are)\b",
                   re.IGNORECASE)
# what a question may call a code and how it asks about it: none of these is a further thing asked
CODE_WORDS = frozenset({"alarm", "error", "fault", "warning", "code", "event", "message", "status", "exception",
                        "erratum", "errata", "diagnostic", "mean", "meaning", "stand", "difference", "differ",
                        "between", "vs", "versus", "number"})
# "E14", "F0023", "AL-07", "ZL-E-110": a record's code, no model name
_CODE = re.compile(r"[A-Za-z]{1,4}(?:-[A-Za-z]{1,4})?-?\d{1,4}[A-Za-z]?")
MAX_ROWS = 3
_CODE_COLUMN = CODE_WORDS | {"id", "no", "nr"}  # a code list's first column: "Code", "Alarm", "Error no."


def _key(cell: str) -> str:
    return cell.strip().lower().replace("-", "").replace(" ", "")


def _code_and_name(row: str) -> tuple[str, ...]:
    """A row's first two cells as compared (the code and its name: "ZL-E-110 | AUTH_FAILED")."""
    return tuple(_key(cell) for cell in row.split("|")[:2])


def try_coded_rows(q: QuestionTerms, ranked: list[Scored], titles: Mapping[int, str]) -> str | None:
    """Each named code's row (the table row whose first cell is the code), quoted whole with its column names, in
    the order the question names the codes; None when the question asks a value or more than what the codes are,
    or a named code leads no row."""
    named = " ".join(titles.values()).lower()
    codes = [p for p in q.parts if _CODE.fullmatch(p) and not name_found(p, named)]  # "QX-9": the product, no record
    remedy = asks_remedy(q.text)  # "E15 on my transmitter, what now?": the row's Remedy cell, the user's situation
    if not codes or len(codes) > MAX_ROWS or q.dimensions or q.yes_no or not (_ASKS.search(q.text) or remedy):
        return None
    rows = [s for s in ranked if s.unit.kind == "row" and s.unit.header]
    if remedy:  # "My DPX-220 shows E14": the model's name leads a row of a series table, the code one of a code list
        rows = [s for s in rows if _CODE_COLUMN & set(term_list(s.unit.header.split("|")[0]))]
    found = []
    for code in codes:
        led = [s for s in rows if _key(s.unit.text.split("|")[0]) == _key(code)]
        led = [s for s in led if s.own] or led  # the named product's own table
        if remedy and not led:  # a name the user writes around the code
            continue
        # none, or two tables give the code different rows (one that repeats the code's name in other words, "Token
        # rejected." beside "Token missing, invalid or revoked.", in each function's error table, is the same record)
        if not led or len({_code_and_name(s.unit.text) for s in led}) > 1:
            return None
        found.append(led[0].unit)
    if not found:
        return None
    extra = q.attributes - CODE_WORDS - content_terms(" ".join(codes))  # what else the question asks
    blocks = {u.block for u in found}  # the rows' passages: their headings say whose list it is ("… Transmitters")
    written = {w for s in ranked if s.unit.block in blocks for w in term_list(s.unit.scoped())}
    written |= {w for b in blocks for w in term_list(titles.get(b, ""))}
    if extra and not remedy and words_found(extra, written) != extra:  # "What is the remedy for E14 on the DP-20?":
        return None  # more is asked (what to do about a code is its row's remedy, whatever the user saw)
    quotes = list(dict.fromkeys(f"{answer_text(q, u, titles.get(u.block, ''))} [{u.cited()}]." for u in found))
    return " ".join(quotes)
