"""Markdown loader: ATX/Setext headings form the section path; code kept; link-dominated lines dropped."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from kgrag.ingest.base import Block, HeadingStack, Parsed
from kgrag.ingest.clean import (
    is_link_dominated,
    normalize_whitespace,
    reflow,
    strip_markdown_links,
)
from kgrag.ingest.textio import iter_lines

_ATX = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HR = re.compile(r"^ {0,3}([-*_])(\s*\1){2,}\s*$")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_EMPHASIS = re.compile(r"(\*\*|__|(?<![\w*])\*(?!\*))(?=\S)(.+?)(?<=\S)\1")
_QUOTE = re.compile(r"^ {0,3}>\s?")
FRONT_MATTER_KEYS = ("title", "product", "category", "version")


def parse_markdown(path: Path) -> Parsed:
    """Blocks of a Markdown file plus title/product/category/version from YAML front matter or the first H1."""
    lines = iter_lines(path)
    front, lines = _front_matter(lines)
    blocks = list(_blocks(lines))
    title = front.get("title", "") or next((b.text for b in blocks if b.kind == "heading"), "")
    return Parsed(blocks, title=title, meta={"format": "markdown"}, product=front.get("product", ""),
                  category=front.get("category", ""), version=front.get("version", ""))


def _front_matter(lines: Iterator[str]) -> tuple[dict[str, str], Iterator[str]]:
    """Simple `key: value` pairs of a leading `---` block (no YAML dependency)."""
    first = next(lines, None)
    if first is None:
        return {}, iter(())
    if first.strip() != "---":
        return {}, itertools.chain([first], lines)
    seen: list[str] = [first]
    values: dict[str, str] = {}
    for line in lines:
        seen.append(line)
        if line.strip() in ("---", "..."):
            return values, lines
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() in FRONT_MATTER_KEYS:
            values[key.strip().lower()] = value.strip().strip("\"'")
    return {}, iter(seen)  # no closing fence: it was not front matter


def _blocks(lines: Iterable[str]) -> Iterator[Block]:
    """Walk the lines once, keeping a heading stack and emitting paragraph/table/code blocks."""
    stack = HeadingStack()
    para: list[str] = []
    fence: str | None = None
    code: list[str] = []

    def flush() -> Iterator[Block]:
        if para:
            yield from _paragraph_blocks(para, stack.path())
            para.clear()

    def heading(level: int, text: str) -> Iterator[Block]:
        text = normalize_whitespace(strip_markdown_links(_EMPHASIS.sub(r"\2", text)))
        if not text:
            return
        stack.push(level, text)
        yield Block(stack.path(), text, "heading")

    for raw in lines:
        if fence is not None:
            if raw.strip().startswith(fence):
                if any(c.strip() for c in code):
                    yield Block(stack.path(), "\n".join(code).strip("\n"), "code")
                fence, code = None, []
            else:
                code.append(raw.rstrip())
            continue
        match = _FENCE.match(raw)
        if match:
            yield from flush()
            fence = match.group(1)[0] * 3
            continue
        atx = _ATX.match(raw)
        if atx:
            yield from flush()
            yield from heading(len(atx.group(1)), atx.group(2))
            continue
        if _SETEXT.match(raw) and len(para) == 1 and not para[0].lstrip().startswith(("|", "-", "*")):
            text = para.pop()
            yield from heading(1 if raw.strip()[0] == "=" else 2, text)
            continue
        if not raw.strip() or _HR.match(raw):
            yield from flush()
            continue
        para.append(raw)
    if fence is not None and any(c.strip() for c in code):
        yield Block(stack.path(), "\n".join(code).strip("\n"), "code")
    yield from flush()


def _paragraph_blocks(lines: list[str], path: tuple[str, ...]) -> Iterator[Block]:
    """A paragraph: table rows become ` | `-joined lines, link-dominated lines are dropped."""
    text = _HTML_COMMENT.sub("", "\n".join(lines))
    kept: list[str] = []
    is_table = all(line.strip().startswith("|") for line in text.splitlines() if line.strip())
    for line in text.splitlines():
        if is_table:
            if _TABLE_SEP.match(line):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            line = " | ".join(cells)
        if not line.strip() or is_link_dominated(line):
            continue
        line = _EMPHASIS.sub(r"\2", strip_markdown_links(_QUOTE.sub("", line)))
        kept.append(line)
    cleaned = normalize_whitespace("\n".join(kept) if is_table else reflow(kept))
    if cleaned:
        yield Block(path, cleaned, "table" if is_table else "text")
