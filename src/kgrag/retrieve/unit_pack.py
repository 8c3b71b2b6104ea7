"""Evidence packing: the best-ranked chunks whole, then the best sentences and table rows of many more.

A 4k budget holds ~25 whole datasheet chunks, most of whose lines do not concern the question. After the
first WHOLE_SHARE of the budget is filled with whole chunks (their order is the retriever's), the next
candidates are cut into units (answering/units.py: sentences with their paragraph heading, table rows with
their header) and scored (answering/select.py: BM25 + names + asked unit) plus a prior from the chunk's
rank; the best units, with neighbour sentences and headers, go back into their chunks as excerpts headed by
the chunk's title and section, so the rest of the budget carries relevant pieces of many chunks.
"""

from __future__ import annotations

from collections.abc import Sequence

from kgrag.answering.select import Scored, score_units, select
from kgrag.answering.units import Unit, block_units, render
from kgrag.models.base import Embedder
from kgrag.retrieve.packing import item_tokens
from kgrag.tokens import count_tokens
from kgrag.types import ContextItem

WHOLE_SHARE = 1.0  # share of the budget given to whole top-ranked chunks (1 = no excerpts: measured no gain)
RANK_PRIOR = 0.15  # weight of the chunk's rank (1 for the first excerpt candidate, falling as 1/(1+r/10))
MAX_EXCERPTED = 40  # chunks after the whole ones that are cut into units


def scope_line(item: ContextItem) -> str:
    """The title/section header an excerpt carries so it makes sense out of its chunk."""
    title = str(item.source.get("product") or item.source.get("title") or "")
    section = str(item.source.get("section") or "")
    return " > ".join(x for x in (title, section) if x)


def split_whole(items: Sequence[ContextItem], budget: int) -> tuple[list[ContextItem], list[ContextItem]]:
    """Leading items that fit whole into `budget`, and the rest (the candidates for excerpts)."""
    whole: list[ContextItem] = []
    used = 0
    rest_from = len(items)
    for i, item in enumerate(items):
        n = item_tokens(item)
        if used + n > budget:
            rest_from = i
            break
        whole.append(item)
        used += n
    return whole, list(items[rest_from:])


def excerpts(question: str, items: Sequence[ContextItem], budget: int, embedder: Embedder | None = None) -> list[ContextItem]:
    """The best units of `items` within `budget` tokens, as one excerpt item per source chunk."""
    if budget <= 0 or not items:
        return []
    all_units: dict[int, list[Unit]] = {n: block_units(n, item.text) for n, item in enumerate(items)}
    scopes = {n: scope_line(item) for n, item in enumerate(items)}
    flat = [u for us in all_units.values() for u in us]
    ranked = score_units(question, flat, scopes, embedder, stems=False)
    for s in ranked:
        s.score += RANK_PRIOR / (1 + s.unit.block / 10) if s.score > 0 else 0.0
    ranked.sort(key=lambda s: -s.score)
    focus = select(ranked, all_units, budget)
    order = _block_order(ranked, focus.units)
    out = []
    for n in order:
        item = items[n]
        body = render(focus.units[n])
        head = scope_line(item)
        text = f"{head}\n{body}" if head and head not in body.split("\n", 1)[0] else body
        out.append(ContextItem(kind=item.kind, text=text, score=item.score, chunk_id=item.chunk_id, doc_id=item.doc_id,
                               source={**item.source, "excerpt": True}, item_id=item.item_id,
                               tokens=count_tokens(text)))
    return out


def _block_order(ranked: list[Scored], chosen: dict[int, list[Unit]]) -> list[int]:
    """Blocks in the order of their best selected unit."""
    order: list[int] = []
    for s in ranked:
        if s.unit.block in chosen and s.unit.block not in order:
            order.append(s.unit.block)
    return order


def pack_evidence(question: str, items: Sequence[ContextItem], budget: int,
                  whole_share: float = WHOLE_SHARE, max_excerpted: int = MAX_EXCERPTED,
                  embedder: Embedder | None = None) -> list[ContextItem]:
    """Whole chunks for `whole_share` of the budget, excerpts of the next `max_excerpted` for the rest."""
    whole, rest = split_whole(items, int(budget * whole_share))
    used = sum(item_tokens(i) for i in whole)
    # the header line of each excerpt is counted by select() as ~12 tokens; keep a margin for rounding
    return whole + excerpts(question, rest[:max_excerpted], int((budget - used) * 0.97), embedder)
