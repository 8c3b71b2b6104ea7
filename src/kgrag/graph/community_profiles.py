"""Community profiles (bounded facts about the members) and their summaries (LLM JSON or deterministic)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kgrag.errors import LLMOutputError
from kgrag.models.base import LLM
from kgrag.store.base import Store
from kgrag.types import Entity

MAX_MEMBERS = 15  # member entities listed in a profile
MAX_RELATIONS = 10
MAX_SNIPPETS = 3
SNIPPET_CHARS = 300
DESCRIPTION_CHARS = 160
TOP_VALUES = 5  # most frequent products / categories

SUMMARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "topic_label": {"type": "string"},
        "summary": {"type": "string"},
        "key_terms": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["topic_label", "summary", "key_terms"],
}
SUMMARY_SYSTEM = (
    "You describe a group of related entities found in technical documents. "
    "Use only the facts given. Return JSON with: topic_label (a short name for the group, at most 8 words), "
    "summary (2-4 sentences: what the entities are, how they relate, which products they concern), "
    "key_terms (up to 8 important terms)."
)


@dataclass
class GraphView:
    """Everything profiles need, loaded once from the store: entities, mentions, chunk metadata, relations."""

    entities: dict[str, Entity]
    chunks_of: dict[str, list[str]]  # entity id -> chunk ids mentioning it
    chunk_meta: dict[str, tuple[str, str]]  # chunk id -> (product, category)
    relations: list[tuple[str, str, str]]  # (source id, type, target id)

    @classmethod
    def load(cls, store: Store) -> GraphView:
        entities = {e.entity_id: e for e in store.iter_entities()}
        chunks_of = store.chunks_of_entities(list(entities)) if entities else {}
        meta = {c.chunk_id: (c.product, c.category) for c in store.iter_chunks()}
        rels = [(r.source_id, r.type, r.target_id) for r in store.iter_relations()]
        return cls(entities, chunks_of, meta, rels)


def _top(counter: Counter[str], n: int) -> list[list[Any]]:
    return [[k, v] for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:n] if k]


def build_profile(view: GraphView, store: Store, members: Sequence[str]) -> dict[str, Any]:
    """The bounded, canonical profile of one community (stored as `full_content`)."""
    member_set = set(members)
    mentions = {m: view.chunks_of.get(m, []) for m in members if m in view.entities}
    ranked = sorted(mentions, key=lambda m: (-len(mentions[m]), view.entities[m].name.lower(), m))
    entities = [
        {
            "name": view.entities[m].name,
            "type": view.entities[m].type,
            "description": view.entities[m].description[:DESCRIPTION_CHARS],
        }
        for m in ranked[:MAX_MEMBERS]
    ]
    chunk_hits: Counter[str] = Counter(c for cs in mentions.values() for c in set(cs))
    products: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    for chunk_id, n in chunk_hits.items():
        product, category = view.chunk_meta.get(chunk_id, ("", ""))
        products[product] += n
        categories[category] += n
    names = {m: view.entities[m].name for m in mentions}
    relations = sorted(
        {f"{names[s]} -{t}-> {names[d]}" for s, t, d in view.relations if s in member_set and d in member_set}
    )[:MAX_RELATIONS]
    best = sorted(chunk_hits, key=lambda c: (-chunk_hits[c], c))[:MAX_SNIPPETS]
    snippets = [
        {"chunk_id": c.chunk_id, "text": " ".join(c.text.split())[:SNIPPET_CHARS]} for c in store.get_chunks(best)
    ]
    return {
        "n_entities": len(mentions),
        "entities": entities,
        "products": _top(products, TOP_VALUES),
        "categories": _top(categories, TOP_VALUES),
        "relations": relations,
        "snippets": snippets,
    }


def canonical_json(data: Any) -> str:
    """Sorted keys, no whitespace: the same profile always gives the same text and hash."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def profile_hash(profile: dict[str, Any]) -> str:
    return hashlib.sha256(canonical_json(profile).encode()).hexdigest()[:16]


def profile_summary(profile: dict[str, Any]) -> dict[str, Any]:
    """The deterministic summary (no LLM): label from the top members, text from products and relations."""
    names = [e["name"] for e in profile["entities"]]
    label = ", ".join(names[:3]) or "empty community"
    parts = [f"A group of {profile['n_entities']} related entities: {', '.join(names[:8])}."]
    if profile["products"]:
        parts.append("Mentioned mostly for " + ", ".join(p for p, _ in profile["products"][:3]) + ".")
    if profile["categories"]:
        parts.append("Categories: " + ", ".join(c for c, _ in profile["categories"][:3]) + ".")
    if profile["relations"]:
        parts.append("Relations: " + "; ".join(profile["relations"][:4]) + ".")
    descriptions = [f"{e['name']}: {e['description']}" for e in profile["entities"][:3] if e["description"]]
    if descriptions:
        parts.append(" ".join(descriptions))
    elif profile["snippets"]:
        parts.append("Example: " + profile["snippets"][0]["text"][:200])
    key_terms = names[:8] + [p for p, _ in profile["products"][:2] if p not in names]
    return {"topic_label": label, "summary": " ".join(parts), "key_terms": key_terms, "source": "profile"}


def summary_messages(profile: dict[str, Any]) -> list[dict[str, str]]:
    """The prompt for one community summary (profile facts as compact text)."""
    lines = ["Entities:"]
    lines += [f"- {e['name']} ({e['type'] or 'entity'}): {e['description']}".rstrip(": ") for e in profile["entities"]]
    if profile["relations"]:
        lines += ["Relations:"] + [f"- {r}" for r in profile["relations"]]
    if profile["products"]:
        lines.append("Products: " + ", ".join(p for p, _ in profile["products"]))
    if profile["snippets"]:
        lines += ["Text excerpts:"] + [f"- {s['text']}" for s in profile["snippets"]]
    return [
        {"role": "system", "content": SUMMARY_SYSTEM},
        {"role": "user", "content": "\n".join(lines) + "\n\nJSON:"},
    ]


def llm_summary(llm: LLM, profile: dict[str, Any], max_tokens: int = 300) -> dict[str, Any]:
    """One schema-constrained LLM call; unparseable output is kept as the raw summary text."""
    from kgrag.models.json_output import parse_json_output

    completion = llm.complete(summary_messages(profile), schema=SUMMARY_SCHEMA, max_tokens=max_tokens)
    fallback = profile_summary(profile)
    try:
        data = parse_json_output(completion.text, SUMMARY_SCHEMA)
    except LLMOutputError:
        return {**fallback, "summary": completion.text.strip() or fallback["summary"], "source": "raw"}
    terms = [str(t).strip() for t in data["key_terms"] if str(t).strip()][:12]
    return {
        "topic_label": str(data["topic_label"]).strip() or fallback["topic_label"],
        "summary": str(data["summary"]).strip() or fallback["summary"],
        "key_terms": terms or fallback["key_terms"],
        "source": "llm",
    }


def embedding_text(title: str, summary: str, key_terms: Sequence[str]) -> str:
    """The text a community is embedded by (and a HyDE summary is compared to)."""
    return f"{title}\n{summary}\nKey terms: {', '.join(key_terms)}"
