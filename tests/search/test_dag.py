import json

import pytest

from sea.search.dag import RelationDAG, prune


def built() -> RelationDAG:
    """Step 0: sources 1 (high) and 2; step 1: 1 retrieved 3 and 4, 2 retrieved 4 and 5; step 2: 3 retrieved 6."""
    dag = RelationDAG()
    dag.add_evaluated(0, {1: 0.8, 2: 0.6}, {})
    dag.add_evaluated(1, {3: 0.9, 4: 0.1, 5: 0.2}, {3: {1}, 4: {1, 2}, 5: {2}})
    dag.add_evaluated(2, {6: 0.7}, {6: {3}})
    return dag


def test_descendant_error_is_the_mean_over_all_reachable_paragraphs():
    dag = built()
    assert dag.descendant_error(1) == pytest.approx((0.9 + 0.1 + 0.7) / 3)
    assert dag.descendant_error(2) == pytest.approx((0.1 + 0.2) / 2)
    assert dag.descendant_error(6) is None


def test_pruning_drops_sources_below_gamma_and_keeps_those_without_descendants():
    dag = built()
    assert prune(dag, {1, 2, 3, 6}, gamma=0.5) == {2}  # 2's descendants average 0.15; 6 has none yet
    assert prune(dag, {1, 2, 3, 6}, gamma=0.6) == {1, 2}  # 1's average 0.567 < 0.6; 3's 0.7 stays


def test_edges_must_point_forward_in_time():
    dag = built()
    with pytest.raises(ValueError, match="forward in time"):
        dag.add_evaluated(1, {7: 0.5}, {7: {3}})  # 3 was evaluated at step 1 too


def test_json_round_trip():
    dag = built()
    again = RelationDAG.from_json(json.loads(json.dumps(dag.to_json())))
    assert sorted(again.graph.edges) == sorted(dag.graph.edges)
    assert again.graph.nodes[4] == {"step": 1, "error_rate": 0.1}
    assert again.descendant_error(1) == dag.descendant_error(1)
