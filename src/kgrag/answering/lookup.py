"""A "which <column> …" question over a table row: "Which configuration key sets the size of the buffer?" over
"Key | Default | Description" / "buffer.max_mb | 256 | Size of the store-and-forward buffer …" is answered by the row's
Key cell. The question names the column it wants; the row is found by the rest of its words. A small model reading
the row answers with the cell it recognises ("… sets the size to 256 MB"), not the one asked."""

from __future__ import annotations

import re

from kgrag.answering.asks import asks_remedy
from kgrag.answering.extract import MIN_NAMES, answer_text
from kgrag.answering.select import Scored, attribute_share
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.words import content_terms, fold, term_list, words_found

_ASKING = frozenset({"mean", "indicate", "signify", "stand", "fix", "solve", "resolve", "clear", "correct", "handle",
                     "remedy", "solution",  # the question's verb asking a meaning or an action, or linking the
                     "hold", "store", "contain", "give", "keep"})  # column to the row ("Which register holds …")
CANDIDATES = 4  # best-ranked units read for the row
MIN_SHARE = 0.6  # of the question's other asked words the row must carry
_WHICH = re.compile(r"^\s*(?:which|what)\s+((?:[\w.\-/+]+\s+){1,3})", re.IGNORECASE)
# "What does a blinking red ERR LED mean?": the row's meaning column ("LED | State | Meaning"); typed as users type
# it, "led flashing red meaning", "meaning of the amber led"
_MEANS = re.compile(r"^\s*(?:what\s+(?:does|do|did)\b.*\b(?:mean|indicate|signify|stand\s+for)\b|meaning\s+of\b|"
                    r"[^?]*\bmeaning\s*\??\s*$)", re.IGNORECASE)
_MEANING_HEADS = frozenset({"meaning", "description", "indication", "definition", "explanation"})
# "What should I do about error E12?", "E07 again, how do I fix it?": the row's action column
_ACTION_HEADS = frozenset({"action", "remedy", "solution", "corrective", "countermeasure", "fix", "measure"})


def asked_column(question: str, header: str) -> int | None:
    """The index of the header cell the question's first words after which/what name ("Which configuration *key*
    …" -> "Key"), its meaning column for "What does … mean?", its action column for "What should I do about …?";
    None when none does."""
    heads = [content_terms(h) for h in header.split("|")]
    for asks, columns in ((_MEANS.match, _MEANING_HEADS), (asks_remedy, _ACTION_HEADS)):
        if asks(question):
            return next((i for i, named in enumerate(heads) if named & columns), None)
    m = _WHICH.match(question)
    if m is None:
        return None
    words = {fold(w) for w in m.group(1).split()}
    for i, named in enumerate(heads):
        if named and named <= words:
            return i
    return None


def try_lookup(q: QuestionTerms, ranked: list[Scored], titles: dict[int, str]) -> str | None:
    """Of the best-ranked rows that carry the question's other asked words (those its document's title does not
    hold), the one carrying most of them ("led flashing red meaning": the "Flashing red" row, not the better-ranked
    "Flashing green"), quoted with its marker, then the cell of the column the question asks (said once: not also at
    the quote's end); None when no row does or the cell is empty or already in the question."""
    if not (q.wants_name or _MEANS.match(q.text) or asks_remedy(q.text)) or q.compares or q.yes_no:
        return None
    written = {w for s in ranked for w in term_list(s.unit.scoped())}  # "… when alarm A2 appears": a word no passage
    best_named = max((s.names for s in ranked[:CANDIDATES]), default=0.0)  # writes tells no row apart
    found: list[tuple[float, str]] = []
    for s in ranked[:CANDIDATES]:
        u = s.unit
        if q.names and (s.names < best_named or s.names < MIN_NAMES):  # "the ERR LED", "alarm A2 on the DP-20": the
            continue  # row of the named thing (a name in its document's title counts half)
        column = asked_column(q.text, u.header) if u.kind == "row" and u.header else None
        heads, cells = [h.strip() for h in u.header.split("|")], [c.strip() for c in u.text.split("|")]
        if column is None or len(heads) != len(cells):
            continue
        value = cells[column]
        rest = q.attributes - content_terms(heads[column]) - content_terms(titles.get(u.block, "")) - _ASKING  # "gateway"
        attested = words_found(rest, written)
        share = attribute_share(rest, attested, u) if attested else 0.0
        if not value or content_terms(value) <= q.attributes or share < MIN_SHARE:
            continue
        value = value.rstrip(".")
        quote, said = answer_text(q, u, titles.get(u.block, "")).rstrip("."), f"; {heads[column]}: {value}"
        quote = quote[: -len(said)] if quote.endswith(said) else quote  # the asked cell is said once, last
        found.append((share, f"{quote} [{u.cited()}]. {heads[column]}: {value}."))
    return max(found, key=lambda f: f[0])[1] if found else None  # the first of equal shares: the best ranked
