"""Crash safety: SIGKILL a real `kgrag add`/`kgrag index` mid-run, rerun, and get the clean run's digest;
failed items are listed and retried; a second writer is refused while readers keep working."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kgrag.cli.core import run_stages
from kgrag.config import Settings
from kgrag.graph.build import STAGE as GRAPH_STAGE
from kgrag.graph.build import build_graph
from kgrag.index import Index
from kgrag.indexing import add_paths
from kgrag.models.fake import FakeLLM
from kgrag.progress import NullProgress

FAST_ENV = {"KGRAG_EMBEDDER__PROVIDER": "hash", "KGRAG_LLM__PROVIDER": "fake", "KGRAG_GRAPH__EXTRACTOR": "rules"}
TOPICS = ["barometer", "gyroscope", "Bluetooth radio", "USB-C port", "LiPo charger", "I2C bus", "SPI flash", "RGB LED"]


def kgrag(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kgrag", *args], env={**os.environ, **FAST_ENV},
                          capture_output=True, text=True, timeout=timeout)


def make_docs(folder: Path, n: int = 24) -> Path:
    """`n` small Markdown documents that share entities (boards, parts, the maker)."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        a, b = TOPICS[i % len(TOPICS)], TOPICS[(i * 3 + 1) % len(TOPICS)]
        text = (f"# Zephyr Board {i}\n\nThe Zephyr Board {i} has a {a} and a {b}. Acme Robotics builds the Zephyr "
                f"Board {i} in Berlin. The {a} of the Zephyr Board {i} runs at {i % 5 + 1}.3 V.\n\n## Notes\n\n"
                f"The Zephyr Board {i} connects to the Grove Shield over the I2C bus. Maria Lopez tested the {b}.\n")
        (folder / f"board-{i:02d}.md").write_text(text, encoding="utf-8")
    return folder


def progress_rows(db: Path, stage: str) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as conn:
            return conn.execute("SELECT COUNT(*) FROM progress WHERE stage = ? AND status = 'done'",
                                (stage,)).fetchone()[0]
    except sqlite3.Error:
        return 0


def run_and_kill(args: list[str], db: Path, stage: str, rows: int, timeout: float = 300) -> bool:
    """Start `kgrag ARGS`, SIGKILL it once `stage` has `rows` done records; False if it finished first."""
    proc = subprocess.Popen([sys.executable, "-m", "kgrag", *args], env={**os.environ, **FAST_ENV},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        if progress_rows(db, stage) >= rows:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return True
        time.sleep(0.01)
    proc.wait()
    return False


def digest(idx: Path) -> dict:
    out = kgrag("verify", "--index", str(idx), "--json")
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["ok"], report["problems"]
    return report


def _kill_resume(tmp_path: Path, points: list[tuple[str, str, int]]) -> None:
    docs = make_docs(tmp_path / "docs")
    clean = tmp_path / "clean"
    assert kgrag("add", str(docs), "--index", str(clean), "-q").returncode == 0
    assert kgrag("index", "--index", str(clean), "-q").returncode == 0
    expected = digest(clean)
    live = tmp_path / "live"
    db = live / "index.sqlite"
    killed = 0
    for command, stage, rows in points:
        args = ["add", str(docs), "--index", str(live), "-q"] if command == "add" else ["index", "--index", str(live), "-q"]
        if command == "index":
            assert kgrag("add", str(docs), "--index", str(live), "-q").returncode == 0
        killed += run_and_kill(args, db, stage, rows)
    assert killed, "no run was killed mid-way (machine too fast for these kill points)"
    assert kgrag("add", str(docs), "--index", str(live), "-q").returncode == 0
    assert kgrag("index", "--index", str(live), "-q").returncode == 0
    resumed = digest(live)
    differing = [k for k in expected["sections"] if expected["sections"][k] != resumed["sections"][k]]
    assert differing == [] and resumed["digest"] == expected["digest"]


def test_kill_during_add_and_index_then_resume_equals_clean(tmp_path: Path) -> None:
    _kill_resume(tmp_path, [("add", "ingest", 8), ("index", GRAPH_STAGE, 10)])


@pytest.mark.slow
def test_kill_at_many_points_then_resume_equals_clean(tmp_path: Path) -> None:
    _kill_resume(tmp_path, [("add", "ingest", 3), ("add", "ingest", 15), ("index", "ket.keywords", 1),
                            ("index", "ket.subchunks", 1), ("index", "ket.kwgraph", 1), ("index", GRAPH_STAGE, 4),
                            ("index", GRAPH_STAGE, 20)])


def test_failures_are_listed_and_retried(tmp_path: Path) -> None:
    settings = Settings()
    settings.embedder.provider, settings.llm.provider, settings.graph.extractor = "hash", "fake", "llm"
    index = Index.init(tmp_path / "idx", settings=settings)
    add_paths(index, [make_docs(tmp_path / "docs", 3)], NullProgress())
    report = build_graph(index, "llm", llm=FakeLLM(respond=lambda messages, schema: "this is not JSON"))
    chunks = index.store.chunk_ids()
    assert report.failed == len(chunks)
    assert index.store.done_keys(GRAPH_STAGE) == set()  # a failure is never recorded as a success
    failures = index.store.failures(GRAPH_STAGE)
    assert len(failures) == len(chunks) and all(f["reason"] for f in failures)
    status = kgrag("status", "--index", str(index.root), "--json")
    assert {f["item"] for f in json.loads(status.stdout)} == {f["item"] for f in failures}
    run_stages(index, quiet=True, wanted={"graph"}, retry_failed=True)  # the fake LLM now answers valid JSON
    assert index.store.failures(GRAPH_STAGE) == []
    assert index.store.done_keys(GRAPH_STAGE) == {f"llm:{c}" for c in chunks}


def test_second_writer_refused_reader_keeps_working(tmp_path: Path) -> None:
    settings = Settings()
    settings.embedder.provider, settings.llm.provider = "hash", "fake"
    index = Index.init(tmp_path / "idx", settings=settings)
    docs = make_docs(tmp_path / "docs", 3)
    add_paths(index, [docs], NullProgress())
    with index.write_lock(), index.store.transaction():
        index.store.set_meta("test:writing", "1")  # an open write transaction, as during indexing
        second = kgrag("add", str(docs), "--index", str(index.root), "-q", timeout=120)
        assert second.returncode == 1
        assert "another kgrag process" in second.stderr and "is writing to this index" in second.stderr
        reader = kgrag("search", "Zephyr Board 1 barometer", "--index", str(index.root), "--json", timeout=120)
        assert reader.returncode == 0, reader.stderr
        assert json.loads(reader.stdout)["items"]
