"""Entity resolution (numeric-safe, type-aware, optional LLM) with an undoable merge log; exports round-trip."""

from __future__ import annotations

import json

import pytest

from kgrag.graph.export import export_graph, graph_stats
from kgrag.graph.extract import ExtractionBuilder
from kgrag.graph.merge import active_redirects, write_extraction
from kgrag.graph.resolve import candidate_groups, resolve_entities, undo_merge
from kgrag.graph.serialize import iri_local_name, to_turtle, triple_sentence
from kgrag.index import Index
from kgrag.models.fake import FakeLLM
from kgrag.store.base import Store

ROWS = [  # (chunk, [(name, type)], [(source, relation, target)])
    ("c0", [("BMI270", "Sensor"), ("Nano 33 BLE Sense Rev2", "Board")], [("Nano 33 BLE Sense Rev2", "uses", "BMI270")]),
    ("c1", [("the BMI270 IMU", "Concept"), ("I2C", "Interface")], [("the BMI270 IMU", "talks over", "I2C")]),
    ("c2", [("BMI160", "Sensor"), ("Nano 33 BLE Sense", "Board")], [("Nano 33 BLE Sense", "uses", "BMI160")]),
    ("c3", [("5 V", "Quantity"), ("3.3 V", "Quantity"), ("bmi-270", "Concept")], [("bmi-270", "runs at", "3.3 V")]),
    ("c4", [("Arduino", "Organization")], []),
    ("c5", [("Arduino", "Concept")], []),
    ("c6", [("Arduino", "Product")], []),
]


def populate(store: Store) -> None:
    """Write the rows as extractions (validation off: names stand alone here), as the build does."""
    redirects = active_redirects(store)
    for chunk_id, entities, relations in ROWS:
        builder = ExtractionBuilder("", validate=False)
        for name, etype in entities:
            builder.entity(name, etype, f"{name} in {chunk_id}")
        for s, rel, t in relations:
            builder.relation(s, rel, t)
        write_extraction(store, chunk_id, builder.build(), redirects)


def names(store: Store) -> list[str]:
    return sorted(e.name for e in store.iter_entities())


def test_resolution_merges_only_numeric_safe_type_compatible_names(empty_index: Index) -> None:
    store = empty_index.store
    populate(store)
    before = names(store)
    assert "BMI270" in before and "the BMI270 IMU" not in before  # "BMI270 IMU" keeps its own key
    report = resolve_entities(store)
    after = names(store)
    assert report.entities_before - report.entities_after == len(report.merges) >= 1
    assert after.count("BMI270") == 1 and "bmi-270" not in after  # Concept merged into the Sensor
    assert {"BMI160", "Nano 33 BLE Sense", "Nano 33 BLE Sense Rev2", "5 V", "3.3 V"} <= set(after)
    bmi = store.find_entities("BMI270")[0]
    assert bmi.type == "Sensor" and "bmi-270" in bmi.aliases
    assert store.chunks_of_entities([bmi.entity_id])[bmi.entity_id] == ["c0", "c3"]  # mentions rewired
    runs_at = [r for r in store.relations_of([bmi.entity_id]) if r.type == "runs at"]
    assert len(runs_at) == 1 and runs_at[0].source_id == bmi.entity_id  # relation rewired
    assert store.relation_support([runs_at[0].relation_id]) == {runs_at[0].relation_id: ["c3"]}
    arduino = store.find_entities("Arduino")
    assert len(arduino) == 3  # Organization vs Product is ambiguous without the LLM: the Concept stays too
    assert resolve_entities(store).merges == []  # nothing left to do


def test_undo_restores_entities_relations_and_mentions(empty_index: Index) -> None:
    store = empty_index.store
    populate(store)
    snapshot = (names(store), sorted(r.relation_id for r in store.iter_relations()), store.count("mentions"))
    report = resolve_entities(store)
    log = store.merges()
    assert [m["merge_id"] for m in log] == report.merges and all(m["snapshot"]["entities"] for m in log)
    for merge_id in reversed(report.merges):
        undo_merge(store, merge_id)
    assert (names(store), sorted(r.relation_id for r in store.iter_relations()), store.count("mentions")) == snapshot
    assert store.merges() == [] and len(store.merges(include_undone=True)) == len(report.merges)
    assert resolve_entities(store).merges == []  # an undone merge is not redone automatically
    with pytest.raises(Exception, match="does not exist"):
        undo_merge(store, report.merges[0])


