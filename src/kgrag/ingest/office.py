"""Office loaders: DOCX (python-docx) with headings by paragraph style, paragraphs, lists and tables as
` | ` rows; PPTX (python-pptx) with each slide title a section, text in reading order, tables, notes."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kgrag.errors import IngestError
from kgrag.ingest.base import Block, HeadingStack, Parsed
from kgrag.ingest.clean import normalize_whitespace

_HEADING_STYLE = re.compile(r"^(?:heading|überschrift|titre|título|titolo)\s*(\d)$", re.I)


def _open(path: Path, kind: str, opener: Any) -> Any:
    """Open an Office file; a damaged or non-Office file is an IngestError naming the format."""
    if not zipfile.is_zipfile(path):
        raise IngestError(path, f"corrupt {kind} (not a zip package)")
    try:
        return opener(str(path))
    except Exception as exc:  # python-docx/pptx raise many types (KeyError, PackageNotFoundError, XML errors)
        raise IngestError(path, f"corrupt {kind} ({type(exc).__name__}: {exc})".strip()) from exc


def _row_text(cells: list[str]) -> str:
    """One table row in the shared row format: non-empty cells joined with ' | '."""
    return " | ".join(c for c in cells if c)


# -- DOCX --------------------------------------------------------------------------------------------
def parse_docx(path: Path) -> Parsed:
    """Blocks of a Word document in body order; title from the core properties, else the Title paragraph."""
    import docx

    document = _open(path, "docx", docx.Document)
    stack = HeadingStack()
    blocks: list[Block] = []
    title = normalize_whitespace(document.core_properties.title or "")
    for item in document.iter_inner_content():
        if item.__class__.__name__ == "Table":
            rows = [_row_text(r) for r in _docx_rows(item)]
            rows = [r for r in rows if r]
            if rows:
                blocks.append(Block(stack.path(), "\n".join(rows), "table"))
            continue
        text = normalize_whitespace(item.text)
        if not text:
            continue
        style = (item.style.name if item.style is not None else "") or ""
        level = _heading_level(style)
        if style.lower() == "title":
            title = title or text
            level = 0
        if level is not None:
            stack.push(level, text)
            blocks.append(Block(stack.path(), text, "heading"))
        elif style.lower().startswith("list"):
            blocks.append(Block(stack.path(), f"- {text}"))
        else:
            blocks.append(Block(stack.path(), text))
    return Parsed(_merge_lists(blocks), title=title, meta={"format": "docx"})


def _heading_level(style: str) -> int | None:
    match = _HEADING_STYLE.match(style.strip())
    return int(match.group(1)) if match else None


def _docx_rows(table: Any) -> Iterator[list[str]]:
    """Cell texts per row; a merged cell (repeated by python-docx for each grid column it spans) counted once."""
    for row in table.rows:
        seen: set[int] = set()
        cells: list[str] = []
        for cell in row.cells:
            if id(cell._tc) in seen:
                continue
            seen.add(id(cell._tc))
            cells.append(normalize_whitespace(" ".join(p.text for p in cell.paragraphs)))
        yield cells


def _merge_lists(blocks: list[Block]) -> list[Block]:
    """Consecutive list items under the same heading become one block, one `- item` per line."""
    out: list[Block] = []
    for block in blocks:
        prev = out[-1] if out else None
        if (prev is not None and block.kind == "text" and prev.kind == "text" and block.path == prev.path
                and block.text.startswith("- ") and prev.text.split("\n")[-1].startswith("- ")):
            prev.text += "\n" + block.text
        else:
            out.append(block)
    return out


# -- PPTX --------------------------------------------------------------------------------------------
def parse_pptx(path: Path) -> Parsed:
    """Blocks of a presentation: each slide's title is a heading (a section; `Slide N` when untitled), its
    other shapes follow top to bottom, left to right; speaker notes close the slide. page = slide number."""
    from pptx import Presentation

    deck = _open(path, "pptx", Presentation)
    blocks: list[Block] = []
    for number, slide in enumerate(deck.slides, start=1):
        title_shape = slide.shapes.title
        heading = normalize_whitespace(title_shape.text_frame.text) if title_shape is not None else ""
        heading = heading or f"Slide {number}"
        path_ = (heading,)
        blocks.append(Block(path_, heading, "heading", number))
        title_id = title_shape.shape_id if title_shape is not None else None
        for kind, text in _slide_content(slide.shapes, title_id):
            blocks.append(Block(path_, text, kind, number))
        if slide.has_notes_slide:
            notes = normalize_whitespace(slide.notes_slide.notes_text_frame.text) if (
                slide.notes_slide.notes_text_frame is not None) else ""
            if notes:
                blocks.append(Block(path_, notes, "text", number))
    title = normalize_whitespace(deck.core_properties.title or "") or next(
        (b.text for b in blocks if b.kind == "heading" and not b.text.startswith("Slide ")), "")
    return Parsed(blocks, title=title, meta={"format": "pptx", "pages": len(deck.slides),
                                             "slides": len(deck.slides)})


def _slide_content(shapes: Any, skip_id: int | None) -> Iterator[tuple[str, str]]:
    """(kind, text) of the shapes in reading order; groups are read in place."""
    ordered = sorted(shapes, key=lambda s: ((s.top or 0) // 20000, s.left or 0))  # ~0.5 mm rows
    for shape in ordered:
        if skip_id is not None and shape.shape_id == skip_id:
            continue
        if shape.shape_type is not None and shape.shape_type == 6:  # MSO_SHAPE_TYPE.GROUP
            yield from _slide_content(shape.shapes, None)
        elif getattr(shape, "has_table", False) and shape.has_table:
            rows = [_row_text([normalize_whitespace(c.text) for c in _unique_cells(r)]) for r in shape.table.rows]
            rows = [r for r in rows if r]
            if rows:
                yield "table", "\n".join(rows)
        elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
            lines = []
            for para in shape.text_frame.paragraphs:
                text = normalize_whitespace("".join(run.text for run in para.runs) or para.text)
                if text:
                    lines.append(f"- {text}" if para.level > 0 else text)
            if lines:
                yield "text", "\n".join(lines)


def _unique_cells(row: Any) -> list[Any]:
    """A row's cells without the spanned (merged-away) ones."""
    return [c for c in row.cells if not c.is_spanned]
