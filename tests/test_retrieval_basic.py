"""dense / sparse / hybrid strategies on the bundled samples: ranking, budget, provenance, fusion math."""

from __future__ import annotations

import pytest

from kgrag.errors import UnknownStrategyError
from kgrag.index import Index
from kgrag.retrieve.base import strategy_names
from kgrag.retrieve.fusion import alpha_fuse, minmax
from kgrag.retrieve.packing import chunk_source, pack
from kgrag.tokens import count_tokens
from kgrag.types import Chunk, ContextItem, Document


def test_minmax_equal_scores_map_to_one() -> None:
    assert minmax([("a", 2.0), ("b", 2.0)]) == {"a": 1.0, "b": 1.0}
    assert minmax([("a", 1.0), ("b", 3.0), ("c", 2.0)]) == {"a": 0.0, "b": 1.0, "c": 0.5}


def test_alpha_fusion_unions_and_weights() -> None:
    fused = dict(alpha_fuse([("a", 0.9), ("b", 0.1)], [("b", 10.0), ("c", 5.0)], alpha=0.6))
    assert fused == pytest.approx({"a": 0.6, "b": 0.4, "c": 0.0})


def test_a_bm25_list_of_every_match_keeps_its_weakest_hit() -> None:
    """Two chunks share a word with "whats err E32": the second is still a match, not scored as a chunk with none."""
    dense = [("x", 0.9), ("y", 0.8), ("z", 0.1)]
    sparse = [("x", 6.0), ("e32-row", 4.0)]
    complete = dict(alpha_fuse(dense, sparse, alpha=0.6, k=50))
    assert complete["e32-row"] == pytest.approx(0.4 * 4.0 / 6.0)
    assert complete["e32-row"] > complete["z"]
    assert dict(alpha_fuse(dense, sparse, alpha=0.6))["e32-row"] == 0.0  # a cut list: its last hit is its floor
    assert dict(alpha_fuse(dense, sparse, alpha=0.6, k=2))["e32-row"] == 0.0  # k hits asked, k given: maybe cut


def test_pack_respects_budget_and_truncates_last() -> None:
    items = [ContextItem("chunk", "word " * 100, item_id=str(i)) for i in range(5)]
    packed, used = pack(items, 250)
    assert used <= 250 and used == sum(count_tokens(i.text) for i in packed)
    assert len(packed) == 3 and packed[-1].source.get("truncated")


def test_a_chunk_of_a_family_export_is_shown_under_its_own_product() -> None:
    family = Document("d1", "Zephyr_Family.jsonl", "Zephyr_Family", "h")  # one JSONL file, many products
    datasheet = Document("d2", "ZX1/ZX1-datasheet.pdf", "Zephyr Core datasheet", "h", product="Zephyr Core")
    assert chunk_source(Chunk("c1", "d1", "VIN | 6 to 21 V", product="Zephyr Mini"), family)["title"] == "Zephyr Mini"
    assert chunk_source(Chunk("c2", "d1", "Overview"), family)["title"] == "Zephyr_Family"
    assert chunk_source(Chunk("c3", "d2", "VIN | 5 V", product="Zephyr Core"), datasheet)["title"] == "Zephyr Core datasheet"
    single = Document("d3", "Kestrel_Family.jsonl", "Kestrel_Family", "h", product="Kestrel K2")  # one product only
    assert chunk_source(Chunk("c4", "d3", "VIN | 5 V", product="Kestrel K2"), single)["title"] == "Kestrel K2"


def test_basic_strategies_registered() -> None:
    assert {"dense", "sparse", "hybrid"} <= set(strategy_names())


@pytest.mark.parametrize("strategy", ["dense", "sparse", "hybrid"])
def test_strategies_return_budgeted_context_with_provenance(sample_index: Index, strategy: str) -> None:
    context = sample_index.search("pressure range barometer", strategy=strategy, budget=600)
    assert context.items, strategy
    assert 0 < context.tokens <= 600
    first = context.items[0]
    assert first.chunk_id and first.source["path"] and first.kind == "chunk"
    assert [i.score for i in context.items] == sorted((i.score for i in context.items), reverse=True)


def test_sparse_finds_exact_part_numbers(sample_index: Index) -> None:
    chunks = list(sample_index.store.iter_chunks())
    token = next(w for c in chunks for w in c.text.split() if any(ch.isdigit() for ch in w) and w[0].isalpha() and len(w) > 4)
    token = token.strip(".,;:()")
    context = sample_index.search(token, strategy="sparse", budget=400)
    assert token.lower() in context.items[0].text.lower()


def test_unknown_strategy_is_a_clear_error(sample_index: Index) -> None:
    with pytest.raises(UnknownStrategyError, match="available"):
        sample_index.search("x", strategy="nope")
