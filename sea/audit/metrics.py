"""Per-step metrics of an arm (spec §4), cumulative over the steps before it."""

from __future__ import annotations

import pandas as pd

from sea.llm.meter import Meter
from sea.llm.usage import add_costs
from sea.questions.grading import tally
from sea.questions.model import Outcome
from sea.search.state import SearchState

GENERATION_ROLES = ("generator", "verifier")


def step_metrics(step: int, answers: pd.DataFrame, paragraphs: int, new_sources: set[int], pruned: set[int],
                 state: SearchState, generation: Meter, previous: dict | None) -> dict:
    """One step's figures. Testee usage comes from the answer records and generation usage from
    the question bank, both counting cached replies at their full price: the figures describe
    the audit's work and do not change when a resumed run finds replies in the cache. Questions
    written for a paragraph are charged to every arm whose batch holds it (the cost of that arm
    alone), asked or not: they are written before the budget can leave some of the batch unasked."""
    answered = answers[answers["outcome"] != Outcome.FAILED]
    wrong = tally(answers["outcome"])[1]
    testee_tokens = int(answers["input_tokens"].sum() + answers["output_tokens"].sum())
    generation_usage = [generation.by_role[r] for r in GENERATION_ROLES if r in generation.by_role]
    generator_tokens = sum(u.input_tokens + u.output_tokens for u in generation_usage)
    testee_dollars = add_costs(*answers["cost_usd"].tolist())
    generator_dollars = add_costs(*(u.cost_usd for u in generation_usage))
    before = previous or {"cumulative_questions": 0, "cumulative_wrong": 0, "cumulative_testee_tokens": 0,
                          "cumulative_generator_tokens": 0, "cumulative_dollars": 0.0}
    cumulative_questions = before["cumulative_questions"] + len(answered)
    cumulative_wrong = before["cumulative_wrong"] + wrong
    cumulative_testee_tokens = before["cumulative_testee_tokens"] + testee_tokens
    cumulative_generator_tokens = before["cumulative_generator_tokens"] + generator_tokens
    cumulative_dollars = add_costs(before["cumulative_dollars"], add_costs(testee_dollars, generator_dollars))
    return {
        "step": step,
        "paragraphs": paragraphs,
        "questions_asked": len(answered),
        "failed_calls": int((answers["outcome"] == Outcome.FAILED).sum()),
        "wrong": wrong,
        "step_error_rate": wrong / len(answered) if len(answered) else None,
        "unparseable_rate": int((answered["outcome"] == Outcome.UNPARSEABLE).sum()) / len(answered) if len(answered) else None,
        "cumulative_questions": cumulative_questions,
        "cumulative_wrong": cumulative_wrong,
        "cumulative_error_rate": cumulative_wrong / cumulative_questions if cumulative_questions else None,
        "new_sources": len(new_sources),
        "active_sources": len(state.active_sources),
        "pruned_sources": len(pruned),
        "cumulative_pruned_sources": len(state.pruned_sources),
        "cumulative_sources": len(state.sources),
        "testee_tokens": testee_tokens,
        "generator_tokens": generator_tokens,
        "testee_dollars": testee_dollars,
        "generator_dollars": generator_dollars,
        "cumulative_testee_tokens": cumulative_testee_tokens,
        "cumulative_generator_tokens": cumulative_generator_tokens,
        "cumulative_dollars": cumulative_dollars,
        "tokens_per_error": (cumulative_testee_tokens + cumulative_generator_tokens) / cumulative_wrong if cumulative_wrong else None,
        "cost_per_error": cumulative_dollars / cumulative_wrong if cumulative_wrong and cumulative_dollars is not None else None,
        "budget_calls_spent": state.spent["calls"],
    }
