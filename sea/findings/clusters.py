"""Error clusters: a testee's source paragraphs grouped by where they lie in the knowledge base,
and how well the groups recover known blind spots.

A cluster is the sources inside one article's neighbourhood: its `anchor_neighbours` nearest
articles in the index the search retrieves from. Anchors are taken greedily, each time the article
whose neighbourhood holds the most sources not yet clustered, until none holds `min_size`; the
sources left are unclustered. That is the search's own notion of "near" (it retrieves the nearest
articles of a source), needs no count of topics, and is deterministic. Clustering the sources'
vectors among themselves does not find blind spots that span several topics: on the default audit,
whose planted regions are the ~100 articles nearest a random article, average linkage reached
adjusted Rand 0.43 and no clustering tried (complete linkage, HDBSCAN, spectral, k-means told the
true count) passed 0.55, where anchors reach 0.94–0.97 with neighbourhoods of 100–200 articles
(0.72 at 75, 0.44 at 50: a neighbourhood smaller than a blind spot splits it; make bench-anchors,
reports/benchmarks/anchors.md)."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import adjusted_rand_score, homogeneity_completeness_v_measure

UNCLUSTERED = -1


def cluster_by_anchors(source_docs: np.ndarray, anchors: np.ndarray, neighbourhoods: np.ndarray,
                       min_size: int) -> tuple[np.ndarray, list[int]]:
    """A cluster id per source (its article's doc id in `source_docs`), largest cluster 0, and each
    cluster's anchor. `anchors` are candidate articles, `neighbourhoods` their nearest articles'
    doc ids (a row each); ties go to the candidate listed first. UNCLUSTERED for sources no anchor
    takes with at least min_size others."""
    labels = np.full(len(source_docs), UNCLUSTERED, dtype=np.int64)
    covers = np.array([np.isin(source_docs, row) for row in neighbourhoods], dtype=bool).reshape(len(anchors), len(source_docs))
    chosen: list[int] = []
    while len(covers):
        free = covers & (labels == UNCLUSTERED)
        counts = free.sum(axis=1)
        best = int(np.argmax(counts))
        if counts[best] < min_size:
            break
        labels[free[best]] = len(chosen)
        chosen.append(int(anchors[best]))
    return labels, chosen


def central_rows(vectors: np.ndarray, labels: np.ndarray, cluster: int) -> list[int]:
    """The cluster's rows, nearest its centroid first."""
    rows = np.flatnonzero(labels == cluster)
    centroid = vectors[rows].mean(axis=0)
    return rows[np.argsort(-(vectors[rows] @ centroid), kind="stable")].tolist()


def nearest_centroid(vectors: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Each row's nearest centroid by cosine similarity, as an index into `centroids`."""
    return np.argmax(vectors @ (centroids / np.linalg.norm(centroids, axis=1, keepdims=True)).T, axis=1)


def recovery(labels: np.ndarray, truth: np.ndarray) -> dict[str, float | int]:
    """Clusters against known groups (planted blind-spot regions), over the rows that have one:
    adjusted Rand index, homogeneity (each cluster holds one region; purity in spirit),
    completeness (each region lies in one cluster). Unclustered rows count as clusters of their own."""
    if len(labels) == 0:
        return {"rows": 0, "adjusted_rand": None, "homogeneity": None, "completeness": None}
    singletons = np.where(labels == UNCLUSTERED, -2 - np.arange(len(labels)), labels)
    homogeneity, completeness, _ = homogeneity_completeness_v_measure(truth, singletons)
    return {"rows": int(len(labels)), "adjusted_rand": float(adjusted_rand_score(truth, singletons)),
            "homogeneity": float(homogeneity), "completeness": float(completeness)}
