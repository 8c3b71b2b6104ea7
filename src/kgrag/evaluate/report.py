"""The Markdown evaluation report: one table overall, one per query type, indexing cost, graph quality."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kgrag.store.base import Store

# (summary key, column title, format) in table order; columns missing from every row are left out.
COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("n", "n", "{:.0f}"),
    ("coverage", "Coverage", "{:.3f}"),
    ("gold_fact_recall", "Gold-fact recall", "{:.3f}"),
    ("context_tokens", "Context tokens", "{:.0f}"),
    ("latency_s", "Latency (ms)", "ms"),
    ("answer_fact_recall", "Answer fact recall", "{:.3f}"),
    ("exact_match", "EM", "{:.3f}"),
    ("f1", "F1", "{:.3f}"),
    ("relevance", "Relevance (1-5)", "{:.2f}"),
    ("completeness", "Completeness (1-5)", "{:.2f}"),
    ("TP", "TP", "{:.0f}"),
    ("PARTIAL", "PARTIAL", "{:.0f}"),
    ("FP", "FP", "{:.0f}"),
    ("FN", "FN", "{:.0f}"),
    ("precision", "Precision", "{:.3f}"),
    ("hard_recall", "Hard recall", "{:.3f}"),
    ("faithfulness", "Faithfulness", "{:.3f}"),
    ("helpfulness", "Helpfulness (gated)", "{:.2f}"),
    ("wrong_product", "Wrong product", "{:.3f}"),
    ("wrong_verdict", "Wrong yes/no", "{:.3f}"),
    ("cited_support", "Cited support", "{:.3f}"),
    ("refused_unanswerable", "Refused (not in docs)", "{:.3f}"),
    ("answer_p50_s", "Answer p50 (s)", "{:.1f}"),
    ("answer_p95_s", "Answer p95 (s)", "{:.1f}"),
)


def _cell(value: Any, fmt: str) -> str:
    if value is None:
        return "–"
    if fmt == "ms":
        return f"{1000 * value:.0f}"
    return fmt.format(value)


def metrics_table(rows: dict[str, dict[str, Any]]) -> str:
    """A Markdown table with one row per strategy (in the given order)."""
    cols = [c for c in COLUMNS if any(c[0] in r for r in rows.values())]
    lines = ["| Strategy | " + " | ".join(c[1] for c in cols) + " |", "|---|" + "---:|" * len(cols)]
    for name, row in rows.items():
        lines.append(f"| {name} | " + " | ".join(_cell(row.get(k), f) for k, _, f in cols) + " |")
    return "\n".join(lines)


def graph_quality(store: Store) -> dict[str, Any]:
    """`kgrag graph stats` figures (graph/export.py graph_stats) plus the community count and top-type share."""
    from kgrag.graph.export import graph_stats

    stats = graph_stats(store, top=5)
    top = stats["top_relation_types"]
    stats["top_type_share"] = (top[0][1] / stats["edges"]) if top and stats["edges"] else 0.0
    stats["communities"] = store.count("communities")
    return stats


def indexing_cost(store: Store) -> list[dict[str, Any]]:
    """LLM usage per stage and model from the index's accounting, plus recorded stage wall times."""
    rows = [dict(r) for r in store.usage()]
    from kgrag.stages import all_stages

    for stage in all_stages():
        seconds = store.get_meta(f"stage_seconds:{stage.name}")
        if seconds and not any(r["stage"] == stage.name for r in rows):
            rows.append({"stage": stage.name, "model": "-", "calls": 0, "prompt_tokens": 0,
                         "completion_tokens": 0, "seconds": float(seconds), "usd": 0.0})
    return rows


def render_report(
    summaries: dict[str, Any],
    *,
    title: str = "kgrag evaluation",
    setup: dict[str, Any] | None = None,
    cost: Sequence[dict[str, Any]] = (),
    quality: dict[str, Any] | None = None,
    plots: Sequence[str] = (),
) -> str:
    """The whole report as Markdown."""
    out = [f"# {title}", ""]
    for key, value in (setup or {}).items():
        out.append(f"- **{key}**: {value}")
    out += ["", "## Overall", "", metrics_table(summaries["overall"]), ""]
    if summaries["by_type"]:
        out += ["## By query type", ""]
        for qtype, rows in summaries["by_type"].items():
            out += [f"### {qtype}", "", metrics_table(rows), ""]
    if cost:
        out += ["## Indexing cost per stage", "", "| Stage | Model | Calls | Prompt tokens | Completion tokens "
                "| Seconds | USD |", "|---|---|---:|---:|---:|---:|---:|"]
        out += [
            f"| {r['stage']} | {r['model']} | {r['calls']} | {r['prompt_tokens']} | {r['completion_tokens']} "
            f"| {r['seconds']:.1f} | {r['usd']:.4f} |"
            for r in cost
        ]
        out.append("")
    if quality:
        spread = ", ".join(f"{t} ({n})" for t, n in quality["top_relation_types"]) or "–"
        out += [
            "## Graph quality",
            "",
            f"- entities: {quality['nodes']}, relations: {quality['edges']}, communities: {quality['communities']}",
            f"- duplicate candidates (entity resolution groups): {quality['duplicate_candidates']}",
            f"- orphan entities (no mention, no relation): {quality['orphans']}; "
            f"isolated (no relation): {quality['isolated']}",
            f"- relation types: {quality['relation_types']}; most frequent: {spread}; "
            f"top type share {quality['top_type_share']:.2f}",
            "",
        ]
    if summaries.get("errors"):
        out += ["## Strategies with errors", ""]
        out += [f"- {s}: {'; '.join(e[:3])}" for s, e in summaries["errors"].items()]
        out.append("")
    if plots:
        out += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    return "\n".join(out)
