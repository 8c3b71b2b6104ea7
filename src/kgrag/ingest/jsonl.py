"""Pre-chunked JSONL loader: one record `{text, chunk_id?, product?, category?, section?, ...}` per line."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kgrag.errors import IngestError
from kgrag.ingest.clean import clean_signs, drop_trademarks
from kgrag.ingest.textio import iter_lines

RECORD_PREFIX = re.compile(r"^\s*\[Product:\s*([^\]]*)\]\s*\[Category:\s*([^\]]*)\]")
KNOWN_FIELDS = ("text", "chunk_id", "product", "category", "section", "page", "page_start", "page_end")
MAX_REPORTED = 5


@dataclass
class Record:
    """One valid line of a pre-chunked file."""

    line: int
    text: str
    source_chunk_id: str
    product: str
    category: str
    section: str
    page_start: int | None
    page_end: int | None
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Records:
    """The valid records of a file and what was skipped."""

    records: list[Record]
    skipped: int = 0
    problems: list[str] = field(default_factory=list)  # the first few, "line N: reason"


def read_records(path: Path) -> Records:
    """Valid records of a JSONL file; IngestError only when no line at all is usable."""
    out = Records([])
    for n, line in enumerate(iter_lines(path), start=1):
        if not line.strip():
            continue
        try:
            out.records.append(_record(n, line))
        except ValueError as exc:
            out.skipped += 1
            if len(out.problems) < MAX_REPORTED:
                out.problems.append(f"line {n}: {exc}")
    if not out.records:
        first = f" ({out.problems[0]})" if out.problems else ""
        raise IngestError(path, f"no valid JSONL record{first}")
    return out


def _record(n: int, line: str) -> Record:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise ValueError("missing or empty 'text'")
    text = clean_signs(text)  # like every other loader's text (ingest/clean.py)
    text = with_code(text, _str(data.get("chunk_id")))
    prefix = RECORD_PREFIX.match(text)
    product = _str(data.get("product")) or (prefix.group(1).strip() if prefix else "")
    category = _str(data.get("category")) or (prefix.group(2).strip() if prefix else "")
    page_start = _int(data.get("page_start", data.get("page")))
    page_end = _int(data.get("page_end")) or page_start
    meta = {k: v for k, v in data.items() if k not in KNOWN_FIELDS}
    return Record(n, text.strip(), _str(data.get("chunk_id")), drop_trademarks(product), drop_trademarks(category),
                  drop_trademarks(_str(data.get("section"))), page_start, page_end, meta)


# A record id opening with one catalogue code: "AFX00007-datasheet::c0" is a chunk of the AFX00007 datasheet; an id
# opening with several ("ABX00042-ABX00045-ABX00046-datasheet") is one datasheet of several products, and which code
# is the record's own product's the id does not say
_CODE = r"[A-Z]{2,5}\d{4,}[A-Z]?"
_CODE_ID = re.compile(rf"^({_CODE})(?=[-_:.]|$)(?![-_]{_CODE})")


def with_code(text: str, chunk_id: str) -> str:
    """The text with "[SKU: AFX00007]" after its context prefix ("[Product: …] [Category: …]", or first) when its
    record id opens with a catalogue code the text does not write: records often name their product's order code only
    in the id, and users ask by it ("the AFX00007's ADC resolution")."""
    code = _CODE_ID.match(chunk_id)
    if code is None or code.group(1) in text:
        return text
    prefix = RECORD_PREFIX.match(text)
    if prefix is None:
        return f"[SKU: {code.group(1)}]\n{text}"
    return f"{text[:prefix.end()]} [SKU: {code.group(1)}]{text[prefix.end():]}"


def _str(value: Any) -> str:
    if value is None:
        return ""
    return value.strip() if isinstance(value, str) else str(value)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def common(values: list[str]) -> str:
    """The value shared by every record, or '' when they differ."""
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else ""
