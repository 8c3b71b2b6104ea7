"""Shared fixtures: small indexes built with the deterministic hash embedder and the fake LLM (fast, offline)."""

from __future__ import annotations

from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from kgrag.config import Settings
from kgrag.index import Index


def fast_settings() -> Settings:
    """Settings for unit tests: no model files, deterministic."""
    settings = Settings()
    settings.embedder.provider = "hash"
    settings.llm.provider = "fake"
    return settings


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
