"""Query processing: spans, keywords, LLM rewrite with fallback, decomposition, HyDE, entity linking, relation mapping."""

from __future__ import annotations

import json

import numpy as np
import pytest

from kgrag.graph.adjacency import get_adjacency
from kgrag.models.fake import FakeLLM
from kgrag.retrieve.query import candidate_spans, decompose, fallback_keywords, hyde_vector, rewrite_query
from kgrag.retrieve.query_linking import expand_query, link_entities, map_relations
from test_retrieval_graph_data import build_graph_index


@pytest.fixture
def graph_index(empty_index):
    return build_graph_index(empty_index)


def test_candidate_spans_skip_stop_word_edges():
    spans = candidate_spans("What clock does the nRF52840 of the Nano 33 BLE use?")
    assert "Nano 33 BLE" in spans and "nRF52840" in spans
    assert not any(s.lower().startswith(("the ", "what")) for s in spans)


def test_fallback_keywords_prefer_names_and_part_numbers():
    keywords = fallback_keywords("What is the operating voltage of the Nano 33 BLE with the BMI270 sensor?")
    assert 3 <= len(keywords) <= 8
    assert keywords[0] == "Nano 33 BLE" and "BMI270" in keywords
    assert "What" not in keywords and "the" not in keywords


def test_rewrite_with_llm_valid_broken_and_absent():
    good = FakeLLM([json.dumps({"rewrite": "Nano 33 BLE flash size", "keywords": ["Nano 33 BLE", "flash"]})])
    result = rewrite_query("How much flash does the Nano 33 BLE have?", good)
    assert result.source == "llm" and result.text == "Nano 33 BLE flash size"
    assert len(result.keywords) >= 3 and result.keywords[:2] == ["Nano 33 BLE", "flash"]
    broken = rewrite_query("How much flash does the Nano 33 BLE have?", FakeLLM(["not json", "still not"]))
    assert broken.source == "fallback" and broken.error and "Nano" in broken.text
    plain = rewrite_query("How much flash does the Nano 33 BLE have?")
    assert plain.source == "fallback" and "How" not in plain.text
    assert plain.sparse_query().startswith(plain.text)


def test_decompose_rules_and_llm():
    assert decompose("What is the clock of the nRF52840 and what is its flash size?").questions == [
        "What is the clock of the nRF52840?", "what is its flash size?"]
    assert len(decompose("Compare the Nano 33 BLE and the Nano Every").questions) == 2
    assert decompose("What is the clock of the nRF52840?").questions == ["What is the clock of the nRF52840?"]
    llm = FakeLLM([json.dumps({"questions": ["Who directed X?", "When was he born?"]})])
    result = decompose("When was the director of X born?", llm)
    assert result.source == "llm" and len(result.questions) == 2


def test_hyde_vector_is_unit_and_uses_the_passage(empty_index):
    question = "What does the router provide?"
    plain = hyde_vector(empty_index, question)
    hyde = hyde_vector(empty_index, question, FakeLLM(["The router provides Internet access to every laptop."]))
    assert np.isclose(np.linalg.norm(hyde), 1.0) and not np.allclose(plain, hyde)


def test_link_entities_by_name_alias_and_embedding(graph_index):
    linked = {e.name: e for e in link_entities(graph_index, "Which chip does the Nano 33 BLE use, with Wi-Fi?")}
    assert linked["Nano 33 BLE"].match == "exact" and linked["Nano 33 BLE"].score == 1.0
    assert linked["WiFi"].match == "alias"
    by_vector = link_entities(graph_index, "nrf52840", min_similarity=0.3)
    assert by_vector[0].name == "nRF52840"
    assert not link_entities(graph_index, "What is 5?", min_similarity=0.99)


def test_map_relations_and_expansion(graph_index):
    relations = dict(map_relations(graph_index, "What does the router provide?", min_similarity=0.99))
    assert "PROVIDES" in relations
    adj = get_adjacency(graph_index.store)
    linked = link_entities(graph_index, "Is the Internet Service Provider reachable?")
    expanded = expand_query("Is the Internet Service Provider reachable?", linked, adj)
    assert "ISP" in expanded
