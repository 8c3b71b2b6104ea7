"""End to end on the PostgreSQL server backend: init --backend -> add -> graph build (rules) -> ask, plus migrate."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import fast_settings
from kgrag.index import Index
from test_store_contract import drop_schema, pg_test_url

pytestmark = pytest.mark.server_db


@pytest.fixture
def pg_schema() -> Iterator[tuple[str, str]]:
    """(server URL, fresh schema name); the schema is dropped afterwards."""
    url = pg_test_url()
    schema = f"e2e_{uuid.uuid4().hex[:12]}"
    yield url, schema
    drop_schema(url, schema)


def _cli(*args: str) -> str:
    from typer.testing import CliRunner

    from kgrag.cli import registered_app

    app = registered_app()
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output + repr(result.exception)
    return result.output


def test_add_graph_ask_on_server(tmp_path: Path, samples_dir: Path, pg_schema: tuple[str, str]) -> None:
    url, schema = pg_schema
    backend = f"{url}?schema={schema}"
    Index.init(tmp_path / "idx", backend=backend, settings=fast_settings()).close()
    _cli("init", str(tmp_path / "idx"), "--backend", backend)  # running init twice is harmless
    assert (tmp_path / "idx" / "backend.url").read_text().strip() == backend
    assert not (tmp_path / "idx" / "index.sqlite").exists()  # the data lives on the server
    _cli("add", str(samples_dir), "--index", str(tmp_path / "idx"), "--quiet")
    _cli("graph", "build", "--index", str(tmp_path / "idx"), "--extractor", "rules", "--quiet")
    with Index.open(tmp_path / "idx") as index:
        assert type(index.store).__name__ == "PostgresStore"
        assert index.store.count("chunks") > 0 and index.store.count("entities") > 0
        assert index.store.count("relations") > 0 and index.store.count("mentions") > 0
        for strategy in ("dense", "sparse", "hybrid", "khop"):
            context = index.search("What is the pressure range of the barometer?", strategy=strategy)
            assert context.items, strategy
        answer = index.ask("What is the pressure range of the barometer?", strategy="hybrid")
        assert answer.text and answer.context.items
    out = _cli("ask", "What is the pressure range of the barometer?", "--index", str(tmp_path / "idx"))
    assert out.strip()


def test_migrate_there_and_back(sample_index: Index, tmp_path: Path, pg_schema: tuple[str, str]) -> None:
    url, schema = pg_schema
    store = sample_index.store
    store.upsert_keywords([])
    store.put_edges("knn", [(a, b, 0.5) for a, b in zip(store.chunk_ids(), store.chunk_ids()[1:], strict=False)])
    store.mark_failed("graph", "some-chunk", "LLM output invalid")
    store.add_usage("answer", "fake", 2, 100, 10, 0.2, 0.0)
    question = "What is the pressure range of the barometer?"
    before = {s: [i.chunk_id for i in sample_index.search(question, strategy=s).items] for s in ("dense", "sparse")}
    root = str(sample_index.root)
    sample_index.close()

    from kgrag.store.migrate import migrate

    there = migrate(root, f"{url}?schema={schema}", batch=7)
    assert there.counts["chunks"] == store.count("chunks") and there.counts["vectors"] > 0
    back = migrate(there.destination, str(tmp_path / "back"), batch=5)
    assert back.counts == there.counts
    with Index.open(tmp_path / "back") as copy:
        assert type(copy.store).__name__ == "SqliteStore"
        assert copy.settings.embedder.provider == "hash"  # settings travelled with the data
        assert copy.store.failures() and copy.store.usage()[0]["calls"] == 2
        after = {s: [i.chunk_id for i in copy.search(question, strategy=s).items] for s in ("dense", "sparse")}
    assert after == before

    from kgrag.store.migrate import MigrationError

    with pytest.raises(MigrationError):
        migrate(root, f"{url}?schema={schema}")  # destination not empty


def test_migrate_cli_switches_the_folder_to_the_server(sample_index: Index, pg_schema: tuple[str, str]) -> None:
    url, schema = pg_schema
    root = sample_index.root
    chunks = sample_index.store.count("chunks")
    sample_index.close()
    _cli("migrate", "--from", str(root), "--to", f"{url}?schema={schema}", "--switch")
    with Index.open(root) as index:
        assert type(index.store).__name__ == "PostgresStore" and index.store.count("chunks") == chunks


def test_init_pins_the_derived_schema(tmp_path: Path) -> None:
    url = pg_test_url()
    index = Index.init(tmp_path / "Pinned Index", backend=url, settings=fast_settings())
    schema = index.store.schema  # type: ignore[attr-defined]
    index.close()
    try:
        assert schema.startswith("kgrag_pinned_index_")
        assert (tmp_path / "Pinned Index" / "backend.url").read_text().strip() == f"{url}?schema={schema}"
        moved = tmp_path / "moved"
        (tmp_path / "Pinned Index").rename(moved)
        with Index.open(moved) as again:
            assert again.store.schema == schema  # type: ignore[attr-defined]
    finally:
        drop_schema(url, schema)
