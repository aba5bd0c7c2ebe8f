"""Pictures of a run, drawn from its files: error curves per arm, the relation DAG, errors by category."""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
# Every text drawn here comes from data (titles, testee names, categories): a "$" in it is a dollar
# sign, not the start of mathtext, which fails on an unknown symbol and would fail the audit.
matplotlib.rcParams["text.parse_math"] = False
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from sea.audit.outputs import step_metrics  # noqa: E402
from sea.audit.rundir import PARAGRAPHS, ArmDir  # noqa: E402
from sea.search.arms import ARMS  # noqa: E402
from sea.search.state import SearchState  # noqa: E402


def png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(figure)
    return buffer.getvalue()


def curve_figure(curves: pd.DataFrame) -> bytes:
    """Cumulative error rate against questions asked, one line per arm, one panel per testee."""
    testees = list(dict.fromkeys(curves["testee"]))
    figure, axes = plt.subplots(1, len(testees), figsize=(6.5 * len(testees), 4), squeeze=False)
    for axis, testee in zip(axes[0], testees, strict=True):
        for arm, rows in curves[curves["testee"] == testee].groupby("arm", sort=False):
            axis.plot(rows["cumulative_questions"], rows["cumulative_error_rate"], marker="o", markersize=3,
                      label=arm, color=ARMS[arm].colour)
        axis.set(title=testee, xlabel="questions asked", ylabel="cumulative error rate")
        axis.grid(alpha=0.3)
        axis.legend()
    return png(figure)


def dag_figure(state: SearchState, title: str, titles: dict[int, str] | None = None, labelled: int = 12) -> bytes:
    """The relation DAG laid out by step: sources large, colour by error rate, edges from the
    sources to what they retrieved, pruned sources outlined; the `labelled` sources that led to
    the most paragraphs carry their titles. Paragraphs that neither retrieved nor were retrieved
    are left out so that the chains stand out."""
    graph = state.dag.graph
    linked = [n for n in graph if graph.degree(n) > 0]
    figure, axis = plt.subplots(figsize=(11, 6))
    if not linked:
        axis.text(0.5, 0.5, "no relations: no paragraph was retrieved by a source", ha="center", va="center")
        axis.set_axis_off()
        return png(figure)
    by_step: dict[int, list[int]] = {}
    for node in sorted(linked, key=lambda n: (graph.nodes[n]["error_rate"], n)):
        by_step.setdefault(graph.nodes[node]["step"], []).append(node)
    position = {node: (step, (i + 0.5) / len(nodes)) for step, nodes in by_step.items() for i, node in enumerate(nodes)}
    for source, target in graph.edges:
        (x0, y0), (x1, y1) = position[source], position[target]
        axis.plot([x0, x1], [y0, y1], color="#cccccc", linewidth=0.4, zorder=1)
    rates = [graph.nodes[n]["error_rate"] for n in linked]
    sizes = [70 if n in state.sources else 10 for n in linked]
    points = axis.scatter([position[n][0] for n in linked], [position[n][1] for n in linked], c=rates, s=sizes,
                          cmap="RdYlGn_r", vmin=0, vmax=1, zorder=2, linewidths=1.2,
                          edgecolors=["black" if n in state.pruned_sources else "none" for n in linked])
    leading = sorted((n for n in linked if n in state.sources), key=lambda n: (-graph.out_degree(n), n))[:labelled]
    for node in leading if titles else []:
        x, y = position[node]
        axis.annotate(titles.get(node, str(node))[:28], (x, y), xytext=(6, 4), textcoords="offset points", fontsize=7, zorder=3,
                      bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "#999999", "alpha": 0.85},
                      arrowprops={"arrowstyle": "-", "color": "#666666", "linewidth": 0.5})
    figure.colorbar(points, ax=axis, label="paragraph error rate")
    axis.set(title=title + " (large: sources; outlined: pruned)", xlabel="step")
    axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    axis.set_yticks([])
    return png(figure)


def category_figure(table: pd.DataFrame) -> bytes:
    """Mean error rate per category, one bar group per arm."""
    pivot = table.pivot_table(index="category", columns="arm", values="mean_error_rate")
    figure, axis = plt.subplots(figsize=(9, 0.35 * len(pivot) + 1.5))
    pivot.plot.barh(ax=axis, color=[ARMS[arm].colour for arm in pivot.columns])
    axis.legend(title="arm", loc="upper left", bbox_to_anchor=(1.01, 1))  # beside the bars, never over one
    axis.set(xlabel="mean error rate of evaluated paragraphs", ylabel="")
    axis.grid(alpha=0.3, axis="x")
    return png(figure)


def arm_figures(arm: ArmDir) -> list[Path]:
    """dag.png and curve.png in the arm's directory (logged to MLflow with its tables)."""
    state = arm.load_state()
    metrics = pd.DataFrame(step_metrics(arm))
    paths = [arm.root / "dag.png", arm.root / "curve.png"]
    paragraphs = arm.root / PARAGRAPHS
    titles = pd.read_parquet(paragraphs, columns=["para_id", "title"]).set_index("para_id")["title"].to_dict() if paragraphs.is_file() else None
    paths[0].write_bytes(dag_figure(state, arm.label, titles))
    if not metrics.empty:
        paths[1].write_bytes(curve_figure(metrics.assign(testee=arm.testee, arm=arm.arm)))
    return [p for p in paths if p.is_file()]
