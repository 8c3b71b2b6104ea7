"""Structure-aware chunking: heading-path sections -> chunks of at most `max_tokens` cl100k tokens.

Rules (see docs/ingestion.md): a chunk never spans two sections, except that a section merges into
the previous one (its sibling or its parent) when one of them is tiny and the result fits in one chunk.
Each chunk starts with its section's heading line; long sections are packed sentence by sentence
(words, then characters as last resorts) with `overlap_tokens` of trailing sentences repeated.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from kgrag.config import ChunkingSettings
from kgrag.ingest.base import Block
from kgrag.ingest.clean import is_low_information
from kgrag.ingest.sentences import split_sentences
from kgrag.ingest.table_header import header_like
from kgrag.tokens import count_tokens, truncate_tokens

LINE, PARA = "\n", "\n\n"


@dataclass
class Unit:
    """An atomic piece of a section (sentence, table row, code line) with the separator before it."""

    text: str
    sep: str
    page: int | None
    tokens: int
    header: str = ""  # a table row's header row (its column names), repeated when a chunk starts without it
    line: bool = False  # a table row or a code line: repeated whole in the next chunk's overlap or not at all


@dataclass
class Section:
    """Consecutive content under one heading path."""

    path: tuple[str, ...]
    head: str  # heading line(s) written at the start of each chunk
    units: list[Unit] = field(default_factory=list)
    paths: list[tuple[str, ...]] = field(default_factory=list)  # every section merged in here
    sizes: list[int] = field(default_factory=list)  # tokens of each of `paths`

    def label(self) -> tuple[str, ...]:
        """The path a chunk is filed under: the common parent of merged sections (no single one of them
        names the whole chunk), else, for merged top-level sections, the one with the most content."""
        if len(self.paths) <= 1:
            return self.path
        common = self.paths[0]
        for path in self.paths[1:]:
            n = 0
            while n < min(len(common), len(path)) and common[n] == path[n]:
                n += 1
            common = common[:n]
        if common:
            return common
        return self.paths[max(range(len(self.sizes)), key=lambda i: (self.sizes[i], -i))]

    def tokens(self) -> int:
        return count_tokens(self.head) + sum(u.tokens + 1 for u in self.units)


@dataclass
class Draft:
    """A chunk before ids are assigned."""

    text: str
    body: str
    path: tuple[str, ...]
    page_start: int | None
    page_end: int | None
    paths: list[tuple[str, ...]]
    tokens: int = 0  # exact cl100k count of `text`
    rows: bool = False  # holds table rows under their header


def build_sections(blocks: Iterable[Block], budget: int) -> list[Section]:
    """Group blocks into sections; a heading with no content of its own is carried into the next one, and a
    heading the document repeats ("Fixes" under every release) is written under its parent's."""
    blocks = list(blocks)
    repeated = _repeated_headings(blocks)
    sections: list[Section] = []
    current: Section | None = None
    carried: list[str] = []
    for block in blocks:
        if block.kind == "heading":
            if current is not None and not current.units and current.head and not _is_prefix(
                current.path, block.path
            ):
                carried.append(current.head)
            own = _qualified(block.path, block.text.strip(), repeated, carried)
            current = Section(block.path, "\n".join([*carried, own]).strip())
            current.paths.append(block.path)
            carried = []
            sections.append(current)
            continue
        if current is None or block.path != current.path:
            own = _qualified(block.path, block.path[-1], repeated, carried) if block.path else ""
            head = "\n".join([*carried, own]).strip()
            current = Section(block.path, head, paths=[block.path])
            carried = []
            sections.append(current)
        current.units.extend(_units(block, budget, first=not current.units))
    return [s for s in sections if s.units]


def _repeated_headings(blocks: list[Block]) -> set[str]:
    """Heading texts that occur more than once in a document: alone they do not say which part they head."""
    counts = Counter(b.text.strip() for b in blocks if b.kind == "heading")
    return {text for text, n in counts.items() if n > 1}


def _qualified(path: tuple[str, ...], own: str, repeated: set[str], carried: list[str]) -> str:
    """`own` heading line, after its parent heading when the document repeats it ("Version 3.3.0\nNew features")."""
    if own in repeated and len(path) > 1 and path[-2] not in carried:
        return f"{path[-2]}\n{own}"
    return own


