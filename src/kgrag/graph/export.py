"""Exporting the graph (GraphML for networkx/Gephi, Turtle for RDF tools, JSONL with provenance) and its stats."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kgrag.errors import KgragError
from kgrag.graph.serialize import to_turtle

if TYPE_CHECKING:
    import networkx as nx

    from kgrag.store.base import Store

FORMATS = ("graphml", "turtle", "jsonl")
SUFFIX = {"graphml": ".graphml", "turtle": ".ttl", "jsonl": ".jsonl"}


def to_networkx(store: Store) -> nx.MultiDiGraph:
    """All entities and relations as a networkx MultiDiGraph with GraphML-safe (scalar) attributes."""
    import networkx as nx

    graph = nx.MultiDiGraph()
    for e in store.iter_entities():
        graph.add_node(e.entity_id, name=e.name, type=e.type, description=e.description, aliases="|".join(e.aliases))
    relations = list(store.iter_relations())
    support = store.relation_support([r.relation_id for r in relations])
    for r in relations:
        graph.add_edge(r.source_id, r.target_id, key=r.relation_id, type=r.type, description=r.description,
                       weight=float(r.weight), chunks="|".join(support.get(r.relation_id, [])))
    return graph


def export_jsonl(store: Store) -> str:
    """One JSON object per line: entities (with the chunks that mention them), then relations (with support)."""
    lines: list[str] = []
    entities = list(store.iter_entities())
    mentions = store.chunks_of_entities([e.entity_id for e in entities])
    for e in entities:
        row = {"kind": "entity", "id": e.entity_id, "name": e.name, "type": e.type, "description": e.description,
               "aliases": e.aliases, "chunks": mentions.get(e.entity_id, [])}
        lines.append(json.dumps(row, ensure_ascii=False))
    relations = list(store.iter_relations())
    support = store.relation_support([r.relation_id for r in relations])
    for r in relations:
        row = {"kind": "relation", "id": r.relation_id, "source": r.source_id, "type": r.type, "target": r.target_id,
               "description": r.description, "weight": r.weight, "chunks": support.get(r.relation_id, [])}
        lines.append(json.dumps(row, ensure_ascii=False))
    return "\n".join(lines) + ("\n" if lines else "")


def export_graph(store: Store, fmt: str, out: str | Path) -> Path:
    """Write the graph to `out` in `fmt` (graphml | turtle | jsonl)."""
    if fmt not in FORMATS:
        raise KgragError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "graphml":
        import networkx as nx

        nx.write_graphml(to_networkx(store), path)
    elif fmt == "turtle":
        path.write_text(to_turtle(list(store.iter_entities()), store.iter_relations()), encoding="utf-8")
    else:
        path.write_text(export_jsonl(store), encoding="utf-8")
    return path


def graph_stats(store: Store, top: int = 15) -> dict[str, Any]:
    """Nodes, edges, relation and entity types, duplicate candidates, orphans, provenance and failures."""
    from kgrag.graph.build import STAGE
    from kgrag.graph.resolve import candidate_groups, type_counts

    entities = list(store.iter_entities())
    relations = list(store.iter_relations())
    linked = {r.source_id for r in relations} | {r.target_id for r in relations}
    mentioned = {eid for ids in store.entities_of_chunks(store.chunk_ids()).values() for eid in ids}
    rel_types = Counter(r.type for r in relations)
    done = store.done_keys(STAGE)
    by_extractor = Counter(k.split(":", 1)[0] for k in done)
    return {
        "nodes": len(entities),
        "edges": len(relations),
        "mentions": store.count("mentions"),
        "relation_types": len(rel_types),
        "top_relation_types": rel_types.most_common(top),
        "entity_types": type_counts(entities).most_common(top),
        "duplicate_candidates": len(candidate_groups(entities)),
        # orphan: nothing supports it any more (no chunk mentions it, no relation uses it) — must stay 0;
        # isolated: mentioned by chunks but in no relation (common with the rules extractor).
        "orphans": sum(1 for e in entities if e.entity_id not in linked and e.entity_id not in mentioned),
        "isolated": sum(1 for e in entities if e.entity_id not in linked),
        "mean_relation_weight": round(sum(r.weight for r in relations) / len(relations), 3) if relations else 0.0,
        "chunks_extracted": dict(by_extractor),
        "failed_chunks": len(store.failures(STAGE)),
        "merges": len(store.merges()),
    }
