"""The command line end to end with fast models (hash embedder, fake LLM) set through the environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

FAST_ENV = {"KGRAG_EMBEDDER__PROVIDER": "hash", "KGRAG_LLM__PROVIDER": "fake"}


def kgrag(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **FAST_ENV}
    return subprocess.run([sys.executable, "-m", "kgrag", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)


def test_init_add_search_ask_stats(tmp_path: Path, samples_dir: Path) -> None:
    idx = tmp_path / "idx"
    assert kgrag("init", str(idx), cwd=tmp_path).returncode == 0
    assert kgrag("init", str(idx), cwd=tmp_path).returncode == 0  # twice is harmless
    added = kgrag("add", str(samples_dir), "--index", str(idx), "--quiet", cwd=tmp_path)
    assert added.returncode == 0, added.stderr
    assert "added" in added.stdout
    found = kgrag("search", "pressure range", "--index", str(idx), "--json", cwd=tmp_path)
    assert found.returncode == 0, found.stderr
    context = json.loads(found.stdout)
    assert context["items"] and context["items"][0]["source"]["path"]
    answered = kgrag("ask", "What is the pressure range?", "--index", str(idx), "--json", cwd=tmp_path)
    assert answered.returncode == 0, answered.stderr
    assert "answer" in json.loads(answered.stdout)
    stats = kgrag("stats", "--index", str(idx), "--json", cwd=tmp_path)
    assert json.loads(stats.stdout)["counts"]["chunks"] > 0


def test_add_exits_nonzero_only_when_nothing_indexed(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "a.pdf").write_bytes(b"not a pdf")
    result = kgrag("add", str(bad), "--index", str(tmp_path / "idx"), "--quiet", cwd=tmp_path)
    assert result.returncode == 1
    assert "a.pdf" in result.stderr
    (bad / "ok.md").write_text("# Title\n\nThe Foo board has 14 digital pins, six analog inputs and a clock that runs at 16 MHz from a crystal.\n", encoding="utf-8")
    result = kgrag("add", str(bad), "--index", str(tmp_path / "idx"), "--quiet", cwd=tmp_path)
    assert result.returncode == 0
    assert "a.pdf" in result.stderr


def test_errors_are_one_line_without_traceback(tmp_path: Path) -> None:
    result = kgrag("ask", "hello", "--index", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr


def test_usage_errors_show_the_usage_without_traceback(tmp_path: Path) -> None:
    """A mistyped command line (`kgrag index docs`: the folder goes to `kgrag add`) gets click's usage message and
    exit code 2, whichever copy of click the installed typer uses."""
    result = kgrag("index", "docs", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "Usage: kgrag index" in result.stderr and "unexpected extra argument" in result.stderr
    (tmp_path / "docs").mkdir()  # a folder of documents given to `index`: the command that adds them is named
    hinted = kgrag("index", "docs", cwd=tmp_path)
    assert hinted.returncode == 2 and "kgrag add docs --index" in hinted.stderr
    unknown = kgrag("ask", "hello", "--no-such-option", cwd=tmp_path)
    assert unknown.returncode == 2 and "Traceback" not in unknown.stderr and "No such option" in unknown.stderr
