"""`kgrag index`: the stages in order, LLM estimates shown before any call, an LLM budget, per-stage costs recorded.

A stage stopped by the budget (--max-llm-tokens / --max-minutes) saves its work; the run ends with exit
code 3 and the same command continues later. Each stage's wall time, CPU seconds, items and peak RSS are
stored (plan.record_stage) and shown by `kgrag stats`.
"""

from __future__ import annotations

import resource
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from kgrag.cli.common import console, err_console, progress_for
from kgrag.errors import BudgetExceeded
from kgrag.models.usage import llm_deadline
from kgrag.progress import CountingProgress

if TYPE_CHECKING:
    from kgrag.index import Index
    from kgrag.stages import Stage

EXIT_BUDGET = 3
EXTRACTION_STAGES = ("graph", "skeleton")  # their estimate is printed before they start; communities prints its own


@dataclass
class IndexOptions:
    """What `kgrag index` was asked for; None keeps the index's settings."""

    wanted: set[str] | None = None
    retry_failed: bool = False
    extractor: str | None = None
    llm_summaries: bool | None = None
    max_llm_tokens: int | None = None
    max_minutes: float | None = None


def apply_options(idx: Index, opts: IndexOptions) -> None:
    """Command-line choices override the index's settings for this run (before the LLM is loaded)."""
    g = idx.settings.graph
    if opts.extractor:
        g.extractor = opts.extractor
    if opts.llm_summaries is not None:
        g.llm_summaries = opts.llm_summaries
    if opts.max_llm_tokens is not None:
        g.max_llm_tokens = int(opts.max_llm_tokens)
    if opts.max_minutes is not None:
        g.max_minutes = float(opts.max_minutes)


def selected_stages(opts: IndexOptions) -> list[Stage]:
    """The default stages, or the wanted ones, in order; unknown names are a usage error."""
    from kgrag.stages import all_stages

    known = all_stages()
    unknown = (opts.wanted or set()) - {s.name for s in known}
    if unknown:
        raise typer.BadParameter(f"unknown stage(s) {sorted(unknown)}; known: {[s.name for s in known]}")
    return [s for s in known if (s.name in opts.wanted if opts.wanted else s.default)]


def say(text: str) -> None:
    """Messages that must be seen even with --quiet (LLM estimates, budget stops), on stderr."""
    err_console.print(text, markup=False, highlight=False, soft_wrap=True)


def budget_text(idx: Index) -> str:
    g = idx.settings.graph
    parts = [f"--max-llm-tokens {g.max_llm_tokens:,}" if g.max_llm_tokens else "",
             f"--max-minutes {g.max_minutes:g}" if g.max_minutes else ""]
    limits = " and ".join(p for p in parts if p)
    return f"within {limits}" if limits else "no budget set (--max-llm-tokens / --max-minutes)"


def print_plan(idx: Index, opts: IndexOptions) -> None:
    """`kgrag index --plan`: every stage that would run, its items and estimates; changes nothing."""
    from kgrag.plan import format_plan, plan_stage

    plans = [plan_stage(idx, s) for s in selected_stages(opts)]
    for line in format_plan(plans):
        console.print(line, markup=False, highlight=False)
    console.print(f"LLM budget: {budget_text(idx)}", markup=False, highlight=False)


def _announce_extraction(idx: Index, stage: Stage) -> None:
    from kgrag.plan import format_cost, plan_stage

    plan = plan_stage(idx, stage)
    if plan.llm and plan.llm["calls"]:
        say(f"{stage.name}: LLM extraction of {plan.todo} chunks: {format_cost(plan.llm)}; {budget_text(idx)}")


def _usage() -> tuple[float, int]:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def compact_index(idx: Index) -> None:
    """After a complete index run: empty the embedding cache (the index stores every vector it needs,
    sentence vectors included) and rewrite the store file without free pages (SQLite VACUUM)."""
    clear = getattr(idx.embedder, "clear", None)
    if callable(clear):
        clear()
    compact = getattr(idx.store, "compact", None)
    if callable(compact):
        compact()


def run_index(idx: Index, quiet: bool, opts: IndexOptions) -> int:
    """Run the stages under the write lock within the LLM budget; 0 when all finished, 3 at a budget stop."""
    from kgrag.indexing import INGEST_STAGE, STALE_KEY
    from kgrag.plan import record_stage

    apply_options(idx, opts)
    stages = selected_stages(opts)
    with idx.write_lock(), progress_for(quiet) as bar, llm_deadline(idx.settings.graph.max_minutes * 60):
        if opts.retry_failed:  # progress stage names differ from stage names (graph + skeleton share 'graph')
            for f in idx.store.failures():
                if f["stage"] != INGEST_STAGE:  # failed files are retried by `kgrag add`
                    idx.store.clear_progress(f["stage"], [f["item"]])
        for stage in stages:
            console.print(f"[bold]stage[/] {stage.name}: {stage.description}")
            if stage.name in EXTRACTION_STAGES:
                _announce_extraction(idx, stage)
            progress = CountingProgress(bar, say)
            cpu0, _ = _usage()
            start, status = time.perf_counter(), "done"
            try:
                stage.run(idx, progress)
            except BudgetExceeded as exc:
                status = "budget"
                say(f"stopped at the LLM budget in stage {stage.name}: {exc}")
                say("finished work is saved; run the same command again to continue")
                return EXIT_BUDGET
            except BaseException:
                status = "failed"
                raise
            finally:
                for method in ("reclaim_space", "drop_vector_cache"):  # freed pages back to the file system;
                    release = getattr(idx.store, method, None)  # the next stage's memory not on top of this one's
                    if callable(release):
                        release()
                cpu1, peak_kb = _usage()
                record_stage(idx, stage.name, {"wall_s": round(time.perf_counter() - start, 2),
                                               "cpu_s": round(cpu1 - cpu0, 2), "items": progress.counts,
                                               "peak_rss_mb": round(peak_kb / 1024), "status": status,
                                               "finished_at": time.strftime("%Y-%m-%d %H:%M:%S")})
        if not opts.wanted:
            idx.store.set_meta(STALE_KEY, "0")
            compact_index(idx)
    failures = idx.store.failures()
    if failures:
        err_console.print(f"{len(failures)} failed items; see `kgrag status`, retry with --retry-failed")
    return 0
