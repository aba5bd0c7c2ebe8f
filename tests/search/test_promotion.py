"""Which paragraphs become sources: the paper's rule and sea_plus's rule on evidence, on hand-made counts."""

import pytest

from sea.questions.model import Outcome
from sea.search.loop import Batch, paragraph_counts, update
from sea.search.promotion import above_tau, convincing
from sea.search.pruning import chance_to_beat
from sea.search.state import SearchState


def test_the_paper_promotes_any_error_rate_above_tau():
    assert above_tau({1: 1.0, 2: 0.5, 3: 0.6, 4: 0.0}, 0.5) == {1, 3}


def test_on_evidence_one_wrong_answer_out_of_one_is_not_enough():
    counts = {1: (1, 1), 2: (2, 2), 3: (3, 2), 4: (4, 3), 5: (5, 3), 6: (5, 4), 7: (0, 0), 8: (5, 0)}  # (answered, wrong)
    assert convincing(counts, tau=0.5, confidence=0.8) == {2, 4, 6}
    assert chance_to_beat(1, 0, 0.5) == pytest.approx(0.75) and chance_to_beat(3, 2, 0.5) == pytest.approx(0.65625)
    assert convincing(counts, tau=0.5, confidence=0.7) == {1, 2, 4, 6}  # 1 of 1 wrong: P = 0.75
    assert convincing(counts, tau=0.3, confidence=0.8) == {1, 2, 3, 4, 5, 6}  # a lower tau takes less evidence


def test_on_evidence_no_paragraph_at_or_below_tau_is_promoted():
    # a bug hunt: at tau 0 every answered paragraph was promoted, 0 of 5 wrong included; at 0.1, 1 right of 1
    assert convincing({1: (1, 0), 2: (5, 0), 3: (2, 1)}, tau=0.0, confidence=0.8) == {3}
    assert convincing({1: (1, 0), 2: (10, 1), 3: (10, 2)}, tau=0.1, confidence=0.8) == {3}  # 1 of 10 is not above 0.1


def test_counts_follow_the_one_counting_rule():
    outcomes = [(1, Outcome.WRONG), (1, Outcome.UNPARSEABLE), (1, Outcome.FAILED), (1, Outcome.CORRECT), (2, Outcome.FAILED)]
    assert paragraph_counts(outcomes) == {1: (3, 2)}  # unparseable is wrong, failed counts in neither


def test_update_promotes_the_given_paragraphs_instead_of_those_above_tau():
    state = SearchState(arm="sea_plus", seed=0)
    rates = {1: 1.0, 2: 1.0, 3: 0.2}
    batch = Batch(list(rates), {}, len(rates), state.rng().bit_generator.state)
    new = update(state, batch, list(rates), rates, 0.5, {p: p for p in rates}, promoted=convincing({1: (1, 1), 2: (3, 3), 3: (5, 1)}, 0.5, 0.8))
    assert new == {2} and state.active_sources == {2} and state.error_rates == rates
