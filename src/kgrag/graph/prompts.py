"""Prompts and JSON schemas of the LLM extractors, each with a worked example (small local models need one)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from kgrag.models.base import Message

EXAMPLE_TEXT = (
    "The Acme X200 gateway is built around the RK3568 processor, which runs at up to 2 GHz. "
    "Sensors connect to the X200 over I2C and Modbus."
)
EXAMPLE_TRIPLES: dict[str, Any] = {
    "entities": [
        {"name": "Acme X200", "type": "Gateway", "description": "A gateway built around the RK3568 processor."},
        {"name": "RK3568", "type": "Processor", "description": "Processor that runs at up to 2 GHz."},
        {"name": "2 GHz", "type": "Quantity", "description": "Maximum clock speed of the RK3568."},
        {"name": "I2C", "type": "Interface", "description": "Bus that connects sensors to the X200."},
        {"name": "Modbus", "type": "Interface", "description": "Protocol that connects sensors to the X200."},
    ],
    "relations": [
        {"source": "Acme X200", "relation": "is built around", "target": "RK3568",
         "description": "The X200 uses the RK3568 as its processor."},
        {"source": "RK3568", "relation": "runs at", "target": "2 GHz", "description": "Maximum clock speed."},
        {"source": "Acme X200", "relation": "connects over", "target": "I2C", "description": "Sensors use I2C."},
        {"source": "Acme X200", "relation": "connects over", "target": "Modbus", "description": "Sensors use Modbus."},
    ],
}
EXAMPLE_PATHS: dict[str, Any] = {
    "paths": [
        ["Acme X200", "is built around", "RK3568", "runs at", "2 GHz"],
        ["Acme X200", "connects over", "I2C"],
        ["Acme X200", "connects over", "Modbus"],
    ]
}

_RULES = (
    "Use names exactly as they are written in the text. Keep names short (a product, part, interface, "
    "value with unit, organisation, software or concept), never whole sentences. A relation links two of your "
    "entities with a short verb phrase. Return only JSON."
)
SYSTEM_TRIPLES = "You extract a knowledge graph from technical documentation. " + _RULES
SYSTEM_TYPED = (
    "You extract a typed knowledge graph from technical documentation. Every entity has one of the allowed types. "
    + _RULES
)
SYSTEM_PATHS = (
    "You extract relational paths from technical documentation: each path alternates entity, relation, entity, "
    "relation, entity ... and follows facts stated in the text. " + _RULES
)
GLEANING_PROMPT = (
    "Some entities or relations in the text may have been missed. Return only the missing ones in the same "
    "JSON format, or empty lists if nothing is missing."
)


def _string_array(max_items: int, enum: Sequence[str] | None = None) -> dict[str, Any]:
    item: dict[str, Any] = {"type": "string", "enum": list(enum)} if enum else {"type": "string"}
    return {"type": "array", "items": item, "maxItems": max_items}


def triples_schema(
    entity_types: Sequence[str] | None = None, relation_types: Sequence[str] | None = None, max_items: int = 20
) -> dict[str, Any]:
    """The JSON schema of entities + relations, with type enums for the typed extractor."""
    etype: dict[str, Any] = {"type": "string", "enum": list(entity_types)} if entity_types else {"type": "string"}
    rtype: dict[str, Any] = {"type": "string", "enum": list(relation_types)} if relation_types else {"type": "string"}
    entity = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "type": etype, "description": {"type": "string"}},
        "required": ["name", "type", "description"],
    }
    relation = {
        "type": "object",
        "properties": {
            "source": {"type": "string"},
            "relation": rtype,
            "target": {"type": "string"},
            "description": {"type": "string"},
        },
        "required": ["source", "relation", "target", "description"],
    }
    return {
        "type": "object",
        "properties": {
            "entities": {"type": "array", "items": entity, "maxItems": max_items},
            "relations": {"type": "array", "items": relation, "maxItems": max_items},
        },
        "required": ["entities", "relations"],
    }


def paths_schema(max_paths: int = 5, max_hops: int = 3) -> dict[str, Any]:
    """The JSON schema of up to `max_paths` paths of 1..`max_hops` relations each."""
    path = {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 2 * max_hops + 1}
    return {
        "type": "object",
        "properties": {"paths": {"type": "array", "items": path, "maxItems": max_paths}},
        "required": ["paths"],
    }


SCHEMA_INDUCTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"entity_types": _string_array(15), "relation_types": _string_array(20)},
    "required": ["entity_types", "relation_types"],
}
DISAMBIGUATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"groups": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}},
    "required": ["groups"],
}
SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"description": {"type": "string"}},
    "required": ["description"],
}


def _user(text: str, note: str = "", extra: str = "") -> str:
    head = f"{extra}\n" if extra else ""
    tail = f"\nNote: {note}" if note else ""
    return f"{head}Text:\n{text}{tail}"


def extraction_messages(
    mode: str,
    text: str,
    *,
    entity_types: Sequence[str] | None = None,
    relation_types: Sequence[str] | None = None,
    max_paths: int = 5,
    note: str = "",
) -> list[Message]:
    """System prompt, the worked example as a user/assistant pair, then the chunk (plus a retry note)."""
    if mode == "paths":
        system = SYSTEM_PATHS + f" Give at most {max_paths} paths."
        example = EXAMPLE_PATHS
        extra = ""
    else:
        system = SYSTEM_TYPED if mode == "typed" else SYSTEM_TRIPLES
        example = EXAMPLE_TRIPLES
        extra = ""
        if entity_types:
            extra = "Allowed entity types: " + ", ".join(entity_types) + "."
        if relation_types:
            extra += " Allowed relations: " + ", ".join(relation_types) + "."
        if mode == "typed" and entity_types:
            example = _typed_example(entity_types)
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": _user(EXAMPLE_TEXT, extra=extra.strip())},
        {"role": "assistant", "content": json.dumps(example, ensure_ascii=False)},
        {"role": "user", "content": _user(text, note, extra.strip())},
    ]


def _typed_example(entity_types: Sequence[str]) -> dict[str, Any]:
    """The worked example with types mapped into the allowed list (unknown ones become the last type)."""
    allowed = {t.lower(): t for t in entity_types}
    fallback = entity_types[-1]
    entities = [{**e, "type": allowed.get(e["type"].lower(), fallback)} for e in EXAMPLE_TRIPLES["entities"]]
    return {"entities": entities, "relations": EXAMPLE_TRIPLES["relations"]}


def schema_induction_messages(samples: Sequence[str]) -> list[Message]:
    """Ask for the entity and relation types that fit these sample texts."""
    joined = "\n---\n".join(samples)
    return [
        {"role": "system", "content": "You design the schema of a knowledge graph for a document collection. "
         "Return only JSON."},
        {"role": "user", "content": "List up to 12 entity types (singular nouns like Board, Sensor, Interface) "
         "and up to 15 relation types (short verb phrases like uses, connects to, has voltage) that describe "
         f"these texts.\n\n{joined}"},
    ]


def disambiguation_messages(candidates: Sequence[dict[str, str]]) -> list[Message]:
    """Ask which of several same-named candidates are the same real-world thing."""
    lines = "\n".join(
        f"{i}. {c['name']} ({c.get('type') or 'untyped'}): {c.get('description', '')[:200]}"
        for i, c in enumerate(candidates)
    )
    return [
        {"role": "system", "content": "You decide which entity records describe the same real-world thing. "
         "Return only JSON."},
        {"role": "user", "content": "Group the numbered records so that each group is one real-world thing "
         '("groups": lists of record numbers; a record alone is its own group).\n' + lines},
    ]


def summary_messages(name: str, descriptions: str, max_words: int = 60) -> list[Message]:
    """Ask for one description that merges many (used past the description size limit)."""
    return [
        {"role": "system", "content": "You write concise factual summaries. Return only JSON."},
        {"role": "user", "content": f"Merge these descriptions of {name!r} into one description of at most "
         f"{max_words} words, keeping every fact (numbers, names):\n{descriptions}"},
    ]
