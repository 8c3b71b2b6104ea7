"""Document lifecycle: change and remove keep every derived table consistent and equal to a clean build."""

from __future__ import annotations

from pathlib import Path

from kgrag.cli.core import run_stages
from kgrag.config import Settings
from kgrag.graph.export import graph_stats
from kgrag.index import Index
from kgrag.indexing import STALE_KEY, add_paths
from kgrag.progress import NullProgress
from kgrag.verify import compare, verify_store

DOCS = {
    "a-nano.md": "# Zephyr Nano\n\nThe Zephyr Nano uses the BMP390 barometer. Acme Robotics designed the Zephyr Nano "
                 "in Berlin. The Zephyr Nano measures pressure from 300 hPa to 1250 hPa.\n",
    "b-pro.md": "# Zephyr Pro\n\nThe Zephyr Pro uses the BMI270 sensor. Acme Robotics builds the Zephyr Pro in Munich. "
                "The Zephyr Pro supports Bluetooth 5.0.\n",
    "c-accessories.md": "# Accessories\n\nThe Zephyr Nano connects to the Grove Shield. Acme Robotics sells the Grove "
                        "Shield in Berlin. The Grove Shield powers the BMP390 barometer with 3.3 V.\n",
}
CHANGED_B = ("# Zephyr Pro\n\nThe Zephyr Pro uses the BMI160 sensor. Acme Robotics builds the Zephyr Pro in Hamburg. "
             "The Zephyr Pro supports Wi-Fi 6.\n")


def _settings() -> Settings:
    settings = Settings()
    settings.embedder.provider = "hash"
    settings.llm.provider = "fake"
    settings.graph.extractor = "rules"
    return settings


def _write(folder: Path, docs: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in docs.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def _build(root: Path, docs: dict[str, str]) -> Index:
    index = Index.init(root / "idx", settings=_settings())
    add_paths(index, [_write(root / "docs", docs)], NullProgress())
    run_stages(index, quiet=True)
    return index


def _entity(index: Index, name: str) -> str:
    found = index.store.find_entities(name)
    assert found, f"no entity {name!r}"
    return found[0].entity_id


def test_change_and_remove_equal_a_clean_build(tmp_path: Path) -> None:
    index = _build(tmp_path / "live", DOCS)
    assert verify_store(index.store).ok
    nano, acme = _entity(index, "Zephyr Nano"), _entity(index, "Acme Robotics")
    docs = {d.path: d for d in index.store.list_documents()}
    c_chunks = {c.chunk_id for c in index.store.chunks_of_document(docs["c-accessories.md"].doc_id)}
    assert c_chunks & set(index.store.chunks_of_entities([nano])[nano])  # shared by two documents

    (tmp_path / "live" / "docs" / "b-pro.md").write_text(CHANGED_B, encoding="utf-8")
    report = add_paths(index, [tmp_path / "live" / "docs"], NullProgress())
    assert (report.replaced, report.unchanged) == (1, 2)
    index.remove("c-accessories.md")
    after = verify_store(index.store)
    assert after.ok, after.problems  # consistent at once, before any re-indexing
    assert graph_stats(index.store)["orphans"] == 0
    assert index.store.get_meta(STALE_KEY) == "1"
    # the shared entities keep their other provenance only
    assert not c_chunks & set(index.store.chunks_of_entities([nano, acme]).get(nano, []))
    assert index.store.get_entities([nano]) and index.store.find_entities("Grove Shield") == []
    for r in index.store.relations_of([nano, acme]):
        assert r.weight == len(index.store.relation_support([r.relation_id])[r.relation_id])

    run_stages(index, quiet=True)
    assert index.store.get_meta(STALE_KEY) == "0"
    live = verify_store(index.store)
    clean = verify_store(_build(tmp_path / "clean", {"a-nano.md": DOCS["a-nano.md"], "b-pro.md": CHANGED_B}).store)
    assert live.ok and clean.ok, (live.problems, clean.problems)
    assert compare(live, clean) == []
    assert live.digest == clean.digest
    assert graph_stats(index.store)["orphans"] == 0


def test_remove_everything_leaves_nothing(tmp_path: Path) -> None:
    index = _build(tmp_path, DOCS)
    for doc in index.store.list_documents():
        index.remove(doc.doc_id)
    report = verify_store(index.store)
    assert report.ok, report.problems
    for table in ("chunks", "entities", "relations", "mentions", "relation_support", "keywords", "subchunks",
                  "edges"):
        assert index.store.count(table) == 0, table


def test_verify_reports_dangling_rows(tmp_path: Path) -> None:
    index = _build(tmp_path, DOCS)
    store = index.store
    chunk = store.chunk_ids()[0]
    store.delete_vectors("chunk", [chunk])
    store.add_mentions([("missing-chunk", _entity(index, "Zephyr Nano"))])
    store.put_edges("knn", [(chunk, "missing-chunk", 1.0)])
    problems = "\n".join(verify_store(store).problems)
    assert "chunks without a vector" in problems
    assert "mentions of a missing chunk" in problems
    assert "'knn' edges with a missing end" in problems


def test_version_filter_and_citation(tmp_path: Path) -> None:
    from kgrag.retrieve.base import strategy_names

    index = Index.init(tmp_path / "idx", settings=_settings())
    add_paths(index, [_write(tmp_path / "v1", {"nano.md": DOCS["a-nano.md"]})], NullProgress(), version="v1")
    add_paths(index, [_write(tmp_path / "v2", {"nano2.md": DOCS["a-nano.md"].replace("1250", "1100")})],
              NullProgress(), version="v2")
    assert {d.version for d in index.store.list_documents()} == {"v1", "v2"}
    run_stages(index, quiet=True)
    for strategy in ("hybrid", "ket", "kg-hybrid", "local", "community"):
        if strategy not in strategy_names():
            continue
        context = index.search("Zephyr Nano pressure range", strategy=strategy, version="v2")
        versions = {item.source.get("version") for item in context.items if item.chunk_id}
        assert versions <= {"v2"}, strategy
    answer = index.ask("What is the Zephyr Nano pressure range?", strategy="dense", version="v2")
    assert answer.citations and all(c.version == "v2" for c in answer.citations)
    v2 = index.version_chunks("v2")
    assert v2 and index.version_chunks("v2") is v2  # read once, not on every search of a query
    add_paths(index, [_write(tmp_path / "v2b", {"max.md": DOCS["a-nano.md"].replace("Nano", "Max")})],
              NullProgress(), version="v2")
    assert index.version_chunks("v2") > v2  # a document added to the version is in its filter at once