def test_merged_ids_stay_redirected_when_chunks_are_extracted_again(empty_index: Index) -> None:
    store = empty_index.store
    populate(store)
    resolve_entities(store)
    count = store.count("entities")
    populate(store)  # the same extractions again: no duplicates come back
    assert store.count("entities") == count


def test_llm_disambiguation_per_group(empty_index: Index) -> None:
    store = empty_index.store
    populate(store)
    llm = FakeLLM(respond=lambda messages, schema: json.dumps({"groups": [[0, 1, 2]]}))
    report = resolve_entities(store, llm)
    assert report.llm_groups == len(report.merges) == 2
    assert len(store.find_entities("Arduino")) == 1  # the LLM said all three are one
    assert "record" in llm.requests[0]["messages"][-1]["content"]


def test_candidate_groups_and_stats(empty_index: Index) -> None:
    store = empty_index.store
    populate(store)
    groups = candidate_groups(list(store.iter_entities()))
    assert sorted(len(g) for g in groups) == [2, 3]
    stats = graph_stats(store)
    assert stats["duplicate_candidates"] == 2 and stats["nodes"] == 12 and stats["edges"] == 4
    assert stats["orphans"] == 4  # 5 V and the three Arduino records: no relation and no mention
    assert stats["isolated"] == 4


def test_names_written_with_and_without_a_hyphen_are_one_candidate_group() -> None:
    """"Wi-Fi" and "WiFi" (one interface, two spellings) share a blocking key; a revision stays its own product, and
    numbers are not joined ("10/100 Mbit" is not "10100 Mbit")."""
    builder = ExtractionBuilder("", validate=False)
    for name, etype in (("Wi-Fi", "Interface"), ("WiFi", "Interface"), ("Nano 33 BLE", "Product"),
                        ("Nano 33 BLE Rev2", "Product"), ("10/100 Mbit", "Value"), ("10100 Mbit", "Value")):
        builder.entity(name, etype)
    groups = candidate_groups(builder.build().entities)
    assert [sorted(e.name for e in g) for g in groups] == [["Wi-Fi", "WiFi"]]


def test_exports_round_trip(empty_index: Index, tmp_path) -> None:  # noqa: ANN001
    import networkx as nx
    import rdflib

    store = empty_index.store
    populate(store)
    g = nx.read_graphml(export_graph(store, "graphml", tmp_path / "g.graphml"))
    assert g.number_of_nodes() == 12 and g.number_of_edges() == 4
    assert {d["name"] for _, d in g.nodes(data=True)} >= {"BMI270", "3.3 V"}
    ttl = rdflib.Graph().parse(export_graph(store, "turtle", tmp_path / "g.ttl"), format="turtle")
    labels = {str(o) for o in ttl.objects(None, rdflib.RDFS.label)}
    assert "Nano 33 BLE Sense Rev2" in labels and "3.3 V" in labels
    assert len([t for t in ttl if "relation/" in str(t[1])]) == 4
    rows = [json.loads(line) for line in (export_graph(store, "jsonl", tmp_path / "g.jsonl")).read_text().splitlines()]
    assert sum(r["kind"] == "entity" for r in rows) == 12 and all(r["chunks"] for r in rows)


def test_serialization_helpers() -> None:
    from kgrag.types import Entity, Relation

    assert triple_sentence("Laptop", "connects to", "Router") == "Laptop connects to Router."
    assert iri_local_name("Nano 33 BLE <Rev2> µ") == "Nano_33_BLE_Rev2_u"
    assert iri_local_name("3.3 V") == "_3_3_V"
    entities = [Entity("e1", "A & B \"quoted\"", "Board", "x > y"), Entity("e2", "A & B 'quoted'", "", "")]
    text = to_turtle(entities, [Relation("r1", "e1", "e2", "is part of")])
    import rdflib

    parsed = rdflib.Graph().parse(data=text, format="turtle")
    assert len(parsed) == 5  # 2 labels, 1 type, 1 comment, 1 relation
