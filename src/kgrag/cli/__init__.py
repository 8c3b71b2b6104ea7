"""The `kgrag` command line. Each module in this package adds its commands through `register(app)`."""

from __future__ import annotations

import functools
import importlib
import pkgutil
import sys

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
    """Entry point: user-facing errors become one line on stderr and exit code 1."""
    try:
        code = registered_app()(standalone_mode=False)
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
    except Exception as exc:  # click usage errors and the like
        import click

        if isinstance(exc, click.exceptions.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        if isinstance(exc, click.exceptions.Abort):
            sys.exit(1)
        raise
