"""Merging extractions into the store: one node per entity id, descriptions merged, weights = supporting chunks.

Mentions (chunk -> entity) and relation support (relation -> chunk) rows keep every item traceable.
Ids merged away by entity resolution are redirected to the kept entity, so re-extraction stays resolved.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from kgrag.graph.extract import Extraction
from kgrag.graph.keys import relation_id
from kgrag.tokens import count_tokens, truncate_tokens
from kgrag.types import Entity, Relation

if TYPE_CHECKING:
    from kgrag.models.base import LLM
    from kgrag.store.base import Store

SUMMARY_LIMIT_TOKENS = 150  # past this, an LLM summary replaces the list of descriptions
STORED_LIMIT_TOKENS = 600  # never store more than this per entity or relation
MAX_ALIASES = 12


def merge_descriptions(old: str, new: str, limit_tokens: int = STORED_LIMIT_TOKENS) -> str:
    """Distinct description lines of both (case-insensitive), first seen first, within `limit_tokens`."""
    seen: set[str] = set()
    lines: list[str] = []
    used = 0
    for line in (old + "\n" + new).split("\n"):
        line = line.strip()
        if not line or line.casefold() in seen:
            continue
        cost = count_tokens(line)
        if used + cost > limit_tokens:
            break
        seen.add(line.casefold())
        lines.append(line)
        used += cost
    return "\n".join(lines)


def active_redirects(store: Store) -> dict[str, str]:
    """merged entity id -> the id it was merged into (chains followed), from the merge log."""
    direct: dict[str, str] = {}
    for merge in store.merges():
        for mid in merge["merged_ids"]:
            direct[mid] = merge["kept_id"]
    out: dict[str, str] = {}
    for mid in direct:
        target, hops = direct[mid], 0
        while target in direct and hops < 100:
            target, hops = direct[target], hops + 1
        out[mid] = target
    return out


def _redirect(extraction: Extraction, redirects: dict[str, str]) -> tuple[list[Entity], list[Relation]]:
    entities: dict[str, Entity] = {}
    for e in extraction.entities:
        eid = redirects.get(e.entity_id, e.entity_id)
        entities.setdefault(eid, Entity(eid, e.name, e.type, e.description, list(e.aliases)))
    relations: dict[str, Relation] = {}
    for r in extraction.relations:
        src, dst = redirects.get(r.source_id, r.source_id), redirects.get(r.target_id, r.target_id)
        if src == dst:
            continue
        rid = relation_id(src, r.type, dst)
        relations.setdefault(rid, Relation(rid, src, dst, r.type, r.description, 1.0))
    return list(entities.values()), list(relations.values())


def add_alias(entity: Entity, name: str) -> None:
    """Record `name` as an alias unless it is the entity's name (or already known) in another case."""
    known = {entity.name.casefold(), *(a.casefold() for a in entity.aliases)}
    if name and name.casefold() not in known and len(entity.aliases) < MAX_ALIASES:
        entity.aliases.append(name)


def write_extraction(
    store: Store, chunk_id: str, extraction: Extraction, redirects: dict[str, str] | None = None
) -> set[str]:
    """Upsert one chunk's entities/relations with mentions and support; returns the entity ids touched."""
    entities, relations = _redirect(extraction, redirects or {})
    if not entities:
        return set()
    existing = {e.entity_id: e for e in store.get_entities([e.entity_id for e in entities])}
    merged: list[Entity] = []
    for e in entities:
        old = existing.get(e.entity_id)
        if old is None:
            e.description = merge_descriptions("", e.description)
            merged.append(e)
            continue
        old.description = merge_descriptions(old.description, e.description)
        for name in (e.name, *e.aliases):  # aliases found by a later chunk (a SKU on page 1) are kept too
            add_alias(old, name)
        merged.append(old)
    store.upsert_entities(merged)
    store.add_mentions((chunk_id, e.entity_id) for e in merged)
    if relations:
        old_rel = {r.relation_id: r for r in store.get_relations([r.relation_id for r in relations])}
        for r in relations:
            if r.relation_id in old_rel:
                r.description = merge_descriptions(old_rel[r.relation_id].description, r.description)
            else:
                r.description = merge_descriptions("", r.description)
        store.add_relation_support((r.relation_id, chunk_id) for r in relations)
        refresh_weights(store, relations)
    return {e.entity_id for e in merged}


def refresh_weights(store: Store, relations: Sequence[Relation]) -> None:
    """Set each relation's weight to its number of supporting chunks and store it."""
    support = store.relation_support([r.relation_id for r in relations])
    for r in relations:
        r.weight = float(len(support.get(r.relation_id, [])) or 1)
    store.upsert_relations(relations)


def summarize_long_descriptions(
    store: Store, llm: LLM | None, entity_ids: Iterable[str], limit_tokens: int = SUMMARY_LIMIT_TOKENS
) -> int:
    """Entities whose merged description is past `limit_tokens`: LLM summary if an LLM is given, else cut."""
    from kgrag.errors import LLMOutputError, ModelError
    from kgrag.graph import prompts
    from kgrag.models.json_output import complete_json
    from kgrag.models.usage import llm_stage

    changed: list[Entity] = []
    for e in store.get_entities(list(entity_ids)):
        if count_tokens(e.description) <= limit_tokens:
            continue
        summary = ""
        if llm is not None:
            try:
                with llm_stage("summarize"):
                    data = complete_json(llm, prompts.summary_messages(e.name, e.description), prompts.SUMMARY_SCHEMA,
                                         max_tokens=limit_tokens)
                summary = " ".join(str(data.get("description", "")).split())
            except (LLMOutputError, ModelError):
                summary = ""  # keep the (cut) list of descriptions; nothing is lost
        e.description = summary or truncate_tokens(e.description, limit_tokens)
        changed.append(e)
    store.upsert_entities(changed)
    return len(changed)

