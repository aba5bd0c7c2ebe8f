"""Asking the testee and grading its replies into answer records."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import pyarrow as pa
from tqdm import tqdm

from sea.llm.client import ModelClient
from sea.llm.ledger import Budget, SentCalls
from sea.llm.types import REFUSED, CallFailure, Completion, Message
from sea.questions.model import ANSWER_SCHEMA, KEPT, Outcome, Question
from sea.questions.parsing import parse_answer


def answer_record(question: Question, testee: str, result: Completion | CallFailure) -> dict:
    """One answers.parquet row. A failed call is recorded as failed, never as a wrong answer; so is a refused
    one (REFUSED), with its text and the tokens it was charged."""
    if isinstance(result, CallFailure):
        return {"question_id": question.question_id, "testee": testee, "raw_reply": result.reason, "parsed_letter": None,
                "outcome": Outcome.FAILED.value, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0, "latency_s": 0.0, "cached": False}
    refused = result.text.startswith(REFUSED)
    letter = None if refused else parse_answer(result.text)
    outcome = (Outcome.FAILED if refused else Outcome.UNPARSEABLE if letter is None
               else Outcome.CORRECT if letter == question.gold_letter else Outcome.WRONG)
    return {"question_id": question.question_id, "testee": testee, "raw_reply": result.text, "parsed_letter": letter,
            "outcome": outcome.value, "input_tokens": result.input_tokens, "output_tokens": result.output_tokens,
            "cost_usd": result.cost_usd, "latency_s": result.latency_s, "cached": result.cached}


async def ask(testee: ModelClient, questions: Sequence[Question], prompts: Sequence[list[Message]],
              budget: Budget | None = None, cache_scope: str | None = None,
              done: Callable[[], object] | None = None) -> tuple[list[dict], bool]:
    """Answer records for the questions the budget allowed, and whether the budget ran out."""
    results, exhausted = await testee.complete_many(list(prompts), budget=budget, cache_scope=cache_scope, done=done)
    records = [answer_record(q, testee.settings.model, r) for q, r in zip(questions, results, strict=True) if r is not None]
    return records, exhausted


def ask_once_each(testee: ModelClient, questions: Sequence[Question], prompts: Sequence[list[Message]], cache_scope: str,
                  label: str, record_dir: Path, progress: bool = True) -> list[dict]:
    """Every question asked once, within a budget of exactly that many calls, from synchronous
    code, with a progress bar: the analyses that re-ask a run's questions (compare, retest, transfer).
    A paid testee's attempts are recorded under `record_dir` (SentCalls), one record per testee and
    question set: the same questions asked again after an interruption start from the attempts the
    cut run left open, which the server may have billed."""
    sent = spent = None
    if testee.provider.remote:
        asked = "\n".join([testee.settings.model, cache_scope, *(q.question_id for q in questions)])
        sent = SentCalls(record_dir / f"{hashlib.sha256(asked.encode()).hexdigest()[:16]}.sent-calls.jsonl", 0)
        spent = sent.left_open(from_step=0)
    budget = Budget(calls=len(questions), spent=spent, sent=sent)
    with tqdm(total=len(questions), unit="call", desc=label, disable=not (progress and questions)) as bar:
        records, _ = testee.run(ask(testee, questions, prompts, budget, cache_scope, bar.update))
    return records


def askable(questions: Sequence[Question]) -> list[Question]:
    return [q for q in questions if q.verdict == KEPT]


def tally(outcomes: Iterable[str]) -> tuple[int, int]:
    """(answered, wrong): the one counting rule of every error rate. An unparseable reply counts
    as wrong, as the paper did; a failed call counts in neither."""
    answered = [o for o in outcomes if o != Outcome.FAILED]
    return len(answered), sum(o != Outcome.CORRECT for o in answered)


def answers_table(records: list[dict]) -> pa.Table:
    return pa.Table.from_pylist(records, schema=ANSWER_SCHEMA)
