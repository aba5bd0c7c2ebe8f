"""The six phases of a step as functions of (workspace, arm, step), and the step loop that runs
them. Each phase reads the step data of the phases before it and saves its own through the
step's StepStore; it returns a small record for the orchestrator. `commit_step` saves the state
last, which marks the step complete."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict

import pyarrow as pa

from sea.audit.metrics import step_metrics
from sea.audit.rundir import PARAGRAPH_SCHEMA, ArmDir
from sea.audit.step_store import Evaluation, StepStore
from sea.audit.workspace import Workspace
from sea.llm.ledger import Budget, Reservation, SentCalls
from sea.llm.meter import Meter
from sea.llm.types import Message
from sea.questions.grading import answers_table, ask, askable
from sea.questions.model import Question, questions_table
from sea.questions.prompts import testee_messages
from sea.search.adaptive import ask_in_rounds
from sea.search.arms import ARMS
from sea.search.loop import Batch, choose_batch, fit_to_budget, paragraph_error_rates, prune_sources, update
from sea.search.promotion import convincing
from sea.search.state import SearchState


def retrieve(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Choose the step's batch (with each paragraph's retrieving sources)."""
    store = StepStore(arm, step)
    batch = choose_batch(store.state(), ws.params.search, ws.index, ws.paragraphs)
    store.save_batch(batch)
    return {"paragraphs": len(batch.para_ids), "candidates": batch.candidates,
            "retrieved": sum(bool(sources) for sources in batch.provenance.values())}


