"""`kgrag graph build|estimate|resolve|stats|export`: knowledge graph construction and inspection."""

from __future__ import annotations

from pathlib import Path

import typer

from kgrag.cli.common import (
    IndexOption,
    JsonOption,
    QuietOption,
    command_group,
    console,
    err_console,
    print_json,
    progress_for,
)
from kgrag.index import Index

ExtractorOption = typer.Option(None, "--extractor", "-e", help="llm | llm-typed | llm-paths | rules (default: graph.extractor).")
BudgetOption = typer.Option(None, "--budget", help="Share of chunks to extract from (core chunks, 0-1).")
TypesOption = typer.Option(None, "--types", help='Entity types for llm-typed, e.g. "Board,Sensor,Interface".')


def register(app: typer.Typer) -> None:
    graph = command_group(app, "graph", "Knowledge graph: build, resolve, inspect, export")

    @graph.command("build")
    def build(
        index: Path = IndexOption,
        extractor: str = ExtractorOption,
        budget: float = BudgetOption,
        max_llm_tokens: float = typer.Option(None, "--max-llm-tokens", help="Stop cleanly after this many LLM tokens."),
        types: str = TypesOption,
        resolve: bool = typer.Option(True, "--resolve/--no-resolve", help="Merge duplicate entities afterwards."),
        quiet: bool = QuietOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Extract entities and relations from the chunks not done yet (resumable), merge them, embed entities."""
        from kgrag.errors import BudgetExceeded
        from kgrag.graph.build import build_graph, embed_entities
        from kgrag.graph.resolve import resolve_entities

        idx = Index.open(index)
        with idx.write_lock(), progress_for(quiet) as progress:
            try:
                report = build_graph(idx, extractor, budget=budget, max_llm_tokens=max_llm_tokens, types=types,
                                     progress=progress)
            except BudgetExceeded as exc:
                report = exc.report  # type: ignore[attr-defined]
                err_console.print(f"[yellow]{exc}[/]")
            resolved = resolve_entities(idx.store) if resolve else None
            if resolved is not None and resolved.kept_ids:
                embed_entities(idx, set(resolved.kept_ids))
        if json_out:
            print_json({"build": report.to_dict(), "resolve": resolved.to_dict() if resolved else None})
            return
        console.print(
            f"{report.extractor}: {report.processed} chunks extracted ({report.already_done} done before, "
            f"{report.failed} failed, {report.empty} empty) in {report.seconds:.1f} s; "
            f"{report.entities} entity and {report.relations} relation mentions"
            + (f"; LLM {report.llm_calls} calls, {report.prompt_tokens}+{report.completion_tokens} tokens"
               if report.llm_calls else "")
        )
        if resolved is not None:
            console.print(f"resolution: {resolved.entities_before} → {resolved.entities_after} entities "
                          f"({len(resolved.merges)} merges)")
        for note in report.notes:
            err_console.print(f"[yellow]{note}[/]")
        if report.failed:
            err_console.print(f"{report.failed} chunks failed; they are retried on the next run (`kgrag status`)")
        if report.stopped:
            raise typer.Exit(2)

    @graph.command("estimate")
    def estimate(
        index: Path = IndexOption,
        extractor: str = typer.Option("llm", "--extractor", "-e", help="llm | llm-typed | llm-paths."),
        budget: float = BudgetOption,
        types: str = TypesOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Predict the LLM tokens, time and USD of a build before spending anything."""
        from kgrag.graph.estimate import estimate_build

        data = estimate_build(Index.open(index), extractor, budget=budget, types=types)
        if json_out:
            print_json(data)
            return
        for key, value in data.items():
            console.print(f"{key:>24}  {value}", highlight=False)

    @graph.command("resolve")
    def resolve(
        index: Path = IndexOption,
        llm: bool = typer.Option(False, "--llm", help="Ask the LLM which same-named candidates are one thing."),
        undo: int = typer.Option(None, "--undo", help="Undo the merge with this id."),
        list_merges: bool = typer.Option(False, "--list", help="List the merge log."),
        json_out: bool = JsonOption,
    ) -> None:
        """Merge duplicate entities (numeric-safe keys, type-compatible), list merges, or undo one."""
        from kgrag.graph.build import embed_entities
        from kgrag.graph.resolve import resolve_entities, undo_merge

        idx = Index.open(index)
        if list_merges:
            rows = [{k: v for k, v in m.items() if k != "snapshot"} for m in idx.store.merges()]
            if json_out:
                print_json(rows)
                return
            names = {e["entity_id"]: e["name"] for m in idx.store.merges() for e in m["snapshot"]["entities"]}
            for m in rows:
                merged = ", ".join(names.get(i, i) for i in m["merged_ids"])
                console.print(f"{m['merge_id']:>5}  {names.get(m['kept_id'], m['kept_id'])} ← {merged}  ({m['reason']})",
                              highlight=False, markup=False)
            return
        with idx.write_lock():
            if undo is not None:
                merge = undo_merge(idx.store, undo)
                embed_entities(idx, {merge["kept_id"], *merge["merged_ids"]})
                console.print(f"merge {undo} undone; {len(merge['merged_ids'])} entities restored")
                return
            report = resolve_entities(idx.store, idx.llm if llm else None)
            if report.kept_ids:
                embed_entities(idx, set(report.kept_ids))
        if json_out:
            print_json(report.to_dict())
            return
        console.print(f"{report.candidate_groups} candidate groups; {len(report.merges)} merges; entities "
                      f"{report.entities_before} → {report.entities_after} (undo with --undo MERGE_ID, see --list)")

    @graph.command("stats")
    def stats(index: Path = IndexOption, json_out: bool = JsonOption) -> None:
        """Nodes, edges, relation and entity types, duplicate candidates, orphans."""
        from kgrag.graph.export import graph_stats

        data = graph_stats(Index.open(index).store)
        if json_out:
            print_json(data)
            return
        for key, value in data.items():
            if isinstance(value, list):
                value = ", ".join(f"{k} ({n})" for k, n in value)
            console.print(f"{key:>22}  {value}", highlight=False, markup=False)

    @graph.command("export")
    def export(
        index: Path = IndexOption,
        fmt: str = typer.Option("graphml", "--format", "-f", help="graphml | turtle | jsonl."),
        out: Path = typer.Option(None, "--out", "-o", help="Output file (default: <index>/graph.<ext>)."),
    ) -> None:
        """Write the graph as GraphML, RDF Turtle or JSONL (with chunk provenance)."""
        from kgrag.graph.export import SUFFIX, export_graph

        idx = Index.open(index)
        path = export_graph(idx.store, fmt, out or idx.root / f"graph{SUFFIX.get(fmt, '')}")
        console.print(f"wrote {path}")
