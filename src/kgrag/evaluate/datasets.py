"""Question sets for evaluation: JSONL or a JSON list of {question, gold_answer|answer, query_type?, id?}.

Both shared formats load as they are: MuSiQue's `qa_dev.json` (a list; the query type comes from the
id prefix 2hop/3hop/4hop) and the Arduino `gold_dev.jsonl` (one object a line with `query_type`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgrag.errors import KgragError

DEFAULT_TYPE = "general"
_HOPS = re.compile(r"^(\d+hop)", re.IGNORECASE)


class DatasetError(KgragError):
    """A question file that cannot be read; names the file (and line) and the reason."""


@dataclass
class Question:
    """One evaluation question with its gold answer (and accepted aliases)."""

    id: str
    question: str
    gold: str
    query_type: str = DEFAULT_TYPE
    aliases: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def golds(self) -> list[str]:
        """The gold answer followed by its aliases (for coverage and EM/F1)."""
        return [self.gold, *[a for a in self.aliases if a != self.gold]]


def query_type_of(record: dict[str, Any]) -> str:
    """`query_type` (or `type`) if given, else the MuSiQue hop count from the id prefix, else "general"."""
    given = record.get("query_type") or record.get("type")
    if isinstance(given, str) and given.strip():
        return given.strip()
    match = _HOPS.match(str(record.get("id", "")))
    return match.group(1).lower() if match else DEFAULT_TYPE


def to_question(record: Any, n: int, where: str) -> Question:
    """One record as a Question; `n` is its position (used as id when the record has none)."""
    if not isinstance(record, dict):
        raise DatasetError(f"{where}: expected an object, got {type(record).__name__}")
    question = record.get("question")
    gold = record.get("gold_answer", record.get("answer"))
    if not isinstance(question, str) or not question.strip():
        raise DatasetError(f"{where}: missing 'question'")
    aliases = [str(a) for a in record.get("answer_aliases", record.get("aliases", [])) or []]
    if isinstance(gold, list):
        gold, aliases = (str(gold[0]) if gold else ""), [str(g) for g in gold[1:]] + aliases
    if gold is None or not str(gold).strip():
        raise DatasetError(f"{where}: missing 'gold_answer' or 'answer'")
    known = {"id", "question", "gold_answer", "answer", "query_type", "type", "answer_aliases", "aliases"}
    return Question(
        id=str(record.get("id", n)),
        question=question.strip(),
        gold=str(gold).strip(),
        query_type=query_type_of(record),
        aliases=aliases,
        meta={k: v for k, v in record.items() if k not in known},
    )


def load_questions(path: str | Path, limit: int | None = None, types: Sequence[str] = ()) -> list[Question]:
    """Questions from a JSONL file or a JSON list, optionally only some query types and the first `limit`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DatasetError(f"{path}: cannot read question file: {exc.strerror or exc}") from exc
    questions: list[Question] = []
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}: invalid JSON: {exc}") from exc
        questions = [to_question(r, n, f"{path} item {n}") for n, r in enumerate(records)]
    else:
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DatasetError(f"{path}:{n}: invalid JSON line: {exc}") from exc
            questions.append(to_question(record, len(questions), f"{path}:{n}"))
    if types:
        questions = [q for q in questions if q.query_type in set(types)]
    return questions[:limit] if limit else questions
