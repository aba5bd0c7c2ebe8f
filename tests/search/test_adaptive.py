"""sea_plus's adaptive questioning: the Wilson decision rule and curtailment on hand-made counts."""

import pytest

from sea.intervals import wilson_interval
from sea.questions.model import Question
from sea.search.adaptive import decided, next_round, round_order


def test_wilson_interval_on_known_counts():
    low, high = wilson_interval(0, 5, 1.96)
    assert low == 0.0 and high == pytest.approx(0.4345, abs=1e-3)
    low, high = wilson_interval(5, 5, 1.96)
    assert low == pytest.approx(0.5655, abs=1e-3) and high == 1.0
    low, high = wilson_interval(10, 20, 1.96)
    assert low == pytest.approx(0.2993, abs=1e-3) and high == pytest.approx(0.7007, abs=1e-3)
    assert wilson_interval(0, 0, 1.96) == (0.0, 1.0)


@pytest.mark.parametrize(("wrong", "asked", "total", "expected"), [
    (0, 5, 25, True),    # five right: the interval [0, 0.43] is below tau
    (5, 5, 25, True),    # five wrong: [0.57, 1] is above tau
    (1, 5, 25, False),   # one wrong in five: [0.04, 0.62] straddles tau
    (3, 5, 25, False),
    (13, 20, 25, True),  # curtailed: 13 wrong of 25 already exceeds tau whatever the rest say
    (7, 20, 25, True),   # curtailed: even five more wrong make 12 of 25, not above tau
    (3, 5, 5, True),     # everything asked
    (0, 0, 25, False),
])
def test_a_paragraph_is_decided_when_tau_is_outside_the_interval_or_out_of_reach(wrong, asked, total, expected):
    assert decided(wrong, asked, total, tau=0.5, z=1.96) is expected


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
