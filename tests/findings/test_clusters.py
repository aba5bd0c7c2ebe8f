"""Error clusters on hand-made vectors: groups found without being told how many, small groups
left unclustered, and the recovery figures against known groups."""

import numpy as np

from sea.findings.clusters import UNCLUSTERED, central_rows, cluster_sources, nearest_centroid, recovery


def _around(centre: np.ndarray, count: int, spread: float, rng: np.random.Generator) -> np.ndarray:
    points = centre + spread * rng.normal(size=(count, len(centre)))
    return points / np.linalg.norm(points, axis=1, keepdims=True)


def test_three_topics_are_three_clusters_and_a_stray_is_unclustered():
    rng = np.random.default_rng(0)
    centres = np.eye(8)[:3]
    vectors = np.vstack([_around(centres[0], 9, 0.15, rng), _around(centres[1], 6, 0.15, rng),
                         _around(centres[2], 4, 0.15, rng), np.eye(8)[5:6]])
    labels = cluster_sources(vectors, distance_threshold=0.6, min_size=3)
    assert labels.tolist() == [0] * 9 + [1] * 6 + [2] * 4 + [UNCLUSTERED]  # largest first; the stray alone
    assert cluster_sources(vectors, distance_threshold=0.6, min_size=5).tolist() == [0] * 9 + [1] * 6 + [UNCLUSTERED] * 5
    assert cluster_sources(vectors[:2], 0.6, 3).tolist() == [UNCLUSTERED] * 2  # too few to cluster


def test_the_most_central_member_comes_first():
    vectors = np.array([[1.0, 0.0], [0.8, 0.6], [0.6, 0.8], [0.0, 1.0]])
    assert central_rows(vectors, np.array([0, 0, 0, 1]), 0)[0] == 1  # between the other two


def test_recovery_against_known_groups():
    truth = np.array([0, 0, 0, 1, 1, 1])
    assert recovery(np.array([5, 5, 5, 7, 7, 7]), truth)["adjusted_rand"] == 1.0
    split = recovery(np.array([0, 0, 1, 2, 2, 3]), truth)  # each cluster in one group, each group split
    assert split["homogeneity"] == 1.0 and split["completeness"] < 0.7 and split["adjusted_rand"] < 0.6
    merged = recovery(np.zeros(6, dtype=int), truth)
    assert merged["completeness"] == 1.0 and merged["homogeneity"] == 0.0
    alone = recovery(np.array([UNCLUSTERED] * 6), truth)  # unclustered rows are no cluster together
    assert alone["completeness"] < 0.5 and alone["adjusted_rand"] == 0.0


def test_each_row_goes_to_the_centroid_nearest_in_angle_not_in_length():
    centroids = np.array([[10.0, 0.0], [0.0, 0.1]])  # lengths differ: only the direction counts
    rows = np.array([[0.9, 0.1], [0.1, 0.9], [0.6, 0.8]])
    assert nearest_centroid(rows, centroids).tolist() == [0, 1, 1]
