"""`kgrag verify`: a digest of an index's logical content plus internal consistency checks."""

from __future__ import annotations

from pathlib import Path

import typer

from kgrag.cli.common import IndexOption, JsonOption, console, err_console, print_json
from kgrag.index import Index


def register(app: typer.Typer) -> None:
    @app.command()
    def verify(
        index: Path = IndexOption,
        json_out: bool = JsonOption,
        expect: str = typer.Option("", "--expect", help="Fail unless the digest equals this one."),
    ) -> None:
        """Print a content digest two runs can compare; exit 1 listing problems if the index is inconsistent."""
        from kgrag.verify import verify_store

        idx = Index.open(index)
        report = verify_store(idx.store)
        mismatch = bool(expect) and expect != report.digest
        if json_out:
            print_json({**report.to_dict(), "expected": expect or None, "matches": not mismatch})
        else:
            console.print(f"digest {report.digest}", highlight=False)
            for name, n in report.counts.items():
                console.print(f"{name:>12}: {n:>8}  {report.sections[name][:16]}", highlight=False)
            for problem in report.problems:
                err_console.print(f"problem: {problem}", highlight=False, markup=False)
            console.print("consistent" if report.ok else f"{len(report.problems)} problems")
            if mismatch:
                err_console.print(f"digest differs from the expected {expect}", highlight=False)
        if not report.ok or mismatch:
            raise typer.Exit(1)
