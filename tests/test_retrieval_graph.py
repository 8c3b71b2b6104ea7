"""Graph and thesis retrievers on a small hand-made graph; Turtle output; fusion math; reranker fallbacks."""

from __future__ import annotations

import json

import httpx
import pytest
import rdflib

from kgrag.errors import ModelError
from kgrag.models.fake import FakeLLM
from kgrag.models.rerankers import HTTPReranker, LexicalReranker, LLMReranker, make_reranker, rerank
from kgrag.retrieve.base import make_retriever
from kgrag.retrieve.fusion import alpha_fuse, minmax
from test_retrieval_graph_data import build_graph_index

GRAPH_STRATEGIES = ["khop", "paths", "kg-dense", "kg-hybrid", "kg-hybrid-rerank"]
ALL = ["naive", "advanced-sparse", "advanced-dense", "advanced-hybrid", *GRAPH_STRATEGIES]


@pytest.fixture
def graph_index(empty_index):
    return build_graph_index(empty_index)


def use_llm(index, llm):
    index.__dict__["llm"] = llm  # replace the lazily created model
    return llm


@pytest.mark.parametrize("name", ALL)
def test_every_retriever_returns_budgeted_context_with_provenance(graph_index, name):
    context = graph_index.search("What does the Router provide to the Laptop?", strategy=name, budget=300)
    assert context.strategy == name and context.items and 0 < context.tokens <= 300
    assert any(i.chunk_id == "c1" for i in context.items), [i.text for i in context.items]
    assert all(i.chunk_id or i.kind == "rdf" for i in context.items)
    if name in GRAPH_STRATEGIES:
        assert context.subgraph.nodes and context.subgraph.edges
        assert all(e["chunks"] for e in context.subgraph.edges)


def test_needs_llm_flags(graph_index):
    flags = {n: make_retriever(n, graph_index).needs_llm for n in ALL}
    assert flags == {**dict.fromkeys(ALL, False), "advanced-sparse": True, "advanced-dense": True,
                     "advanced-hybrid": True, "kg-hybrid-rerank": True}


def test_khop_facts_come_from_the_linked_neighbourhood(graph_index):
    context = graph_index.search("What does the nRF52840 support?", strategy="khop", budget=1000, k=1)
    facts = [i.text for i in context.items if i.kind == "relation"]
    assert "nRF52840 supports Bluetooth 5." in facts
    assert not any("Router" in f for f in facts)  # another component of the graph
    assert context.info["linked"][0]["name"] == "nRF52840"


def test_paths_connect_two_linked_entities(graph_index):
    context = graph_index.search("How is the Laptop connected to the ISP?", strategy="paths", budget=1000)
    paths = [i for i in context.items if i.kind == "path"]
    assert paths[0].text == "Router connects to Laptop; Router connects to Modem; Modem connects to ISP."
    assert set(paths[0].source["chunks"]) == {"c1", "c2", "c3"}


def test_turtle_serialization_parses_and_keeps_provenance(graph_index):
    context = graph_index.search("What does the Router provide?", strategy="khop", budget=2000, serialization="turtle")
    turtle = "\n".join(i.text for i in context.items if i.kind == "rdf")
    graph = rdflib.Graph().parse(data=turtle, format="turtle")
    prov = rdflib.URIRef("http://www.w3.org/ns/prov#wasDerivedFrom")
    assert rdflib.URIRef("https://kgrag.local/chunk/c1") in set(graph.objects(None, prov))
    labels = {str(o) for o in graph.objects(None, rdflib.RDFS.label)}
    assert {"Router", "Internet"} <= labels
    provides = rdflib.URIRef("https://kgrag.local/relation/provides")
    assert (rdflib.URIRef("https://kgrag.local/entity/Router"), provides,
            rdflib.URIRef("https://kgrag.local/entity/Internet")) in graph
    odd = graph_index.search("What does the Router provide?", strategy="kg-hybrid", budget=2000, serialization="turtle")
    rdflib.Graph().parse(data="\n".join(i.text for i in odd.items if i.kind == "rdf"), format="turtle")


