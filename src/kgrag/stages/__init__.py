"""Indexing stages after ingestion, registered by name and run in order by `kgrag index`.

Each module in this package registers its stages with `@register_stage`. A stage is idempotent:
it records per-item progress in the store and skips finished items on the next run.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kgrag.progress import Progress
    from kgrag.workspace import Workspace

StageFn = Callable[["Workspace", "Progress"], Any]


@dataclass(frozen=True)
class Stage:
    name: str
    order: int
    run: StageFn
    description: str
    default: bool  # run by a plain `kgrag index`


_STAGES: dict[str, Stage] = {}


def register_stage(name: str, order: int, description: str, default: bool = True) -> Callable[[StageFn], StageFn]:
    def wrap(fn: StageFn) -> StageFn:
        _STAGES[name] = Stage(name, order, fn, description, default)
        return fn

    return wrap


def all_stages() -> list[Stage]:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return sorted(_STAGES.values(), key=lambda s: (s.order, s.name))
