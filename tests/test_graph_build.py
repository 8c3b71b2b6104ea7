"""Graph build: merging with provenance, failures retried, the token cap stopping and resuming, estimate, CLI."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from kgrag.errors import BudgetExceeded
from kgrag.graph.build import STAGE, build_graph
from kgrag.graph.estimate import estimate_build
from kgrag.index import Index
from kgrag.models.fake import FakeLLM
from kgrag.progress import NullProgress
from kgrag.types import Chunk, Document

TEXTS = [
    "The Nano 33 BLE Sense uses the nRF52840 microcontroller. The nRF52840 runs at 64 MHz.",
    "The Portenta H7 uses the STM32H747 processor. The nRF52840 supports Bluetooth.",
    "The Nano 33 BLE Sense uses the nRF52840 microcontroller for Bluetooth.",
    "The Nicla Sense ME uses the BHI260AP sensor hub. It is powered at 3.3 V.",
    "The Opta uses the STM32H747 processor and talks Modbus over RS-485.",
    "",
]
NAMES = ["Nano 33 BLE Sense", "nRF52840", "Portenta H7", "STM32H747", "Nicla Sense ME", "BHI260AP", "Opta",
         "Bluetooth", "Modbus", "64 MHz", "3.3 V"]


def add_chunks(index: Index, texts: Sequence[str]) -> list[str]:
    """Store a one-document corpus of `texts` as chunks c0, c1, ... (no ingestion, no vectors needed)."""
    index.store.upsert_document(Document("d1", "docs/boards.md", "Boards", "hash-d1"))
    chunks = [Chunk(f"c{i}", "d1", text, ord=i) for i, text in enumerate(texts)]
    index.store.add_chunks(chunks)
    return [c.chunk_id for c in chunks]


def answer(messages: Sequence[dict[str, str]], schema: object) -> str:
    """A valid extraction: the known names found in the chunk, each one 'uses'-linked to the first."""
    text = next(m["content"] for m in reversed(messages) if "Text:\n" in m["content"]).split("Text:\n", 1)[1]
    if "BROKEN" in text:
        return "sorry, I cannot do that"
    found = [n for n in NAMES if n in text]
    entities = [{"name": n, "type": "Thing", "description": f"{n} as described."} for n in found]
    relations = [{"source": found[0], "relation": "uses", "target": n, "description": ""} for n in found[1:]]
    return json.dumps({"entities": entities, "relations": relations})


def test_llm_build_merges_entities_with_provenance(empty_index: Index) -> None:
    add_chunks(empty_index, TEXTS)
    llm = FakeLLM(respond=answer)
    report = build_graph(empty_index, "llm", llm=llm)
    store = empty_index.store
    assert report.processed == 6 and report.failed == 0 and report.empty == 1
    assert llm.calls == 5  # the empty chunk costs nothing
    nrf = store.find_entities("nRF52840")
    assert len(nrf) == 1  # one node from three chunks
    assert store.chunks_of_entities([nrf[0].entity_id])[nrf[0].entity_id] == ["c0", "c1", "c2"]
    uses = [r for r in store.relations_of([nrf[0].entity_id]) if r.type == "uses"]
    nano_uses = [r for r in uses if store.get_entities([r.source_id])[0].name == "Nano 33 BLE Sense"]
    assert nano_uses[0].weight == 2.0  # supported by c0 and c2
    assert store.relation_support([nano_uses[0].relation_id])[nano_uses[0].relation_id] == ["c0", "c2"]
    ids = [e.entity_id for e in store.iter_entities()]
    assert store.get_vectors("entity", ids).any(axis=1).all()  # every entity embedded
    again = build_graph(empty_index, "llm", llm=llm)  # idempotent: nothing left to do
    assert again.processed == 0 and again.already_done == 6 and llm.calls == 5


def test_failed_chunk_is_recorded_never_cached_and_retried(empty_index: Index) -> None:
    add_chunks(empty_index, ["The Opta talks Modbus. BROKEN", TEXTS[1]])
    report = build_graph(empty_index, "llm", llm=FakeLLM(respond=answer))
    assert report.failed == 1 and report.processed == 1
    failures = empty_index.store.failures(STAGE)
    assert [f["item"] for f in failures] == ["llm:c0"] and "valid JSON" in failures[0]["reason"]
    assert "llm:c0" not in empty_index.store.done_keys(STAGE)
    fixed = FakeLLM(respond=lambda m, s: answer([{"content": m[3]["content"].replace("BROKEN", "")}], s))
    retry = build_graph(empty_index, "llm", llm=fixed)
    assert retry.processed == 1 and fixed.calls == 1
    assert "previous answer was rejected" in fixed.requests[0]["messages"][-1]["content"]
    assert empty_index.store.failures(STAGE) == []
    assert empty_index.store.find_entities("Opta")


def test_token_cap_stops_cleanly_and_a_later_run_completes(empty_index: Index) -> None:
    add_chunks(empty_index, TEXTS)
    with pytest.raises(BudgetExceeded) as info:
        build_graph(empty_index, "llm", llm=FakeLLM(respond=answer), max_llm_tokens=1800)
    partial = info.value.report  # type: ignore[attr-defined]
    assert partial.stopped == "budget" and 1 <= partial.processed < 5
    assert partial.prompt_tokens + partial.completion_tokens <= 1800
    store = empty_index.store
    assert store.count("entities") > 0 and store.failures(STAGE) == []  # usable, nothing marked failed
    llm = FakeLLM(respond=answer)
    rest = build_graph(empty_index, "llm", llm=llm)
    assert rest.already_done == partial.processed and rest.processed == 6 - partial.processed
    assert len(store.done_keys(STAGE)) == 6


def test_budget_extracts_from_a_share_of_chunks(empty_index: Index) -> None:
    add_chunks(empty_index, TEXTS)
    report = build_graph(empty_index, "llm", llm=FakeLLM(respond=answer), budget=0.5, method="uniform")
    assert report.selected == 3 and report.processed == 3


def test_unavailable_llm_stops_after_a_few_errors(empty_index: Index) -> None:
    from kgrag.errors import ModelError

    def down(messages: object, schema: object) -> str:
        raise ModelError("connection refused: http://localhost:8080")

    add_chunks(empty_index, TEXTS)
    with pytest.raises(ModelError, match="run again"):
        build_graph(empty_index, "llm", llm=FakeLLM(respond=down))
    assert len(empty_index.store.failures(STAGE)) == 3


def test_estimate_predicts_tokens_before_spending(empty_index: Index) -> None:
    add_chunks(empty_index, TEXTS)
    empty_index.settings.prices = {"qwen": [1.0, 2.0]}
    empty_index.settings.llm.provider = "local"  # default speeds of the local model (nothing is loaded)
    est = estimate_build(empty_index, "llm")
    assert est["chunks"] == 6 and est["calls"] == 5
    assert est["prompt_template_tokens"] > 100
    assert est["total_tokens"] == est["prompt_tokens"] + est["completion_tokens"] > 5 * est["prompt_template_tokens"]
    assert est["usd"] > 0 and est["seconds"] > 0
    llm = FakeLLM(respond=answer)
    report = build_graph(empty_index, "llm", llm=llm)
    assert 0.5 < report.prompt_tokens / est["prompt_tokens"] < 1.5  # the template count is the real one
    assert estimate_build(empty_index, "llm")["chunks"] == 0
    assert estimate_build(empty_index, "rules")["total_tokens"] == 0


def test_rules_build_and_graph_stage(empty_index: Index) -> None:
    pytest.importorskip("spacy")
    from kgrag.graph.export import graph_stats
    from kgrag.progress import NullProgress
    from kgrag.stages import all_stages

    add_chunks(empty_index, TEXTS)
    empty_index.settings.graph.extractor = "rules"  # the default is `datasheet`; this test is about `rules`
    stage = {s.name: s for s in all_stages()}["graph"]
    assert stage.order == 30
    out = stage.run(empty_index, NullProgress())
    assert out["build"]["extractor"] == "rules" and out["build"]["processed"] == 6
    stats = graph_stats(empty_index.store)
    assert stats["nodes"] > 5 and stats["edges"] > 0 and stats["chunks_extracted"] == {"rules": 6}
    assert {"Part", "Quantity", "Interface"} <= {t for t, _ in stats["entity_types"]}


def test_cli_build_stats_resolve_export(empty_index: Index, tmp_path) -> None:  # noqa: ANN001
    pytest.importorskip("spacy")
    from typer.testing import CliRunner

    from kgrag.cli import registered_app

    add_chunks(empty_index, TEXTS)
    app = registered_app()
    runner = CliRunner()
    root = str(empty_index.root)
    result = runner.invoke(app, ["graph", "build", "--index", root, "--extractor", "rules", "-q"])
    assert result.exit_code == 0, result.output
    assert "rules: 6 chunks extracted" in result.output
    stats = runner.invoke(app, ["graph", "stats", "--index", root, "--json"])
    assert json.loads(stats.output)["nodes"] > 0
    assert runner.invoke(app, ["graph", "resolve", "--index", root, "--list"]).exit_code == 0
    est = runner.invoke(app, ["graph", "estimate", "--index", root, "--extractor", "llm", "--json"])
    assert json.loads(est.output)["chunks"] == 6
    out = tmp_path / "g.ttl"
    assert runner.invoke(app, ["graph", "export", "--index", root, "--format", "turtle", "--out", str(out)]).exit_code == 0
    assert out.read_text().startswith("@prefix")


def _titled_datasheet(index: Index) -> None:
    """A flat-folder datasheet: no product folder, so its product comes from its title."""
    index.store.upsert_document(Document("d1", "docs/ts30.md", "TS-30 LoRaWAN Node — Datasheet", "hash-d1"))
    index.store.add_chunks([Chunk("c0", "d1", "| Parameter | Value |\n| Battery life | 5 years |", ord=0)])


def _products(index: Index) -> set[str]:
    return {e.name for e in index.store.iter_entities() if e.type == "Product"}


def test_a_graph_built_by_an_older_rule_based_extractor_is_read_again(empty_index: Index,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """An index built before the datasheet extractor named a flat-folder product without "— Datasheet" gets the new
    reading on its next build, not a mix; once read, a build does nothing again."""
    from kgrag.graph.datasheet import extractor

    _titled_datasheet(empty_index)
    with monkeypatch.context() as m:  # the older extractor: the whole title is the product, version 1
        m.setattr(extractor, "document_identity", lambda chunk, title: (title, title))
        m.setattr(extractor.DatasheetExtractor, "version", "1")
        build_graph(empty_index, "datasheet")
    assert _products(empty_index) == {"TS-30 LoRaWAN Node — Datasheet"}
    shown: list[str] = []

    class Shown(NullProgress):
        def note(self, text: str) -> None:
            shown.append(text)

    report = build_graph(empty_index, "datasheet", progress=Shown())
    assert _products(empty_index) == {"TS-30 LoRaWAN Node"} and report.processed == 1
    assert any("read again" in n for n in report.notes) and any("read again" in n for n in shown)  # `kgrag index` says so
    again = build_graph(empty_index, "datasheet")
    assert again.processed == 0 and again.already_done == 1 and not again.notes


def test_a_changed_rule_based_extractor_never_drops_what_another_extractor_built(empty_index: Index) -> None:
    _titled_datasheet(empty_index)
    build_graph(empty_index, "datasheet")
    empty_index.store.set_meta("graph:version:datasheet", "0")  # as if built by an older datasheet extractor
    empty_index.store.mark_done(STAGE, ["llm:c0"])  # and by a (paid) LLM extractor
    before = {e.entity_id for e in empty_index.store.iter_entities()}
    report = build_graph(empty_index, "datasheet")
    assert {e.entity_id for e in empty_index.store.iter_entities()} == before and report.processed == 0
    assert any("build a new index" in n for n in report.notes)