def generate(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Base questions for the batch's paragraphs that the bank does not hold yet."""
    return {"new_paragraphs": ws.bank.drafted(StepStore(arm, step).batch().para_ids)}


def rephrase(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Every base question's phrasings, gated and de-duplicated."""
    para_ids = StepStore(arm, step).batch().para_ids
    completed = ws.bank.phrased(para_ids)
    return {"new_paragraphs": completed, "askable": sum(len(askable(ws.bank.questions(p))) for p in para_ids)}


def evaluate(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """The testee answers the questions of the paragraphs the budget still covers: all of them,
    or, for sea_plus with adaptive questioning, round by round until each paragraph is decided (or asked out)."""
    store = StepStore(arm, step)
    state, batch = store.state(), store.batch()
    questions = {p: askable(ws.bank.questions(p)) for p in batch.para_ids}
    limits, testee = ws.params.budget, ws.testee(arm.testee)
    spent, sent = Reservation(**state.spent), None
    if testee.provider.remote:  # what this step's cut runs may have had billed is spent too
        sent = SentCalls(arm.sent_calls_path, step)
        spent += sent.left_open(from_step=step)
    budget = Budget(limits.testee_calls, limits.tokens, limits.dollars, spent=spent, sent=sent)
    testee.served.clear()  # this step's: one client serves every arm of the testee in a process

    def ask_all(asked: list[Question]) -> tuple[list[dict], bool]:
        return testee.run(ask(testee, asked, [closed_book_prompt(ws, q) for q in asked], budget))

    plus = ws.params.search.plus
    if ARMS[arm.arm].adaptive(plus):
        evaluated, asked, records, exhausted = ask_in_rounds(questions, ask_all, lambda: budget.calls_left,
                                                             ws.params.search.tau, plus)
    else:
        evaluated = fit_to_budget(batch.para_ids, {p: len(q) for p, q in questions.items()}, budget.calls_left)
        asked = [q for p in evaluated for q in questions[p]]
        records, exhausted = ask_all(asked)
    testee.check_answering(budget)  # a step that ends in an outage is redone on resume, not kept with its failed calls
    arm.note_served(frozenset(testee.served))
    answered = {r["question_id"] for r in records}
    store.save_answers(questions_table([q for q in asked if q.question_id in answered]), answers_table(records))
    para_of = {q.question_id: q.para_id for q in asked}
    if exhausted:  # a token or dollar budget can run out within the batch: a paragraph none of whose questions went out is not evaluated
        reached = {para_of[question_id] for question_id in answered}
        evaluated = [p for p in evaluated if p in reached or not questions[p]]
    error_rates = paragraph_error_rates([(para_of[r["question_id"]], r["outcome"]) for r in records])
    store.save_evaluation(Evaluation(evaluated, error_rates, exhausted, asdict(budget.spent), budget.calls_left))
    return {"questions": len(records), "paragraphs": len(evaluated), "budget_exhausted": exhausted}


def closed_book_prompt(ws: Workspace, question: Question) -> list[Message]:
    """What the testee is asked: the question, with the section title as a hint only when
    questions.section_hint is on (the paper's prompt)."""
    hint = None
    if ws.params.questions.section_hint:
        row = ws.paragraphs.store.row(question.para_id)
        hint = row["section"] or row["title"]
    return testee_messages(question.question, question.options, hint)


def update_dag(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Add the evaluated paragraphs to the DAG and promote those above tau to sources (sea_plus
    with evidence_sources: those convincingly above it, counted from the step's answers)."""
    store = StepStore(arm, step)
    state, batch, evaluation = store.state(), store.batch(), store.evaluation()
    search, promoted = ws.params.search, None
    if ARMS[arm.arm].evidence_sources(search.plus):
        promoted = convincing(store.answer_counts(), search.tau, search.plus.source_confidence)
    new_sources = update(state, batch, evaluation.evaluated, evaluation.error_rates, search.tau, ws.doc_of, promoted)
    state.spent = evaluation.spent
    store.save_updated(state, new_sources)
    return {"new_sources": len(new_sources), "active_sources": len(state.active_sources)}


def prune(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Deactivate the sources whose descendants stopped failing, then commit the step."""
    store = StepStore(arm, step)
    state, new_sources = store.updated()
    pruned = prune_sources(state, ws.params.search)
    return commit_step(ws, store, state, new_sources, pruned)


def commit_step(ws: Workspace, store: StepStore, state: SearchState, new_sources: set[int], pruned: set[int]) -> dict:
    """Record the step — whether the arm is done, its metrics, its paragraph table — and save the
    state last, which marks the step complete."""
    step, batch, evaluation = store.step, store.batch(), store.evaluation()
    state.finished = (evaluation.exhausted or evaluation.calls_left == 0 or not batch.para_ids
                      or len(evaluation.evaluated) < len(batch.para_ids))
    state.step += 1
    generation = Meter()
    for para_id in batch.para_ids:  # every paragraph's questions were written, paid, before the budget left some unasked
        for role, usage in ws.bank.usage(para_id).by_role.items():
            generation.add(role, usage)
    metrics = step_metrics(step, store.answers(), len(evaluation.evaluated), new_sources, pruned, state, generation,
                           store.previous_metrics())
    store.commit(_paragraph_table(ws, step, batch, evaluation, state), metrics, state)
    return metrics


def _paragraph_table(ws: Workspace, step: int, batch: Batch, evaluation: Evaluation, state: SearchState) -> pa.Table:
    table = ws.paragraphs.store.rows(evaluation.evaluated)
    rows = []
    for para_id in evaluation.evaluated:
        row = table.loc[para_id]
        rows.append({"para_id": para_id, "doc_id": int(row["doc_id"]), "title": row["title"], "section": row["section"],
                     "category": ws.categories.get(int(row["doc_id"]), ""), "step": step,
                     "error_rate": evaluation.error_rates.get(para_id), "questions": len(askable(ws.bank.questions(para_id))),
                     "source": para_id in state.sources, "retrieved_by": batch.provenance.get(para_id, [])})
    return pa.Table.from_pylist(rows, schema=PARAGRAPH_SCHEMA)



PHASES = (retrieve, generate, rephrase, evaluate, update_dag, prune)
Phase = Callable[[Workspace, ArmDir, int], dict]
# Runs one phase of a step: (phase, arm, step, fresh) -> its record. `fresh` is true for a step
# never begun in its directory (or deleted to be redone), which a cached result must not serve.
PhaseRunner = Callable[[Phase, ArmDir, int, bool], dict]


def in_process(ws: Workspace) -> PhaseRunner:
    """Phases called directly in this process (benchmarks and tests of the core)."""
    return lambda phase, arm, step, fresh: phase(ws, arm, step)


def run_steps(arm: ArmDir, run_phase: PhaseRunner, count: int | None = None,
              after_step: Callable[[SearchState, dict], None] | None = None) -> list[dict]:
    """The step loop of the flow and the benchmarks: each step's six phases in order, until the
    arm is finished (or `count` steps are done). `run_phase` runs one phase (the flow: as a
    Prefect task; in_process: directly); `after_step` sees the committed state and the step's
    metrics."""
    done, state = [], arm.load_state()
    while not state.finished and (count is None or len(done) < count):
        fresh = not StepStore(arm, state.step).begun
        for phase in PHASES:
            record = run_phase(phase, arm, state.step, fresh)
        done.append(record)
        state = arm.load_state()
        if after_step:
            after_step(state, record)
    return done
