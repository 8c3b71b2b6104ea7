"""HTTP API tests with FastAPI's TestClient: every route, the API key, upload limits, unsafe names, delete."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conftest import fast_settings
from kgrag.index import Index
from kgrag.server.app import create_app
from kgrag.server.security import read_api_key
from kgrag.server.uploads import safe_filename
from kgrag.types import Entity, Relation

QUESTION = "What is the pressure range of the barometer?"
DOC = b"# Gadget X1\n\nThe Gadget X1 has an accelerometer that measures up to 16 g. It runs on 5 V from the USB port.\n"


def seed_graph(index: Index) -> None:
    """A tiny graph over the sample chunks (the API only reads the graph; building it is tested elsewhere)."""
    store = index.store
    ents = [
        Entity("e-board", "Zephyr Nano", "product"),
        Entity("e-baro", "BMP280", "sensor"),
        Entity("e-mcu", "nRF52840", "chip"),
    ]
    rels = [Relation("r-1", "e-board", "e-baro", "HAS_SENSOR"), Relation("r-2", "e-board", "e-mcu", "USES_CHIP")]
    chunk_ids = store.chunk_ids()
    store.upsert_entities(ents)
    store.upsert_relations(rels)
    store.add_relation_support([(r.relation_id, chunk_ids[0]) for r in rels])
    store.add_mentions([(c, e.entity_id) for c in chunk_ids for e in ents])


@pytest.fixture(scope="module")
def built_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled samples indexed once per module (as the `sample_index` fixture does) plus a tiny graph."""
    root = tmp_path_factory.mktemp("server") / "idx"
    samples = Path(str(resources.files("kgrag") / "samples" / "docs"))
    with Index.init(root, settings=fast_settings()) as index:
        assert index.add([samples]).indexed > 0
        seed_graph(index)
    return root


@pytest.fixture
def sample_index(built_index: Path, tmp_path: Path) -> Iterator[Index]:
    """A private copy of the module's sample index (copying is ~50x faster than re-indexing)."""
    root = tmp_path / "idx"
    shutil.copytree(built_index, root)
    with Index.open(root) as index:
        yield index


@pytest.fixture
def client(sample_index: Index) -> Iterator[TestClient]:
    with TestClient(create_app(sample_index.root)) as c:
        yield c


