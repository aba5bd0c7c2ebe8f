"""sea_plus's learned failure prior: training on a tiny set, its held-out scoring, and its use in the
batch draw and in guided exploration."""

import numpy as np
import pytest

from sea.index import DocumentIndex
from sea.paragraphs import ParagraphEmbeddings, ParagraphStore
from sea.search.arms import ARMS
from sea.search.loop import SCOUTS, Batch, choose_batch, explore, explore_by_prior
from sea.search.prior import failure_probability, fit_prior, prior_quality
from sea.search.state import SearchState
from sea.settings import PlusSettings


def _two_topics(rng, n):
    """n vectors around each of two directions; the first topic fails."""
    centres = np.eye(8)[:2] * 3
    vectors = np.vstack([centres[0] + rng.normal(size=(n, 8)), centres[1] + rng.normal(size=(n, 8))])
    return vectors, np.array([True] * n + [False] * n)


def test_the_prior_learns_which_topic_fails_from_a_tiny_set():
    vectors, failed = _two_topics(np.random.default_rng(0), 6)
    model = fit_prior(vectors, failed)
    held_out, truth = _two_topics(np.random.default_rng(1), 20)
    probability = failure_probability(model, held_out)
    assert probability[truth].mean() > 0.8 and probability[~truth].mean() < 0.2
    assert np.array_equal(failure_probability(fit_prior(vectors, failed), held_out), probability)  # deterministic


def test_the_neighbours_prior_learns_which_topic_fails_from_a_tiny_set():
    vectors, failed = _two_topics(np.random.default_rng(0), 6)
    unit = lambda v: v / np.linalg.norm(v, axis=1, keepdims=True)  # noqa: E731 - the embedder's vectors are unit length
    model = fit_prior(unit(vectors), failed, "neighbours")
    held_out, truth = _two_topics(np.random.default_rng(1), 20)
    probability = failure_probability(model, unit(held_out))
    assert probability[truth].mean() > 0.7 and probability[~truth].mean() < 0.3
    assert np.array_equal(failure_probability(fit_prior(unit(vectors), failed, "neighbours"), unit(held_out)), probability)


def test_the_neighbours_prior_on_hand_made_counts():
    # 20 evaluated paragraphs: 10 on the first axis (5 failed), 10 on the second (none failed).
    vectors = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    model = fit_prior(np.repeat(vectors, 5, axis=0), np.repeat([True, False, False, False], 5), "neighbours")
    # k = 10 of 20: the 10 on the first axis, 5 failed: (5 + 1/4) / (10 + 1).
    assert failure_probability(model, np.array([[1.0, 0.0]]))[0] == pytest.approx(5.25 / 11)
    # At right angles to everything evaluated, nothing but the overall rate: 1/4.
    assert failure_probability(model, np.array([[0.0, 0.0]]))[0] == pytest.approx(0.25)


@pytest.mark.parametrize("model", ["logistic", "neighbours"])
def test_no_prior_until_both_outcomes_have_enough_examples(model):
    vectors, failed = _two_topics(np.random.default_rng(0), 6)
    assert fit_prior(vectors[:10], failed[:10], model) is None  # 6 failed, 4 passed
    assert fit_prior(vectors[2:], failed[2:], model) is None  # 4 failed, 6 passed
    assert fit_prior(vectors[1:], failed[1:], model) is not None  # 5 and 6


def test_held_out_accuracy_and_auc_on_hand_made_predictions():
    predicted = {1: 0.9, 2: 0.6, 3: 0.4, 4: 0.2, 5: 0.7}
    error_rates = {1: 1.0, 2: 0.2, 3: 0.8, 4: 0.0}  # 5 was never evaluated: not scored
    quality = prior_quality(predicted, error_rates, tau=0.5)
    # failed: 1, 3; predicted >= 0.5: 1, 2 -> right on 1 and 4: 2 of 4. Pairs (failed, passed) ranked right:
    # (1,2) (1,4) (3,4) yes, (3,2) no -> AUC 3/4.
    assert quality == {"paragraphs": 4, "accuracy": 0.5, "auc": 0.75}
    assert prior_quality({1: 0.9}, {1: 1.0}, 0.5)["auc"] is None  # one class: no AUC
    assert prior_quality({}, error_rates, 0.5) == {"paragraphs": 0, "accuracy": None, "auc": None}


