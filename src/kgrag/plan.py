"""What `kgrag index` would do: items per stage, and the LLM cost (calls, tokens, minutes, USD) before any call.

Minutes come from this index's recorded LLM speed (any stage, same model) when there is some, else from
the defaults measured on our machines (graph/estimate.py). LLM-free stages are timed from their last
recorded run in this index (`kgrag stats`) when there is one.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kgrag.graph.estimate import DEFAULT_SPEED, MODES
from kgrag.models.usage import UsageLedger, estimate_prompt_tokens

if TYPE_CHECKING:
    from kgrag.stages import Stage
    from kgrag.workspace import Workspace

# CPU seconds per chunk of each LLM-free stage, MiniLM, measured by benchmarks/index_cost.py (MuSiQue,
# 1,000 paragraphs, shared machine: an idle one is faster); used until this index has timed its own run.
DEFAULT_SECONDS_PER_CHUNK = {"keywords": 0.0006, "knn": 0.0006, "core": 0.0007, "subchunks": 0.01,
                             "keyword-graph": 0.044, "graph": 0.24, "skeleton": 0.0034, "communities": 0.15}
SUMMARY_OUTPUT_TOKENS = 150  # expected tokens of one community summary until this index has its own history
STATS_KEY = "stage_stats"  # meta key: JSON {stage name: its last run} (written by cli/index_run.py)


@dataclass
class StagePlan:
    """One stage of the plan: items still to do (None: unknown), LLM estimate (None: no LLM), notes."""

    name: str
    description: str
    todo: int | None = None
    total: int | None = None
    seconds: tuple[float, str] | None = None  # predicted wall time of the LLM-free work, and its basis
    llm: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)


def _model_rows(index: Workspace) -> list[dict[str, Any]]:
    model = index.settings.llm.model
    return [r for r in index.store.usage() if r["calls"] and r["seconds"] > 0 and (model in r["model"] or r["model"] in model)]


def llm_cost(index: Workspace, calls: int, prompt_tokens: int, completion_tokens: int) -> dict[str, Any]:
    """Calls and tokens priced and timed: seconds from this index's measured speed (else defaults), USD."""
    settings = index.settings.llm
    rows = _model_rows(index)
    tokens = sum(r["prompt_tokens"] + r["completion_tokens"] for r in rows)
    if rows and sum(r["calls"] for r in rows) >= 3:
        seconds = (prompt_tokens + completion_tokens) * sum(r["seconds"] for r in rows) / max(tokens, 1)
        basis = "speed measured in this index"
    else:
        pps, gps = DEFAULT_SPEED.get(settings.provider, DEFAULT_SPEED["openai"])
        seconds = prompt_tokens / pps + completion_tokens / gps
        basis = "default speed for this provider"
    usd = UsageLedger(index.settings.prices).price(settings.model, prompt_tokens, completion_tokens)
    return {"model": f"{settings.provider}:{settings.model}", "calls": calls, "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens,
            "seconds": round(seconds, 1), "usd": round(usd, 4), "basis": basis}


def summary_cost(index: Workspace, profiles: list[dict[str, Any]]) -> dict[str, Any]:
    """The cost of one LLM summary per profile (prompt counted exactly, output from history or a default)."""
    from kgrag.graph.community_profiles import summary_messages

    history = [r for r in index.store.usage() if r["stage"] == "communities" and r["calls"]]
    calls = sum(r["calls"] for r in history)
    per_call = sum(r["completion_tokens"] for r in history) / calls if calls >= 3 else SUMMARY_OUTPUT_TOKENS
    prompt = sum(estimate_prompt_tokens(summary_messages(p)) for p in profiles)
    return llm_cost(index, len(profiles), prompt, int(per_call * len(profiles)))


def format_cost(cost: dict[str, Any]) -> str:
    """One line: calls, tokens, minutes on this machine, USD."""
    return (f"{cost['calls']} LLM calls to {cost['model']}, {cost['prompt_tokens']:,}+{cost['completion_tokens']:,} "
            f"tokens, ~{cost['seconds'] / 60:.1f} min here ({cost['basis']}), ${cost['usd']:.4f}")


def _extraction(index: Workspace, plan: StagePlan, budget: float | None) -> None:
    """Chunks still to extract and their LLM cost; the core share (skeleton) is read, never computed here."""
    from kgrag.graph.build import STAGE
    from kgrag.graph.core import core_count, load_core
    from kgrag.graph.estimate import estimate_build

    extractor = index.settings.graph.extractor
    ids = index.store.chunk_ids()
    prefix = f"{extractor}:"
    done = {k[len(prefix):] for k in index.store.done_keys(STAGE) if k.startswith(prefix)}
    todo_all = sum(1 for c in ids if c not in done)
    share = 1.0
    if budget is None:
        plan.total, plan.todo = len(ids), todo_all
    else:
        core = load_core(index)
        plan.total = len(core) if core is not None else core_count(len(ids), budget)
        plan.todo = sum(1 for c in core if c not in done) if core is not None else min(plan.total, todo_all)
        share = plan.todo / todo_all if todo_all else 0.0
    if extractor in MODES:
        est = estimate_build(index, extractor)  # every chunk not yet extracted, scaled to the core share
        plan.llm = llm_cost(index, round(est["calls"] * share), round(est["prompt_tokens"] * share),
                            round(est["completion_tokens"] * share))
    else:
        plan.notes.append(f"extractor {extractor}: no LLM")


