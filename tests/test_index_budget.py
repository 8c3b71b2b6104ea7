"""`kgrag index` is bounded: no LLM work by default, a plan that changes nothing, budget stop and resume, log progress."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from kgrag.cli.index_run import EXIT_BUDGET, IndexOptions, run_index
from kgrag.index import Index
from kgrag.models.fake import FakeLLM
from kgrag.progress import LogProgress
from kgrag.types import Chunk, Document, Entity, Relation

GROUPS = [[f"sensor{i}" for i in range(6)], [f"radio{i}" for i in range(6)], [f"power{i}" for i in range(6)]]


def _graph(index: Index) -> None:
    """Three clusters of related entities, each entity mentioned in its own chunk."""
    store = index.store
    store.upsert_document(Document("d1", "board.md", "Board", "h1"))
    names = [n for g in GROUPS for n in g]
    chunks = [Chunk(f"c{n}", "d1", f"The {name} part of group {name[:5]} works with the others.", ord=n)
              for n, name in enumerate(names)]
    store.add_chunks(chunks)
    store.put_vectors("chunk", [c.chunk_id for c in chunks], index.embedder.embed([c.text for c in chunks]))
    store.upsert_entities([Entity(f"e-{n}", n, "part", f"{n} is a {n[:5]} part") for n in names])
    store.add_mentions([(f"c{i}", f"e-{n}") for i, n in enumerate(names)])
    store.upsert_relations([Relation(f"r-{a}-{b}", f"e-{a}", f"e-{b}", "related_to")
                            for g in GROUPS for a, b in zip(g, g[1:], strict=False)])


def _llm_index(index: Index) -> FakeLLM:
    """The index's LLM with the usual layers (accounting, token cap) around a fake client that counts calls."""
    from kgrag.models.factory import make_llm

    fake = FakeLLM()
    index.llm = make_llm(index.settings.llm, ledger=index.ledger,  # type: ignore[misc]
                         max_tokens_total=index.settings.graph.max_llm_tokens, base=fake)
    return fake


def _sources(index: Index) -> list[str]:
    return [c.full_content["summary_source"] for c in index.store.iter_communities()]


def test_default_index_makes_no_llm_call(empty_index: Index) -> None:
    _graph(empty_index)
    fake = _llm_index(empty_index)
    assert run_index(empty_index, True, IndexOptions(wanted={"communities"})) == 0
    assert fake.calls == 0 and not empty_index.store.usage()
    assert _sources(empty_index) and set(_sources(empty_index)) == {"profile"}
    run = empty_index.stats()["stages"]["communities"]
    assert run["status"] == "done" and run["wall_s"] >= 0 and run["cpu_s"] >= 0 and run["items"]["communities"] > 0


def test_llm_summaries_stop_at_the_token_budget_and_resume(empty_index: Index) -> None:
    _graph(empty_index)
    opts = IndexOptions(wanted={"communities"}, llm_summaries=True, max_llm_tokens=700)
    runs, calls = 0, 0
    while True:
        for name in ("llm", "ledger"):  # a new process per run, as on the command line
            empty_index.__dict__.pop(name, None)
        empty_index.settings.graph.max_llm_tokens = 700
        fake = _llm_index(empty_index)
        code = run_index(empty_index, True, opts)
        runs += 1
        calls += fake.calls
        assert fake.calls == 1  # each run makes progress and stops at its own cap (one ~560-token call)
        sources = _sources(empty_index)
        if code == 0:
            break
        assert code == EXIT_BUDGET
        assert "profile" in sources and "llm" in sources  # a usable partial result: the rest stay extractive
        assert empty_index.stats()["stages"]["communities"]["status"] == "budget"
        assert runs < 30
    assert runs > 1
    assert set(_sources(empty_index)) == {"llm"}
    assert calls == len({c.full_content["profile_hash"] for c in empty_index.store.iter_communities()})


def test_max_minutes_stops_before_any_call(empty_index: Index) -> None:
    _graph(empty_index)
    fake = _llm_index(empty_index)
    code = run_index(empty_index, True, IndexOptions(wanted={"communities"}, llm_summaries=True, max_minutes=1e-9))
    assert code == EXIT_BUDGET and fake.calls == 0
    assert set(_sources(empty_index)) == {"profile"}  # still a complete, usable community index


def _cli(*args: str, cwd: Path) -> Result:
    """The command line in-process (the index's kgrag.toml already selects the hash embedder and fake LLM)."""
    from kgrag.cli import registered_app

    app = registered_app()
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def test_plan_lists_stages_with_estimates_and_changes_nothing(empty_index: Index, tmp_path: Path) -> None:
    _graph(empty_index)
    store = empty_index.store
    before = (store.count("communities"), store.count("keywords"), len(store.done_keys("ket.keywords")),
              store.get_meta("stage_stats"))
    root = str(empty_index.root)
    plain = _cli("index", "--index", root, "--plan", cwd=tmp_path)
    assert plain.exit_code == 0, plain.output
    for stage in ("keywords", "knn", "graph", "skeleton", "communities"):
        assert stage in plain.stdout
    assert "items to do: 18 of 18" in plain.stdout  # the keyword stage: every chunk
    assert "min (default rate)" in plain.stdout  # a time for the LLM-free work before this index has any
    assert "LLM total: none" in plain.stdout and "extractive summaries" in plain.stdout
    asked = _cli("index", "--index", root, "--plan", "--llm-summaries", "--max-llm-tokens", "5000", cwd=tmp_path)
    assert asked.exit_code == 0, asked.output
    line = next(x for x in asked.stdout.splitlines() if "LLM:" in x)
    assert "LLM calls" in line and "tokens" in line and "min here" in line and "$" in line
    assert "--max-llm-tokens 5,000" in asked.stdout
    llm = _cli("index", "--index", root, "--plan", "--extractor", "llm", "--stages", "graph", cwd=tmp_path)
    assert "18 LLM calls" in llm.stdout, llm.stdout
    after = (store.count("communities"), store.count("keywords"), len(store.done_keys("ket.keywords")),
             store.get_meta("stage_stats"))
    assert after == before


def test_log_progress_prints_a_line_about_every_ten_seconds() -> None:
    now = [0.0]
    out = io.StringIO()
    task = LogProgress(out, clock=lambda: now[0]).task("keywords", 100)
    for _ in range(10):
        now[0] += 3.0
        task.advance(5)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2  # at 12 s and 24 s (every >= 10 s), not at every advance
    assert lines[0].startswith("[0:12] keywords: 20/100 (20%), ETA 0:48, 1.7/s")
    now[0] += 100.0
    task.advance(50)
    assert out.getvalue().splitlines()[-1].startswith("[2:10] keywords: 100/100 (100%), ETA 0:00")


@pytest.mark.parametrize("quiet", [True])
def test_stage_stats_record_json_serialisable_runs(empty_index: Index, quiet: bool) -> None:
    _graph(empty_index)
    run_index(empty_index, quiet, IndexOptions(wanted={"keywords"}))
    data = json.loads(empty_index.store.get_meta("stage_stats") or "{}")
    assert data["keywords"]["items"] == {"keywords": 18}
