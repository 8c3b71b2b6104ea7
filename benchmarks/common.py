"""Shared benchmark helpers: data paths, building cached indexes of the shared corpora, timing, tables."""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from kgrag.config import Settings
from kgrag.index import Index
from kgrag.indexing import store_document
from kgrag.tokens import count_tokens
from kgrag.types import Chunk, Document

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "benchmarks" / "results"
CACHE = REPO / "benchmarks" / ".cache"


def data_dir(override: str | None = None) -> Path:
    """The shared evaluation data: --data, else $KGRAG_DATA, else ../shared/data beside the repo."""
    path = Path(override or os.environ.get("KGRAG_DATA") or REPO.parent / "shared" / "data")
    if not path.is_dir():
        raise SystemExit(f"evaluation data not found at {path}; pass --data or set KGRAG_DATA")
    return path


# The Arduino corpora: `pdf` = the datasheet PDFs users index with `kgrag add`, `docling` = the pre-chunked records,
# `full` = the PDFs plus the records of the products that have no PDF (see corpus_paths).
CORPORA = {"pdf": ("arduino", "documents"), "docling": ("arduino", "docling_chunks"), "full": ("arduino", "documents")}


def records_without_pdf(data: Path) -> Path:
    """The docling records of the products that have no PDF folder, one JSONL per family in the cache."""
    pdfs = {p.name for p in data.joinpath(*CORPORA["pdf"]).glob("*/*") if p.is_dir()}
    out = CACHE / "arduino-records-without-pdf"
    out.mkdir(parents=True, exist_ok=True)
    for family in sorted(data.joinpath(*CORPORA["docling"]).glob("*.jsonl")):
        rows = [line for n, line in enumerate(family.read_text().splitlines(), 1)
                if line.strip() and _record(family, n, line).get("product") not in pdfs]
        if rows:
            (out / family.name).write_text("\n".join(rows) + "\n")
    return out


def _record(path: Path, line_no: int, line: str) -> dict[str, Any]:
    """One JSONL record; a broken line stops the run with its file and line number."""
    try:
        return dict(json.loads(line))
    except (json.JSONDecodeError, TypeError, ValueError) as err:
        raise SystemExit(f"{path}:{line_no}: not a JSON record ({err})") from err


def corpus_paths(data: Path, corpus: str) -> list[Path]:
    """What `kgrag add` reads for one corpus."""
    paths = [data.joinpath(*CORPORA[corpus])]
    return paths + [records_without_pdf(data)] if corpus == "full" else paths


def musique_paragraphs(data: Path) -> list[str]:
    return [line.strip() for line in (data / "musique" / "corpus.txt").read_text(encoding="utf-8").splitlines() if line.strip()]


def musique_questions(data: Path) -> list[dict[str, Any]]:
    return json.loads((data / "musique" / "qa_dev.json").read_text(encoding="utf-8"))


class TimedEmbedder:
    """Wraps an embedder and adds up the seconds spent inside it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.model_name = inner.model_name
        self.dim = inner.dim
        self.seconds = 0.0
        self.texts = 0

    def embed(self, texts: Sequence[str]) -> Any:
        start = time.perf_counter()
        try:
            return self.inner.embed(texts)
        finally:
            self.seconds += time.perf_counter() - start
            self.texts += len(texts)


def build_paragraph_index(
    path: Path, paragraphs: Sequence[str], *, embedder: str = "minilm", doc_name: str = "musique/corpus.txt",
    batch: int = 256,
) -> tuple[Index, dict[str, float]]:
    """An index with one chunk per paragraph (as KET-RAG does for MuSiQue); reused when already built.

    Returns the index and timings {index_s, embed_s, reused}.
    """
    settings = Settings()
    settings.embedder.provider = embedder
    index = Index.init(path, settings=settings)
    if index.store.count("chunks") == len(paragraphs):
        return index, {"index_s": 0.0, "embed_s": 0.0, "reused": 1.0}
    timed = TimedEmbedder(index.embedder)
    index.__dict__["embedder"] = timed  # replaces the cached property for this run
    start = time.perf_counter()
    for first in range(0, len(paragraphs), batch):
        part = paragraphs[first:first + batch]
        doc_id = hashlib.sha1(f"{doc_name}#{first}".encode()).hexdigest()[:16]
        doc = Document(doc_id, f"{doc_name}#{first}", doc_name, hashlib.sha1("".join(part).encode()).hexdigest())
        chunks = [
            Chunk(f"{doc_id}-{i:05d}", doc_id, text, ord=i, tokens=count_tokens(text), meta={"line": first + i})
            for i, text in enumerate(part)
        ]
        store_document(index, doc, chunks, replacing=None)
    return index, {"index_s": time.perf_counter() - start, "embed_s": timed.seconds, "reused": 0.0}


def percentiles(values: Iterable[float]) -> tuple[float, float]:
    """p50 and p95 of `values` (seconds in, milliseconds out)."""
    vals = sorted(values)
    if not vals:
        return 0.0, 0.0
    p95 = vals[min(len(vals) - 1, int(round(0.95 * (len(vals) - 1))))]
    return statistics.median(vals) * 1000, p95 * 1000


def print_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """A plain-text table (Markdown-compatible)."""
    cells = [[str(h) for h in headers]] + [[f"{v:.3f}" if isinstance(v, float) else str(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    for n, row in enumerate(cells):
        print("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
        if n == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")


def write_json(name: str, data: Any) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{name}.json"
    out.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return out
