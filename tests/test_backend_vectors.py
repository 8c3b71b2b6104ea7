"""PostgreSQL-only vector behaviour: the HNSW index is built past `hnsw_min`, used, and replaced on a new size."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import numpy as np
import pytest
from pgvector import HalfVector

from kgrag.store.postgres_schema import BackendURLError, default_schema, parse_url
from test_store_contract import drop_schema, pg_test_url

pytestmark = pytest.mark.server_db


@pytest.fixture
def pg_store() -> Iterator[object]:
    from kgrag.store.postgres import PostgresStore

    url = pg_test_url()
    schema = f"vec_{uuid.uuid4().hex[:12]}"
    store = PostgresStore.from_url(f"{url}?schema={schema}&hnsw_min=40&pool_max=2")
    yield store
    store.close()
    drop_schema(url, schema)


def _unit(n: int, dim: int, seed: int) -> np.ndarray:
    m = np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_hnsw_built_past_threshold_and_searched(pg_store) -> None:  # type: ignore[no-untyped-def]
    m = _unit(60, 32, 1)
    ids = [f"v{i:02d}" for i in range(60)]
    pg_store.put_vectors("chunk", ids[:30], m[:30])
    assert pg_store.get_meta("hnsw:chunk") is None  # below hnsw_min: exact scans
    pg_store.put_vectors("chunk", ids[30:], m[30:])
    assert pg_store.get_meta("hnsw:chunk") == "32"
    with pg_store.transaction():  # tiny table: force the planner to show that the index matches the query
        pg_store.query("SET LOCAL enable_seqscan = off")
        plan = "\n".join(
            r[0]
            for r in pg_store.query(
                "EXPLAIN SELECT item_id FROM vectors WHERE kind = 'chunk' "  # the column is halfvec (compact)
                "ORDER BY (vec::public.halfvec(32)) <#> %s::public.halfvec(32) LIMIT 5",
                (HalfVector(m[0]),),
            )
        )
    assert "hnsw" in plan.lower()
    for row in (3, 17, 45):
        hits = pg_store.search_vectors("chunk", m[row], 5)
        assert hits[0][0] == ids[row] and hits[0][1] == pytest.approx(1.0, abs=1e-4)
    exact = sorted(range(60), key=lambda i: -float(m[i] @ m[7]))[:10]
    assert [h[0] for h in pg_store.search_vectors("chunk", m[7], 10)] == [ids[i] for i in exact]
    pg_store.delete_vectors("chunk")  # a new embedder: old vectors go, the old-size index is replaced
    pg_store.put_vectors("chunk", ["new"], _unit(1, 16, 2))
    assert pg_store.get_meta("hnsw:chunk") is None


def test_url_options_and_schema_names(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = parse_url("postgresql://u@h:5/db?schema=Abc&pool_max=3&hnsw_min=-1&sslmode=disable", None)
    assert (target.schema, target.pool_max, target.hnsw_min) == ("abc", 3, -1)
    assert "sslmode=disable" in target.conninfo and "schema" not in target.conninfo
    assert default_schema(tmp_path / "My Index") == default_schema(tmp_path / "My Index")
    assert default_schema(tmp_path / "My Index").startswith("kgrag_my_index_")
    assert default_schema(tmp_path / "a") != default_schema(tmp_path / "b" / "a")
    with pytest.raises(BackendURLError):
        parse_url("postgresql://h/db?schema=bad;name", None)
    with pytest.raises(BackendURLError):
        parse_url("mysql://h/db", None)
