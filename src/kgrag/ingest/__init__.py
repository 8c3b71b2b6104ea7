"""Ingestion: find files, parse each format into blocks, clean them and cut structure-aware chunks.

    files, errors = discover(["docs/"])
    parsed = parse_file(files[0], root=Path("docs"), settings=Settings().chunking)
"""

from __future__ import annotations

from kgrag.ingest.base import ParsedDocument, content_hash
from kgrag.ingest.discover import SUPPORTED_SUFFIXES, discover
from kgrag.ingest.parse import parse_file
from kgrag.ingest.sentences import split_sentences

__all__ = ["SUPPORTED_SUFFIXES", "ParsedDocument", "content_hash", "discover", "parse_file", "split_sentences"]
