"""`kgrag graph communities`: build the Leiden community hierarchy with profiles and summaries."""

from __future__ import annotations

from pathlib import Path

import typer

from kgrag.cli.common import IndexOption, JsonOption, QuietOption, command_group, console, print_json, progress_for
from kgrag.index import Index


def register(app: typer.Typer) -> None:
    graph = command_group(app, "graph", "Knowledge graph: build, resolve, inspect, export")

    @graph.command("communities")
    def communities(
        index: Path = IndexOption,
        summaries: bool = typer.Option(
            None, "--llm-summaries/--no-summaries", help="LLM summaries (estimate printed first) or extractive ones "
            "from the profiles (default: extractive with the local model, LLM with an openai endpoint)."
        ),
        levels: int = typer.Option(2, "--levels", help="Hierarchy depth (level 0 = coarsest)."),
        top_k: int = typer.Option(15, "--top-k", help="Similar entities linked per entity."),
        min_similarity: float = typer.Option(0.80, "--min-similarity", help="Cosine cutoff of similarity edges."),
        relation_weight: float = typer.Option(1.0, "--relation-weight", help="Edge weight of an extracted relation."),
        max_cluster_size: int = typer.Option(10, "--max-cluster-size", help="Larger communities are split again."),
        seed: int = typer.Option(None, "--seed", help="Leiden seed (default: graph.seed of the index)."),
        force: bool = typer.Option(False, "--force", help="Rebuild even if the graph did not change."),
        quiet: bool = QuietOption,
        json_out: bool = JsonOption,
    ) -> None:
        """Cluster entities into hierarchical Leiden communities and summarise them (summaries cached by profile)."""
        from kgrag.cli.index_run import say
        from kgrag.graph.communities import CommunityParams
        from kgrag.graph.community_build import Prepared, build_communities, summaries_wanted
        from kgrag.plan import format_cost, summary_cost

        idx = Index.open(index)
        params = CommunityParams(
            top_k=top_k,
            min_similarity=min_similarity,
            relation_weight=relation_weight,
            levels=levels,
            max_cluster_size=max_cluster_size,
            seed=idx.settings.graph.seed if seed is None else seed,
        )
        def announce(prep: Prepared) -> None:
            say(f"LLM summaries of {len(prep.todo)} communities: {format_cost(summary_cost(idx, prep.todo_profiles()))}")

        wanted = summaries_wanted(idx) if summaries is None else summaries
        with idx.write_lock(), progress_for(quiet) as progress:
            report = build_communities(idx, params, summaries=wanted, force=force, progress=progress, announce=announce)
        if json_out:
            print_json(report.to_dict())
            return
        if report.skipped:
            console.print("communities are up to date (graph unchanged); use --force to rebuild")
            return
        levels_text = ", ".join(f"level {k}: {v}" for k, v in sorted((report.per_level or {}).items()))
        console.print(
            f"{report.entities} entities, {report.similarity_edges} similarity + {report.relation_edges} relation "
            f"edges → {levels_text or 'no communities'}; summaries: {report.summarised} new, {report.reused} reused "
            f"({report.llm_calls} LLM calls) in {report.seconds:.1f} s"
        )