@pytest.fixture
def full_client(sample_index: Index, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A client whose LLM sees the full context (no question focus): [n] is the n-th context item."""
    monkeypatch.setenv("KGRAG_ANSWER__FOCUS", "off")
    with TestClient(create_app(sample_index.root)) as c:
        yield c


def wait_job(client: TestClient, job_id: str) -> dict:
    assert client.app.state.kgrag.jobs.wait_idle(30)
    job = client.get(f"/jobs/{job_id}").json()
    assert job["status"] == "done", job
    return job


def upload(client: TestClient, name: str, data: bytes = DOC, **form: str):
    return client.post("/documents", files=[("files", (name, data, "text/markdown"))], data=form)


def sse_events(body: str) -> list[tuple[str, object]]:
    events = []
    for raw in body.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in raw.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    return events


def test_page_static_and_openapi(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'id="question"' in page.text
    assert "Cytoscape Consortium" in client.get("/static/vendor/cytoscape.min.js").text  # licence header kept
    assert client.get("/static/js/main.js").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/ask",
        "/ask/stream",
        "/search",
        "/strategies",
        "/documents",
        "/documents/{doc_id}",
        "/jobs/{job_id}",
        "/graph/entity/{name}",
        "/stats",
    ):
        assert path in paths, path
    assert client.get("/docs").status_code == 200


def test_strategies(client: TestClient) -> None:
    data = client.get("/strategies").json()
    names = {s["name"] for s in data}
    assert {"dense", "sparse", "hybrid"} <= names
    assert all(s["description"] for s in data)
    assert sum(s["default"] for s in data) == 1


def test_search_returns_context_only(client: TestClient) -> None:
    data = client.post("/search", json={"question": QUESTION, "strategy": "sparse", "budget": 500}).json()
    assert data["strategy"] == "sparse" and data["items"] and 0 < data["tokens"] <= 500
    assert "answer" not in data
    assert data["subgraph"]["nodes"]


def test_ask(full_client: TestClient) -> None:
    client = full_client
    r = client.post("/ask", json={"question": QUESTION, "strategy": "hybrid", "mode": "generative"})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["answer"] and data["grounded"]
    cite = data["citations"][0]
    assert cite["n"] == 1 and cite["document"] and cite["quote"]
    assert data["context"]["items"][0]["chunk_id"] == cite["chunk_id"]
    graph = data["subgraph"]
    assert {n["name"] for n in graph["nodes"]} == {"Zephyr Nano", "BMP280", "nRF52840"}
    assert {e["type"] for e in graph["edges"]} == {"HAS_SENSOR", "USES_CHIP"}
    assert graph["provenance"][cite["chunk_id"]] == 1
    assert data["tokens"]["context"] > 0 and data["tokens"]["prompt_tokens"] > 0
    assert {"retrieve_s", "generate_s", "total_s"} <= set(data["timings"])


def test_ask_stream_sends_sources_then_tokens_then_done(full_client: TestClient) -> None:
    client = full_client
    with client.stream("POST", "/ask/stream", json={"question": QUESTION, "mode": "generative"}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        events = sse_events(r.read().decode())
    names = [e for e, _ in events]
    assert names[0] == "sources" and names[-1] == "done" and "token" in names
    sources = events[0][1]
    assert sources["blocks"][0]["n"] == 1 and sources["subgraph"]["nodes"]
    done = events[-1][1]
    assert "".join(d for e, d in events if e == "token").strip() == done["answer"]
    assert done["citations"] and done["citations"][0]["n"] == 1
    assert {"retrieve_s", "generate_s", "total_s"} <= set(done["timings"])


def test_stream_reports_errors_as_events(client: TestClient) -> None:
    with client.stream("POST", "/ask/stream", json={"question": QUESTION, "strategy": "nope"}) as r:
        events = sse_events(r.read().decode())
    assert events[-1][0] == "error" and "nope" in events[-1][1]["detail"]


def test_bad_requests(client: TestClient) -> None:
    assert client.post("/ask", json={"question": QUESTION, "strategy": "nope"}).status_code == 422
    assert client.post("/ask", json={"question": ""}).status_code == 422
    assert client.post("/search", json={"question": QUESTION, "budget": 1}).status_code == 422
    big = {"question": "x" * 10, "pad": "y" * (2 * 1024 * 1024)}
    assert client.post("/ask", json=big).status_code == 413


def test_graph_entity_neighbourhood(client: TestClient) -> None:
    data = client.get("/graph/entity/bmp280", params={"hops": 1}).json()
    assert data["center"] == ["e-baro"]
    assert {n["name"] for n in data["nodes"]} == {"BMP280", "Zephyr Nano"}
    assert [e["type"] for e in data["edges"]] == ["HAS_SENSOR"] and data["edges"][0]["chunks"]
    two = client.get("/graph/entity/e-baro", params={"hops": 2}).json()
    assert {n["name"]: n["hop"] for n in two["nodes"]} == {"BMP280": 0, "Zephyr Nano": 1, "nRF52840": 2}
    assert client.get("/graph/entity/BMP280", params={"hops": 4}).status_code == 422
    assert client.get("/graph/entity/no such thing").status_code == 404


def test_stats(client: TestClient) -> None:
    client.post("/ask", json={"question": QUESTION, "mode": "generative"})
    data = client.get("/stats").json()
    assert data["counts"]["documents"] > 0 and data["counts"]["entities"] == 3
    assert data["llm_totals"]["calls"] >= 1
    assert set(data["jobs"]) == {"queued", "running", "done", "failed"}


def test_upload_index_list_delete(client: TestClient, sample_index: Index) -> None:
    before = {d["doc_id"] for d in client.get("/documents").json()}
    r = upload(client, "gadget x1.md")
    assert r.status_code == 202, r.text
    assert r.json()["files"][0]["name"] == "gadget_x1.md"
    job = wait_job(client, r.json()["job_id"])
    assert job["report"]["added"] == 1 and job["progress"] == 1.0
    docs = {d["doc_id"]: d for d in client.get("/documents").json()}
    (new_id,) = set(docs) - before
    assert docs[new_id]["uploaded"] and docs[new_id]["path"] == "gadget_x1.md"
    assert docs[new_id]["details"]["format"] == "markdown" and docs[new_id]["details"]["chunks"] >= 1
    hit = client.post("/search", json={"question": "Gadget X1 accelerometer", "strategy": "sparse"}).json()
    assert hit["items"][0]["doc_id"] == new_id

    gone = client.delete(f"/documents/{new_id}")
    assert gone.status_code == 200 and gone.json()["file_deleted"]
    assert not (sample_index.root / "uploads" / "gadget_x1.md").exists()
    assert new_id not in {d["doc_id"] for d in client.get("/documents").json()}
    assert client.delete(f"/documents/{new_id}").status_code == 404
    assert client.get("/jobs").json()[-1]["job_id"] == job["job_id"]
    assert client.get("/jobs/unknown").status_code == 404


@pytest.mark.slow  # the rules extractor over every sample chunk: ~15 s here
def test_upload_can_update_the_graph(client: TestClient) -> None:
    entities = client.get("/stats").json()["counts"]["entities"]
    assert upload(client, "gadget.md", stages="graph,nope").status_code == 422
    job = wait_job(client, upload(client, "gadget.md", stages="graph").json()["job_id"])
    assert job["report"]["stages"] == ["graph"]
    assert client.get("/stats").json()["counts"]["entities"] > entities
    assert client.get("/graph/entity/Gadget X1").status_code == 200  # the product the uploaded document is about


def test_delete_keeps_files_that_were_not_uploaded(client: TestClient) -> None:
    doc = client.get("/documents").json()[0]
    data = client.delete(f"/documents/{doc['doc_id']}").json()
    assert data["removed"]["doc_id"] == doc["doc_id"] and not data["file_deleted"]


def test_same_name_uploads_never_overwrite_silently(client: TestClient, sample_index: Index) -> None:
    folder = sample_index.root / "uploads"
    assert upload(client, "a.md").json()["files"][0]["outcome"] == "new"
    assert upload(client, "a.md").json()["files"][0]["outcome"] == "identical"
    other = DOC.replace(b"16 g", b"32 g")
    renamed = upload(client, "a.md", other).json()["files"][0]
    assert (renamed["outcome"], renamed["name"]) == ("renamed", "a-2.md")
    assert (folder / "a.md").read_bytes() == DOC
    replaced = upload(client, "a.md", other, replace="true").json()["files"][0]
    assert replaced["outcome"] == "replaced" and (folder / "a.md").read_bytes() == other
    client.app.state.kgrag.jobs.wait_idle(30)


@pytest.mark.parametrize(
    "raw",
    [
        "../../etc/passwd.md",
        "/etc/passwd.md",
        "..\\..\\windows\\win.md",
        "a\x00b.md",
        "résumé notes.md",
        "  spaced name .md",
        "....md",
        "sub/dir/../x.md",
        "%2e%2e%2fx.md",
    ],
)
def test_upload_names_stay_inside_the_uploads_folder(client: TestClient, sample_index: Index, raw: str) -> None:
    folder = (sample_index.root / "uploads").resolve()
    before = {p for p in sample_index.root.parent.rglob("*") if p.is_file()}
    r = upload(client, raw)
    assert r.status_code == 202, r.text
    name = r.json()["files"][0]["name"]
    assert "/" not in name and "\\" not in name and "\x00" not in name and not name.startswith(".")
    created = {p for p in sample_index.root.parent.rglob("*") if p.is_file()} - before
    stored = [p for p in created if p.suffix == ".md"]
    assert [p.resolve().parent for p in stored] == [folder]
    client.app.state.kgrag.jobs.wait_idle(30)


def test_safe_filename() -> None:
    assert safe_filename("../../etc/passwd") == "passwd"
    assert safe_filename("C:\\Users\\me\\Report 1.PDF") == "Report_1.pdf"
    assert safe_filename("résumé.txt") == "resume.txt"
    assert safe_filename("a\x00b.md") == "ab.md"
    assert safe_filename("..") == "upload"
    assert safe_filename("....md") == "upload.md"
    assert safe_filename(".hidden.md") == "hidden.md"
    assert len(safe_filename("x" * 500 + ".md")) <= 120


def test_upload_refusals(sample_index: Index) -> None:
    with TestClient(create_app(sample_index.root, max_upload_bytes=2000)) as c:
        too_big = upload(c, "big.md", b"# Big\n\n" + b"word " * 2000)
        assert too_big.status_code == 413
        assert upload(c, "notes.exe", DOC).status_code == 415
        assert upload(c, "passwd", DOC).status_code == 415
        assert upload(c, "empty.md", b"").status_code == 400
        mixed = c.post("/documents", files=[("files", ("ok.md", DOC)), ("files", ("bad.exe", DOC))])
        assert mixed.status_code == 202 and len(mixed.json()["rejected"]) == 1
        c.app.state.kgrag.jobs.wait_idle(30)
    assert not list((sample_index.root / "uploads").glob(".upload-*"))  # no partial files left behind


def test_api_key_protects_every_api_route(sample_index: Index, tmp_path: Path) -> None:
    key_file = tmp_path / "key.txt"
    key_file.write_text("s3cret-key\n")
    app = create_app(sample_index.root, api_key=read_api_key(key_file))
    with TestClient(app) as c:
        assert c.get("/").status_code == 200  # the page shell asks for the key itself
        calls = [
            ("GET", "/strategies", None),
            ("POST", "/ask", {"question": QUESTION}),
            ("POST", "/ask/stream", {"question": QUESTION}),
            ("POST", "/search", {"question": QUESTION}),
            ("GET", "/documents", None),
            ("DELETE", "/documents/x", None),
            ("GET", "/jobs/x", None),
            ("GET", "/graph/entity/BMP280", None),
            ("GET", "/stats", None),
            ("POST", "/documents", None),
        ]
        for method, path, body in calls:
            assert c.request(method, path, json=body).status_code == 401, path
            assert c.request(method, path, json=body, headers={"X-API-Key": "wrong"}).status_code == 401, path
        ok = c.get("/strategies", headers={"X-API-Key": "s3cret-key"})
        assert ok.status_code == 200
        assert c.post("/ask", json={"question": QUESTION}, headers={"X-API-Key": "s3cret-key"}).status_code == 200


def test_read_api_key_refuses_empty_file(tmp_path: Path) -> None:
    from kgrag.errors import ConfigError

    (tmp_path / "empty").write_text("\n")
    with pytest.raises(ConfigError):
        read_api_key(tmp_path / "empty")


def test_concurrent_questions_share_one_index(client: TestClient) -> None:
    results: list[int] = []

    def ask() -> None:
        for _ in range(3):
            results.append(client.post("/ask", json={"question": QUESTION}).status_code)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [200] * 24


def test_ask_extractive_mode_quotes_with_inline_citation_and_no_llm_call(client: TestClient) -> None:
    r = client.post("/ask", json={"question": "What is the input voltage on the VIN pin?", "mode": "extractive"})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["grounded"] and "[" in data["answer"] and data["answer"].rstrip().endswith("].")
    assert data["usage"] == {} and data["citations"][0]["chunk_id"]
    assert client.post("/ask", json={"question": QUESTION, "mode": "poetic"}).status_code == 422


def test_ask_stream_reports_first_token_time(client: TestClient) -> None:
    with client.stream("POST", "/ask/stream", json={"question": QUESTION, "mode": "auto"}) as r:
        events = sse_events(r.read().decode())
    done = events[-1][1]
    assert events[-1][0] == "done" and done["timings"]["first_token_s"] > 0
