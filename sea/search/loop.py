"""The phases of one step of one arm, as plain functions over the search state: choose a batch,
fit it to the budget, turn answers into error rates, update the DAG, prune.

Orchestration (Prefect tasks, checkpoint files, MLflow) composes these; nothing here knows about
it. Every random choice comes from the state's generator, and a batch carries the generator's
state after its draw, so a search restored from its saved state continues exactly as an
uninterrupted one would."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from sea.index import DocumentIndex
from sea.paragraphs import ParagraphEmbeddings
from sea.questions.grading import tally
from sea.questions.model import Outcome
from sea.search.arms import ARMS
from sea.search.bandit import bandit_draw
from sea.search.dag import prune
from sea.search.prior import failure_probability, fit_prior
from sea.search.promotion import above_tau
from sea.search.pruning import prune_by_yield, yield_counts
from sea.search.regions import documents_per_source, source_regions
from sea.search.retrieval import candidate_weights, draw, draw_unvisited, initial_batch, retrieve
from sea.search.state import SearchState, jsonable
from sea.settings import SearchSettings


@dataclass
class Batch:
    para_ids: list[int]
    provenance: dict[int, list[int]]  # para_id -> the sources that retrieved it (empty: explored)
    candidates: int  # size of the pool the batch was drawn from
    rng_state: dict  # the search's generator after the draw
    predicted: dict[int, float] = field(default_factory=dict)  # sea_plus's failure prior: para_id -> P(error rate > tau)

    def to_json(self) -> dict:
        data = {"para_ids": self.para_ids, "provenance": {str(p): s for p, s in self.provenance.items()},
                "candidates": self.candidates, "rng_state": jsonable(self.rng_state)}
        if self.predicted:
            data["predicted"] = {str(p): probability for p, probability in self.predicted.items()}
        return data

    @classmethod
    def from_json(cls, data: dict) -> Batch:
        return cls(data["para_ids"], {int(p): s for p, s in data["provenance"].items()}, data["candidates"], data["rng_state"],
                   {int(p): probability for p, probability in data.get("predicted", {}).items()})


def choose_batch(state: SearchState, settings: SearchSettings, index: DocumentIndex, paragraphs: ParagraphEmbeddings) -> Batch:
    """The next batch: the category spread at step 0; then candidates retrieved around the
    active sources (sea_plus: around the regions they lead), drawn uniformly (sea_plus: by
    weight, times the failure prior's probability, or shared among the sources by a bandit; or
    the highest weights taken first).
    Without candidates (the random arm, or no active source left) the search explores uniformly
    among unvisited paragraphs (sea_plus with guided exploration: by the prior, among a sample)."""
    rng = state.rng()
    provenance: dict[int, dict[int, float]] = {}
    predicted: dict[int, float] = {}
    if state.step == 0:
        batch = initial_batch(index, paragraphs, settings.batch_size, rng)
        pool_size = len(batch)
    else:
        arm = ARMS[state.arm]
        if arm.retrieves and state.active_sources:
            regions = k_by_source = None
            if arm.region_retrieval(settings.plus):
                regions = source_regions(state.dag, state.active_sources, state.sources)
                k_by_source = documents_per_source(state.dag, state.active_sources, state.sources, settings.k_documents)
            provenance = retrieve(state.active_sources, index, paragraphs, state.visited_docs, state.visited_paras,
                                  settings.k_documents, settings.m_paragraphs, regions, k_by_source)
        weights = None
        if provenance and arm.weighted_draw(settings.plus):
            weights = candidate_weights(provenance, state.error_rates)
        if provenance and arm.failure_prior(settings.plus):
            predicted = predict_failures(state, settings.tau, paragraphs, sorted(provenance), settings.plus.prior_model)
            if predicted:
                weights = {c: (1.0 if weights is None else weights[c]) * predicted[c] for c in provenance}
        pool_size = len(provenance)
        if provenance and arm.bandit(settings.plus):
            counts = {source: yield_counts(state.dag, source, state.sources) for source in state.active_sources}
            batch = bandit_draw(provenance, counts, settings.batch_size, rng, weights)
        elif provenance:
            batch = draw(provenance, settings.batch_size, rng, weights, arm.ranked_draw(settings.plus))
        else:
            batch, predicted, pool_size = explore(state, settings, paragraphs, state.visited_paras, settings.batch_size, rng)
        if provenance and len(batch) < settings.batch_size and arm.fill_by_exploration(settings.plus):
            # the places the candidates left, explored among the unvisited paragraphs that are not candidates
            explored, scouted, _ = explore(state, settings, paragraphs, state.visited_paras | set(provenance),
                                           settings.batch_size - len(batch), rng)
            batch, predicted = batch + explored, predicted | scouted
    return Batch(batch, {p: sorted(provenance.get(p, ())) for p in batch}, pool_size, rng.bit_generator.state,
                 {p: predicted[p] for p in batch if p in predicted})


def predict_failures(state: SearchState, tau: float, paragraphs: ParagraphEmbeddings, candidates: list[int],
                     prior_model: str) -> dict[int, float]:
    """candidate -> P(its error rate exceeds tau) from a prior fitted on the paragraphs evaluated
    so far; empty while there are too few examples of either outcome."""
    evaluated = sorted(state.error_rates)
    model = fit_prior(paragraphs.vectors_of(evaluated), np.array([state.error_rates[p] > tau for p in evaluated]), prior_model)
    if model is None:
        return {}
    return dict(zip(candidates, failure_probability(model, paragraphs.vectors_of(candidates)).tolist(), strict=True))


SCOUTS = 10  # unvisited paragraphs the prior scores per exploration slot: a sample, so a 7M-paragraph base costs the same


def explore(state: SearchState, settings: SearchSettings, paragraphs: ParagraphEmbeddings, excluded: set[int], size: int,
            rng: np.random.Generator) -> tuple[list[int], dict[int, float], int]:
    """`size` of the paragraphs not excluded (visited, or also candidates), for a step without
    candidates (no active source, or none that retrieves anything new) or, with sea_plus's filled
    batches, the places its candidates left: drawn uniformly, or by the prior with sea_plus's guided
    exploration. Returns them, the prior's predictions and how many paragraphs there were to draw from."""
    if ARMS[state.arm].guided_exploration(settings.plus):
        return explore_by_prior(state, settings, paragraphs, excluded, size, rng)
    batch, unvisited = draw_unvisited(paragraphs.store, excluded, size, rng)
    return batch, {}, unvisited


