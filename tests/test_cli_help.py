"""Help texts reach the user whole: the help is rendered with rich markup, which silently drops a bracketed
lower-case word ("inline as [n]", "[answer] mode") as an unknown style tag."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import typer

from kgrag.cli import registered_app

_MARKUP_TAG = re.compile(r"(?<!\\)\[[a-z#/@][^\[\]]*\]")  # what rich reads as a style tag


def _helps(command: Any, path: str) -> Iterator[tuple[str, str]]:
    """(where, help text) of a command, its options and its subcommands."""
    yield path, command.help or ""
    for param in command.params:
        yield f"{path} {param.name}", getattr(param, "help", None) or ""
    for name, sub in (getattr(command, "commands", None) or {}).items():
        yield from _helps(sub, f"{path} {name}")


def test_no_help_text_loses_words_to_markup() -> None:
    command = typer.main.get_command(registered_app())
    lost = [(where, text) for where, text in _helps(command, "kgrag") if _MARKUP_TAG.search(text)]
    assert lost == []
