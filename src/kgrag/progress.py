"""Progress reporting for long work: a rich bar on a terminal, nothing with --quiet or in tests."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol


class Task(Protocol):
    def advance(self, n: int = 1, **fields: object) -> None: ...


class Progress(Protocol):
    """Creates named tasks with a known total; `fields` update the description (e.g. chunks/s)."""

    def task(self, description: str, total: int | None) -> Task: ...


class _NullTask:
    def advance(self, n: int = 1, **fields: object) -> None:
        return None


class NullProgress:
    """Reports nothing (library use, --quiet, tests)."""

    def task(self, description: str, total: int | None) -> Task:
        return _NullTask()


class _RichTask:
    def __init__(self, bar, task_id) -> None:  # noqa: ANN001 - rich types
        self._bar = bar
        self._id = task_id

    def advance(self, n: int = 1, **fields: object) -> None:
        self._bar.update(self._id, advance=n, **({"info": _fmt(fields)} if fields else {}))


def _fmt(fields: dict[str, object]) -> str:
    return "  ".join(f"{k}={v}" for k, v in fields.items())


class RichProgress:
    """Progress bars with counts, rate and ETA, on stderr."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichBar

        self._bar = RichBar(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[info]}"),
            console=Console(stderr=True),
            transient=False,
        )

    def task(self, description: str, total: int | None) -> Task:
        return _RichTask(self._bar, self._bar.add_task(description, total=total, info=""))

    @contextmanager
    def running(self) -> Iterator[RichProgress]:
        with self._bar:
            yield self
