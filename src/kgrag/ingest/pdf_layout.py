"""From positioned PDF lines to blocks: body font, heading styles and levels, contents pages, paragraphs."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from kgrag.ingest.base import Block
from kgrag.ingest.clean import join_lines

_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+[^\W\d_]")
_TOC_LINE = re.compile(r"^(?:\d{1,2}(?:\.\d{1,2})*\.?\s+\S.*?\s|.{3,}?\.{3,}\s*)\d{1,4}$")
_CONTENTS = {"contents", "table of contents", "index of contents"}
HEADING_SIZE_RATIO = 1.15  # a line this much larger than the body font is a heading candidate


@dataclass
class Line:
    """One text line (or table row) of a page with its position and font."""

    text: str
    page: int
    top: float
    bottom: float
    x0: float
    x1: float
    size: float
    bold: bool
    kind: str = "text"  # text | table | plain (fallback, no font information)


@dataclass
class _Heading:
    text: str
    rank: int  # 0 = the largest heading style of the document
    depth: int | None  # numbering depth ("1.2 Power" -> 2), None when unnumbered


def body_size(lines: list[Line]) -> float:
    """The font size carrying most characters: the body text size."""
    sizes: Counter[float] = Counter()
    for ln in lines:
        if ln.kind == "text" and ln.size:
            sizes[round(ln.size * 2) / 2] += len(ln.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def heading_style(line: Line, body: float) -> tuple[float, bool] | None:
    """The (size, bold) style of a heading line, or None for body text."""
    if line.kind != "text" or not body or not line.size:
        return None
    text = line.text
    if sum(c.isalpha() for c in text) < 2 or len(text) > 120 or len(text.split()) > 14:
        return None
    if text.endswith((".", ",", ";")) and not _NUMBERED.match(text):
        return None
    size = round(line.size * 2) / 2
    if line.size >= body * HEADING_SIZE_RATIO or (line.bold and line.size >= body * 0.95):
        return size, line.bold
    return None


def numbering_depth(text: str) -> int | None:
    """How deep a numbered heading is: '3 Ratings' -> 1, '3.2.1 Limits' -> 3; None if not numbered."""
    match = _NUMBERED.match(text)
    return match.group(1).count(".") + 1 if match else None


def is_toc_page(lines: list[Line]) -> bool:
    """True for a table-of-contents page: mostly numbered entries ending with a page number."""
    text_lines = [ln for ln in lines if ln.kind in ("text", "plain")]
    hits = sum(1 for ln in text_lines if _TOC_LINE.match(ln.text))
    return hits >= 5 and hits >= 0.5 * len(text_lines)


def push_heading(stack: list[_Heading], heading: _Heading) -> None:
    """Place a heading in the stack: numbered headings nest by depth and close unnumbered ones;
    unnumbered headings close every open heading of the same or a smaller style."""
    while stack:
        top = stack[-1]
        if heading.depth is not None:
            if top.depth is None or top.depth >= heading.depth:
                stack.pop()
                continue
        elif heading.rank <= top.rank:
            stack.pop()
            continue
        break
    stack.append(heading)


def build_blocks(pages: list[list[Line]]) -> list[Block]:
    """Heading, paragraph and table blocks in reading order from the lines of each page."""
    all_lines = [ln for page in pages for ln in page]
    body = body_size(all_lines)
    styles = sorted({s for ln in all_lines if (s := heading_style(ln, body))}, reverse=True)
    rank = {style: i for i, style in enumerate(styles)}
    stack: list[_Heading] = []
    blocks: list[Block] = []
    edges = _text_edges(all_lines)
    in_toc = False  # inside a contents list that started with a "Contents" heading
    for page in pages:
        toc_page = is_toc_page(page)
        group: list[Line] = []
        for line in page:
            style = heading_style(line, body)
            if line.text.lower().strip(" :") in _CONTENTS and (style is not None or toc_page):
                in_toc = True
                continue
            if (in_toc or toc_page) and _TOC_LINE.match(line.text):
                continue
            in_toc = False
            if style is not None:
                blocks.extend(_group_blocks(group, stack, edges))
                group = []
                push_heading(stack, _Heading(line.text, rank[style], numbering_depth(line.text)))
                blocks.append(Block(tuple(h.text for h in stack), line.text, "heading", line.page))
                continue
            if group and (group[-1].kind == "table") != (line.kind == "table"):
                blocks.extend(_group_blocks(group, stack, edges))
                group = []
            group.append(line)
        blocks.extend(_group_blocks(group, stack, edges))
    return blocks


def _text_edges(lines: list[Line]) -> tuple[float, float]:
    """Left and right text margins of the document (5th/95th percentiles of line starts/ends)."""
    xs0 = sorted(ln.x0 for ln in lines if ln.kind == "text")
    xs1 = sorted(ln.x1 for ln in lines if ln.kind == "text")
    if not xs0:
        return 0.0, 0.0
    return xs0[len(xs0) // 20], xs1[min(len(xs1) - 1, len(xs1) * 19 // 20)]


def _group_blocks(group: list[Line], stack: list[_Heading], edges: tuple[float, float]) -> list[Block]:
    """One block for a run of lines: table rows one per line, body lines re-flowed into paragraphs."""
    if not group:
        return []
    path = tuple(h.text for h in stack)
    page = group[0].page
    if group[0].kind == "table":
        return [Block(path, "\n".join(ln.text for ln in group), "table", page)]
    left, right = edges
    full = right - 0.12 * max(1.0, right - left)
    out: list[str] = []  # finished lines/paragraph pieces with their separators
    current: list[str] = []
    prev: Line | None = None
    for i, line in enumerate(group):
        if prev is not None:
            gap = line.top - prev.bottom
            new_para = prev.kind == "text" and gap > 1.0 * max(prev.size, 1.0)
            wrapped = prev.kind == "plain" or (prev.x1 >= full and not new_para and not _outdented_item(group, i))
            if not wrapped:
                out.append(join_lines(current))
                out.append("\n\n" if new_para else "\n")
                current = []
        current.append(line.text)
        prev = line
    out.append(join_lines(current))
    text = "".join(out).strip()
    return [Block(path, text, "text", page)] if text else []


def _outdented_item(group: list[Line], i: int) -> bool:
    """Line `i` starts well left of a full-width line that is itself aligned with the line before it: a list item
    under a component's heading, not the rest of a wrapped line (a datasheet's "... pressure thresholds" then
    "HS3003 Temperature & humidity sensor"). A paragraph's indented first line (nothing aligned before it) still wraps."""
    if i < 2:
        return False
    before, prev, line = group[i - 2], group[i - 1], group[i]
    return abs(before.x0 - prev.x0) < 2.0 and line.x0 < prev.x0 - 1.5 * max(prev.size, 1.0)
