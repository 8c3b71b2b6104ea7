"""End to end with the real offline models: MiniLM ONNX embeddings and the local Qwen2.5 0.5B via llama.cpp."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgrag.config import Settings
from kgrag.index import Index

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def real_index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    from importlib import resources

    settings = Settings()  # the shipped defaults: minilm + local LLM
    index = Index.init(tmp_path_factory.mktemp("e2e") / "idx", settings=settings)
    report = index.add([Path(str(resources.files("kgrag") / "samples" / "docs"))])
    assert report.indexed >= 5 and not report.errors
    return index


def test_demo_question_answered_with_citation(real_index: Index) -> None:
    answer = real_index.ask("What is the pressure range of the Zephyr Nano's barometer?", strategy="hybrid")
    assert answer.grounded
    assert "1100" in answer.text
    assert answer.citations, answer.text
    cited = {c.document for c in answer.citations}
    assert any(doc.endswith("zephyr-nano.md") for doc in cited), cited
    assert any("1100" in c.quote for c in answer.citations)


def test_multi_hop_question_retrieves_both_facts(real_index: Index) -> None:
    context = real_index.search(
        "What is the maximum clock frequency of the microcontroller on the Zephyr Nano Rev2?", strategy="hybrid",
        budget=1500,
    )
    text = context.text()
    assert "K52" in text and "64 MHz" in text
