"""The `Extractor` interface and registry: chunk -> Extraction(entities, relations), interchangeable.

Extractors assign stable ids (graph/keys.py) so the same name from many chunks is one node.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kgrag.graph.keys import (
    entity_id,
    entity_key,
    is_generic_type,
    mentioned_in,
    name_tokens,
    relation_id,
    relation_key,
    type_key,
)
from kgrag.types import Chunk, Entity, Relation

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

MAX_NAME_CHARS = 80  # longer "names" are sentences, not entities
_EDGE_CHARS = " \t.,;:-–—•*·'\"`®™©"
_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"))


def clean_name(raw: Any) -> str:
    """An entity name without list bullets, trademark signs or unbalanced bracket fragments."""
    name = " ".join(str(raw or "").replace("®", "").replace("™", "").split())
    for left, right in _PAIRS:
        if right in name and left not in name.split(right, 1)[0]:
            name = name.split(right, 1)[1]  # "Nano Family] Description" -> "Description"
        if left in name and right not in name.rsplit(left, 1)[1]:
            name = name.rsplit(left, 1)[0]  # "Brown Out Detection (BOD" -> "Brown Out Detection"
    sign = name.lstrip()[:1] in "-–" and name.lstrip()[1:2].isdigit()  # "-40 °C" keeps its sign
    name = name.strip(_EDGE_CHARS)
    if sign:
        name = "-" + name
    for article in ("the ", "a ", "an "):
        if name.startswith(article) and len(name) > len(article):
            return name[len(article) :]
    return name


@dataclass
class Extraction:
    """What one chunk yields: entities (with ids) and relations between them."""

    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    dropped: int = 0  # items removed by validation (names absent from the chunk, malformed rows)

    def is_empty(self) -> bool:
        return not self.entities and not self.relations

    def extend(self, other: Extraction) -> None:
        """Add `other`'s items that are not already here (gleaning rounds, several patterns)."""
        seen_e = {e.entity_id for e in self.entities}
        seen_r = {r.relation_id for r in self.relations}
        self.entities += [e for e in other.entities if e.entity_id not in seen_e]
        self.relations += [r for r in other.relations if r.relation_id not in seen_r]
        self.dropped += other.dropped


class ExtractionBuilder:
    """Collects named entities and relations for one chunk, validating names against the chunk text."""

    def __init__(self, text: str, *, validate: bool = True) -> None:
        self._text_tokens = " ".join(name_tokens(text)) if validate else ""
        self._validate = validate
        self._entities: dict[str, Entity] = {}  # entity_key(name) -> entity; a specific type beats a generic one
        self._relations: dict[tuple[str, str, str], str] = {}  # (source key, label, target key) -> description
        self.dropped = 0

    def entity(self, name: Any, etype: Any = "", description: Any = "") -> str | None:
        """Add (or enrich) an entity and return its key; None if empty, too long or not in the chunk text."""
        name = clean_name(name)
        key = entity_key(name)
        if not key or len(name) > MAX_NAME_CHARS or (self._validate and not mentioned_in(name, self._text_tokens)):
            self.dropped += 1
            return None
        etype, description = type_key(str(etype or "")), " ".join(str(description or "").split())
        found = self._entities.get(key)
        if found is None:
            found = self._entities[key] = Entity("", name, etype, "")
        elif is_generic_type(found.type) and not is_generic_type(etype):
            found.type = etype
        if description and description not in found.description.split("\n"):
            found.description = f"{found.description}\n{description}".strip()
        return key

    def relation(self, source: Any, rtype: Any, target: Any, description: Any = "") -> bool:
        """Add a relation between two names (added as untyped entities if new); False if invalid."""
        before = self.dropped
        src = self._key_of(source)
        dst = self._key_of(target)
        if src is None or dst is None or src == dst:
            self.dropped = before + 1  # one dropped relation, however many of its ends were invalid
            return False
        label = relation_key(str(rtype or ""))
        old = self._relations.get((src, label, dst), "")
        description = " ".join(str(description or "").split())
        if description and description not in old.split("\n"):
            old = f"{old}\n{description}".strip()
        self._relations[(src, label, dst)] = old
        return True

    def _key_of(self, name: Any) -> str | None:
        key = entity_key(clean_name(name))
        return key if key in self._entities else self.entity(name)

    def build(self) -> Extraction:
        """The extraction with stable ids (type + key) on entities and relation ends."""
        ids: dict[str, str] = {}
        entities: list[Entity] = []
        for key, e in self._entities.items():
            ids[key] = entity_id(e.name, e.type)
            entities.append(Entity(ids[key], e.name, e.type, e.description))
        relations = []
        for (src, label, dst), description in self._relations.items():
            s, d = ids[src], ids[dst]
            relations.append(Relation(relation_id(s, label, d), s, d, label, description))
        return Extraction(entities, relations, self.dropped)


class Extractor(ABC):
    """Turns one chunk into entities and relations; LLM-based and rule-based ones are interchangeable."""

    name: str = ""
    uses_llm: bool = False
    version: str = "1"  # a rule-based extractor that reads chunks differently bumps it: indexes then re-read them

    @abstractmethod
    def extract(self, chunk: Chunk) -> Extraction:
        """Entities and relations found in `chunk` (raises LLMOutputError/ModelError on LLM failure)."""

    def extract_many(self, chunks: Iterable[Chunk]) -> Iterator[tuple[Chunk, Extraction | Exception]]:
        """Each chunk with its extraction, or the error that stopped it (batched extractors override)."""
        from kgrag.errors import BudgetExceeded

        for chunk in chunks:
            try:
                yield chunk, self.extract(chunk)
            except BudgetExceeded:
                raise
            except Exception as exc:  # recorded per chunk by the caller, never fatal for the batch
                yield chunk, exc

    def describe(self) -> dict[str, Any]:
        """Settings that identify this extractor's output (shown by `graph stats`)."""
        return {"extractor": self.name}


ExtractorFactory = Callable[["Workspace", dict[str, Any]], Extractor]
EXTRACTORS: dict[str, ExtractorFactory] = {}


def register_extractor(name: str) -> Callable[[ExtractorFactory], ExtractorFactory]:
    """Register a factory `(index, options) -> Extractor` under `name`."""

    def wrap(factory: ExtractorFactory) -> ExtractorFactory:
        EXTRACTORS[name] = factory
        return factory

    return wrap
