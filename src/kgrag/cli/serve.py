"""`kgrag serve`: the HTTP API and the web page over one index."""

from __future__ import annotations

from pathlib import Path

import typer

from kgrag.cli.common import IndexOption, err_console


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        index: Path = IndexOption,
        host: str = typer.Option("127.0.0.1", help="Interface to bind; 0.0.0.0 exposes the server to the network."),
        port: int = typer.Option(8000, help="TCP port."),
        api_key_file: Path = typer.Option(
            None, "--api-key-file", help="File holding an API key; every API call must then send header X-API-Key."
        ),
        max_upload_mb: float = typer.Option(50.0, "--max-upload-mb", help="Largest upload request, in MB."),
        log_level: str = typer.Option("info", help="uvicorn log level (debug, info, warning, error)."),
    ) -> None:
        """Serve the HTTP API (OpenAPI at /docs) and the web page at http://HOST:PORT/."""
        import uvicorn

        from kgrag.server.app import create_app
        from kgrag.server.security import read_api_key

        api_key = read_api_key(api_key_file) if api_key_file else None
        if host not in ("127.0.0.1", "localhost", "::1") and api_key is None:
            err_console.print(
                f"[yellow]warning[/]: serving on {host} without --api-key-file: anyone on the network can use it"
            )
        application = create_app(index, api_key=api_key, max_upload_bytes=int(max_upload_mb * 1024 * 1024))
        err_console.print(f"kgrag serving {index} at http://{host}:{port}/ (API docs: /docs)")
        uvicorn.run(application, host=host, port=port, log_level=log_level)
