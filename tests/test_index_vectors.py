"""Index vectors reuse what is stored: sentences embedded once, entity/community vectors without long texts,
the embedding cache emptied and the store compacted after a complete `kgrag index`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kgrag.cli.index_run import IndexOptions, compact_index, run_index
from kgrag.graph.build import embed_entities, entity_head
from kgrag.graph.entity_vectors import combine, community_context
from kgrag.graph.keyword_graph import ensure_keyword_graph
from kgrag.graph.sentence_vectors import VECTOR_KIND, chunk_sentence_vectors, sentence_id
from kgrag.graph.trigraph import ensure_trigraph
from kgrag.index import Index
from kgrag.models.embedders import CachedEmbedder
from kgrag.types import Chunk, Document, Entity


class Recording:
    """Wraps the index embedder and records every text it is asked to embed."""

    def __init__(self, inner) -> None:  # noqa: ANN001
        self.inner, self.model_name, self.dim, self.texts = inner, inner.model_name, inner.dim, []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += list(texts)
        return self.inner.embed(texts)


TEXTS = ["Ada Lovelace met Charles Babbage in London. She wrote the first program.",
         "Charles Babbage designed the Analytical Engine. It was never finished."]


def _index(index: Index) -> Recording:
    store = index.store
    store.upsert_document(Document("d1", "notes.md", "Notes", "h1"))
    store.add_chunks([Chunk(f"c{i}", "d1", t, ord=i) for i, t in enumerate(TEXTS)])
    rec = Recording(index.embedder)
    index.__dict__["embedder"] = rec
    return rec


def test_sentences_are_embedded_once_and_shared(empty_index: Index) -> None:
    rec = _index(empty_index)
    texts, vectors = chunk_sentence_vectors(empty_index, ["c0", "c1"])
    assert len(rec.texts) == 4 and vectors["c0"].shape == (2, rec.dim)
    stored = empty_index.store.get_vectors(VECTOR_KIND, [sentence_id("c1", 0)])
    assert np.allclose(stored[0], vectors["c1"][0], atol=0.02)
    rec.texts.clear()
    ensure_keyword_graph(empty_index)
    ensure_trigraph(empty_index)
    chunk_sentence_vectors(empty_index, ["c0", "c1"])
    sentences = {s for ss in texts.values() for s in ss}
    assert texts["c0"][0].startswith("Ada Lovelace") and len(sentences) == 4
    assert not sentences & set(rec.texts)  # keyword graph, tri-graph and a second read embed no sentence again


def test_entity_vectors_embed_only_the_short_name(empty_index: Index) -> None:
    rec = _index(empty_index)
    store = empty_index.store
    store.upsert_entities([Entity("e1", "Charles Babbage", "person", "a long description " * 20)])
    store.add_mentions([("c0", "e1"), ("c1", "e1")])
    ensure_trigraph(empty_index)
    rec.texts.clear()
    assert embed_entities(empty_index) == 1
    assert rec.texts == [entity_head("Charles Babbage", "person")] == ["Charles Babbage (person)"]
    _, vectors = chunk_sentence_vectors(empty_index, ["c0", "c1"])
    context = np.vstack([vectors["c0"][:1], vectors["c1"][:1]]).mean(axis=0)  # the two sentences naming him
    expected = combine(empty_index.embedder.embed(list(rec.texts)), context[None, :])[0]
    store.put_vectors("probe", ["e1"], expected[None, :])  # the same compact (int8) round trip
    assert np.allclose(store.get_vectors("entity", ["e1"]), store.get_vectors("probe", ["e1"]), atol=1e-3)


def test_combine_and_community_context() -> None:
    heads = np.array([[1.0, 0.0], [0.0, 2.0]], np.float32)
    mixed = combine(heads, np.array([[0.0, 1.0], [0.0, 0.0]], np.float32))
    assert np.allclose(mixed[0], [2 ** -0.5, 2 ** -0.5]) and np.allclose(mixed[1], [0.0, 1.0])
    ctx = community_context([["a", "b"], ["z"]], ["a", "b"], np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
    assert np.allclose(ctx, [[0.5, 0.5], [0.0, 0.0]])


def test_complete_index_empties_the_cache_and_compacts(empty_index: Index, tmp_path: Path) -> None:
    cache = CachedEmbedder(empty_index.embedder, tmp_path / "embed_cache.sqlite")
    empty_index.__dict__["embedder"] = cache
    cache.embed(["a sentence to cache"])
    assert cache._rows == 1  # noqa: SLF001
    cache.embed([f"sentence {i} " * 20 for i in range(300)])
    compact_index(empty_index)
    assert cache._rows == 0  # noqa: SLF001
    files = [cache.path, cache.path.with_name(cache.path.name + "-wal")]
    assert sum(f.stat().st_size for f in files if f.exists()) < 100_000  # the pages are given back
    assert empty_index.embedder.embed(["another"]).shape[0] == 1  # the cache still works afterwards
    _index(empty_index)
    assert run_index(empty_index, True, IndexOptions()) == 0
    assert empty_index.store.count("chunks") == 2
