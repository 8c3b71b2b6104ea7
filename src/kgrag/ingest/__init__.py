"""Ingestion: find files, parse each format into blocks, clean them and cut structure-aware chunks.

    files, errors = discover(["docs/"])
    parsed = parse_file(files[0], root=Path("docs"), settings=Settings().chunking)

`parse_file` is loaded on first use, so answering (which needs only `split_sentences`) does not pull in the
PDF/HTML/Office parsers: a `kgrag ask` process starts faster.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgrag.ingest.base import ParsedDocument, content_hash
from kgrag.ingest.discover import SUPPORTED_SUFFIXES, discover
from kgrag.ingest.sentences import split_sentences

if TYPE_CHECKING:
    from kgrag.ingest.parse import parse_file

__all__ = ["SUPPORTED_SUFFIXES", "ParsedDocument", "content_hash", "discover", "parse_file", "split_sentences"]


def __getattr__(name: str) -> Any:
    """`parse_file` (and its parsers) imported when first asked for."""
    if name == "parse_file":
        from kgrag.ingest.parse import parse_file

        return parse_file
    raise AttributeError(f"module 'kgrag.ingest' has no attribute {name!r}")
