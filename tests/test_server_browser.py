"""Drives the real web page in headless Chromium (Debian `chromium` + Playwright's Python package).

Starts `kgrag serve` in a subprocess over an index of the bundled samples (hash embedder, fake LLM),
asks a question, opens a citation, checks the graph, uploads and deletes a document, and saves
screenshots to test-artifacts/. Install the browser with `bash scripts/install_browser.sh`.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from conftest import fast_settings
from kgrag.index import Index
from kgrag.server.background import kgrag_command, serve_in_background

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
QUESTION = "What is the pressure range of the Zephyr Nano's barometer?"
_MISSING = [
    what
    for what, present in (
        (f"{CHROMIUM}", CHROMIUM.exists()),
        ("the playwright package", importlib.util.find_spec("playwright") is not None),
    )
    if not present
]
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(  # under CI=true nothing is skipped: a missing browser fails the run loudly
        bool(_MISSING) and os.environ.get("CI") != "true", reason=f"missing {' and '.join(_MISSING)} (install: bash scripts/install_browser.sh)"
    ),
]


def _build_graph(index: Index) -> str:
    """The rules-extractor graph (`kgrag graph build`), else a small hand-made one so the display has a graph."""
    cmd = kgrag_command("graph", "build", "--index", str(index.root), "--extractor", "rules")
    built = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if built.returncode == 0 and index.store.count("relations"):
        return "rules"
    from test_server_api import seed_graph

    seed_graph(index)
    return f"seeded (kgrag graph build: exit {built.returncode})"


@pytest.fixture(scope="module")
def graph_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Index]:
    """The bundled samples (hash embedder, fake LLM, as `sample_index`) with a graph, built once per module."""
    root = tmp_path_factory.mktemp("browser") / "idx"
    with Index.init(root, settings=fast_settings()) as index:
        assert index.add([Path(str(resources.files("kgrag") / "samples" / "docs"))]).indexed > 0
        index.graph_origin = _build_graph(index)  # type: ignore[attr-defined]
        yield index


@pytest.fixture(scope="module")
def server(graph_index: Index) -> Iterator[str]:
    with serve_in_background(graph_index.root) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def test_ask_cite_graph_upload_delete(server: str, browser, graph_index: Index, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1400, "height": 950})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/")
    page.wait_for_selector("#strategy option", state="attached")

    # Ask: the answer streams in, with [n] markers that open the cited passage.
    page.fill("#question", QUESTION)
    page.click("#ask-btn")
    page.wait_for_selector('#answer[data-done="1"]', timeout=30_000)
    assert page.inner_text("#answer").strip()
    page.click("#answer button.cite >> nth=0")
    passage = page.locator("#passage")
    passage.wait_for(state="visible")
    quote = " ".join(page.inner_text("#passage .quote").split())
    assert quote and " ".join(page.inner_text("#passage mark").split()) == quote  # highlighted in the passage

    # The retrieved subgraph is drawn; clicking a node expands its neighbourhood.
    page.wait_for_selector("#graph canvas")
    nodes = page.evaluate("window.kgragGraph.nodes().length")
    assert nodes > 0, f"empty graph (graph built by: {graph_index.graph_origin})"
    box = page.locator("#graph").bounding_box()
    pos = page.evaluate("(() => { const p = window.kgragGraph.nodes()[0].renderedPosition(); return [p.x, p.y]; })()")
    page.mouse.click(box["x"] + pos[0], box["y"] + pos[1])
    page.wait_for_function("document.getElementById('graph-detail').textContent.includes('neighbours')")
    page.screenshot(path=str(ARTIFACTS / "server_ask.png"), full_page=True)

    # Documents: upload, watch the job finish, delete.
    page.click(".tab[data-view=documents]")
    page.wait_for_selector("#documents tr")
    doc = tmp_path / "gadget.md"
    doc.write_text("# Gadget X1\n\nThe Gadget X1 has an accelerometer that measures up to 16 g on three axes.\n")
    page.set_input_files("#files", str(doc))
    page.click("#upload-form button[type=submit]")
    page.wait_for_selector("#jobs li.done", timeout=30_000)
    page.wait_for_selector("#documents td:has-text('gadget.md')")
    row = page.inner_text("#documents tr:has-text('gadget.md')")  # pages (none for Markdown), chunks, OCR, tables
    assert "\t–\t1\t0\t0" in row, row
    page.screenshot(path=str(ARTIFACTS / "server_documents.png"), full_page=True)
    page.once("dialog", lambda d: d.accept())
    page.click("#documents button[data-path='gadget.md']")
    page.wait_for_function("!document.getElementById('documents').textContent.includes('gadget.md')")

    # Stats: counts and LLM usage.
    page.click(".tab[data-view=stats]")
    page.wait_for_selector("#counts .count")
    assert "documents" in page.inner_text("#counts")
    assert page.locator("#usage tr").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "server_stats.png"), full_page=True)
    assert not errors, errors


def test_page_asks_for_the_api_key(graph_index: Index, browser, tmp_path: Path) -> None:
    key = tmp_path / "key.txt"
    key.write_text("browser-key\n")
    with serve_in_background(graph_index.root, "--api-key-file", str(key)) as url:
        page = browser.new_page()
        page.goto(url + "/")
        page.wait_for_selector("#key-dialog[open]")
        page.fill("#key-input", "browser-key")
        page.click("#key-dialog button[value=ok]")
        page.wait_for_selector("#strategy option", state="attached")
        assert page.evaluate("sessionStorage.getItem('kgrag.apiKey')") == "browser-key"
