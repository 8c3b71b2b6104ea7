"""Core commands: init, add, remove, documents, search, ask, stats, strategies, status, demo."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import typer

from kgrag.cli.common import (
    BudgetOption,
    IndexOption,
    JsonOption,
    QuietOption,
    StrategyOption,
    VersionOption,
    console,
    print_json,
    progress_for,
)
from kgrag.index import Index
from kgrag.indexing import AddReport
from kgrag.types import Answer, Context, Document

DEMO_QUESTION = "What is the pressure range of the Zephyr Nano's barometer?"


def print_document_details(idx: Index, docs: list[Document], json_out: bool) -> None:
    """`kgrag documents --details`: what each document yielded, then the files that could not be indexed."""
    from kgrag.indexing import INGEST_STAGE
    from kgrag.ingest.details import document_details, format_details

    failed = idx.store.failures(INGEST_STAGE)
    if json_out:
        print_json({"documents": [{**d.__dict__, "details": document_details(d)} for d in docs],
                    "failed": [{"path": f["item"], "reason": f["reason"]} for f in failed]})
        return
    for d in docs:
        info = document_details(d)
        console.print(f"{d.path}  [dim]{d.doc_id}[/]\n    {format_details(info)}")
        for warning in info["warnings"]:
            console.print(f"    [yellow]warning:[/] {warning}")
    for f in failed:
        console.print(f"{f['item']}\n    [red]not indexed:[/] {f['reason']}")
    console.print(f"[dim]{len(docs)} documents, {len(failed)} files not indexed[/]")


def print_context(context: Context) -> None:
    console.print(
        f"[bold]{context.strategy}[/] · {len(context.items)} items · {context.tokens}/{context.budget} tokens"
    )
    for n, item in enumerate(context.items, 1):
        src = item.source
        where = " · ".join(
            str(x)
            for x in (src.get("path"), f"p. {src['page_start']}" if src.get("page_start") else "", src.get("section"))
            if x
        )
        console.print(f"\n[cyan][{n}][/] {item.kind} score={item.score:.3f} {where} [dim]{item.chunk_id or ''}[/]")
        console.print(item.text, markup=False, highlight=False)


def print_answer(answer: Answer) -> None:
    console.print(answer.text, markup=False, highlight=False)
    if answer.citations:
        console.print("\n[bold]Sources[/]")
    for c in answer.citations:
        where = ", ".join(x for x in (c.title or c.document, f"version {c.version}" if c.version else "",
                                      f"p. {c.page}" if c.page else "", c.section) if x)
        console.print(f"[cyan][{c.n}][/] {where} [dim]({c.document}, chunk {c.chunk_id})[/]", highlight=False)
        if c.quote:
            console.print(f'    "{c.quote}"', markup=False, highlight=False)


def _add(index: Index, paths: list[Path], quiet: bool, version: str | None = None) -> AddReport:
    with progress_for(quiet) as progress:
        report = index.add(paths, progress=progress, version=version)
    for err in report.errors:
        typer.echo(f"skipped {err.path}: {err.reason}", err=True)
    reread = f" ({report.reread} read again by this version's parser)" if report.reread else ""
    console.print(
        f"added {report.added}, replaced {report.replaced}, unchanged {report.unchanged} documents{reread}; "
        f"{report.chunks} chunks; {len(report.errors)} errors"
    )
    return report


def _demo_graph(idx: Index) -> None:
    """The LLM-free datasheet graph of the demo index (seconds), so answers and the web page show their subgraph."""
    from kgrag.graph.build import build_graph, embed_entities
    from kgrag.graph.resolve import resolve_entities

    with idx.write_lock():
        report = build_graph(idx, "datasheet")
        resolved = resolve_entities(idx.store)
        if resolved.kept_ids:
            embed_entities(idx, set(resolved.kept_ids))
    console.print(f"graph: {idx.store.count('entities')} entities, {idx.store.count('relations')} relations "
                  f"({report.seconds:.1f} s, no LLM)")


def run_stages(idx: Index, quiet: bool, wanted: set[str] | None = None, retry_failed: bool = False) -> int:
    """Run the indexing stages (all default ones, or `wanted`) under the write lock; resumable (cli/index_run)."""
    from kgrag.cli.index_run import IndexOptions, run_index

    return run_index(idx, quiet, IndexOptions(wanted=wanted or None, retry_failed=retry_failed))


def register(app: typer.Typer) -> None:
    @app.command()
    def init(
        path: Path = typer.Argument(..., help="Index folder to create."),
        backend: str = typer.Option("", help="Server backend URL (default: embedded SQLite in the folder)."),
    ) -> None:
        """Create an index folder with a default kgrag.toml."""
        index = Index.init(path, backend=backend)
        console.print(f"index ready at {index.root} (settings: {index.root / 'kgrag.toml'})")

    @app.command()
    def add(
        paths: list[Path] = typer.Argument(..., help="Files or folders (searched recursively)."),
        index: Path = IndexOption,
        version: str = typer.Option(None, "--version", help="Version metadata for the added documents (e.g. v2)."),
        reindex: bool = typer.Option(False, "--reindex", help="Run `kgrag index` right after (graph, communities)."),
        quiet: bool = QuietOption,
    ) -> None:
        """Index documents: PDF, DOCX, PPTX, XLSX, CSV, EML, MBOX, HTML, Markdown, text, pre-chunked JSONL. Unchanged
        files are skipped."""
        idx = Index.init(index) if not (index / "kgrag.toml").exists() else Index.open(index)
        with idx.write_lock():
            report = _add(idx, paths, quiet, version)
            if reindex and report.indexed:
                run_stages(idx, quiet)
        if report.indexed == 0 and report.unchanged == 0:
            raise typer.Exit(1)  # nothing could be indexed

    @app.command()
    def remove(
        doc: str = typer.Argument(..., help="Document id or path."),
        index: Path = IndexOption,
        reindex: bool = typer.Option(False, "--reindex", help="Recompute communities etc. now (`kgrag index`)."),
        quiet: bool = QuietOption,
    ) -> None:
        """Delete a document and everything derived only from it (shared graph items are refreshed)."""
        idx = Index.open(index)
        with idx.write_lock():
            removed = idx.remove(doc)
            console.print(f"removed {removed.path} ({removed.doc_id})")
            if reindex:
                run_stages(idx, quiet)

    @app.command()
    def documents(
        index: Path = IndexOption,
        json_out: bool = JsonOption,
        details: bool = typer.Option(False, "--details", help="Per document: pages, chunks, OCR pages, tables, warnings."),
    ) -> None:
        """List indexed documents."""
        idx = Index.open(index)
        docs = idx.store.list_documents()
        if details:
            print_document_details(idx, docs, json_out)
            return
        if json_out:
            print_json([d.__dict__ for d in docs])
            return
        for d in docs:
            console.print(f"{d.doc_id}  {d.path}  [dim]{d.product or ''} {d.category or ''} {d.version or ''}[/]")

    @app.command()
    def search(
        question: str,
        index: Path = IndexOption,
        strategy: str = StrategyOption,
        budget: int = BudgetOption,
        version: str = VersionOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Show the retrieved context only, with scores and provenance."""
        context = Index.open(index).search(question, strategy=strategy, budget=budget, version=version)
        print_json(context.to_dict()) if json_out else print_context(context)

    @app.command()
    def ask(
        question: str,
        index: Path = IndexOption,
        strategy: str = StrategyOption,
        budget: int = BudgetOption,
        version: str = VersionOption,
        json_out: bool = JsonOption,
        mode: str = typer.Option(None, "--mode", help="auto (quote explicit facts, else the LLM) | extractive "
                                 "(no LLM) | generative (always the LLM); default: answer.mode in kgrag.toml."),
    ) -> None:
        """Answer a question from the index, citing its sources inline as [1], [2], …"""
        answer = Index.open(index).ask(question, strategy=strategy, budget=budget, version=version, mode=mode)
        print_json(answer.to_dict()) if json_out else print_answer(answer)

    @app.command()
    def stats(index: Path = IndexOption, json_out: bool = JsonOption) -> None:
        """Counts of documents, chunks and graph items, and LLM usage per stage."""
        data = Index.open(index).stats()
        if json_out:
            print_json(data)
            return
        for name, n in data["counts"].items():
            console.print(f"{name:>12}: {n}")
        for row in data["llm_usage"]:
            console.print(
                f"llm {row['stage']:>10} {row['model']}: {row['calls']} calls, "
                f"{row['prompt_tokens']}+{row['completion_tokens']} tokens, {row['seconds']:.1f} s, ${row['usd']:.4f}"
            )
        for name, run in data.get("stages", {}).items():
            items = ", ".join(f"{k} {v:,}" for k, v in run.get("items", {}).items())
            console.print(f"stage {name:>13}: {run['wall_s']:.1f} s wall, {run['cpu_s']:.1f} s CPU, "
                          f"peak RSS {run.get('peak_rss_mb', '?')} MB, {run.get('status', '')}"
                          f"{'; ' + items if items else ''}", markup=False, highlight=False)
        if data["failures"]:
            console.print(f"[yellow]{data['failures']} failed items: see `kgrag status`[/]")

    @app.command("index")
    def index_cmd(
        index: Path = IndexOption,
        stages: str = typer.Option("", help="Comma-separated stage names (default: all default stages)."),
        retry_failed: bool = typer.Option(False, "--retry-failed", help="Retry items recorded as failed."),
        plan: bool = typer.Option(False, "--plan", help="Print the stages, their items and estimates; change nothing."),
        extractor: str = typer.Option(None, "--extractor", help="Graph extractor for this run: rules | llm | llm-typed | "
                                      "llm-paths (default: graph.extractor, rules)."),
        llm_summaries: bool = typer.Option(None, "--llm-summaries/--extractive-summaries",
                                           help="Community summaries by the LLM (default: extractive, no LLM, "
                                                "unless an openai endpoint is configured)."),
        max_llm_tokens: int = typer.Option(None, "--max-llm-tokens", help="Stop LLM work after this many tokens."),
        max_minutes: float = typer.Option(None, "--max-minutes", help="Start no LLM call after this many minutes."),
        quiet: bool = QuietOption,
    ) -> None:
        """Run the indexing stages after ingestion (keywords, graph, communities ...); resumable, LLM work budgeted.

        LLM work (only with --extractor llm*, --llm-summaries or an openai endpoint) is estimated and printed
        before it starts; at the budget the run stops with exit code 3 and the same command continues.
        """
        from kgrag.cli.index_run import IndexOptions, print_plan, run_index

        wanted = {s.strip() for s in stages.split(",") if s.strip()}
        opts = IndexOptions(wanted or None, retry_failed, extractor, llm_summaries, max_llm_tokens, max_minutes)
        idx = Index.open(index)
        if plan:
            from kgrag.cli.index_run import apply_options

            apply_options(idx, opts)
            print_plan(idx, opts)
            return
        code = run_index(idx, quiet, opts)
        if code:
            raise typer.Exit(code)

    @app.command()
    def status(index: Path = IndexOption, json_out: bool = JsonOption) -> None:
        """Failed items per stage with their reasons."""
        failures = Index.open(index).store.failures()
        if json_out:
            print_json(failures)
            return
        if not failures:
            console.print("no failed items")
        for f in failures:
            console.print(f"{f['stage']:>12}  {f['item']}: {f['reason']}", highlight=False, markup=False)

    @app.command()
    def strategies() -> None:
        """List the registered retrieval strategies."""
        from kgrag.retrieve.base import strategy_descriptions

        for name, doc in strategy_descriptions().items():
            console.print(f"[bold]{name:<18}[/] {doc}")

    @app.command()
    def demo(
        index: Path = typer.Option(Path("./demo-index"), "--index", "-i", help="Where to build the demo index."),
        question: str = typer.Option(DEMO_QUESTION, "--question", help="The question to ask."),
        strategy: str = typer.Option(None, "--strategy", "-s"),
        quiet: bool = QuietOption,
    ) -> None:
        """Index the bundled sample documents and answer a question about them."""
        samples = Path(str(resources.files("kgrag") / "samples"))
        docs = samples / "docs" if (samples / "docs").is_dir() else samples
        idx = Index.init(index)
        console.print(f"[bold]Indexing the sample documents[/] from {docs} into {idx.root}")
        _add(idx, [docs], quiet)
        _demo_graph(idx)
        console.print(f"\n[bold]Q:[/] {question}\n")
        print_answer(idx.ask(question, strategy=strategy))
