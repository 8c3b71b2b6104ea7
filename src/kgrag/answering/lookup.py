"""A "which <column> …" question over a table row: "Which configuration key sets the size of the buffer?" over
"Key | Default | Description" / "buffer.max_mb | 256 | Size of the store-and-forward buffer …" is answered by the row's
Key cell. The question names the column it wants; the row is found by the rest of its words. A small model reading
the row answers with the cell it recognises ("… sets the size to 256 MB"), not the one asked."""

from __future__ import annotations

import re

from kgrag.answering.extract import answer_text
from kgrag.answering.select import Scored, attribute_share
from kgrag.answering.terms import QuestionTerms, content_terms, fold

CANDIDATES = 4  # best-ranked units read for the row
MIN_SHARE = 0.6  # of the question's other asked words the row must carry
_WHICH = re.compile(r"^\s*(?:which|what)\s+((?:[\w.\-/+]+\s+){1,3})", re.IGNORECASE)


def asked_column(question: str, header: str) -> int | None:
    """The index of the header cell the question's first words after which/what name ("Which configuration *key*
    …" -> "Key"); None when none does."""
    m = _WHICH.match(question)
    if m is None:
        return None
    words = {fold(w) for w in m.group(1).split()}
    for i, head in enumerate(h.strip() for h in header.split("|")):
        named = content_terms(head)
        if named and named <= words:
            return i
    return None


def try_lookup(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """The best-ranked row that carries the question's other asked words (those its document's title does not hold),
    quoted with its marker, then the cell of the column the question asks; None when no row does or the cell is
    empty or already in the question."""
    if not q.wants_name or q.compares or q.yes_no:
        return None
    for s in ranked[:CANDIDATES]:
        u = s.unit
        column = asked_column(q.text, u.header) if u.kind == "row" and u.header else None
        heads, cells = [h.strip() for h in u.header.split("|")], [c.strip() for c in u.text.split("|")]
        if column is None or len(heads) != len(cells):
            continue
        value = cells[column]
        rest = q.attributes - content_terms(heads[column]) - content_terms(titles.get(u.block, ""))  # "the gateway"
        if not value or content_terms(value) <= q.attributes or not rest or attribute_share(rest, rest, u) < MIN_SHARE:
            continue
        return f"{answer_text(q, u, titles.get(u.block, ''))} [{u.cited()}]. {heads[column]}: {value}."
    return None
