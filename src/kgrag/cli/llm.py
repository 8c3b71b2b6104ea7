"""`kgrag llm serve`: one local model behind an OpenAI-compatible endpoint, shared by every kgrag process."""

from __future__ import annotations

import typer

from kgrag.cli.common import command_group, err_console


def register(app: typer.Typer) -> None:
    group = command_group(app, "llm", "The local LLM: serve it once for every kgrag process")

    @group.command("serve")
    def serve(
        model: str = typer.Option("qwen2.5-coder-0.5b", "--model", "-m",
                                  help="qwen2.5-coder-0.5b | qwen2.5-coder-1.5b | path to a .gguf file."),
        quant: str = typer.Option("auto", "--quant",
                                  help="Weights of a registry model: auto (the faster one per model) | q4_0 | q8_0 | packaged."),
        host: str = typer.Option("127.0.0.1", help="Interface to bind; 0.0.0.0 exposes the model to the network."),
        port: int = typer.Option(8080, help="TCP port."),
        n_ctx: int = typer.Option(4096, "--n-ctx", help="Context window in tokens (like the n_ctx setting of an index)."),
        threads: int = typer.Option(1, "--threads", help="llama.cpp generation threads (1 is fastest on small shared CPUs)."),
        batch_threads: int = typer.Option(0, "--batch-threads",
                                          help="Prompt-processing threads; 0 = the CPUs available (at most 4)."),
        flash_attn: bool = typer.Option(True, "--flash-attn/--no-flash-attn",
                                        help="llama.cpp flash attention (reads the prompt ~15% faster on CPU)."),
        embeddings: bool = typer.Option(False, "--embeddings", help="Also serve /v1/embeddings from this model."),
        log_level: str = typer.Option("warning", help="uvicorn log level (debug, info, warning, error)."),
    ) -> None:
        """Serve the local model over the OpenAI API (llama-cpp-python's server) until interrupted."""
        from kgrag.models.llm_server import ServeConfig
        from kgrag.models.llm_server import serve as run_server

        if host not in ("127.0.0.1", "localhost", "::1"):
            err_console.print(f"[yellow]warning[/]: serving the model on {host}: anyone on the network can use it")
        config = ServeConfig(model=model, quant=quant, host=host, port=port, n_ctx=n_ctx, threads=threads,
                             batch_threads=batch_threads, flash_attn=flash_attn, embeddings=embeddings)
        run_server(config, log_level=log_level, announce=lambda line: typer.echo(line, err=True))
