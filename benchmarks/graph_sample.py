"""Graph precision sample: 50 random relations and the 25 highest-degree entities, to be judged by reading.

Regenerate:  .venv/bin/python benchmarks/graph_sample.py [--corpus pdf] [--seed 12] [--n 50] [--top 25]
Reads the cached Arduino index of benchmarks/graph_retrieval.py (benchmarks/.cache/graph-arduino-<corpus>,
build it first). Each relation is printed as `source (type) | relation | target (type)` with the document
page and the source line it came from, so a reader can mark it a true fact of the document or junk.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import CACHE  # noqa: E402

from kgrag.graph.adjacency import get_adjacency  # noqa: E402
from kgrag.index import Index  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default="pdf")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    index = Index.open(CACHE / f"graph-arduino-{args.corpus}")
    adj = get_adjacency(index.store)
    picks = random.Random(args.seed).sample(range(adj.n_edges), min(args.n, adj.n_edges))
    support = index.store.relation_support([adj.rel_ids[r] for r in picks])
    chunks = {c.chunk_id: c for c in index.store.get_chunks([s[0] for s in support.values() if s])}
    print(f"{args.n} random relations of {adj.n_edges} ({adj.n_nodes} entities), seed {args.seed}:")
    for i, r in enumerate(picks, 1):
        e = adj.edge(r)
        s, t = int(adj.rel_src[r]), int(adj.rel_dst[r])
        first = (support.get(e["relation_id"]) or [""])[0]
        c = chunks.get(first)
        where = f"{c.product or c.doc_id} p.{c.page_start}" if c else "?"
        evidence = (e["description"] or "").split("\n")[0][:110]
        print(f"{i:>2}. {e['source_name']} ({adj.types[s]}) | {e['type']} | {e['target_name']} ({adj.types[t]})"
              f"   [{where}: {evidence}]")
    degree = adj.degree()
    top = sorted(range(adj.n_nodes), key=lambda n: (-int(degree[n]), adj.names[n]))[: args.top]
    print(f"\n{args.top} highest-degree entities:")
    for n in top:
        print(f"{int(degree[n]):>4}  {adj.names[n]} ({adj.types[n]})")


if __name__ == "__main__":
    main()
