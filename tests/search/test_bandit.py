"""sea_plus's bandit over sources, on hand-made counts and candidates."""

import numpy as np

from sea.search.bandit import allocate, bandit_draw


def test_the_allocation_fills_the_batch_and_favours_sources_that_yield():
    counts = {1: (9, 1), 2: (0, 10), 3: (0, 0)}  # a strong source, a spent one, a new one
    shares = {s: 0 for s in counts}
    for seed in range(200):
        slots = allocate(counts, 40, np.random.default_rng(seed))
        assert sum(slots.values()) == 40 and set(slots) <= set(counts)
        for source, n in slots.items():
            shares[source] += n
    assert shares[1] > 0.7 * 40 * 200 and shares[2] < 0.01 * 40 * 200  # the strong source gets most of it
    assert shares[3] > shares[2]  # a new source keeps a chance a spent one has lost
    assert allocate(counts, 40, np.random.default_rng(7)) == allocate(counts, 40, np.random.default_rng(7))
    assert allocate({}, 40, np.random.default_rng(0)) == {} and allocate(counts, 0, np.random.default_rng(0)) == {}


def test_each_source_fills_its_slots_from_what_it_retrieved_and_the_rest_refills():
    candidates = {10: {1: 0.9}, 11: {1: 0.8}, 12: {1: 0.7}, 20: {2: 0.5}, 21: {2: 0.4}, 22: {2: 0.3}, 23: {2: 0.2},
                  30: {1: 0.6, 2: 0.6}}
    counts = {1: (50, 0), 2: (0, 50)}  # every slot goes to source 1, which retrieved only 4 candidates
    batch = bandit_draw(candidates, counts, 6, np.random.default_rng(0))
    assert len(batch) == len(set(batch)) == 6 and {10, 11, 12, 30} <= set(batch)  # its own first, then refilled
    assert set(bandit_draw(candidates, counts, 3, np.random.default_rng(0))) <= {10, 11, 12, 30}
    assert sorted(bandit_draw(candidates, counts, 20, np.random.default_rng(0))) == sorted(candidates)  # more slots than candidates
