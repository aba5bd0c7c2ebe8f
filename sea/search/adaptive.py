"""sea_plus's adaptive questioning: ask a paragraph's questions in rounds and stop as soon as its
side of tau is decided, so the budget a clear-cut paragraph would have taken goes to more
paragraphs instead.

A paragraph is decided when tau lies outside the Wilson score interval of its error rate, or
when the questions left could no longer move it across tau (curtailment). With `ask_out_failing`
only a paragraph decided at or below tau stops early; one decided above it is asked the rest, the
likeliest errors there are. The recorded error rate is the share wrong among the questions asked."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sea.intervals import wilson_interval
from sea.questions.grading import tally
from sea.questions.model import Question
from sea.settings import PlusSettings


def side(wrong: int, asked: int, total: int, tau: float, z: float) -> bool | None:
    """Which side of tau (error rate > tau: a source) the paragraph's `total` questions put it on, once
    more of them could no longer change it, by counting or by the Wilson bound: True above, False at
    or below, None while undecided."""
    if wrong > tau * total:  # curtailed: the rest cannot change it
        return True
    if wrong + (total - asked) <= tau * total:  # ... nor here (every question asked is one case of either)
        return False
    low, high = wilson_interval(wrong, asked, z)
    return True if low > tau else False if high <= tau else None


def stops(wrong: int, asked: int, total: int, tau: float, plus: PlusSettings) -> bool:
    """Whether asking ends here: once decided, or with `ask_out_failing` once decided at or below tau."""
    found = side(wrong, asked, total, tau, plus.confidence_z)
    return found is False or (found is True and not plus.ask_out_failing)


def round_order(questions: Sequence[Question]) -> list[Question]:
    """Variants last: the first round asks different base questions, not rephrasings of one."""
    return sorted(questions, key=lambda q: (q.variant, questions.index(q)))


def next_round(pending: dict[int, list[Question]], round_size: int, calls_left: int | None) -> dict[int, list[Question]]:
    """The next questions of each undecided paragraph (in batch order), as many paragraphs as the
    calls left can pay a whole round for."""
    chosen: dict[int, list[Question]] = {}
    used = 0
    for para_id, remaining in pending.items():
        chunk = remaining[:round_size]
        if calls_left is not None and used + len(chunk) > calls_left:
            break
        chosen[para_id] = chunk
        used += len(chunk)
    return chosen


def ask_in_rounds(questions: dict[int, list[Question]], ask_all: Callable[[list[Question]], tuple[list[dict], bool]],
                  calls_left: Callable[[], int | None], tau: float, plus: PlusSettings
                  ) -> tuple[list[int], list[Question], list[dict], bool]:
    """(paragraphs evaluated, questions asked, answer records, budget exhausted). The first round
    decides which paragraphs the budget covers; a paragraph whose next round no longer fits keeps
    the answers it has."""
    pending = {p: round_order(q) for p, q in questions.items()}
    evaluated = list(next_round(pending, plus.round_size, calls_left()))
    if not evaluated:  # not one paragraph's first round fits
        return [], [], [], False
    pending = {p: pending[p] for p in evaluated}
    asked, records, exhausted = [], [], False
    outcomes: dict[int, list[str]] = {p: [] for p in evaluated}
    while pending and not exhausted:
        chunk = next_round(pending, plus.round_size, calls_left())
        if not chunk:
            break
        round_questions = [q for qs in chunk.values() for q in qs]
        round_records, exhausted = ask_all(round_questions)
        asked += round_questions
        records += round_records
        para_of = {q.question_id: q.para_id for q in round_questions}
        for record in round_records:
            outcomes[para_of[record["question_id"]]].append(record["outcome"])
        for para_id, qs in chunk.items():
            pending[para_id] = pending[para_id][len(qs):]
            answered, wrong = tally(outcomes[para_id])
            if not pending[para_id] or stops(wrong, answered, len(questions[para_id]), tau, plus):
                del pending[para_id]
    return evaluated, asked, records, exhausted or (bool(pending) and calls_left() == 0)
