"""Shared fixtures: small indexes built with the deterministic hash embedder and the fake LLM (fast, offline)."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from kgrag.answer import generate_answer
from kgrag.config import Settings
from kgrag.index import Index
from kgrag.models.fake import FakeLLM
from kgrag.tokens import count_tokens
from kgrag.types import Chunk, Context, ContextItem, Document


def fast_settings() -> Settings:
    """Settings for unit tests: no model files, deterministic."""
    settings = Settings()
    settings.embedder.provider = "hash"
    settings.llm.provider = "fake"
    return settings


def add_text_chunks(index: Index, texts: list[str]) -> list[str]:
    """One document "d" whose chunks `c0..cN` are `texts`, embedded with the index's embedder; the chunk ids."""
    store = index.store
    store.upsert_document(Document("d", "d.txt", "D", "h"))
    ids = [f"c{i}" for i in range(len(texts))]
    store.add_chunks([Chunk(c, "d", t, ord=i, tokens=count_tokens(t)) for i, (c, t) in enumerate(zip(ids, texts, strict=True))])
    store.put_vectors("chunk", ids, index.embedder.embed(texts))
    return ids


@pytest.fixture
def samples_dir() -> Path:
    """The bundled sample documents shipped inside the package."""
    root = Path(str(resources.files("kgrag") / "samples"))
    return root / "docs" if (root / "docs").is_dir() else root


@pytest.fixture
def empty_index(tmp_path: Path) -> Iterator[Index]:
    """A fresh index folder with fast settings."""
    index = Index.init(tmp_path / "idx", settings=fast_settings())
    yield index
    index.close()


@pytest.fixture
def sample_index(empty_index: Index, samples_dir: Path) -> Index:
    """The fast index with the bundled sample documents added."""
    report = empty_index.add([samples_dir])
    assert report.indexed > 0, report.errors
    return empty_index


def offline_answer(question: str, text: str, title: str, path: str = "doc.pdf") -> tuple[str, str]:
    """The auto-mode answer for a small local model over one passage of one titled document, and its path; the fake
    model has no reply to give, so a test fails if the answer needs an LLM call."""
    items = [ContextItem("chunk", text, 0.5, "c1", "d1", {"path": path, "title": title})]
    context = Context(question=question, strategy="test", items=items, tokens=200, budget=2000)
    answer = generate_answer(FakeLLM(replies=[]), question, context, mode="auto", focus_tokens=200)
    return answer.text, str(context.info.get("answer_path"))

