"""Options and output helpers shared by the command modules."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from kgrag.progress import LogProgress, NullProgress, Progress, RichProgress

console = Console(soft_wrap=True)
err_console = Console(stderr=True)

IndexOption = typer.Option(
    Path(os.environ.get("KGRAG_INDEX", "./kgrag-index")), "--index", "-i", help="Index folder (env KGRAG_INDEX)."
)
QuietOption = typer.Option(False, "--quiet", "-q", help="No progress output.")
JsonOption = typer.Option(False, "--json", help="Print machine-readable JSON.")
StrategyOption = typer.Option(None, "--strategy", "-s", help="Retrieval strategy (see `kgrag strategies`).")
BudgetOption = typer.Option(None, "--budget", "-b", help="Context budget in tokens.")
VersionOption = typer.Option(None, help="Only documents with this version metadata.")


@contextmanager
def progress_for(quiet: bool) -> Iterator[Progress]:
    """A rich progress display on a terminal, a line per task every ~10 s in a log, nothing when quiet."""
    if quiet:
        yield NullProgress()
        return
    if not err_console.is_terminal:
        yield LogProgress()
        return
    bar = RichProgress()
    with bar.running():
        yield bar


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False, default=str))


_GROUPS: dict[str, typer.Typer] = {}


def command_group(app: typer.Typer, name: str, help: str) -> typer.Typer:
    """The `kgrag NAME ...` sub-command group, created once and shared by every module that adds to it."""
    group = _GROUPS.get(name)
    if group is None:
        group = typer.Typer(name=name, help=help, no_args_is_help=True)
        app.add_typer(group, name=name)
        _GROUPS[name] = group
    return group
