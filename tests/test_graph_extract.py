"""Keys, the rules extractor and the LLM extractors (FakeLLM with valid, broken and hallucinated JSON)."""

from __future__ import annotations

import json

import pytest

from kgrag.errors import LLMOutputError
from kgrag.graph.extract_llm import LLMExtractor
from kgrag.graph.keys import entity_id, entity_key, relation_key, type_key
from kgrag.models.fake import FakeLLM
from kgrag.types import Chunk

TEXT = (
    "The Nano 33 BLE Sense uses the nRF52840 microcontroller running at 64 MHz. "
    "The BMM150 magnetometer communicates over I2C. The LPS22HB measures pressure from 260 to 1260 hPa."
)


def triples_reply(text: str) -> str:
    """A valid extraction answer for TEXT-like chunks (plus one hallucinated entity)."""
    return json.dumps({
        "entities": [
            {"name": "Nano 33 BLE Sense", "type": "Board", "description": "A board."},
            {"name": "nRF52840", "type": "Microcontroller", "description": "Runs at 64 MHz."},
            {"name": "Raspberry Pi", "type": "Board", "description": "Not in the text."},
        ],
        "relations": [
            {"source": "Nano 33 BLE Sense", "relation": "USES", "target": "nRF52840", "description": "uses it"},
            {"source": "Raspberry Pi", "relation": "uses", "target": "nRF52840", "description": "made up"},
            {"source": "nRF52840", "relation": "runs at", "target": "64 MHz", "description": "clock"},
        ],
    })


@pytest.mark.parametrize(
    ("a", "b"),
    [("Nano 33 BLE", "Nano 33 BLE Rev2"), ("BMI270", "BMI160"), ("5 V", "3.3 V"), ("-40 °C", "40 °C"),
     ("3.3 V", "33 V"), ("Nano 33 BLE", "Nano 33 IoT"), ("temperature sensor", "temperature"),
     ("2A", "2"), ("0.5 A", "0.5")],  # a value's "A" is amperes, not an article: "2 DAC pins" are not "2A"
)
def test_keys_keep_numbers_and_suffixes_apart(a: str, b: str) -> None:
    assert entity_key(a) != entity_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [("BMI270", "bmi-270"), ("the BMM150 sensor", "BMM150"), ("5V", "5 V"), ("LEDs", "LED"),
     ("Nano 33 BLE board", "nano  33 BLE"), ("260-1260 hPa", "260 to 1260 hPa"), ("Nano's pins", "nano pin")],
)
def test_keys_fold_case_punctuation_plurals_generic_words(a: str, b: str) -> None:
    assert entity_key(a) == entity_key(b)


def test_ids_and_labels_are_stable() -> None:
    assert entity_id("BMM150", "sensor") == entity_id("bmm-150", "Sensors")
    assert entity_id("BMM150", "Sensor") != entity_id("BMM150", "Part")
    assert type_key("power_supply") == "PowerSupply"
    assert relation_key("CONNECTS_TO") == relation_key("connects to") == "connects to"


def test_rules_extractor_finds_parts_quantities_interfaces_and_svo() -> None:
    pytest.importorskip("spacy")
    from kgrag.graph.rules import RulesExtractor

    ex = RulesExtractor()
    result = ex.extract(Chunk("c1", "d1", TEXT))
    found = {(e.name, e.type) for e in result.entities}
    assert {("nRF52840", "Part"), ("BMM150", "Part"), ("64 MHz", "Quantity"), ("I2C", "Interface"),
            ("260 to 1260 hPa", "Quantity")} <= found
    names = {e.entity_id: e.name for e in result.entities}
    triples = {(names[r.source_id], r.type, names[r.target_id]) for r in result.relations}
    assert ("Nano 33 BLE Sense", "uses", "nRF52840") in triples
    assert any(t[0] == "LPS22HB" and t[2] == "260 to 1260 hPa" for t in triples)
    assert ex.extract(Chunk("c2", "d1", "")).is_empty()


def test_rules_extractor_without_spacy_degrades_to_patterns(monkeypatch: pytest.MonkeyPatch) -> None:
    from kgrag.errors import ModelError
    from kgrag.graph import rules

    def missing() -> None:
        raise ModelError(rules.SPACY_HINT)

    monkeypatch.setattr(rules, "load_spacy", missing)
    ex = rules.RulesExtractor()
    assert "pip install" in ex.note
    result = ex.extract(Chunk("c1", "d1", TEXT))
    assert {"nRF52840", "64 MHz", "I2C"} <= {e.name for e in result.entities}
    assert result.relations == []


