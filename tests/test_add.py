"""Adding documents: idempotent re-add, changed files replace their chunks, bad files reported, others kept."""

from __future__ import annotations

from pathlib import Path

from kgrag.index import Index


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


GOOD = "# Widget X\n\n## Power\n\nThe Widget X runs at 5 V and draws 20 mA in idle mode with the radio off.\n"


def test_readd_unchanged_does_nothing_and_change_replaces(empty_index: Index, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _write(docs / "x.md", GOOD)
    first = empty_index.add([docs])
    assert (first.added, first.unchanged) == (1, 0)
    chunks_before = empty_index.store.chunk_ids()
    again = empty_index.add([docs])
    assert (again.added, again.replaced, again.unchanged) == (0, 0, 1)
    assert empty_index.store.chunk_ids() == chunks_before
    _write(docs / "x.md", GOOD.replace("5 V", "12 V"))
    changed = empty_index.add([docs])
    assert changed.replaced == 1
    texts = " ".join(c.text for c in empty_index.store.iter_chunks())
    assert "12 V" in texts and "5 V" not in texts
    assert empty_index.store.count("documents") == 1
    assert empty_index.store.count("vectors") == empty_index.store.count("chunks")


def test_bad_files_are_reported_and_good_ones_indexed(empty_index: Index, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _write(docs / "good.md", GOOD)
    (docs / "broken.pdf").write_bytes(b"%PDF-1.7\n garbage \x00\x01")
    (docs / "empty.txt").write_bytes(b"")
    (docs / "latin1.txt").write_bytes("Caf\xe9 cr\xe8me \xff\xfe\x00".encode("latin-1"))
    (docs / "image.xyz").write_bytes(b"\x89PNG")
    report = empty_index.add([docs, tmp_path / "missing-folder"])
    assert report.added == 1
    reasons = {Path(e.path).name: e.reason for e in report.errors}
    assert {"broken.pdf", "empty.txt", "image.xyz", "missing-folder"} <= set(reasons)
    assert all(reason for reason in reasons.values())
    assert empty_index.store.count("documents") == 1


def test_remove_document_deletes_chunks_and_vectors(sample_index: Index) -> None:
    doc = sample_index.store.list_documents()[0]
    sample_index.remove(doc.path)
    assert sample_index.store.get_document(doc.doc_id) is None
    assert not sample_index.store.chunks_of_document(doc.doc_id)
    assert sample_index.store.count("vectors") == sample_index.store.count("chunks")
