"""Error clusters: a testee's source paragraphs grouped by topic, and how well the groups recover
known blind spots.

Sources are clustered by their articles' vectors (the ones the index, the search and the
simulated testee use) with average-linkage agglomerative clustering on cosine distance, cut at a
distance threshold. Not HDBSCAN: with a few hundred points in 384 dimensions its density
estimate merged the default audit's 300 sources into 2 clusters at min_cluster_size 5 and left
58% as noise at 3 (reports/findings.md). A cut at a fixed mean distance needs no count of topics,
is deterministic, and groups smaller than min_size are left unclustered, as HDBSCAN's noise would be."""

from __future__ import annotations

import numpy as np
from sklearn.cluster import AgglomerativeClustering
from sklearn.metrics import adjusted_rand_score, homogeneity_completeness_v_measure

UNCLUSTERED = -1


def cluster_sources(vectors: np.ndarray, distance_threshold: float, min_size: int) -> np.ndarray:
    """A cluster id per row of `vectors` (normalised), largest cluster 0; UNCLUSTERED for rows in
    groups smaller than min_size."""
    if len(vectors) < max(2, min_size):
        return np.full(len(vectors), UNCLUSTERED)
    labels = AgglomerativeClustering(n_clusters=None, distance_threshold=distance_threshold, metric="cosine",
                                     linkage="average").fit_predict(vectors)
    sizes = np.bincount(labels)
    first_row = {label: int(np.argmax(labels == label)) for label in range(len(sizes))}
    kept = sorted((label for label in range(len(sizes)) if sizes[label] >= min_size), key=lambda l: (-sizes[l], first_row[l]))
    renamed = {old: new for new, old in enumerate(kept)}
    return np.array([renamed.get(label, UNCLUSTERED) for label in labels], dtype=np.int64)


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