@pytest.mark.parametrize(("switch", "model"), [(False, "logistic"), (False, "neighbours"), (True, "logistic"), (True, "neighbours")])
def test_the_prior_weights_the_draw_only_when_switched_on(vital_sample, embedder, switch, model):
    paragraphs = ParagraphEmbeddings(ParagraphStore(vital_sample.paths.kb_dir), embedder)
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    settings = vital_sample.search.model_copy(update={"batch_size": 20, "k_documents": 10, "m_paragraphs": 3,
                                                      "plus": PlusSettings(failure_prior=switch, prior_model=model)})
    first = choose_batch(SearchState(arm="sea_plus", seed=0), settings, index, paragraphs)
    rates = {p: float(i % 2) for i, p in enumerate(first.para_ids)}  # 10 failed, 10 passed
    sources = {p for p, rate in rates.items() if rate > 0.5}
    state = SearchState(arm="sea_plus", seed=0, step=1, error_rates=rates, active_sources=sources,
                        visited_paras=set(first.para_ids), visited_docs={paragraphs.store.document_of(p) for p in first.para_ids})
    batch = choose_batch(state, settings, index, paragraphs)
    if not switch:
        assert batch.predicted == {} and "predicted" not in batch.to_json()
        return
    assert set(batch.predicted) == set(batch.para_ids) and all(0 < p < 1 for p in batch.predicted.values())
    assert Batch.from_json(batch.to_json()).predicted == batch.predicted
    again = choose_batch(state, settings, index, paragraphs)
    assert again.para_ids == batch.para_ids and again.predicted == batch.predicted  # a resumed step draws the same


def test_guided_exploration_draws_where_the_prior_predicts_failure(vital_sample, embedder):
    paragraphs = ParagraphEmbeddings(ParagraphStore(vital_sample.paths.kb_dir), embedder)
    ids = sorted(paragraphs.store.para_ids().tolist())
    category = {p: paragraphs.store.category_of(paragraphs.store.document_of(p)) for p in ids}
    failing = max(set(category.values()), key=list(category.values()).count)  # one topic fails, the rest pass
    evaluated = ids[:100]
    state = SearchState(arm="sea_plus", seed=0, step=1, error_rates={p: float(category[p] == failing) for p in evaluated},
                        visited_paras=set(evaluated))
    plus = PlusSettings(guided_exploration=True, prior_model="neighbours")
    settings = vital_sample.search.model_copy(update={"batch_size": 10, "plus": plus})
    batch, predicted, unvisited = explore_by_prior(state, settings, paragraphs, set(evaluated), 10, state.rng())
    assert unvisited == len(ids) - 100
    assert len(predicted) == SCOUTS * 10 and set(batch) <= set(predicted) and len(batch) == 10
    assert not set(predicted) & set(evaluated)
    # drawn in proportion to the prior: the batch is likelier to fail than the paragraphs it was drawn from
    assert np.mean([predicted[p] for p in batch]) > np.mean(list(predicted.values())) + 0.05
    assert np.mean([category[p] == failing for p in batch]) > np.mean([category[p] == failing for p in predicted])
    again, _, _ = explore_by_prior(state, settings, paragraphs, set(evaluated), 10, state.rng())
    assert again == batch  # every draw from the state's generator
    assert explore_by_prior(state, settings, paragraphs, set(ids), 10, state.rng()) == ([], {}, 0)  # every paragraph visited
    # ranked exploration: the same scouts, and the 10 the prior ranks highest
    ranked = settings.model_copy(update={"plus": plus.model_copy(update={"ranked_exploration": True})})
    top, scouted, _ = explore_by_prior(state, ranked, paragraphs, set(evaluated), 10, state.rng())
    assert scouted == predicted and len(top) == 10 and top != batch
    assert min(scouted[p] for p in top) >= max(probability for p, probability in scouted.items() if p not in top)
    sea = SearchState(**{**state.__dict__, "arm": "sea"})
    assert not ARMS["sea"].ranked_exploration(ranked.plus) and not ARMS["sea_plus"].ranked_exploration(
        plus.model_copy(update={"guided_exploration": False, "ranked_exploration": True}))
    assert explore(sea, ranked, paragraphs, set(evaluated), 10, sea.rng())[1] == {}  # sea explores uniformly


