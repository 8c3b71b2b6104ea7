"""A document another parser version read is read again by `kgrag add`: its chunks and everything derived from them
stay when the text is the same, and are replaced when the new parser reads it differently."""

from __future__ import annotations

from pathlib import Path

import pytest

import kgrag.indexing as indexing
import kgrag.ingest.base as ingest_base
from kgrag.index import Index
from kgrag.ingest.base import PARSER_KEY, PARSER_VERSION
from kgrag.progress import NullProgress

DOC = ("# Zephyr Nano\n\nThe Zephyr Nano is a small controller board with a barometer. Its BPX-210 sensor measures the\n"
       "absolute pressure from 260 to 1260 hPa with 24 bit precision, and the board runs from a 5 V USB supply.\n")


def _add(index: Index, folder: Path) -> indexing.AddReport:
    return indexing.add_paths(index, [folder], NullProgress())


def test_a_document_read_by_an_older_parser_is_read_again(empty_index: Index, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "nano.md").write_text(DOC, encoding="utf-8")
    first = _add(empty_index, folder)
    assert first.added == 1
    doc = empty_index.store.list_documents()[0]
    assert doc.meta[PARSER_KEY] == PARSER_VERSION
    chunks = [(c.chunk_id, c.text) for c in empty_index.store.chunks_of_document(doc.doc_id)]

    again = _add(empty_index, folder)  # same file, same parser: not read at all
    assert (again.unchanged, again.reread, again.replaced) == (1, 0, 0)

    monkeypatch.setattr(ingest_base, "PARSER_VERSION", "next")  # an upgraded kgrag that reads the same text
    monkeypatch.setattr("kgrag.ingest.parse.PARSER_VERSION", "next")
    reread = _add(empty_index, folder)
    assert (reread.unchanged, reread.reread, reread.replaced, reread.chunks) == (1, 1, 0, 0)
    doc = empty_index.store.list_documents()[0]
    assert doc.meta[PARSER_KEY] == "next"
    assert [(c.chunk_id, c.text) for c in empty_index.store.chunks_of_document(doc.doc_id)] == chunks
    assert _add(empty_index, folder).reread == 0  # stamped: not read again

    def reads_differently(path: Path, **kwargs: object) -> object:
        parsed = parse_file(path, **kwargs)
        for chunk in parsed.chunks:
            chunk.text = chunk.text.replace("260 to 1260 hPa", "260–1260 hPa")
        return parsed

    from kgrag.ingest.parse import parse_file

    monkeypatch.setattr(ingest_base, "PARSER_VERSION", "third")  # one that reads the file differently
    monkeypatch.setattr("kgrag.ingest.parse.PARSER_VERSION", "third")
    monkeypatch.setattr("kgrag.ingest.parse_file", reads_differently)
    changed = _add(empty_index, folder)
    assert (changed.reread, changed.replaced, changed.unchanged) == (1, 1, 0)
    texts = [c.text for c in empty_index.store.chunks_of_document(doc.doc_id)]
    assert any("260–1260 hPa" in t for t in texts)
