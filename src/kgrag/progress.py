"""Progress reporting for long work: a rich bar on a terminal, timed lines in a log, nothing with --quiet."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol, TextIO

LOG_EVERY_S = 10.0


class Task(Protocol):
    def advance(self, n: int = 1, **fields: object) -> None: ...


class Progress(Protocol):
    """Creates named tasks with a known total; `fields` update the description (e.g. chunks/s)."""

    def task(self, description: str, total: int | None) -> Task: ...


def note(progress: object, text: str) -> None:
    """Show a one-line message (e.g. an LLM estimate) through `progress` if it can show messages."""
    show = getattr(progress, "note", None)
    if callable(show):
        show(text)


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

    def note(self, text: str) -> None:
        self._bar.console.print(text, markup=False, highlight=False)

    @contextmanager
    def running(self) -> Iterator[RichProgress]:
        with self._bar:
            yield self


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}" if seconds >= 3600 else \
        f"{seconds // 60}:{seconds % 60:02d}"


class _LogTask:
    def __init__(self, owner: LogProgress, description: str, total: int | None) -> None:
        self.owner, self.description, self.total = owner, description, total
        self.done = 0
        self.start = self.last = owner.clock()
        self.fields: dict[str, object] = {}

    def advance(self, n: int = 1, **fields: object) -> None:
        self.done += n
        self.fields.update(fields)
        now = self.owner.clock()
        finished = self.total is not None and self.done >= self.total
        if now - self.last >= self.owner.every or finished:
            self.last = now
            self.owner.write(self.line(now))

    def line(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = self.done / elapsed
        if self.total is None:
            head = f"{self.done:,}"
        else:
            left = max(self.total - self.done, 0)
            eta = _clock(left / rate) if rate > 0 else "?"
            head = f"{self.done:,}/{self.total:,} ({100 * self.done / max(self.total, 1):.0f}%), ETA {eta}"
        extra = f"  {_fmt(self.fields)}" if self.fields else ""
        return f"[{_clock(elapsed)}] {self.description}: {head}, {rate:.1f}/s{extra}"


class LogProgress:
    """For logs (stdout/stderr not a terminal): one line per task about every `every` seconds and when it ends."""

    def __init__(self, stream: TextIO | None = None, every: float = LOG_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.stream = stream
        self.every = every
        self.clock = clock

    def write(self, text: str) -> None:
        stream = self.stream or sys.stderr
        print(text, file=stream, flush=True)

    def task(self, description: str, total: int | None) -> Task:
        return _LogTask(self, description, total)

    def note(self, text: str) -> None:
        self.write(text)


class _CountingTask:
    def __init__(self, inner: Task, counts: dict[str, int], description: str) -> None:
        self.inner, self.counts, self.description = inner, counts, description
        counts.setdefault(description, 0)

    def advance(self, n: int = 1, **fields: object) -> None:
        self.counts[self.description] += n
        self.inner.advance(n, **fields)


class CountingProgress:
    """Passes tasks through to `inner` and counts the items each task (by description) advanced."""

    def __init__(self, inner: Progress, say: Callable[[str], None] | None = None) -> None:
        self.inner = inner
        self.say = say
        self.counts: dict[str, int] = {}

    def task(self, description: str, total: int | None) -> Task:
        return _CountingTask(self.inner.task(description, total), self.counts, description)

    def note(self, text: str) -> None:
        if self.say is not None:
            self.say(text)
        else:
            note(self.inner, text)
