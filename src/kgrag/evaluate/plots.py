"""PNG plots of an evaluation (matplotlib, Agg backend): metric by strategy, by query type, cost vs quality."""

from __future__ import annotations

from pathlib import Path
from typing import Any

QUALITY_ORDER = ("precision", "helpfulness", "f1", "coverage", "gold_fact_recall")  # first present wins
RETRIEVAL_METRICS = ("coverage", "gold_fact_recall")


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def quality_metric(overall: dict[str, dict[str, Any]]) -> str:
    """The headline quality metric available in every row (judge precision if judged, else coverage)."""
    for name in QUALITY_ORDER:
        if overall and all(name in row for row in overall.values()):
            return name
    return "coverage"


def plot_by_strategy(overall: dict[str, dict[str, Any]], path: Path) -> Path:
    """Grouped bars: retrieval metrics (and F1 when answers were scored) per strategy."""
    plt = _pyplot()
    names = list(overall)
    shown = [m for m in (*RETRIEVAL_METRICS, "f1", "precision") if any(m in r for r in overall.values())]
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(names) + 2), 4))
    width = 0.8 / max(1, len(shown))
    for j, metric in enumerate(shown):
        xs = [i + j * width for i in range(len(names))]
        ax.bar(xs, [overall[n].get(metric) or 0.0 for n in names], width, label=metric)
    ax.set_xticks([i + width * (len(shown) - 1) / 2 for i in range(len(names))], names, rotation=20, ha="right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("score")
    ax.set_title("Metrics by strategy")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_by_type(by_type: dict[str, dict[str, dict[str, Any]]], metric: str, path: Path) -> Path:
    """Grouped bars: `metric` per query type, one bar per strategy."""
    plt = _pyplot()
    types = list(by_type)
    strategies = sorted({s for rows in by_type.values() for s in rows})
    fig, ax = plt.subplots(figsize=(max(6, 1.4 * len(types) + 2), 4))
    width = 0.8 / max(1, len(strategies))
    for j, strategy in enumerate(strategies):
        xs = [i + j * width for i in range(len(types))]
        ax.bar(xs, [(by_type[t].get(strategy) or {}).get(metric) or 0.0 for t in types], width, label=strategy)
    ax.set_xticks([i + width * (len(strategies) - 1) / 2 for i in range(len(types))], types)
    ax.set_ylim(0, 1)
    ax.set_ylabel(metric)
    ax.set_title(f"{metric} by query type")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_cost_quality(overall: dict[str, dict[str, Any]], metric: str, path: Path) -> Path:
    """Scatter: mean query latency (cost) against the headline quality metric, one point per strategy."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, row in overall.items():
        x, y = 1000 * (row.get("latency_s") or 0.0), row.get(metric) or 0.0
        ax.scatter([x], [y])
        ax.annotate(name, (x, y), textcoords="offset points", xytext=(4, 4), fontsize=8)
    ax.set_xlabel("mean retrieval latency (ms)")
    ax.set_ylabel(metric)
    ax.set_title("Cost vs quality")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_plots(summaries: dict[str, Any], out_dir: Path) -> list[str]:
    """All plots into `out_dir`; returns their file names (for the report)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    overall = summaries["overall"]
    if not overall:
        return []
    metric = quality_metric(overall)
    files = [
        plot_by_strategy(overall, out_dir / "metrics_by_strategy.png"),
        plot_by_type(summaries["by_type"], metric, out_dir / f"{metric}_by_type.png"),
        plot_cost_quality(overall, metric, out_dir / "cost_vs_quality.png"),
    ]
    return [f.name for f in files]
