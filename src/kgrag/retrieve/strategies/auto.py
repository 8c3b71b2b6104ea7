"""`auto` (the default strategy): the strategy that suits the index, chosen once per index state.

- `kg-facts` for product documentation: ingestion found the product of at least PRODUCT_SHARE of the
  chunks (a datasheet's title or SKU, a `product:` front-matter or meta tag, a pre-chunked record's
  product field; scoping and the fact table are built around those products), or as many chunks hold
  table rows (datasheets and manuals in a flat folder, where nothing names a product: `fused`, tuned on
  prose, was 0.04-0.06 below `kg-facts` there, benchmarks/vendor_docs.py);
- `fused` for other text once the tri-graph stage has run (prose, FAQs, logs: entities chained
  across passages; on MuSiQue it is far ahead of `kg-facts`, which has nothing to scope there);
- `hybrid` otherwise (only chunks indexed so far: `kgrag add` without `kgrag index`).

The choice is a property of the corpus, never of the question: on the Arduino dev questions, routing
questions that name no product to `fused` lost 0.006 against `kg-facts` for all (docs/benchmarks.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kgrag.answering.units import is_row
from kgrag.retrieve.base import Retriever, make_retriever, register
from kgrag.retrieve.ket_index import cached
from kgrag.retrieve.trigraph_index import trigraph_arrays
from kgrag.types import Context

if TYPE_CHECKING:
    from kgrag.workspace import Workspace

PRODUCT_SHARE = 0.2  # share of chunks with a product (or with table rows) from which the index is product documentation


def choose_strategy(index: Workspace) -> tuple[str, str]:
    """(strategy name, reason) for this index; recomputed only when its chunks, edges or sentence vectors change."""
    return cached(index.store, "auto:strategy", ("edges", "vectors:sentence", "vectors:chunk"), lambda: _choose(index))


def _choose(index: Workspace) -> tuple[str, str]:
    chunks = products = tables = 0
    for chunk in index.store.iter_chunks():
        chunks += 1
        products += bool(chunk.product)
        tables += any(is_row(line) for line in chunk.text.splitlines())
    if chunks and products >= PRODUCT_SHARE * chunks:
        return "kg-facts", f"product documentation ({products} of {chunks} chunks belong to a named product)"
    if chunks and tables >= PRODUCT_SHARE * chunks:
        return "kg-facts", f"technical documentation ({tables} of {chunks} chunks hold table rows)"
    graph = trigraph_arrays(index)
    if graph.passages.ids and graph.sent_vectors.size:
        return "fused", f"text without product structure ({products} of {chunks} chunks belong to a named product)"
    return "hybrid", "no product graph and no tri-graph yet (run `kgrag index`)"


@register
class AutoRetriever(Retriever):
    name = "auto"
    description = ("The strategy that suits the index: kg-facts for product documentation, fused for other text "
                   "once `kgrag index` has built its tri-graph, hybrid before that.")

    def retrieve(self, question: str, budget: int, **options: Any) -> Context:
        name, reason = choose_strategy(self.index)
        context = make_retriever(name, self.index).retrieve(question, budget, **options)
        context.info["auto"] = f"{name}: {reason}"
        return context
