"""The phases of a step as plain functions: budget fitting, error rates, promotion and pruning."""

from sea.index import DocumentIndex
from sea.paragraphs import ParagraphEmbeddings, ParagraphStore
from sea.questions.model import Outcome
from sea.search.loop import (
    Batch,
    choose_batch,
    fit_to_budget,
    paragraph_error_rates,
    prune_sources,
    update,
)
from sea.search.state import SearchState
from sea.settings import SearchSettings


def test_the_batch_is_cut_at_the_first_paragraph_that_no_longer_fits():
    counts = {1: 10, 2: 10, 3: 0, 4: 10}
    assert fit_to_budget([1, 2, 3, 4], counts, calls_left=25) == [1, 2, 3]
    assert fit_to_budget([1, 2, 3, 4], counts, calls_left=9) == []
    assert fit_to_budget([1, 2, 3, 4], counts, calls_left=None) == [1, 2, 3, 4]


def test_unparseable_counts_as_wrong_and_failed_calls_count_in_neither():
    rates = paragraph_error_rates([(1, Outcome.CORRECT), (1, Outcome.WRONG), (1, Outcome.UNPARSEABLE), (1, Outcome.FAILED), (2, Outcome.FAILED), (3, Outcome.CORRECT)])
    assert rates == {1: 2 / 3, 3: 0.0}


def _evaluate(state, step_rates, provenance, tau=0.5):
    batch = Batch(list(step_rates), provenance, len(step_rates), state.rng().bit_generator.state)
    new = update(state, batch, list(step_rates), step_rates, tau, doc_of={p: p for p in step_rates})
    state.step += 1
    return new


def test_sources_are_promoted_once_and_pruned_only_in_the_sea_arm():
    for arm in ("sea", "no_pruning"):
        state = SearchState(arm=arm, seed=0)
        assert _evaluate(state, {1: 0.8, 2: 0.2, 3: 0.6}, {}) == {1, 3}
        # 1's descendants fail rarely (mean 0.1 < gamma); 3 has none yet, so it stays active.
        assert _evaluate(state, {10: 0.0, 11: 0.2}, {10: [1], 11: [1]}) == set()
        pruned = prune_sources(state, SearchSettings(gamma=0.5))
        if arm == "sea":
            assert pruned == {1} and state.active_sources == {3} and state.pruned_sources == {1}
        else:
            assert pruned == set() and state.active_sources == {1, 3}
        assert state.visited_paras == {1, 2, 3, 10, 11}
        # A pruned source is never promoted again, even if evaluated high once more.
        assert _evaluate(state, {1: 0.9, 20: 0.9}, {1: [3], 20: [3]}) == {20}
        assert (1 in state.active_sources) == (arm == "no_pruning")


def test_a_source_whose_descendants_keep_failing_stays_active():
    state = SearchState(arm="sea", seed=0)
    _evaluate(state, {1: 0.9}, {})
    _evaluate(state, {2: 0.8, 3: 0.4}, {2: [1], 3: [1]})  # mean 0.6 >= gamma
    assert prune_sources(state, SearchSettings(gamma=0.5)) == set() and state.active_sources == {1, 2}


def test_batches_come_from_retrieval_for_sea_and_from_anywhere_for_random(vital_sample, embedder):
    paragraphs = ParagraphEmbeddings(ParagraphStore(vital_sample.paths.kb_dir), embedder)
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    settings = vital_sample.search.model_copy(update={"batch_size": 8, "k_documents": 10, "m_paragraphs": 3})
    first = choose_batch(SearchState(arm="sea", seed=0), settings, index, paragraphs)
    assert len(first.para_ids) == 8 and not any(first.provenance.values())
    for arm in ("sea", "random"):
        state = SearchState(arm=arm, seed=0, step=1, active_sources={first.para_ids[0]}, visited_paras=set(first.para_ids))
        batch = choose_batch(state, settings, index, paragraphs)
        assert not set(batch.para_ids) & state.visited_paras
        if arm == "sea":
            assert batch.candidates <= 3 and all(sources == [first.para_ids[0]] for sources in batch.provenance.values())
        else:
            assert batch.candidates == 500 - 8 and len(batch.para_ids) == 8 and not any(batch.provenance.values())
        again = choose_batch(state, settings, index, paragraphs)
        assert again.para_ids == batch.para_ids  # the state's generator makes the draw reproducible
        if arm == "random":
            assert batch.rng_state != state.rng().bit_generator.state  # the draw moved the generator on


def test_sea_plus_prunes_by_yield_only_when_switched_on():
    from sea.settings import PlusSettings

    for switch, expected in ((False, {1}), (True, set())):
        state = SearchState(arm="sea_plus", seed=0)
        _evaluate(state, {1: 0.8, 2: 0.6}, {})
        # 1 retrieved 3 paragraphs: one failed (a source), two did not; mean error 0.33 < gamma.
        _evaluate(state, {10: 0.7, 11: 0.2, 12: 0.1}, {10: [1], 11: [1], 12: [1]})
        settings = SearchSettings(gamma=0.5, plus=PlusSettings(yield_pruning=switch))
        assert prune_sources(state, settings) == expected  # by yield: 1 of 3 is the arm's own rate, no evidence against it
        assert prune_sources(SearchState(arm="sea", seed=0), settings) == set()


def test_sea_plus_takes_its_heaviest_candidates_first_only_with_ranked_draw(vital_sample, embedder):
    from sea.search.arms import ARMS
    from sea.search.retrieval import candidate_weights, retrieve
    from sea.settings import PlusSettings

    paragraphs = ParagraphEmbeddings(ParagraphStore(vital_sample.paths.kb_dir), embedder)
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    first = choose_batch(SearchState(arm="sea", seed=0), vital_sample.search.model_copy(update={"batch_size": 12}), index, paragraphs)
    rates = {p: 0.6 + 0.4 * (i % 2) for i, p in enumerate(first.para_ids)}  # every one a source, half at 1.0
    state = SearchState(arm="sea_plus", seed=0, step=1, error_rates=rates, active_sources=set(rates), visited_paras=set(rates),
                        visited_docs={paragraphs.store.document_of(p) for p in rates})
    for ranked in (False, True):
        settings = vital_sample.search.model_copy(update={"batch_size": 6, "k_documents": 10, "m_paragraphs": 3,
                                                          "plus": PlusSettings(ranked_draw=ranked)})
        batch = choose_batch(state, settings, index, paragraphs)
        weights = candidate_weights(retrieve(state.active_sources, index, paragraphs, state.visited_docs, state.visited_paras,
                                             10, 3), rates)
        assert batch.candidates == len(weights) > 6 and len(batch.para_ids) == 6
        heaviest = min(weights[p] for p in batch.para_ids) >= max(w for p, w in weights.items() if p not in batch.para_ids)
        assert heaviest == ranked
    assert not any(ARMS[arm].ranked_draw(PlusSettings(ranked_draw=True)) for arm in ("sea", "no_pruning", "random"))
    assert not ARMS["sea_plus"].ranked_draw(PlusSettings(ranked_draw=True, weighted_draw=False))  # no weights to rank by
