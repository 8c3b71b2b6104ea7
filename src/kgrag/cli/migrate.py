"""`kgrag migrate --from SRC --to DST`: copy an index between the embedded store and a server backend."""

from __future__ import annotations

import typer

from kgrag.cli.common import JsonOption, console, print_json


def register(app: typer.Typer) -> None:
    @app.command()
    def migrate(
        source: str = typer.Option(..., "--from", help="Index folder, or postgresql://...?schema=NAME."),
        destination: str = typer.Option(..., "--to", help="postgresql://... URL, or a new index folder."),
        batch: int = typer.Option(5000, help="Rows per batch (one transaction each)."),
        switch: bool = typer.Option(False, help="Afterwards point the source folder at the server copy (backend.url)."),
        json_out: bool = JsonOption,
    ) -> None:
        """Copy a whole index (documents, chunks, vectors, graph, progress, usage) and verify row counts."""
        from contextlib import ExitStack
        from pathlib import Path

        from kgrag.index import Index
        from kgrag.store.migrate import migrate as run

        with ExitStack() as locks:  # index folders at either end: no other writer during the copy
            for end in (source, destination):
                if "://" not in end and (Path(end) / "kgrag.toml").exists():
                    locks.enter_context(Index.open(end).write_lock())
            report = run(source, destination, batch=batch, switch=switch)
        if json_out:
            print_json(report.__dict__)
            return
        rows = ", ".join(f"{t} {n}" for t, n in report.counts.items() if n)
        console.print(
            f"copied {source} -> {report.destination} in {report.seconds:.1f}s ({rows}); counts verified",
            soft_wrap=True,
        )
        if "://" in report.destination and not switch:
            console.print(f"[dim]use it: kgrag init NEW_INDEX --backend '{report.destination}'[/]", soft_wrap=True)
