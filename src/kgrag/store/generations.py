"""Generation counters on top of a store's meta table, shared by every backend.

In-memory caches (vector matrices, graph adjacency, KET arrays) remember the generation they were built
at and rebuild when it changes.
"""

from __future__ import annotations

import time


class GenerationCounters:
    """`bump_generation`/`generation` for any store class that has `get_meta` and `set_meta`."""

    def get_meta(self, key: str) -> str | None:  # provided by the backend
        raise NotImplementedError

    def set_meta(self, key: str, value: str) -> None:  # provided by the backend
        raise NotImplementedError

    def bump_generation(self, name: str) -> None:
        """Mark derived in-memory caches (vectors, adjacency) named `name` as stale."""
        self.set_meta(f"gen:{name}", f"{time.time_ns()}")

    def generation(self, name: str) -> str:
        return self.get_meta(f"gen:{name}") or "0"
