"""`kgrag db start|stop|status`: a local PostgreSQL + pgvector server for the scale-out backend."""

from __future__ import annotations

from pathlib import Path

import typer

from kgrag.cli.common import JsonOption, command_group, console, print_json

DataOption = typer.Option(
    None, "--data", help="Server data folder (default $KGRAG_PG_DATA or ~/.local/share/kgrag/pgdata)."
)
PortOption = typer.Option(5433, "--port", help="TCP port on 127.0.0.1.")


def _server(data: Path | None, port: int):  # noqa: ANN202 - imported lazily: the server extra is optional
    from kgrag.store.pgserver import PgServer, default_data_dir

    return PgServer((data or default_data_dir()).expanduser().resolve(), port=port)


def register(app: typer.Typer) -> None:
    db = command_group(app, "db", "Local database server for the scale-out backend (PostgreSQL + pgvector).")

    @db.command("start")
    def start(data: Path = DataOption, port: int = PortOption, json_out: bool = JsonOption) -> None:
        """Initialise (first time) and start the server on 127.0.0.1; prints the backend URL."""
        server = _server(data, port)
        url = server.start()
        if json_out:
            print_json(server.status())
            return
        console.print(f"PostgreSQL running (data {server.data}, log {server.log_file})")
        typer.echo(url)
        console.print(
            f"[dim]use it: kgrag init INDEX --backend {url}  (or kgrag migrate --from INDEX --to {url})[/]",
            soft_wrap=True,
        )

    @db.command("stop")
    def stop(data: Path = DataOption, port: int = PortOption) -> None:
        """Stop the server of this data folder (fast shutdown; data is kept)."""
        server = _server(data, port)
        console.print("stopped" if server.stop() else f"not running (data {server.data})")

    @db.command("status")
    def status(data: Path = DataOption, port: int = PortOption, json_out: bool = JsonOption) -> None:
        """Whether the server of this data folder runs, and its URL; exit code 1 when it does not."""
        info = _server(data, port).status()
        if json_out:
            print_json(info)
        elif info["running"]:
            console.print(f"running (pid {info['pid']}, data {info['data']})")
            typer.echo(info["url"])
        else:
            console.print(f"not running (data {info['data']})")
        if not info["running"]:
            raise SystemExit(1)  # for scripts: `kgrag db status || kgrag db start`
