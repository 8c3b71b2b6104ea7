"""`kgrag documents --details` and GET /documents: what each document yielded, read from stored metadata."""

from __future__ import annotations

import json
from pathlib import Path

from kgrag.ingest.details import document_details, format_details
from kgrag.types import Document
from test_cli import kgrag
from test_ingest_office import _docx


def test_details_of_an_ocr_pdf_and_an_old_document() -> None:
    doc = Document("d1", "a/scan.pdf", "Scan", "h", meta={
        "format": "pdf", "pages": 3, "chunks": 4, "tables": 2, "warnings": ["OCR confidence below 0.80 on page(s) 3"],
        "ocr": {"engine": "rapidocr-onnxruntime 1.4.4", "pages": [2, 3], "confidence": [0.95, 0.7],
                "mean_confidence": 0.825, "low_confidence_pages": [3]}})
    details = document_details(doc)
    assert details["ocr_pages"] == 2 and details["ocr_low_confidence_pages"] == [3]
    assert format_details(details) == "pdf · 3 pages · 4 chunks · 2 OCR pages (conf 0.82) · 2 tables"
    old = document_details(Document("d2", "notes.md", "Notes", "h"))  # indexed before details were stored
    assert (old["format"], old["chunks"], old["tables"], old["ocr_pages"], old["warnings"]) == ("md", None, None, 0, [])


def test_cli_documents_details(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _docx(docs / "hub.docx")
    (docs / "broken.pptx").write_bytes(b"not a presentation")
    (docs / "log.jsonl").write_text('{"text": "The hub rebooted after the firmware update to 2.1."}\n{bad json\n')
    idx = tmp_path / "idx"
    assert kgrag("add", str(docs), "--index", str(idx), "--quiet", cwd=tmp_path).returncode == 0
    listed = kgrag("documents", "--details", "--index", str(idx), "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    data = json.loads(listed.stdout)
    by_path = {d["path"]: d["details"] for d in data["documents"]}
    assert by_path["hub.docx"]["format"] == "docx" and by_path["hub.docx"]["tables"] == 1
    assert by_path["hub.docx"]["chunks"] >= 1 and by_path["hub.docx"]["warnings"] == []
    assert by_path["log.jsonl"]["warnings"][0].startswith("1 invalid line(s) skipped")
    assert data["failed"] == [{"path": "broken.pptx", "reason": "corrupt pptx (not a zip package)"}]
    text = kgrag("documents", "--details", "--index", str(idx), cwd=tmp_path).stdout
    assert "docx · " in text and "1 tables" in text and "not indexed: corrupt pptx" in text
