"""The map of a run's findings: every evaluated article placed by t-SNE on its vector, sources
coloured by error cluster, the others in grey, darker the more answers were wrong; for a simulated testee a
second panel colours the same points by planted blind-spot region."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.manifold import TSNE

from sea.audit.figures import plt, png
from sea.findings.clusters import UNCLUSTERED

MIN_POINTS = 10  # fewer evaluated articles than this: no map


def layout(vectors: np.ndarray, seed: int) -> np.ndarray:
    """2-D positions for the rows of `vectors` (deterministic for a seed)."""
    perplexity = min(30.0, max(2.0, (len(vectors) - 1) / 3))
    return TSNE(2, perplexity=perplexity, metric="cosine", init="pca", random_state=seed).fit_transform(vectors)


def map_figure(panels: list[dict]) -> bytes:
    """panels: {title, xy (n×2), cluster (n; UNCLUSTERED for articles that are no source's),
    source (n bool), error_rate (n), region (n; -1 outside, or None)}."""
    columns = sum(2 if panel["region"] is not None else 1 for panel in panels)
    figure, axes = plt.subplots(1, columns, figsize=(6.2 * columns, 5.6), squeeze=False)
    axes = iter(axes[0])
    for panel in panels:
        _scatter(next(axes), panel, panel["cluster"], f"{panel['title']}: error clusters")
        if panel["region"] is not None:
            _scatter(next(axes), panel, panel["region"], f"{panel['title']}: planted blind spots")
    figure.tight_layout()
    return png(figure)


def _scatter(ax, panel: dict, colour_by: np.ndarray, title: str) -> None:
    xy, source = panel["xy"], panel["source"]
    ax.scatter(*xy[~source].T, s=5, c=panel["error_rate"][~source], cmap="Greys", vmin=-0.6, vmax=1.2,
               label="evaluated (darker: more wrong answers)")
    groups = colour_by != UNCLUSTERED
    unlabelled = source & ~groups
    ax.scatter(*xy[unlabelled].T, s=18, c="#555555", marker="x", linewidths=0.8, label="source, no group")
    palette = plt.get_cmap("tab20")
    for i, group in enumerate(sorted(set(colour_by[source & groups].tolist()))):
        members = source & (colour_by == group)
        ax.scatter(*xy[members].T, s=22, color=palette(i % 20), edgecolors="black", linewidths=0.4)
        centre = xy[members][np.argmin(((xy[members] - xy[members].mean(axis=0)) ** 2).sum(axis=1))]  # a member, not empty space
        ax.annotate(str(group), centre, fontsize=8, weight="bold", ha="center", va="bottom")
    ax.set_title(title, fontsize=10)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.legend(loc="lower left", fontsize=7, frameon=False)


def panel(title: str, vectors: np.ndarray, documents: pd.DataFrame, seed: int) -> dict | None:
    """documents: one row per evaluated article (cluster, source, error_rate, region or None)."""
    if len(documents) < MIN_POINTS:
        return None
    region = documents["region"].to_numpy() if documents["region"].notna().all() else None
    return {"title": title, "xy": layout(vectors, seed), "cluster": documents["cluster"].to_numpy(),
            "source": documents["source"].to_numpy(bool), "error_rate": documents["error_rate"].to_numpy(float), "region": region}
