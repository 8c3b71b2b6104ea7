"""LLM extractors: `llm` (schema-free triples), `llm-typed` (typed, schema given or induced), `llm-paths`.

Each call uses the worked example, JSON-schema-constrained output, one repair round-trip and validation
(names absent from the chunk are dropped); optional gleaning rounds ask for what was missed.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

from kgrag.errors import KgragError, LLMOutputError
from kgrag.graph import prompts
from kgrag.graph.extract import Extraction, ExtractionBuilder, Extractor, register_extractor
from kgrag.models.base import LLM, Message
from kgrag.models.json_output import complete_json
from kgrag.models.usage import estimate_prompt_tokens, llm_stage
from kgrag.tokens import truncate_tokens
from kgrag.types import Chunk

if TYPE_CHECKING:
    from kgrag.store.base import Store
    from kgrag.workspace import Workspace

SCHEMA_META_KEY = "graph.schema"
MAX_OUTPUT_TOKENS = 400
SCHEMA_SAMPLE_CHUNKS = 5
SCHEMA_SAMPLE_TOKENS = 150


class LLMExtractor(Extractor):
    """One LLM call per chunk (plus repair and gleaning rounds), output validated against the chunk text."""

    uses_llm = True

    def __init__(
        self,
        llm: LLM,
        mode: str = "triples",
        *,
        entity_types: list[str] | None = None,
        relation_types: list[str] | None = None,
        gleaning_rounds: int = 0,
        max_paths: int = 5,
        max_tokens: int = MAX_OUTPUT_TOKENS,
    ) -> None:
        self.llm = llm
        self.mode = mode
        self.name = {"triples": "llm", "typed": "llm-typed", "paths": "llm-paths"}[mode]
        self.entity_types = entity_types or []
        self.relation_types = relation_types or []
        self.gleaning_rounds = gleaning_rounds
        self.max_paths = max_paths
        self.max_tokens = max_tokens
        self.previous_failures: dict[str, str] = {}  # chunk_id -> reason, set by the build for retries
        if mode == "paths":
            self.schema = prompts.paths_schema(max_paths)
        else:
            self.schema = prompts.triples_schema(self.entity_types or None, self.relation_types or None)

    def messages(self, text: str, note: str = "") -> list[Message]:
        """The prompt for one chunk text."""
        return prompts.extraction_messages(
            self.mode,
            text,
            entity_types=self.entity_types,
            relation_types=self.relation_types,
            max_paths=self.max_paths,
            note=note,
        )

    def prompt_overhead_tokens(self) -> int:
        """Tokens of the prompt around the chunk text (system, example, framing), for estimates."""
        return estimate_prompt_tokens(self.messages(""))

    def extract(self, chunk: Chunk) -> Extraction:
        """Ask, parse (one repair), validate, glean; raises LLMOutputError when nothing valid comes back."""
        if not chunk.text.strip():
            return Extraction()
        reason = self.previous_failures.get(chunk.chunk_id, "")
        note = f"a previous answer was rejected ({reason[:160]}); follow the JSON format exactly" if reason else ""
        history = self.messages(chunk.text, note)
        builder = ExtractionBuilder(chunk.text)
        with llm_stage("extract"):
            data = complete_json(self.llm, history, self.schema, repair_attempts=1, max_tokens=self.max_tokens)
            proposed = self._add(builder, data)
            if proposed and not builder.build().entities:
                raise LLMOutputError(
                    f"none of the {proposed} entities named by {self.llm.model_name} occur in the chunk text"
                )
            for _ in range(self.gleaning_rounds):
                history = history + [
                    {"role": "assistant", "content": json.dumps(data, ensure_ascii=False)},
                    {"role": "user", "content": prompts.GLEANING_PROMPT},
                ]
                try:
                    data = complete_json(self.llm, history, self.schema, repair_attempts=0, max_tokens=self.max_tokens)
                except LLMOutputError:
                    break  # gleaning is optional: keep what the first round found
                if not self._add(builder, data):
                    break
        return builder.build()

    def _add(self, builder: ExtractionBuilder, data: dict[str, Any]) -> int:
        """Feed one parsed answer into the builder; returns how many items the model proposed."""
        if self.mode == "paths":
            paths = [p for p in data.get("paths", []) if isinstance(p, list)]
            for path in paths:
                for i in range(0, len(path) - 2, 2):
                    builder.relation(path[i], path[i + 1], path[i + 2])
            return sum(len(p) // 2 + 1 for p in paths)
        entities = data.get("entities", [])
        relations = data.get("relations", [])
        allowed = {t.lower() for t in self.entity_types}
        for e in entities:
            etype = e.get("type", "")
            if allowed and str(etype).lower() not in allowed:
                etype = ""
            builder.entity(e.get("name"), etype, e.get("description", ""))
        for r in relations:
            builder.relation(r.get("source"), r.get("relation"), r.get("target"), r.get("description", ""))
        return len(entities) + len(relations)

    def describe(self) -> dict[str, Any]:
        return {
            "extractor": self.name,
            "model": self.llm.model_name,
            "entity_types": self.entity_types,
            "relation_types": self.relation_types,
            "gleaning_rounds": self.gleaning_rounds,
        }


def load_schema(store: Store) -> dict[str, Any] | None:
    """The typed-extraction schema stored in the index, if any."""
    raw = store.get_meta(SCHEMA_META_KEY)
    return json.loads(raw) if raw else None


def save_schema(store: Store, entity_types: list[str], relation_types: list[str], source: str) -> dict[str, Any]:
    """Store the schema so later runs (and retrieval) use the same types."""
    schema = {"entity_types": entity_types, "relation_types": relation_types, "source": source}
    store.set_meta(SCHEMA_META_KEY, json.dumps(schema))
    return schema


def induce_schema(index: Workspace, llm: LLM, seed: int = 42) -> dict[str, Any]:
    """One LLM call over a few sampled chunks proposes entity and relation types; stored in the index."""
    ids = index.store.chunk_ids()
    if not ids:
        raise KgragError(f"{index.root}: no chunks to induce a graph schema from; add documents first")
    sample = random.Random(seed).sample(ids, min(SCHEMA_SAMPLE_CHUNKS, len(ids)))
    texts = [truncate_tokens(c.text, SCHEMA_SAMPLE_TOKENS) for c in index.store.get_chunks(sample)]
    with llm_stage("schema"):
        data = complete_json(llm, prompts.schema_induction_messages(texts), prompts.SCHEMA_INDUCTION_SCHEMA,
                             max_tokens=300)
    entity_types = _clean_types(data.get("entity_types", []))
    if not entity_types:
        raise LLMOutputError(f"{llm.model_name}: schema induction proposed no entity types")
    return save_schema(index.store, entity_types, _clean_types(data.get("relation_types", [])), "induced")


def _clean_types(values: list[Any]) -> list[str]:
    out: dict[str, None] = {}
    for v in values:
        text = " ".join(str(v).split())
        if text and len(text) <= 40:
            out.setdefault(text, None)
    return list(out)


def _typed_schema(index: Workspace, llm: LLM, types: str | list[str] | None) -> dict[str, Any]:
    """User-given types win (and are stored); else the stored schema; else one is induced and stored."""
    if types:
        given = [t.strip() for t in types.split(",")] if isinstance(types, str) else list(types)
        return save_schema(index.store, _clean_types(given), [], "user")  # relations stay free-form
    return load_schema(index.store) or induce_schema(index, llm, index.settings.graph.seed)


def _llm(index: Workspace, options: dict[str, Any]) -> LLM:
    return options.get("llm") or index.llm


@register_extractor("llm")
def _make_llm(index: Workspace, options: dict[str, Any]) -> Extractor:
    return LLMExtractor(_llm(index, options), "triples", gleaning_rounds=index.settings.graph.gleaning_rounds)


@register_extractor("llm-typed")
def _make_typed(index: Workspace, options: dict[str, Any]) -> Extractor:
    llm = _llm(index, options)
    schema = _typed_schema(index, llm, options.get("types"))
    return LLMExtractor(llm, "typed", entity_types=schema["entity_types"], relation_types=schema["relation_types"],
                        gleaning_rounds=index.settings.graph.gleaning_rounds)


@register_extractor("llm-paths")
def _make_paths(index: Workspace, options: dict[str, Any]) -> Extractor:
    return LLMExtractor(_llm(index, options), "paths", gleaning_rounds=index.settings.graph.gleaning_rounds,
                        max_paths=int(options.get("max_paths") or 5))