def test_kg_hybrid_adds_related_chunks_and_relations(graph_index):
    context = graph_index.search("Nano 33 BLE microcontroller", strategy="kg-hybrid", budget=2000, seeds=1)
    assert context.items[0].chunk_id == "c4"
    texts = [i.text for i in context.items]
    assert "Nano 33 BLE uses nRF52840." in texts
    assert any(i.chunk_id == "c5" and i.kind == "chunk" for i in context.items)  # shares nRF52840 with c4
    assert all(i.chunk_id != "c6" for i in context.items)


def test_kg_hybrid_rerank_keeps_the_best_scored_candidates(graph_index):
    use_llm(graph_index, FakeLLM(yes=lambda m: 0.9 if "1 MB of flash" in m[-1]["content"] else 0.1))
    context = graph_index.search("Which radio standard?", strategy="kg-hybrid-rerank", budget=600, seeds=1,
                                 rerank_m=6, reranker="llm")
    assert context.items[0].chunk_id == "c5" and context.info["reranker"].startswith("llm")
    assert context.info["candidates"] == 6 and context.info["seeds"] == 1


def test_advanced_uses_llm_selection_or_falls_back(graph_index):
    def respond(messages, schema):
        if "selected" in json.dumps(schema):
            listing = messages[-1]["content"]
            number = next(line.split("]")[0][1:] for line in listing.splitlines() if "gardening" in line)
            return json.dumps({"selected": [int(number)]})
        return json.dumps({"rewrite": "router internet", "keywords": ["Router", "Internet", "gardening"]})

    use_llm(graph_index, FakeLLM(respond=respond))
    context = graph_index.search("What does the router give?", strategy="advanced-hybrid", budget=1000)
    assert context.items[0].chunk_id == "c6" and context.info["rerank"] == "llm"
    assert context.info["rewrite_source"] == "llm"
    use_llm(graph_index, FakeLLM(respond=lambda m, s: "nonsense"))
    fallback = graph_index.search("What does the router provide?", strategy="advanced-hybrid", budget=1000)
    assert fallback.info["rerank"].startswith("fallback") and fallback.info["rewrite_source"] == "fallback"
    assert fallback.items[0].chunk_id == "c1"


def test_minmax_fusion_math():
    assert minmax([("a", 2.0), ("b", 2.0)]) == {"a": 1.0, "b": 1.0}
    assert minmax([("a", 1.0), ("b", 3.0), ("c", 2.0)]) == {"a": 0.0, "b": 1.0, "c": 0.5}
    fused = dict(alpha_fuse([("a", 0.9), ("b", 0.1)], [("b", 10.0), ("c", 5.0)], 0.6))
    assert fused == pytest.approx({"a": 0.6, "b": 0.4, "c": 0.0})


class _Broken:
    model_name = "broken"

    def score(self, query, passages):
        raise ModelError("server down")


def test_rerankers_and_fallback():
    passages = ["The router provides Internet.", "Tomatoes need water."]
    scores, used = rerank(_Broken(), "router internet", passages)
    assert scores[0] > scores[1] and used.startswith("lexical (fallback")
    assert LexicalReranker().score("router", passages)[1] == 0.0
    llm = LLMReranker(FakeLLM(yes=lambda m: 0.8 if "router" in m[-1]["content"] else 0.2))
    assert llm.score("q", passages)[0] > llm.score("q", passages)[1]
    assert make_reranker("lexical").model_name == "lexical" and make_reranker("auto").model_name == "lexical"

    def handler(request):
        body = json.loads(request.content)
        assert body["query"] == "q" and len(body["documents"]) == 2
        return httpx.Response(200, json={"results": [{"index": 1, "relevance_score": 0.9},
                                                     {"index": 0, "relevance_score": 0.2}]})

    client = httpx.Client(transport=httpx.MockTransport(handler))
    assert HTTPReranker("http://x/v1", client=client).score("q", passages) == [0.2, 0.9]
    down = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(503)))
    with pytest.raises(ModelError):
        HTTPReranker("http://x/v1", client=down).score("q", passages)
