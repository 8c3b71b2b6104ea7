"""Plain dataclasses shared by every part: documents, chunks, graph items, retrieved context, answers."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Document:
    """One source file (or one record group of a pre-chunked JSONL file)."""

    doc_id: str
    path: str
    title: str
    content_hash: str
    product: str = ""
    category: str = ""
    version: str = ""
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Chunk:
    """A retrieval unit with the metadata needed to cite it."""

    chunk_id: str
    doc_id: str
    text: str
    ord: int = 0
    section: str = ""  # heading path, " > "-joined
    page_start: int | None = None
    page_end: int | None = None
    product: str = ""
    category: str = ""
    tokens: int = 0
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class Entity:
    """A graph node. `entity_id` is derived from the normalised name and type."""

    entity_id: str
    name: str
    type: str = ""
    description: str = ""
    aliases: list[str] = field(default_factory=list)


@dataclass
class Relation:
    """A directed, typed edge between two entities; `weight` counts supporting chunks."""

    relation_id: str
    source_id: str
    target_id: str
    type: str
    description: str = ""
    weight: float = 1.0


@dataclass
class ContextItem:
    """One piece of retrieved context with its provenance.

    kind: chunk | subchunk | entity | relation | keyword | community | path | text
    """

    kind: str
    text: str
    score: float = 0.0
    chunk_id: str | None = None
    doc_id: str | None = None
    source: dict[str, Any] = field(default_factory=dict)  # path, title, page, section, product
    tokens: int = 0
    item_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Subgraph:
    """Nodes and edges behind a graph-based context, for display and provenance."""

    nodes: list[dict[str, Any]] = field(default_factory=list)  # {id, name, type}
    edges: list[dict[str, Any]] = field(default_factory=list)  # {source, target, type, chunks}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Context:
    """What a retriever returns: ordered items within a token budget."""

    question: str
    strategy: str
    items: list[ContextItem] = field(default_factory=list)
    tokens: int = 0
    budget: int = 0
    subgraph: Subgraph = field(default_factory=Subgraph)
    timings: dict[str, float] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """All item texts joined, as used for coverage-style metrics."""
        return "\n\n".join(item.text for item in self.items)

    def chunk_ids(self) -> list[str]:
        seen: dict[str, None] = {}
        for item in self.items:
            if item.chunk_id:
                seen.setdefault(item.chunk_id, None)
        return list(seen)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "strategy": self.strategy,
            "tokens": self.tokens,
            "budget": self.budget,
            "items": [i.to_dict() for i in self.items],
            "subgraph": self.subgraph.to_dict(),
            "timings": self.timings,
            "info": self.info,
        }


@dataclass
class Citation:
    """A cited context block: where it comes from and the sentence that supports the answer."""

    n: int
    chunk_id: str | None
    document: str
    title: str = ""
    page: int | None = None
    section: str = ""
    quote: str = ""
    version: str = ""


@dataclass
class Answer:
    """A grounded answer with its citations and the context it was generated from."""

    question: str
    text: str
    citations: list[Citation]
    context: Context
    grounded: bool = True  # False when the context did not contain the answer
    usage: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "answer": self.text,
            "grounded": self.grounded,
            "citations": [asdict(c) for c in self.citations],
            "context": self.context.to_dict(),
            "usage": self.usage,
            "timings": self.timings,
        }


@dataclass
class SubChunk:
    """A KET-RAG sub-chunk: one of the 2^tau equal parts of a chunk."""

    subchunk_id: str
    chunk_id: str
    ord: int
    text: str
    tokens: int = 0


@dataclass
class Keyword:
    """A keyword node of the keyword-subchunk bipartite graph."""

    keyword_id: str
    term: str
    description: str = ""


@dataclass
class Community:
    """A Leiden community of entities at one level of the hierarchy, with its LLM summary."""

    community_id: str
    level: int
    parent_id: str | None = None
    title: str = ""
    summary: str = ""
    full_content: dict[str, Any] = field(default_factory=dict)
    key_terms: list[str] = field(default_factory=list)
