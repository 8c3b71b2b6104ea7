"""Hostile and malformed input: every good file indexed, every bad one refused with a one-line reason, no hang."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from hostile_corpus import make_corpus
from kgrag import indexing
from kgrag.index import Index
from kgrag.indexing import INGEST_STAGE, add_paths
from kgrag.ingest.base import relative_path
from kgrag.progress import NullProgress
from kgrag.verify import verify_store


def test_hostile_corpus_with_samples(empty_index: Index, tmp_path: Path, samples_dir: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = tmp_path / "corpus"
    made = make_corpus(corpus, big_kb=200, long_words=5_000, depth=100_000)
    monkeypatch.setattr(indexing, "PER_FILE_TIME_LIMIT_S", 8)  # the deep HTML must not hang the run
    start = time.monotonic()
    report = add_paths(empty_index, [corpus, samples_dir], NullProgress())
    assert time.monotonic() - start < 240
    store = empty_index.store
    stored = {d.path for d in store.list_documents()}
    refused = {Path(e.path) for e in report.errors}
    reasons = {Path(e.path).name: e.reason for e in report.errors}
    for path in made["good"]:
        assert relative_path(path, corpus) in stored, f"{path.name} not indexed: {reasons.get(path.name)}"
    for path in made["bad"]:
        assert path in refused, f"{path.name} not refused"
    assert "took longer than 8 s" in reasons["deep.html"]  # the per-file time limit ends a pathological parse
    assert len([d for d in stored if not d.startswith(("good/", "names/", "lines/", "big/", "html/", "enc/",
                                                     "jsonl/"))]) >= 6  # the sample documents
    for err in report.errors:
        assert err.reason and "\n" not in err.reason, err
    every = {p for p in corpus.rglob("*") if p.is_file() and not p.is_symlink() and not p.name.startswith(".")}
    accounted = {p for p in every if relative_path(p, corpus) in stored or p in refused}
    assert every == accounted
    failed = {f["item"] for f in store.failures(INGEST_STAGE)}
    assert {relative_path(p, corpus) for p in made["bad"]} <= failed | {str(p) for p in made["bad"]}
    check = verify_store(store)
    assert check.ok, check.problems


def test_fixed_file_clears_its_failure(empty_index: Index, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.md").write_bytes(b"")
    add_paths(empty_index, [folder], NullProgress())
    assert [f["item"] for f in empty_index.store.failures(INGEST_STAGE)] == ["note.md"]
    (folder / "note.md").write_text("# Note\n\n" + "The Zephyr Nano reads the BMP390 barometer over I2C at 3.3 V. " * 5)
    report = add_paths(empty_index, [folder], NullProgress())
    assert report.added == 1
    assert empty_index.store.failures(INGEST_STAGE) == []
