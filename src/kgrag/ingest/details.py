"""What each document yielded (pages, chunks, OCR'd pages, tables, warnings), read from the metadata the
loaders store at ingest time so listing it never re-reads a file."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from kgrag.types import Document


def document_details(doc: Document) -> dict[str, Any]:
    """Per-document report; counts are None for documents indexed before these facts were recorded."""
    meta = doc.meta or {}
    ocr = meta.get("ocr") or {}
    warnings = [str(w) for w in meta.get("warnings", [])]
    if meta.get("skipped_lines"):  # pre-chunked JSONL
        warnings.append(f"{meta['skipped_lines']} invalid line(s) skipped: " + "; ".join(meta.get("problems", [])))
    return {
        "format": meta.get("format") or PurePath(doc.path).suffix.lstrip(".").lower(),
        "pages": meta.get("pages"),
        "chunks": meta.get("chunks"),
        "ocr_pages": len(ocr.get("pages", [])),
        "ocr_engine": ocr.get("engine"),
        "ocr_confidence": ocr.get("mean_confidence"),
        "ocr_low_confidence_pages": ocr.get("low_confidence_pages", []),
        "tables": meta.get("tables"),
        "sheets": meta.get("sheets"),  # a workbook's
        "messages": meta.get("messages"),  # a mailbox's
        "attachments": len(meta["attachments"]) if "attachments" in meta else None,  # documents a mail attached
        "warnings": warnings,
    }


def format_details(details: dict[str, Any]) -> str:
    """One short line: `pdf · 13 pages · 16 chunks · 13 OCR pages (conf 0.98) · 17 tables`."""
    parts = [details["format"] or "?"]
    if details["pages"] is not None:
        parts.append(f"{details['pages']} pages")
    if details["chunks"] is not None:
        parts.append(f"{details['chunks']} chunks")
    if details["ocr_pages"]:
        conf = details["ocr_confidence"]
        parts.append(f"{details['ocr_pages']} OCR pages" + (f" (conf {conf:.2f})" if conf is not None else ""))
    if details["tables"] is not None:
        parts.append(f"{details['tables']} tables")
    for key in ("sheets", "messages", "attachments"):
        if details.get(key):
            parts.append(f"{details[key]} {key}")
    return " · ".join(parts)
