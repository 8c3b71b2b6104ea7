"""Graph items as text for retrieval contexts and exports: plain sentences, and RDF Turtle with safe IRIs."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from kgrag.types import Entity, Relation

BASE_IRI = "https://kgrag.local/"
ENTITY_NS = BASE_IRI + "entity/"
RELATION_NS = BASE_IRI + "relation/"
TYPE_NS = BASE_IRI + "type/"
_UNSAFE = re.compile(r"[^A-Za-z0-9_\-]+")


def triple_sentence(source: str, relation: str, target: str) -> str:
    """("Laptop", "connects to", "Router") -> "Laptop connects to Router." """
    text = " ".join(f"{source} {relation.replace('_', ' ')} {target}".split())
    return text if text.endswith((".", "!", "?")) else text + "."


def relation_sentences(relations: Iterable[Relation], names: dict[str, str]) -> list[str]:
    """One sentence per relation whose two ends have a name in `names` (entity_id -> name)."""
    return [
        triple_sentence(names[r.source_id], r.type, names[r.target_id])
        for r in relations
        if r.source_id in names and r.target_id in names
    ]


def iri_local_name(text: str, fallback: str = "item") -> str:
    """An IRI-safe local name: ASCII letters, digits, `_` and `-` only ("Nano 33 BLE" -> "Nano_33_BLE")."""
    text = text.replace("µ", "u").replace("μ", "u").replace("°", "deg")
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    local = _UNSAFE.sub("_", ascii_text).strip("_-")
    if not local:
        return fallback
    return local if local[0].isalpha() or local[0] == "_" else "_" + local


def entity_iris(entities: Sequence[Entity]) -> dict[str, str]:
    """entity_id -> a readable, unique IRI local name (the id's prefix is added to names that collide)."""
    counts: dict[str, int] = {}
    for e in entities:
        local = iri_local_name(e.name, e.entity_id)
        counts[local] = counts.get(local, 0) + 1
    out: dict[str, str] = {}
    for e in entities:
        local = iri_local_name(e.name, e.entity_id)
        out[e.entity_id] = local if counts[local] == 1 else f"{local}_{e.entity_id[1:9]}"
    return out


def to_rdf_graph(entities: Sequence[Entity], relations: Iterable[Relation], *, descriptions: bool = True):  # noqa: ANN201
    """An rdflib Graph: each entity with a label, a type and a comment; each relation as one triple."""
    from rdflib import RDF, RDFS, Graph, Literal, Namespace

    ent, rel, typ = Namespace(ENTITY_NS), Namespace(RELATION_NS), Namespace(TYPE_NS)
    graph = Graph()
    graph.bind("ent", ent)
    graph.bind("rel", rel)
    graph.bind("type", typ)
    graph.bind("rdfs", RDFS)
    locals_ = entity_iris(entities)
    for e in entities:
        node = ent[locals_[e.entity_id]]
        graph.add((node, RDFS.label, Literal(e.name)))
        if e.type:
            graph.add((node, RDF.type, typ[iri_local_name(e.type, "Thing")]))
        if descriptions and e.description:
            graph.add((node, RDFS.comment, Literal(" ".join(e.description.split()))))
    for r in relations:
        if r.source_id in locals_ and r.target_id in locals_:
            predicate = rel[iri_local_name(r.type.replace(" ", "_"), "related_to")]
            graph.add((ent[locals_[r.source_id]], predicate, ent[locals_[r.target_id]]))
    return graph


def to_turtle(entities: Sequence[Entity], relations: Iterable[Relation], *, descriptions: bool = True) -> str:
    """The entities and relations as RDF Turtle text (parses with rdflib)."""
    return to_rdf_graph(entities, relations, descriptions=descriptions).serialize(format="turtle")
