"""Error clusters on hand-made neighbourhoods and vectors: the anchor holding the most sources first,
small groups left unclustered, and the recovery figures against known groups."""

import numpy as np

from sea.findings.clusters import UNCLUSTERED, central_rows, cluster_by_anchors, nearest_centroid, recovery


def test_each_anchor_takes_the_sources_in_its_neighbourhood_the_largest_first():
    sources = np.array([1, 2, 3, 4, 5, 10, 11, 12, 20, 21, 3])  # the last: a second source paragraph of article 3
    anchors = np.array([100, 101, 102, 103])
    neighbourhoods = np.array([[10, 11, 12, 3, 50, 51], [1, 2, 3, 4, 5, 52], [20, 60, 61, 62, 63, 64], [11, 12, 1, 2, 65, 66]])
    labels, chosen = cluster_by_anchors(sources, anchors, neighbourhoods, min_size=3)
    # 101 holds six sources (article 3 twice), 100 then holds three not yet taken; 103's are all taken
    assert labels.tolist() == [0, 0, 0, 0, 0, 1, 1, 1, UNCLUSTERED, UNCLUSTERED, 0] and chosen == [101, 100]
    labels, chosen = cluster_by_anchors(sources, anchors, neighbourhoods, min_size=4)
    assert labels.tolist() == [0] * 5 + [UNCLUSTERED] * 5 + [0] and chosen == [101]
    tied = cluster_by_anchors(np.array([1, 2]), np.array([7, 8]), np.array([[1, 2], [2, 1]]), min_size=2)
    assert tied[0].tolist() == [0, 0] and tied[1] == [7]  # a tie: the anchor listed first
    none = cluster_by_anchors(np.array([1, 2]), np.array([], dtype=np.int64), np.empty((0, 3), dtype=np.int64), min_size=2)
    assert none[0].tolist() == [UNCLUSTERED] * 2 and none[1] == []


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