def test_llm_extractor_validates_against_the_chunk_text() -> None:
    llm = FakeLLM(respond=lambda messages, schema: triples_reply(messages[-1]["content"]))
    result = LLMExtractor(llm, "triples").extract(Chunk("c1", "d1", TEXT))
    names = {e.entity_id: e.name for e in result.entities}
    assert set(names.values()) == {"Nano 33 BLE Sense", "nRF52840", "64 MHz"}  # 64 MHz added by a relation
    assert {(names[r.source_id], r.type, names[r.target_id]) for r in result.relations} == {
        ("Nano 33 BLE Sense", "uses", "nRF52840"), ("nRF52840", "runs at", "64 MHz")}
    assert result.dropped == 2  # the made-up entity and its relation
    prompt = llm.requests[0]["messages"]
    assert "Acme X200" in prompt[1]["content"] and prompt[2]["role"] == "assistant"  # the worked example
    assert llm.requests[0]["schema"]["required"] == ["entities", "relations"]  # constrained decoding


def test_llm_extractor_repairs_broken_json_once() -> None:
    llm = FakeLLM(replies=["Sure! Here are the triples: {entities: oops", triples_reply(TEXT)])
    result = LLMExtractor(llm, "triples").extract(Chunk("c1", "d1", TEXT))
    assert llm.calls == 2 and len(result.entities) == 3
    assert "invalid" in llm.requests[1]["messages"][-1]["content"]


def test_llm_extractor_fails_after_the_repair_attempt() -> None:
    llm = FakeLLM(replies=["not json", "still not json"])
    with pytest.raises(LLMOutputError):
        LLMExtractor(llm, "triples").extract(Chunk("c1", "d1", TEXT))
    assert llm.calls == 2


def test_llm_extractor_rejects_answers_naming_only_absent_entities() -> None:
    reply = json.dumps({"entities": [{"name": "Raspberry Pi", "type": "Board", "description": ""}], "relations": []})
    with pytest.raises(LLMOutputError, match="occur in the chunk"):
        LLMExtractor(FakeLLM(replies=[reply]), "triples").extract(Chunk("c1", "d1", TEXT))


def test_llm_extractor_gleaning_adds_missed_items() -> None:
    second = json.dumps({"entities": [{"name": "BMM150", "type": "Sensor", "description": "magnetometer"}],
                         "relations": [{"source": "BMM150", "relation": "communicates over", "target": "I2C",
                                        "description": ""}]})
    empty = json.dumps({"entities": [], "relations": []})
    llm = FakeLLM(replies=[triples_reply(TEXT), second, empty])
    result = LLMExtractor(llm, "triples", gleaning_rounds=3).extract(Chunk("c1", "d1", TEXT))
    assert {"BMM150", "I2C"} <= {e.name for e in result.entities}
    assert llm.calls == 3  # stopped when a round found nothing


def test_typed_extractor_constrains_types_and_repairs_unknown_ones() -> None:
    bad = json.dumps({"entities": [{"name": "BMM150", "type": "Wizard", "description": ""}], "relations": []})
    good = json.dumps({"entities": [{"name": "nRF52840", "type": "Chip", "description": ""},
                                    {"name": "BMM150", "type": "Sensor", "description": ""}], "relations": []})
    llm = FakeLLM(replies=[bad, good])
    ex = LLMExtractor(llm, "typed", entity_types=["Board", "Chip", "Sensor"])
    result = ex.extract(Chunk("c1", "d1", TEXT))
    assert {(e.name, e.type) for e in result.entities} == {("nRF52840", "Chip"), ("BMM150", "Sensor")}
    assert llm.requests[0]["schema"]["properties"]["entities"]["items"]["properties"]["type"]["enum"] == [
        "Board", "Chip", "Sensor"]
    assert "Allowed entity types: Board, Chip, Sensor" in llm.requests[0]["messages"][-1]["content"]
    assert llm.calls == 2  # "Wizard" is outside the schema: one repair round


def test_paths_extractor_turns_paths_into_triples() -> None:
    reply = json.dumps({"paths": [["Nano 33 BLE Sense", "uses", "nRF52840", "runs at", "64 MHz"]]})
    result = LLMExtractor(FakeLLM(replies=[reply]), "paths").extract(Chunk("c1", "d1", TEXT))
    names = {e.entity_id: e.name for e in result.entities}
    assert {(names[r.source_id], r.type, names[r.target_id]) for r in result.relations} == {
        ("Nano 33 BLE Sense", "uses", "nRF52840"), ("nRF52840", "runs at", "64 MHz")}