@pytest.mark.parametrize("model", ["logistic", "neighbours"])
def test_a_step_without_candidates_explores_by_the_prior_only_when_switched_on(vital_sample, embedder, model):
    paragraphs = ParagraphEmbeddings(ParagraphStore(vital_sample.paths.kb_dir), embedder)
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    guided_settings = vital_sample.search.model_copy(
        update={"batch_size": 10, "plus": PlusSettings(guided_exploration=True, prior_model=model)})
    first = choose_batch(SearchState(arm="sea_plus", seed=0), guided_settings, index, paragraphs)

    def explored(arm: str, rates: dict[int, float], settings, visited: set[int] | None = None) -> Batch:  # no active source
        visited = set(first.para_ids) if visited is None else visited
        state = SearchState(arm=arm, seed=0, step=1, error_rates=rates, visited_paras=visited)
        return choose_batch(state, settings, index, paragraphs)

    rates = {p: float(i % 2) for i, p in enumerate(first.para_ids)}  # 5 failed, 5 passed
    guided = explored("sea_plus", rates, guided_settings)
    uniform = explored("sea_plus", rates, guided_settings.model_copy(update={"plus": PlusSettings(guided_exploration=False, prior_model=model)}))
    assert guided.candidates == uniform.candidates == 500 - 10 and not any(guided.provenance.values())
    assert not set(guided.para_ids) & set(first.para_ids) and len(guided.para_ids) == 10
    assert set(guided.predicted) == set(guided.para_ids) and uniform.predicted == {}
    assert guided.para_ids != uniform.para_ids and guided.rng_state != uniform.rng_state  # the sample and the draw
    for arm in ("sea", "random"):  # the switch is sea_plus's only
        assert explored(arm, rates, guided_settings).predicted == {}
    too_few = explored("sea_plus", {p: float(i < 2) for i, p in enumerate(first.para_ids)}, guided_settings)  # 2 failed
    assert too_few.predicted == {} and len(too_few.para_ids) == 10
    everything = set(paragraphs.store.para_ids().tolist())
    assert explored("sea_plus", rates, guided_settings, everything).para_ids == []  # nothing left: the arm is done


@pytest.mark.parametrize("guided", [True, False])
def test_a_batch_its_candidates_do_not_fill_is_filled_by_exploration_only_when_switched_on(vital_sample, embedder, guided):
    paragraphs = ParagraphEmbeddings(ParagraphStore(vital_sample.paths.kb_dir), embedder)
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    plus = PlusSettings(guided_exploration=guided, prior_model="neighbours")
    settings = vital_sample.search.model_copy(update={"batch_size": 10, "k_documents": 5, "m_paragraphs": 2, "plus": plus})
    first = choose_batch(SearchState(arm="sea_plus", seed=0), settings, index, paragraphs)
    rates = {p: float(i % 2) for i, p in enumerate(first.para_ids)}  # 5 failed, 5 passed: the prior has examples
    source = first.para_ids[1]
    state = SearchState(arm="sea_plus", seed=0, step=1, error_rates=rates, active_sources={source}, visited_paras=set(first.para_ids))
    filling = settings.model_copy(update={"plus": plus.model_copy(update={"fill_by_exploration": True})})
    harvest = choose_batch(state, settings, index, paragraphs)
    filled = choose_batch(state, filling, index, paragraphs)
    retrieved = [p for p, sources in harvest.provenance.items() if sources]
    assert 0 < len(harvest.para_ids) == len(retrieved) == harvest.candidates <= 2  # too few candidates for the batch
    assert len(filled.para_ids) == 10 and filled.candidates == harvest.candidates
    assert set(harvest.para_ids) <= set(filled.para_ids)  # every candidate still drawn
    explored = set(filled.para_ids) - set(harvest.para_ids)
    assert not explored & state.visited_paras and not any(filled.provenance[p] for p in explored)
    assert set(filled.predicted) == (explored if guided else set())  # the scouts' predictions are kept for the explored
    assert choose_batch(state, filling, index, paragraphs).para_ids == filled.para_ids  # a resumed step draws the same
    for arm in ("sea", "no_pruning"):  # the switch is sea_plus's only
        other = SearchState(arm=arm, seed=0, step=1, error_rates=rates, active_sources={source}, visited_paras=set(first.para_ids))
        assert len(choose_batch(other, filling, index, paragraphs).para_ids) <= 2
