"""Params that validate one by one but cannot make an audit together, refused before any model call."""

from __future__ import annotations

from sea.errors import ParamsError
from sea.settings import Params


def check_audit(params: Params) -> None:
    budget, search, questions = params.budget, params.search, params.questions
    if budget.testee_calls is None and budget.tokens is None and budget.dollars is None:
        raise ParamsError("budget: an audit needs a limit; set budget.testee_calls (or tokens or dollars)")
    if not search.arms:
        raise ParamsError("search.arms: empty; list at least one of sea, no_pruning, random")
    per_batch = search.batch_size * questions.per_paragraph * questions.variants
    if budget.testee_calls is not None and budget.testee_calls < per_batch:
        raise ParamsError(
            f"budget.testee_calls: {budget.testee_calls} cannot pay for one batch ({search.batch_size} paragraphs × "
            f"{questions.per_paragraph} questions × {questions.variants} phrasings = {per_batch} calls); raise it to at "
            f"least {per_batch} or lower search.batch_size / questions.per_paragraph / questions.variants"
        )
    per_call = params.models.testee.max_tokens
    if budget.tokens is not None and budget.tokens < per_batch * per_call:
        raise ParamsError(f"budget.tokens: {budget.tokens} cannot pay for one batch ({per_batch} calls of at least "
                          f"{per_call} output tokens each); raise it or lower search.batch_size")
