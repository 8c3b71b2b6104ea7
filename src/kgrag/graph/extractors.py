"""The extractor catalog: every built-in extractor registered, and the one a setting names built.

Kept apart from `graph/extract.py` (the interface and registry) so that the extractors import the
interface and only this catalog imports the extractors: no import cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import kgrag.graph.datasheet.extractor  # noqa: F401  (registers datasheet)
import kgrag.graph.extract_llm  # noqa: F401  (registers llm, llm-typed, llm-paths)
import kgrag.graph.rules  # noqa: F401  (registers rules)
from kgrag.errors import ConfigError
from kgrag.graph.extract import EXTRACTORS, Extractor

if TYPE_CHECKING:
    from kgrag.workspace import Workspace


def extractor_names() -> list[str]:
    return sorted(EXTRACTORS)


def make_extractor(name: str, index: Workspace, **options: Any) -> Extractor:
    """The extractor registered as `name` (datasheet | rules | llm | llm-typed | llm-paths) for `index`."""
    factory = EXTRACTORS.get(name)
    if factory is None:
        raise ConfigError(f"graph extractor {name!r} is unknown; choose one of {sorted(EXTRACTORS)}")
    return factory(index, options)
