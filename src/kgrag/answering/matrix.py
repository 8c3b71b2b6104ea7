"""Questions over a matrix of marks, as compatibility and feature tables are written ("Accessory | Part number |
TX-20 | TX-40" over "Wall bracket | ACC-101 | ✓ | –"): "Which accessories fit the TX-20?" lists the rows marked in
the column the question names, "Does the wall bracket fit the TX-40?" reads the one cell of the row and column it
names. Quoted as rows, the marks left a small model (and the reader) to count columns."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kgrag.answering.select import Scored
from kgrag.answering.terms import QuestionTerms
from kgrag.answering.units import Unit
from kgrag.answering.words import all_written, content_terms, words_found

_YES = frozenset({"✓", "✔", "●", "yes", "supported"})
_NO = frozenset({"", "–", "—", "-", "✗", "✘", "○", "no", "n/a", "not supported"})
_WHICH = re.compile(r"\b(?:which|what)\b", re.IGNORECASE)
_WHICH_ONES = re.compile(r"\bwhich\b", re.IGNORECASE)  # "What air pressure does the collar need?" asks no column
MIN_MARK_COLUMNS = 2  # a matrix sets two or more things side by side


def mark(cell: str) -> bool | None:
    """True for a cell marking "yes" (✓, Yes), False for "no" (–, ✗, empty), None for any other text."""
    text = cell.strip().lower().rstrip(" .")
    return True if text in _YES else False if text in _NO else None


def _cells(unit: Unit) -> tuple[list[str], list[str]] | None:
    heads = [h.strip() for h in unit.header.split("|")]
    cells = [c.strip() for c in unit.text.split("|")]
    return (heads, cells) if unit.kind == "row" and unit.header and len(heads) == len(cells) else None


def _names_column(question: str, head: str) -> bool:
    """The question writes the column's name whole: "TX-20" is not named by "TX-20S"."""
    return len(head) > 1 and re.search(rf"(?<![\w-]){re.escape(head)}(?![\w-])", question, re.IGNORECASE) is not None


def _names_code(question: str, cells: list[str]) -> bool:
    """The question writes one of a row's part numbers or codes whole ("the PoE injector ACC-310")."""
    return any(any(ch.isdigit() for ch in c) and any(ch.isalpha() for ch in c) and _names_column(question, c)
               for c in cells)


def _label(heads: list[str], cells: list[str], marks: set[int]) -> str:
    """A row as the list names it: its first cell, with its other text cells ("Wall bracket (ACC-101)")."""
    rest = [c for i, c in enumerate(cells[1:], 1) if i not in marks and c]
    return f"{cells[0]} ({', '.join(rest)})" if rest else cells[0]


def _joined(names: list[str], word: str = "and") -> str:
    return names[0] if len(names) == 1 else f"{', the '.join(names[:-1])} {word} the {names[-1]}"


def try_matrix(q: QuestionTerms, ranked: list[Scored], titles: Mapping[int, str]) -> str | None:
    """The marked rows of the one matrix column the question names, the marked columns of the one row it names, or
    the verdict of the one cell of the row and column a yes/no question names; None when no matrix of the context
    is read so."""
    tables: dict[tuple[int, str], dict[str, tuple[Unit, list[str]]]] = {}  # (block, header) -> row text -> row
    heads_of: dict[tuple[int, str], list[str]] = {}
    for s in ranked:
        split = _cells(s.unit)
        if split is not None:
            key = (s.unit.block, s.unit.header)
            heads_of[key] = split[0]
            tables.setdefault(key, {}).setdefault(s.unit.text, (s.unit, split[1]))
    asked = content_terms(q.text)
    for key, by_text in tables.items():
        heads, rows, table = heads_of[key], [u for u, _ in by_text.values()], [c for _, c in by_text.values()]
        marks = {i for i in range(1, len(heads)) if all(mark(c[i]) is not None for c in table)
                 and any(mark(c[i]) for c in table)}
        named = [i for i in sorted(marks) if _names_column(q.text, heads[i])]
        if len(marks) < MIN_MARK_COLUMNS:
            continue
        title = titles.get(rows[0].block, "")
        lead = f"{title}: " if title else ""
        labelled = [(r, c) for r, c in zip(rows, table, strict=True) if (label := content_terms(c[0])) and all_written(label, asked)
                    or _names_code(q.text, [x for i, x in enumerate(c) if i not in marks])]  # or "ACC-310" it lists
        others = [content_terms(h) for i, h in enumerate(heads) if i and i not in marks]  # "Part number"
        if (not named and len(labelled) == 1 and not q.yes_no and _WHICH_ONES.search(q.text) and not q.dimensions
                and not any(h and h <= asked for h in others)):  # "Which models does the air purge collar fit?":
            row, cells = labelled[0]  # the columns its row marks
            having = [heads[i] for i in sorted(marks) if mark(cells[i])]
            if having and len(having) < len(marks):
                lacking = [heads[i] for i in sorted(marks) if not mark(cells[i])]
                return (f"{lead}{_label(heads, cells, marks)} is marked for the {_joined(having)} (not the "
                        f"{_joined(lacking, 'or')}) [{row.cited()}].")
        if len(named) != 1:
            continue
        col = named[0]
        if q.yes_no and len(labelled) == 1:  # "Does the wall bracket fit the TX-40?"
            row, cells = labelled[0]
            verdict = "Yes" if mark(cells[col]) else "No"
            return f"{verdict}. {lead}{row.display().rstrip(' .;')} [{row.cited()}]."
        if (not q.yes_no and not labelled and _WHICH.search(q.text)  # "Which accessories fit the TX-20?" names the
                and words_found(content_terms(heads[0]), asked)):  # kind of the rows ("What is the frame rate …" not)
            marked = [(r, c) for r, c in zip(rows, table, strict=True) if mark(c[col])]
            if not marked or len(marked) == len(rows):
                continue  # every row or none: the column singles nothing out
            listed = "; ".join(_label(heads, c, marks) for _, c in marked)
            return f"{lead}{heads[0]} marked for the {heads[col]}: {listed} [{marked[0][0].cited()}]."
    return None