def explore_by_prior(state: SearchState, settings: SearchSettings, paragraphs: ParagraphEmbeddings, excluded: set[int],
                     size: int, rng: np.random.Generator) -> tuple[list[int], dict[int, float], int]:
    """sea_plus's guided exploration: SCOUTS x size paragraphs not excluded drawn uniformly, `size` drawn
    among them in proportion to the prior's probability of failure (with ranked exploration: the `size`
    it ranks highest; uniformly while the prior has too few examples); returns them, the scouts'
    predictions and how many paragraphs the scouts came from."""
    scouts, unvisited = draw_unvisited(paragraphs.store, excluded, SCOUTS * size, rng)
    if not scouts:  # every paragraph visited: the arm is done
        return [], {}, unvisited
    predicted = predict_failures(state, settings.tau, paragraphs, scouts, settings.plus.prior_model)
    ranked = ARMS[state.arm].ranked_exploration(settings.plus)
    return draw(scouts, size, rng, predicted or None, ranked), predicted, unvisited


def fit_to_budget(batch: Sequence[int], question_counts: dict[int, int], calls_left: int | None) -> list[int]:
    """The batch cut so that its questions fit the calls left (a paragraph is asked all its
    questions or none)."""
    if calls_left is None:
        return list(batch)
    kept, used = [], 0
    for para_id in batch:
        if used + question_counts[para_id] > calls_left:
            break
        kept.append(para_id)
        used += question_counts[para_id]
    return kept


def paragraph_counts(outcomes: Sequence[tuple[int, str]]) -> dict[int, tuple[int, int]]:
    """para_id -> (answered, wrong) from (para_id, outcome) pairs. Unparseable replies count as
    wrong, as the paper did; failed calls count in neither, and a paragraph whose every call
    failed is left out."""
    outcomes_of: dict[int, list[str]] = {}
    for para_id, outcome in outcomes:
        if outcome != Outcome.FAILED:
            outcomes_of.setdefault(para_id, []).append(outcome)
    return {para_id: tally(outs) for para_id, outs in outcomes_of.items()}


def paragraph_error_rates(outcomes: Sequence[tuple[int, str]]) -> dict[int, float]:
    """para_id -> error rate, counted as paragraph_counts does."""
    return {para_id: wrong / answered for para_id, (answered, wrong) in paragraph_counts(outcomes).items()}


def update(state: SearchState, batch: Batch, evaluated: Sequence[int], error_rates: dict[int, float], tau: float,
           doc_of: dict[int, int], promoted: set[int] | None = None) -> set[int]:
    """Mark the evaluated paragraphs visited, add them to the DAG with edges from the sources that
    retrieved them, promote those above tau (or the `promoted` ones, when the arm decides on
    evidence); returns the new sources. Moves the generator on."""
    state.rng_state = batch.rng_state
    state.visited_paras.update(evaluated)
    state.visited_docs.update(doc_of[p] for p in evaluated)
    state.error_rates.update(error_rates)
    state.dag.add_evaluated(state.step, error_rates, {p: set(batch.provenance.get(p, ())) for p in error_rates})
    new_sources = (above_tau(error_rates, tau) if promoted is None else promoted) - state.sources
    state.active_sources |= new_sources
    return new_sources


def prune_sources(state: SearchState, settings: SearchSettings) -> set[int]:
    """Deactivate the sources whose descendants' mean error fell below gamma, or for sea_plus with
    yield pruning those unlikely to out-yield the arm (pruning arms only)."""
    arm = ARMS[state.arm]
    if not arm.prunes:
        return set()
    if arm.yield_pruning(settings.plus):
        pruned = prune_by_yield(state.dag, state.active_sources, state.sources, settings.plus.prune_below)
    else:
        pruned = prune(state.dag, state.active_sources, settings.gamma)
    state.active_sources -= pruned
    state.pruned_sources |= pruned
    return pruned