def _is_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return len(a) < len(b) and b[: len(a)] == a


def _units(block: Block, budget: int, first: bool) -> list[Unit]:
    """Split one block into units no longer than `budget` tokens."""
    out: list[Unit] = []
    lines_only = block.kind in ("table", "code")
    rows = [line.rstrip() for line in block.text.split("\n") if line.strip()] if block.kind == "table" else []
    header = rows[0] if len(rows) >= 3 and header_like(rows[0], rows[1:]) else ""
    for p_idx, paragraph in enumerate(block.text.split("\n\n")):
        for l_idx, line in enumerate(paragraph.split("\n")):
            if not line.strip():
                continue
            pieces = [line.rstrip()] if lines_only else split_sentences(line)
            for s_idx, piece in enumerate(pieces):
                if not out:
                    sep = "" if first else PARA
                elif s_idx:
                    sep = " "
                else:
                    sep = PARA if (l_idx == 0 and p_idx) else LINE
                under = header if header and line.rstrip() != header else ""
                for w_idx, part in enumerate(split_long(piece, budget)):
                    out.append(Unit(part, sep if w_idx == 0 else " ", block.page, count_tokens(part), under, lines_only))
    return out


def split_long(text: str, budget: int) -> list[str]:
    """`text` cut into pieces of at most `budget` tokens: at spaces, or by characters if one word is too long."""
    if count_tokens(text) <= budget:
        return [text]
    pieces: list[str] = []
    current: list[str] = []
    used = 0
    for word in text.split():
        cost = count_tokens(" " + word)
        if cost > budget:
            if current:
                pieces.append(" ".join(current))
                current, used = [], 0
            pieces.extend(word[i : i + budget] for i in range(0, len(word), budget))
            continue
        if current and used + cost > budget:
            pieces.append(" ".join(current))
            current, used = [], 0
        current.append(word)
        used += cost
    if current:
        pieces.append(" ".join(current))
    return pieces


def merge_tiny_siblings(sections: list[Section], max_tokens: int, tiny: int) -> list[Section]:
    """Merge a section into the previous one when it is a sibling (same parent path) or a direct child
    of it, one of the two is tiny and the result still fits in one chunk."""
    out: list[Section] = []
    sizes: list[int] = []
    for section in sections:
        size = section.tokens()
        section.sizes = [size]
        last = out[-1].paths[-1] if out else ()
        if out and section.path[:-1] in (out[-1].path[:-1], last[:-1], last):  # a sibling or a child
            prev, prev_size = out[-1], sizes[-1]
            if min(prev_size, size) < tiny and prev_size + size + 1 <= max_tokens:
                first, rest = section.units[0], section.units[1:]
                if section.head:
                    head = Unit(section.head, PARA, None, count_tokens(section.head))
                    prev.units.extend([head, replace(first, sep=LINE), *rest])
                else:
                    prev.units.extend([replace(first, sep=PARA), *rest])
                prev.paths.extend(section.paths)
                prev.sizes.append(size)
                sizes[-1] = prev_size + size + 1
                continue
        out.append(section)
        sizes.append(size)
    return out


def _join(units: list[Unit]) -> str:
    """The units' text; a table's header row goes before its first row in this chunk when the chunk lacks it."""
    out: list[str] = []
    shown: set[str] = set()
    for i, u in enumerate(units):
        sep = u.sep if i else ""
        if u.header and u.header not in shown:
            out.append(f"{sep}{u.header}")
            sep = LINE
        shown.update((u.text, u.header))
        out.append(sep + u.text)
    return "".join(out)


