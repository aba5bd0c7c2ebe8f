from sea.search.state import SearchState


def test_state_round_trip_continues_the_random_stream_exactly(tmp_path):
    state = SearchState(arm="sea", seed=7)
    rng = state.rng()
    rng.random(5)
    state.keep_rng(rng)
    state.step, state.error_rates = 2, {11: 0.8, 12: 0.2}
    state.active_sources, state.pruned_sources = {11}, {3}
    state.visited_docs, state.visited_paras = {100, 101}, {11, 12}
    state.dag.add_evaluated(0, {11: 0.8, 12: 0.2}, {})
    path = tmp_path / "state.json"
    state.save(path)

    loaded = SearchState.load(path)
    assert loaded.to_json() == state.to_json()
    assert loaded.sources == {11, 3}
    assert (loaded.rng().random(3) == rng.random(3)).all()  # the stream goes on where it stopped
    assert not list(tmp_path.glob("*.partial"))
