"""Entity resolution: numeric-safe blocking keys, candidates grouped by key and type compatibility,
optional LLM disambiguation per group, union-find merges, rewired relations and mentions, undoable merge log.

Ids already fold names with equal keys *and* types; resolution merges what remains: one name under several
types (a generic type merges into a specific one; two specific types only when the LLM says so).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from kgrag.errors import KgragError, LLMOutputError, ModelError
from kgrag.graph.keys import entity_key, is_generic_type, relation_id, type_key
from kgrag.graph.merge import add_alias, merge_descriptions, refresh_weights
from kgrag.types import Entity, Relation

if TYPE_CHECKING:
    from kgrag.models.base import LLM
    from kgrag.store.base import Store


@dataclass
class ResolveReport:
    """What one resolution run did."""

    entities_before: int = 0
    entities_after: int = 0
    candidate_groups: int = 0
    merges: list[int] = field(default_factory=list)
    llm_groups: int = 0
    kept_ids: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class UnionFind:
    """Disjoint sets over string ids."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra

    def groups(self) -> list[list[str]]:
        out: dict[str, list[str]] = defaultdict(list)
        for x in self.parent:
            out[self.find(x)].append(x)
        return [sorted(g) for g in out.values() if len(g) > 1]


_JOINED = re.compile(r"(?<!\d) | (?!\d)")  # a key's spaces, but the one between two numbers ("wi fi", "85 °c")


def candidate_groups(entities: Sequence[Entity]) -> list[list[Entity]]:
    """Entities sharing a blocking key (name or alias; written joined or apart is one key, "Wi-Fi" and "WiFi", "85°C"
    and "85 °C", while two numbers stay apart, "10/100 Mbit" is not "10100 Mbit"), groups of two or more."""
    by_key: dict[str, dict[str, Entity]] = defaultdict(dict)
    for e in entities:
        for name in [e.name, *e.aliases]:
            key = entity_key(name)
            if key:
                by_key[_JOINED.sub("", key)][e.entity_id] = e
    seen: set[tuple[str, ...]] = set()
    groups: list[list[Entity]] = []
    for members in by_key.values():
        ids = tuple(sorted(members))
        if len(ids) > 1 and ids not in seen:
            seen.add(ids)
            groups.append([members[i] for i in ids])
    return groups


def compatible(a: Entity, b: Entity) -> bool:
    """Same canonical type, or one of them has a generic type (Entity, Concept, untyped)."""
    return type_key(a.type) == type_key(b.type) or is_generic_type(a.type) or is_generic_type(b.type)


def _blocked_pairs(store: Store) -> set[frozenset[str]]:
    """Pairs a user separated by undoing their merge: never merged again automatically."""
    out: set[frozenset[str]] = set()
    for m in store.merges(include_undone=True):
        if m["undone"]:
            out |= {frozenset((m["kept_id"], mid)) for mid in m["merged_ids"]}
    return out


def _llm_clusters(llm: LLM, group: list[Entity]) -> list[list[int]]:
    """The LLM's grouping of one candidate group (indices); no merge when its answer is unusable."""
    from kgrag.graph import prompts
    from kgrag.models.json_output import complete_json
    from kgrag.models.usage import llm_stage

    candidates = [{"name": e.name, "type": e.type, "description": e.description} for e in group]
    try:
        with llm_stage("resolve"):
            data = complete_json(llm, prompts.disambiguation_messages(candidates), prompts.DISAMBIGUATION_SCHEMA,
                                 max_tokens=120)
    except (LLMOutputError, ModelError):
        return []
    out: list[list[int]] = []
    used: set[int] = set()
    for cluster in data.get("groups", []):
        valid = [i for i in cluster if isinstance(i, int) and 0 <= i < len(group) and i not in used]
        used |= set(valid)
        if len(valid) > 1:
            out.append(valid)
    return out


def plan_merges(store: Store, llm: LLM | None = None) -> tuple[list[list[str]], int, int]:
    """Clusters of entity ids to merge (union-find over candidate groups), candidate count, LLM groups asked."""
    entities = list(store.iter_entities())
    blocked = _blocked_pairs(store)
    uf = UnionFind()
    asked = 0
    groups = candidate_groups(entities)
    for group in groups:
        if llm is not None:
            asked += 1
            pairs = [(group[c[0]], group[i]) for c in _llm_clusters(llm, group) for i in c[1:]]
        else:
            specific = [e for e in group if not is_generic_type(e.type)]
            anchor_pool = specific or group
            pairs = [(a, b) for i, a in enumerate(group) for b in group[i + 1 :] if type_key(a.type) == type_key(b.type)]
            if len({type_key(e.type) for e in specific}) <= 1:  # generic ones join the single specific type
                pairs += [(anchor_pool[0], e) for e in group if is_generic_type(e.type)]
        for a, b in pairs:
            if a.entity_id != b.entity_id and frozenset((a.entity_id, b.entity_id)) not in blocked:
                uf.union(a.entity_id, b.entity_id)
    return uf.groups(), len(groups), asked


def resolve_entities(store: Store, llm: LLM | None = None) -> ResolveReport:
    """Plan and apply all merges; every merge is logged with a snapshot and can be undone."""
    report = ResolveReport(entities_before=store.count("entities"))
    clusters, report.candidate_groups, report.llm_groups = plan_merges(store, llm)
    mentions = store.chunks_of_entities([i for c in clusters for i in c])
    for cluster in clusters:
        entities = store.get_entities(cluster)
        if len(entities) < 2:
            continue
        kept = max(entities, key=lambda e: (not is_generic_type(e.type), len(mentions.get(e.entity_id, [])),
                                            -len(e.name), e.entity_id))
        merged = [e for e in entities if e.entity_id != kept.entity_id]
        reason = "llm" if llm is not None else "same key, compatible types"
        report.merges.append(merge_entities(store, kept.entity_id, [e.entity_id for e in merged], reason))
        report.kept_ids.append(kept.entity_id)
    report.entities_after = store.count("entities")
    return report


