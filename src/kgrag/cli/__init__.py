"""The `kgrag` command line. Each module in this package adds its commands through `register(app)`."""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys
from pathlib import Path

import typer

from kgrag.errors import KgragError

app = typer.Typer(
    name="kgrag",
    help="Knowledge-graph-enhanced RAG over your own documents. Offline by default.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@functools.cache
def registered_app() -> typer.Typer:
    """The app with every module's commands added (once, however often it is asked for)."""
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"{__name__}.{module.name}")
        register = getattr(mod, "register", None)
        if register is not None:
            register(app)
    return app


def main() -> None:
    """Entry point: user-facing errors become one line on stderr and exit code 1; a mistyped command line shows its
    usage and exits 2."""
    try:
        code = registered_app()(standalone_mode=False, prog_name="kgrag")  # "kgrag", also under python -m
        if isinstance(code, int) and code:
            sys.exit(code)
    except KgragError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("interrupted: finished work is saved; run the same command again to continue", err=True)
        sys.exit(130)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except SystemExit:
        raise
    except typer.Abort:
        sys.exit(1)
    except Exception as exc:
        if _is_usage_error(exc):
            exc.show()  # type: ignore[attr-defined]
            hint = _documents_hint(sys.argv[1:])
            if hint:
                typer.echo(hint, err=True)
            sys.exit(exc.exit_code)  # type: ignore[attr-defined]
        raise


def _documents_hint(args: list[str]) -> str:
    """"kgrag index ./docs": a folder or file of documents given to `index`, which runs the stages after ingestion;
    documents are added with `kgrag add`."""
    paths = [a for before, a in zip(args, args[1:], strict=False)  # not an option's value ("--index ./idx")
             if not a.startswith("-") and not before.startswith("-") and Path(a).exists()]
    if args[:1] != ["index"] or not paths:
        return ""
    return f"hint: documents are added with `kgrag add {paths[0]} --index DIR`; `kgrag index --index DIR` then builds the graphs"


def _is_usage_error(exc: Exception) -> bool:
    """A click-style error (bad option, extra argument …) that shows itself: recognised by its interface, as typer
    0.12 raises click's classes and newer typer its own copy of them (`typer._click`), not subclasses of click's."""
    return callable(getattr(exc, "show", None)) and isinstance(getattr(exc, "exit_code", None), int)
