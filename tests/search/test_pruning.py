"""sea_plus's pruning by yield, on hand-made DAGs and counts."""

import numpy as np
import pytest

from sea.search.dag import RelationDAG
from sea.search.pruning import chance_to_beat, prune_by_yield, yield_counts


def test_the_chance_to_beat_is_the_beta_posterior_tail():
    assert chance_to_beat(0, 3, 0.3) == pytest.approx(0.7 ** 4)  # Beta(1, 4): P(Y > x) = (1 - x)^4
    assert chance_to_beat(0, 0, 0.25) == pytest.approx(0.75)  # the flat prior alone
    draws = np.random.default_rng(0).beta(1 + 3, 1 + 5, 400_000)  # checked against sampling
    assert chance_to_beat(3, 5, 0.3) == pytest.approx(float((draws > 0.3).mean()), abs=0.005)
    assert chance_to_beat(9, 1, 0.3) > 0.99 and chance_to_beat(0, 12, 0.3) < 0.02


def _dag(children_of: dict[int, dict[int, float]]) -> RelationDAG:
    """Step 0: the sources (error 0.9); step 1: what each retrieved, with its error rate."""
    dag = RelationDAG()
    dag.add_evaluated(0, dict.fromkeys(children_of, 0.9), {})
    retrieved = {child: rate for children in children_of.values() for child, rate in children.items()}
    dag.add_evaluated(1, retrieved, {c: {s for s, children in children_of.items() if c in children} for c in retrieved})
    return dag


def test_a_source_is_pruned_when_its_yield_is_unlikely_to_beat_the_arms():
    # 1 retrieved 8 paragraphs, 6 of them sources; 2 retrieved 8 and none failed; 3 retrieved 2 that did not fail.
    dag = _dag({1: {10 + i: 0.8 if i < 6 else 0.2 for i in range(8)}, 2: {20 + i: 0.1 for i in range(8)},
                3: {30: 0.0, 31: 0.2}, 4: {}})
    sources = {1, 2, 3, 4} | {10 + i for i in range(6)}
    assert yield_counts(dag, 1, sources) == (6, 2) and yield_counts(dag, 2, sources) == (0, 8)
    assert yield_counts(dag, 4, sources) == (0, 0) and yield_counts(dag, 99, sources) == (0, 0)
    # The arm's yield: 6 of 18. Source 2 (0 of 8): P = (12/18)^9 = 0.026 -> pruned; 3 (0 of 2): 0.30 -> kept
    # (too little evidence); 4 retrieved nothing yet -> kept; 1 out-yields the arm.
    assert prune_by_yield(dag, {1, 2, 3, 4}, sources, below=0.1) == {2}
    assert prune_by_yield(dag, {1, 3, 4}, sources, below=0.1) == set()  # only active sources are pruned
    assert prune_by_yield(dag, {1, 2, 3, 4}, sources, below=0.35) == {2, 3}


def test_nothing_is_pruned_without_evidence_to_tell_sources_apart():
    dag = _dag({1: {10: 0.9, 11: 0.8}, 2: {20: 0.7}})
    assert prune_by_yield(dag, {1, 2}, {1, 2, 10, 11, 20}, below=0.5) == set()  # everything retrieved became a source
    assert prune_by_yield(_dag({1: {}, 2: {}}), {1, 2}, {1, 2}, below=0.5) == set()  # nothing retrieved yet
