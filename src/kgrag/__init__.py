"""kgrag: knowledge-graph-enhanced retrieval-augmented generation over your own documents.

Public API: `Index.init(path)`, `Index.open(path)`, `index.add(paths)`, `index.search(q)`, `index.ask(q)`.
"""

from kgrag.errors import KgragError
from kgrag.index import Index
from kgrag.types import Answer, Citation, Context, ContextItem

__all__ = ["Answer", "Citation", "Context", "ContextItem", "Index", "KgragError"]
__version__ = "0.1.0"