def _relation_dict(r: Relation, support: list[str]) -> dict[str, Any]:
    return {**asdict(r), "support": support}


def merge_entities(store: Store, kept_id: str, merged_ids: Sequence[str], reason: str) -> int:
    """Merge `merged_ids` into `kept_id`: names become aliases, relations and mentions are rewired; logged."""
    with store.transaction():
        found = {e.entity_id: e for e in store.get_entities([kept_id, *merged_ids])}
        if kept_id not in found:
            raise KgragError(f"entity {kept_id} does not exist; nothing merged")
        merged_ids = [m for m in merged_ids if m in found and m != kept_id]
        kept = found[kept_id]
        involved = [kept_id, *merged_ids]
        relations = store.relations_of(involved)
        support = store.relation_support([r.relation_id for r in relations])
        mentions = store.chunks_of_entities(involved)
        snapshot = {
            "entities": [asdict(found[i]) for i in involved],
            "relations": [_relation_dict(r, support.get(r.relation_id, [])) for r in relations],
            "mentions": {i: mentions.get(i, []) for i in involved},
        }
        for mid in merged_ids:
            other = found[mid]
            add_alias(kept, other.name)
            for alias in other.aliases:
                add_alias(kept, alias)
            kept.description = merge_descriptions(kept.description, other.description)
        new_relations = _rewire(store, relations, support, set(merged_ids), kept_id)
        snapshot["created_relations"] = sorted(new_relations)
        store.delete_entities(merged_ids)  # also drops their old relations, mentions and vectors
        store.upsert_entities([kept])
        store.add_mentions((cid, kept_id) for mid in merged_ids for cid in mentions.get(mid, []))
        return store.add_merge(kept_id, merged_ids, reason, snapshot)


def _rewire(store: Store, relations: list[Relation], support: dict[str, list[str]], merged: set[str],
            kept_id: str) -> set[str]:
    """Point relations of merged entities at the kept one (parallel ones fuse, self-loops vanish)."""
    fused: dict[str, Relation] = {}
    fused_support: dict[str, set[str]] = defaultdict(set)
    for r in relations:
        if r.source_id not in merged and r.target_id not in merged:
            continue
        src = kept_id if r.source_id in merged else r.source_id
        dst = kept_id if r.target_id in merged else r.target_id
        if src == dst:
            continue
        rid = relation_id(src, r.type, dst)
        existing = fused.get(rid) or next(iter(store.get_relations([rid])), None)
        desc = merge_descriptions(existing.description if existing else "", r.description)
        fused[rid] = Relation(rid, src, dst, r.type, desc, 1.0)
        fused_support[rid] |= set(support.get(r.relation_id, []))
    store.delete_relations([r.relation_id for r in relations if r.source_id in merged or r.target_id in merged])
    store.add_relation_support((rid, cid) for rid, cids in fused_support.items() for cid in cids)
    if fused:
        refresh_weights(store, list(fused.values()))
    return set(fused)


def undo_merge(store: Store, merge_id: int) -> dict[str, Any]:
    """Restore the entities, relations and mentions a merge changed; the pair is not merged again."""
    merge = next((m for m in store.merges() if m["merge_id"] == merge_id), None)
    if merge is None:
        raise KgragError(f"merge {merge_id} does not exist or was already undone (see `kgrag graph resolve --list`)")
    later = [m for m in store.merges() if m["merge_id"] > merge_id and merge["kept_id"] in m["merged_ids"]]
    if later:
        raise KgragError(f"merge {merge_id}: its entity was merged again by merge {later[0]['merge_id']}; undo that first")
    snap = merge["snapshot"]
    with store.transaction():
        restored = [Entity(**e) for e in snap["entities"]]
        store.delete_relations(snap.get("created_relations", []))
        store.delete_relations([r["relation_id"] for r in snap["relations"]])
        store.upsert_entities(restored)
        store.upsert_relations([Relation(**{k: v for k, v in r.items() if k != "support"}) for r in snap["relations"]])
        store.add_relation_support((r["relation_id"], cid) for r in snap["relations"] for cid in r["support"])
        moved = {cid for mid in merge["merged_ids"] for cid in snap["mentions"].get(mid, [])}
        own = set(snap["mentions"].get(merge["kept_id"], []))
        _drop_mentions(store, merge["kept_id"], moved - own)
        store.add_mentions((cid, eid) for eid, cids in snap["mentions"].items() for cid in cids)
        store.mark_merge_undone(merge_id)
    return merge


def _drop_mentions(store: Store, entity_id: str, chunk_ids: set[str]) -> None:
    """Remove mention rows of one entity (the store has no per-row delete, so rebuild its rows)."""
    if not chunk_ids:
        return
    keep = [c for c in store.chunks_of_entities([entity_id]).get(entity_id, []) if c not in chunk_ids]
    entity = store.get_entities([entity_id])
    relations = store.relations_of([entity_id])
    support = store.relation_support([r.relation_id for r in relations])
    store.delete_entities([entity_id])
    store.upsert_entities(entity)
    store.upsert_relations(relations)
    store.add_relation_support((rid, cid) for rid, cids in support.items() for cid in cids)
    store.add_mentions((cid, entity_id) for cid in keep)


def duplicate_candidates(store: Store) -> int:
    """How many candidate groups (shared blocking key) the graph still has."""
    return len(candidate_groups(list(store.iter_entities())))


def type_counts(entities: Sequence[Entity]) -> Counter[str]:
    return Counter(type_key(e.type) or "(untyped)" for e in entities)