def _communities(index: Workspace, plan: StagePlan) -> None:
    from kgrag.graph.community_build import prepare_communities, summaries_wanted

    plan.total = index.store.count("entities")
    if not summaries_wanted(index):
        plan.notes.append("extractive summaries from the community profiles, no LLM (--llm-summaries to change)")
        return
    if not plan.total:
        plan.notes.append("LLM summaries: counted once the graph exists; printed again before the first call")
        return
    prep = prepare_communities(index, summaries=True, embed=False)
    profiles = prep.todo_profiles() if prep is not None else []
    plan.todo = len(profiles)
    plan.llm = summary_cost(index, profiles)
    plan.notes.append("LLM summaries counted on the current graph (the graph stages may change it)")


def _progress_keys(index: Workspace, stage: str) -> tuple[int, int]:
    total = index.store.count("chunks")
    return total - len(index.store.done_keys(stage) & set(index.store.chunk_ids())), total


def plan_stage(index: Workspace, stage: Stage) -> StagePlan:
    """Items to do and the LLM estimate of one stage (unknown stages: counts only when they say so)."""
    plan = StagePlan(stage.name, stage.description)
    chunk_stages = {"keywords": "ket.keywords", "subchunks": "ket.subchunks", "keyword-graph": "ket.kwgraph"}
    if stage.name in chunk_stages:
        plan.todo, plan.total = _progress_keys(index, chunk_stages[stage.name])
    elif stage.name in {"knn", "core"}:
        plan.todo = plan.total = index.store.count("chunks")
    elif stage.name == "graph":
        _extraction(index, plan, None)
    elif stage.name == "skeleton":
        beta = index.settings.graph.beta
        if beta <= 0:
            plan.todo = plan.total = 0
        else:
            _extraction(index, plan, beta)
            plan.notes.append("core chunks the graph stage already extracted are skipped")
    elif stage.name == "communities":
        _communities(index, plan)
    plan.seconds = _predicted_seconds(index, stage.name, plan.todo)
    return plan


def stage_stats(index: Workspace) -> dict[str, dict[str, Any]]:
    """The last recorded run of every stage: wall and CPU seconds, items per progress task, when."""
    try:
        data = json.loads(index.store.get_meta(STATS_KEY) or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def record_stage(index: Workspace, name: str, run: dict[str, Any]) -> None:
    """Store one stage's run (wall_s, cpu_s, items, ...) under the stats key, replacing its previous run."""
    data = stage_stats(index)
    data[name] = run
    index.store.set_meta(STATS_KEY, json.dumps(data, sort_keys=True))


def _predicted_seconds(index: Workspace, name: str, todo: int | None) -> tuple[float, str] | None:
    """Seconds for `todo` items: from this index's last run of the stage, else the measured default rate."""
    if todo is None:
        return None
    last = stage_stats(index).get(name)
    items = max(last.get("items", {}).values(), default=0) if last else 0
    if last and items:
        return math.ceil(last["wall_s"] * todo / items), "last run here"
    if name in DEFAULT_SECONDS_PER_CHUNK:
        per_chunk = todo if name not in {"communities"} else index.store.count("chunks")
        return math.ceil(DEFAULT_SECONDS_PER_CHUNK[name] * per_chunk), "default rate"
    return None


def format_plan(plans: list[StagePlan]) -> list[str]:
    """Readable lines, one per stage plus its notes, then the LLM total."""
    lines = []
    calls = tokens = seconds = usd = 0.0
    for p in plans:
        items = "?" if p.todo is None else f"{p.todo:,}" + ("" if p.total is None else f" of {p.total:,}")
        when = "" if p.seconds is None else f", ~{p.seconds[0] / 60:.1f} min ({p.seconds[1]})"
        lines.append(f"{p.name:<14} items to do: {items}{when}")
        if p.llm:
            lines.append(f"{'':<14} LLM: {format_cost(p.llm)}")
            calls += p.llm["calls"]
            tokens += p.llm["total_tokens"]
            seconds += p.llm["seconds"]
            usd += p.llm["usd"]
        lines += [f"{'':<14} {n}" for n in p.notes]
    lines.append(f"LLM total: {int(calls)} calls, {int(tokens):,} tokens, ~{seconds / 60:.1f} min, ${usd:.4f}"
                 if calls else "LLM total: none (this run makes no LLM call)")
    return lines