def _overlap(units: list[Unit], overlap: int) -> list[Unit]:
    """Trailing units of a chunk worth at most `overlap` tokens (trailing words if one unit is longer, unless it is a
    table row or a code line: a row's last words, "diaphragm damaged. | Return the transmitter …", read as a row of
    their own above the next chunk's repeated header)."""
    if overlap <= 0 or not units:
        return []
    tail: list[Unit] = []
    used = 0
    for unit in reversed(units):
        if used + unit.tokens + 1 > overlap:
            break
        tail.insert(0, unit)
        used += unit.tokens + 1
    if tail or units[-1].line:
        return tail
    words = units[-1].text.split()
    kept: list[str] = []
    for word in reversed(words):
        if count_tokens(" ".join([word, *kept])) > overlap:
            break
        kept.insert(0, word)
    if not kept or len(kept) == len(words):
        return []
    text = " ".join(kept)
    return [Unit(text, units[-1].sep, units[-1].page, count_tokens(text))]


def pack_section(section: Section, settings: ChunkingSettings) -> list[Draft]:
    """Pack a section's units into drafts of at most `max_tokens` tokens, heading line first."""
    head_tokens = count_tokens(section.head) + 1 if section.head else 0
    budget = settings.max_tokens - head_tokens
    drafts: list[Draft] = []
    pending = deque(section.units)
    current: list[Unit] = []
    n_overlap = used = 0
    while pending or len(current) > n_overlap:
        if pending:
            cost = pending[0].tokens + (1 if current else 0)
            if not current or used + cost <= budget:
                current.append(pending.popleft())
                used += cost
                continue
            if len(current) == n_overlap:  # the overlap leaves no room for the next unit: drop it
                current, n_overlap, used = [], 0, 0
                continue
        draft, consumed = _emit(section, current, n_overlap, settings.max_tokens)
        drafts.append(draft)
        pending.extendleft(reversed(current[consumed:]))
        current = _overlap(current[:consumed], settings.overlap_tokens)
        n_overlap = len(current)
        used = sum(u.tokens + 1 for u in current)
    return drafts


def _text(head: str, units: list[Unit]) -> tuple[str, str]:
    body = _join(units).strip()
    return (f"{head}\n{body}" if head else body), body


def _emit(section: Section, units: list[Unit], n_overlap: int, max_tokens: int) -> tuple[Draft, int]:
    """The draft for `units` checked with the exact token count; also how many units it used."""
    k = len(units)
    text, body = _text(section.head, units)
    tokens = count_tokens(text)
    while tokens > max_tokens and k > n_overlap + 1:  # the estimate was low
        k -= 1
        text, body = _text(section.head, units[:k])
        tokens = count_tokens(text)
    used = units[:k]
    if tokens > max_tokens:  # overlap plus one unit is too long: drop the overlap
        used = units[n_overlap:k]
        text, body = _text(section.head, used)
        tokens = count_tokens(text)
        if tokens > max_tokens:
            text = truncate_tokens(text, max_tokens)
            tokens = count_tokens(text)
    pages = [u.page for u in used if u.page is not None]
    draft = Draft(text, body, section.label(), min(pages, default=None), max(pages, default=None),
                  list(section.paths), tokens, rows=any(u.header for u in used))
    return draft, k


def chunk_blocks(blocks: Iterable[Block], settings: ChunkingSettings, data_tables: bool = False) -> list[Draft]:
    """Blocks -> chunk drafts within the token limit; low-information drafts are dropped. `data_tables`: a draft
    holding table rows under their header is content however few letters its cells have (a spreadsheet's or an export's
    measurements: the header says what each number is), as long as it has `min_tokens` tokens."""
    head_room = max(8, settings.max_tokens // 4)
    sections = build_sections(blocks, max(8, settings.max_tokens - head_room))
    for section in sections:
        section.head = _cap_head(section.head, head_room)
    tiny = max(settings.min_tokens * 4, settings.max_tokens // 4)
    sections = merge_tiny_siblings(sections, settings.max_tokens, tiny)
    drafts: list[Draft] = []
    for section in sections:
        drafts.extend(d for d in pack_section(section, settings) if not is_low_information(d.body, settings.min_tokens)
                      or data_tables and d.rows and d.tokens >= settings.min_tokens)
    return drafts


def _cap_head(head: str, limit: int) -> str:
    """Heading lines longer than `limit` tokens are cut (they are repeated in every chunk)."""
    if count_tokens(head) <= limit:
        return head
    return truncate_tokens(head, limit - 1).rstrip()
