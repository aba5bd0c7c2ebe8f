"""sea_plus's adaptive questioning: the Wilson decision rule and curtailment on hand-made counts."""

from collections import Counter

import pytest

from sea.intervals import wilson_interval
from sea.questions.model import Outcome, Question
from sea.search.adaptive import ask_in_rounds, next_round, round_order, side
from sea.settings import PlusSettings


def test_wilson_interval_on_known_counts():
    low, high = wilson_interval(0, 5, 1.96)
    assert low == 0.0 and high == pytest.approx(0.4345, abs=1e-3)
    low, high = wilson_interval(5, 5, 1.96)
    assert low == pytest.approx(0.5655, abs=1e-3) and high == 1.0
    low, high = wilson_interval(10, 20, 1.96)
    assert low == pytest.approx(0.2993, abs=1e-3) and high == pytest.approx(0.7007, abs=1e-3)
    assert wilson_interval(0, 0, 1.96) == (0.0, 1.0)


@pytest.mark.parametrize(("wrong", "asked", "total", "expected"), [
    (0, 5, 25, False),   # five right: the interval [0, 0.43] is below tau
    (5, 5, 25, True),    # five wrong: [0.57, 1] is above tau
    (1, 5, 25, None),    # one wrong in five: [0.04, 0.62] straddles tau
    (3, 5, 25, None),
    (13, 20, 25, True),  # curtailed: 13 wrong of 25 already exceeds tau whatever the rest say
    (7, 20, 25, False),  # curtailed: even five more wrong make 12 of 25, not above tau
    (3, 5, 5, True),     # everything asked
    (2, 5, 5, False),
    (0, 0, 25, None),
])
def test_a_paragraph_is_decided_when_tau_is_outside_the_interval_or_out_of_reach(wrong, asked, total, expected):
    assert side(wrong, asked, total, tau=0.5, z=1.96) is expected


@pytest.mark.parametrize(("z", "right_answers_that_stop"), [(1.96, 4), (1.28, 2), (1.0, 1)])
def test_a_narrower_interval_stops_a_paragraph_after_fewer_right_answers(z, right_answers_that_stop):
    decided = [side(0, asked, 25, tau=0.5, z=z) for asked in range(1, 6)]
    assert decided.index(False) + 1 == right_answers_that_stop and None not in decided[right_answers_that_stop - 1:]


def _asked_of(ask_out_failing: bool) -> Counter:
    """How many questions each paragraph is asked in rounds of one: paragraph 1's answers all wrong, 2's all right."""
    questions = {p: [_question(p, base, 0) for base in range(5)] for p in (1, 2)}
    outcome = {1: Outcome.WRONG, 2: Outcome.CORRECT}

    def ask_all(round_questions):
        return [{"question_id": q.question_id, "outcome": outcome[q.para_id]} for q in round_questions], False

    plus = PlusSettings(round_size=1, ask_out_failing=ask_out_failing, confidence_z=1.96)  # the counts below are z 1.96's
    evaluated, asked, _, exhausted = ask_in_rounds(questions, ask_all, lambda: None, 0.5, plus)
    assert evaluated == [1, 2] and not exhausted
    return Counter(q.para_id for q in asked)


def test_a_decided_paragraph_stops_early_and_with_ask_out_failing_only_one_below_tau():
    assert _asked_of(ask_out_failing=False) == {1: 3, 2: 3}  # 3 wrong of 5 is above tau, 3 right of 5 at or below it
    assert _asked_of(ask_out_failing=True) == {1: 5, 2: 3}  # the failing paragraph is asked out


def _question(para_id, base, variant):
    return Question(para_id=para_id, base_question_id=f"b{base}", variant=variant, question=f"q{base}.{variant}",
                    options=["a", "b", "c", "d"], gold_letter="A", permutation=[0, 1, 2, 3], statement="", generator="t")


def test_rounds_ask_different_base_questions_first_and_fit_the_calls_left():
    questions = [_question(1, base, variant) for base in range(3) for variant in range(2)]
    ordered = round_order(questions)
    assert [(q.base_question_id, q.variant) for q in ordered[:3]] == [("b0", 0), ("b1", 0), ("b2", 0)]
    pending = {1: ordered, 2: [_question(2, 0, 0), _question(2, 1, 0)], 3: [_question(3, 0, 0)] * 3}
    assert {p: len(q) for p, q in next_round(pending, 2, calls_left=None).items()} == {1: 2, 2: 2, 3: 2}
    assert list(next_round(pending, 2, calls_left=5)) == [1, 2]  # the third paragraph's round no longer fits
