"""parse_file: pick the loader for a file, then chunk its blocks and attach document/chunk metadata."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from kgrag.config import ChunkingSettings
from kgrag.errors import IngestError
from kgrag.ingest.base import (
    PARSER_KEY,
    PARSER_VERSION,
    Block,
    Parsed,
    ParsedDocument,
    content_hash,
    folder_metadata,
    make_doc_id,
    relative_path,
    title_with_variant,
)
from kgrag.ingest.chunking import chunk_blocks
from kgrag.ingest.clean import word_count
from kgrag.ingest.discover import SUPPORTED_SUFFIXES
from kgrag.ingest.html import parse_html
from kgrag.ingest.jsonl import common, read_records
from kgrag.ingest.mail import parse_eml, parse_mbox
from kgrag.ingest.markdown import parse_markdown
from kgrag.ingest.office import parse_docx, parse_pptx
from kgrag.ingest.pdf import parse_pdf
from kgrag.ingest.pdf_ocr import ocr_chunk_meta
from kgrag.ingest.sheets import parse_csv, parse_xlsx
from kgrag.ingest.text import parse_text
from kgrag.ingest.textio import check_size
from kgrag.progress import Progress
from kgrag.tokens import count_tokens
from kgrag.types import Chunk, Document

DATA_FORMATS = frozenset({"csv", "xlsx"})  # tables of measurements: a row of numbers under its header is content
LOADERS: dict[str, Callable[[Path], Parsed]] = {
    ".pdf": parse_pdf,
    ".html": parse_html,
    ".htm": parse_html,
    ".md": parse_markdown,
    ".markdown": parse_markdown,
    ".txt": parse_text,
    ".text": parse_text,
    ".docx": parse_docx,
    ".pptx": parse_pptx,
    ".xlsx": parse_xlsx,
    ".xlsm": parse_xlsx,
    ".csv": parse_csv,
    ".tsv": parse_csv,
}
LOADERS[".eml"] = partial(parse_eml, loaders=LOADERS)  # a mail's attachments are read by their own loaders
LOADERS[".mbox"] = partial(parse_mbox, loaders=LOADERS)


def parse_file(
    path: Path, *, root: Path | None, settings: ChunkingSettings, progress: Progress | None = None,
    ocr_engine: str = "auto",
) -> ParsedDocument:
    """Parse one file into a Document and its chunks; IngestError(path, reason) when it cannot be used.
    `progress` shows slow steps inside one file (OCR'd pages); `ocr_engine` is `[ingest] ocr_engine`."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED_SUFFIXES:
        raise IngestError(path, f"unsupported file type {suffix or '(none)'}")
    if not path.is_file():
        raise IngestError(path, "not a readable file")
    check_size(path)
    rel = relative_path(path, root)
    doc_id = make_doc_id(rel)
    try:
        digest = content_hash(path)
    except OSError as exc:
        raise IngestError(path, f"cannot read file ({exc.strerror or exc})") from exc
    category, product = folder_metadata(rel, root is not None)
    base = Document(doc_id=doc_id, path=rel, title=path.stem, content_hash=digest, product=product,
                    category=category)
    base.meta[PARSER_KEY] = PARSER_VERSION  # `kgrag add` re-reads documents an older parser read
    try:
        if suffix == ".jsonl":
            return _parse_jsonl(path, base, settings)
        parsed = parse_pdf(path, progress, ocr_engine) if suffix == ".pdf" else LOADERS[suffix](path)
        return _parse_blocks(path, parsed, base, settings)
    except IngestError:
        raise
    except (RecursionError, MemoryError, ValueError, KeyError, IndexError, TypeError, AttributeError,
            OSError, UnicodeError, AssertionError) as exc:  # a loader choked on a malformed file
        raise IngestError(path, f"cannot parse {suffix[1:]} ({type(exc).__name__}: {exc})") from exc


def _parse_blocks(path: Path, parsed: Parsed, doc: Document, settings: ChunkingSettings) -> ParsedDocument:
    """Chunk the loader's blocks and stamp document metadata on every chunk."""
    if not any(b.kind != "heading" for b in parsed.blocks):
        raise IngestError(path, "no text content")
    formats = {parsed.meta.get("format"), *parsed.meta.get("attachments", [])}  # a mail's attachments' too
    data_tables = bool(formats & DATA_FORMATS)
    drafts = chunk_blocks(parsed.blocks, settings, data_tables=data_tables)
    if not drafts:
        words = sum(word_count(b.text) for b in parsed.blocks)
        if words < settings.min_tokens:
            raise IngestError(path, f"no indexable text (only {words} words after cleaning)")
        raise IngestError(path, f"no indexable text ({words} words, but mostly digits and symbols)")
    doc.product = parsed.product or doc.product
    doc.title = title_with_variant(parsed.title or doc.title, doc.product)
    doc.category = parsed.category or doc.category
    doc.version = parsed.version
    doc.meta |= {**parsed.meta, "chunks": len(drafts), "tables": sum(b.kind == "table" for b in parsed.blocks)}
    chunks = []
    for ord_, draft in enumerate(drafts):
        meta: dict[str, Any] = {}
        if len(draft.paths) > 1:
            meta["sections"] = [" > ".join(p) for p in draft.paths]
        meta.update(ocr_chunk_meta(parsed.meta.get("ocr"), draft.page_start, draft.page_end))
        chunks.append(Chunk(
            chunk_id=f"{doc.doc_id}-{ord_:05d}", doc_id=doc.doc_id, text=draft.text, ord=ord_,
            section=" > ".join(draft.path), page_start=draft.page_start, page_end=draft.page_end,
            product=doc.product, category=doc.category, tokens=draft.tokens, meta=meta,
        ))
    return ParsedDocument(doc, chunks)


def _parse_jsonl(path: Path, doc: Document, settings: ChunkingSettings) -> ParsedDocument:
    """One chunk per valid record (kept as is); records over 2x max_tokens are re-chunked."""
    found = read_records(path)
    chunks: list[Chunk] = []
    used: set[str] = set()
    for record in found.records:
        product = record.product or doc.product
        category = record.category or doc.category
        if record.source_chunk_id:
            base_id = f"{doc.doc_id}-{hashlib.sha1(record.source_chunk_id.encode()).hexdigest()[:12]}"
        else:
            base_id = f"{doc.doc_id}-{len(chunks):05d}"
        pieces = [(record.text, count_tokens(record.text))]
        if pieces[0][1] > 2 * settings.max_tokens:
            drafts = chunk_blocks([Block((), record.text)], settings)
            pieces = [(d.text, d.tokens) for d in drafts] or pieces
        for i, (text, tokens) in enumerate(pieces):
            chunk_id = base_id if len(pieces) == 1 else f"{base_id}-{i}"
            n = 1
            while chunk_id in used:  # duplicated source ids stay distinct and stable by order
                n += 1
                chunk_id = f"{base_id}-{'d' if len(pieces) == 1 else f'{i}d'}{n}"
            used.add(chunk_id)
            meta: dict[str, Any] = {**record.meta, "line": record.line}
            if record.source_chunk_id:
                meta["source_chunk_id"] = record.source_chunk_id
            if len(pieces) > 1:
                meta["part"] = i
            chunks.append(Chunk(
                chunk_id=chunk_id, doc_id=doc.doc_id, text=text, ord=len(chunks), section=record.section,
                page_start=record.page_start, page_end=record.page_end, product=product,
                category=category, tokens=tokens, meta=meta,
            ))
    doc.product = common([c.product for c in chunks]) or doc.product
    doc.category = common([c.category for c in chunks]) or doc.category
    doc.meta |= {"format": "jsonl", "records": len(found.records), "skipped_lines": found.skipped,
                 "chunks": len(chunks)}
    if found.problems:
        doc.meta["problems"] = found.problems
    return ParsedDocument(doc, chunks)
