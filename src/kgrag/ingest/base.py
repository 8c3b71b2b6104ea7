"""Shared pieces of the loaders: the Block a parser emits, the parsed result, ids and path metadata."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from kgrag.types import Chunk, Document

MAX_FILE_BYTES = 100 * 1024 * 1024  # larger files are refused with a clear reason, never half-read
# Bumped when a loader reads the same file differently (2: PDF table rows cut by a misdrawn border read by whole
# words; 3: a table cut between chunks repeats its header row; 4: plain-text headings, drawn rules dropped; 5: a
# heading the document repeats is written under its parent's; 6: a plain-text title is the line of the first paragraph
# that names a document kind, not the file's name; 7: a PDF list item outdented under a full-width line starts its
# own line; 8: a PDF whose metadata title is its own file name, as scanners write, is titled by its first heading;
# 9: a plain-text paragraph of pipe-joined cells is a table, and a row of names over rows of marks is its header;
# 10: a plain-text one-line paragraph led by a record's code, "E3 - SPI clock glitch", is a heading; 11: a table row
# or code line longer than the overlap is not repeated as its last words at the start of the next chunk; 12: an HTML
# ordered list keeps its items' numbers, and a plain-text title may name a reference, a certificate, a bulletin …;
# 13: an HTML page of several <article>s, a knowledge base's or a forum thread's, is read whole, not its first only,
# and the <header> of an article or of a forum post, who wrote it and whether it is the accepted answer, is kept;
# 14: temperatures are written with the degree sign, "85℃" as "85°C", and a pre-chunked record whose id opens with an
# order code, "AFX00007-datasheet::c0", writes "[SKU: AFX00007]" in its context line).
# Stored in each document's meta; `kgrag add` re-reads documents another version parsed.
PARSER_VERSION = "14"
PARSER_KEY = "parser"


@dataclass
class Block:
    """One unit of parsed content in reading order.

    kind: "heading" (text = the heading line, path ends with it) | "text" | "table" | "code".
    path: the heading path the block sits under (for a heading: including itself).
    """

    path: tuple[str, ...]
    text: str
    kind: str = "text"
    page: int | None = None


class HeadingStack:
    """The headings open at a point of a document, outermost first: a heading closes the open ones of its level and
    deeper (every loader that reads levels — Markdown, HTML, Word, plain text — keeps its section path this way)."""

    def __init__(self) -> None:
        self._open: list[tuple[int, str]] = []

    def push(self, level: int, text: str) -> None:
        """Open a heading of `level` (1 = outermost)."""
        while self._open and self._open[-1][0] >= level:
            self._open.pop()
        self._open.append((level, text))

    def path(self) -> tuple[str, ...]:
        """The open headings' texts, outermost first: the section path of what follows."""
        return tuple(text for _, text in self._open)


@dataclass
class ParsedDocument:
    """A document and its chunks, ready to be stored."""

    document: Document
    chunks: list[Chunk] = field(default_factory=list)


@dataclass
class Parsed:
    """What a format loader returns before chunking: blocks plus document-level facts."""

    blocks: list[Block]
    title: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    product: str = ""
    category: str = ""
    version: str = ""


def content_hash(path: Path) -> str:
    """sha256 hex digest of the file's bytes, read in a streaming way."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def relative_path(path: Path, root: Path | None) -> str:
    """The posix path of `path` relative to `root`, compared lexically (symlinks are not resolved, so a
    linked file keeps the name it has under root); absolute when root is None or not an ancestor."""
    absolute = Path(os.path.abspath(path))
    if root is not None:
        try:
            return absolute.relative_to(os.path.abspath(root)).as_posix()
        except ValueError:
            pass
    return absolute.as_posix()


def make_doc_id(rel_path: str) -> str:
    """Stable document id: first 16 hex digits of sha1 of the posix (relative) path."""
    return hashlib.sha1(rel_path.encode("utf-8")).hexdigest()[:16]


def folder_metadata(rel_path: str, has_root: bool) -> tuple[str, str]:
    """(category, product) from the folders of a relative path: `Cat/Product/file` or `Cat/file`.

    With two or more folder levels the innermost folder is the product and the one above it the
    category; with one level it is the category only; with no root nothing is derived.
    """
    if not has_root or PurePath(rel_path).is_absolute():
        return "", ""
    folders = [p.strip() for p in PurePath(rel_path).parts[:-1] if p.strip()]
    if len(folders) >= 2:
        return folders[-2], folders[-1]
    if len(folders) == 1:
        return folders[0], ""
    return "", ""


def title_with_variant(title: str, product: str) -> str:
    """The title with the words its product's name adds at the end: a datasheet headed "Arduino MKR IoT Carrier" in the
    folder "MKR IoT Carrier Rev2" is the Rev2's ("Arduino MKR IoT Carrier Rev2"), not the sibling product's."""
    words, names = title.split(), product.split()
    for k in range(len(names) - 1, 0, -1):  # the longest start of the product's name that the title ends with
        if [w.lower() for w in words[-k:]] == [n.lower() for n in names[:k]]:
            return " ".join([*words, *names[k:]])
    return title
