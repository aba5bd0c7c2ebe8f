"""The six phases of a step as functions of (workspace, arm, step), each reading the files of the
phases before it and writing its own under runs/<run_id>/<testee>/<arm>/steps/<step>/.

They return small records for the orchestrator; everything that outlives the step is a file.
prune writes state.json last, which marks the step complete."""

from __future__ import annotations

from dataclasses import asdict

import pyarrow as pa

from sea.audit.metrics import step_metrics
from sea.audit.rundir import ANSWERS, BATCH, EVALUATION, METRICS, PARAGRAPHS, QUESTIONS, UPDATED, ArmDir
from sea.audit.workspace import Workspace
from sea.files import write_json, write_parquet
from sea.llm.ledger import Budget, Reservation
from sea.llm.meter import Meter
from sea.questions.grading import answers_table, ask, askable
from sea.questions.model import Question, questions_table
from sea.questions.prompts import testee_messages
from sea.search.adaptive import ask_in_rounds
from sea.search.arms import ARMS
from sea.search.loop import Batch, choose_batch, fit_to_budget, paragraph_error_rates, prune_sources, update
from sea.search.state import SearchState


def _state_at(arm: ArmDir, step: int) -> SearchState:
    state = arm.load_state()
    if state.step != step:
        raise RuntimeError(f"{arm.label}: the saved state is at step {state.step}, not {step}")
    return state


def _batch(arm: ArmDir, step: int) -> Batch:
    return Batch.from_json(arm.read(step, BATCH))


def retrieve(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Choose the step's batch (with each paragraph's retrieving sources)."""
    batch = choose_batch(_state_at(arm, step), ws.params.search, ws.index, ws.paragraphs)
    write_json(arm.step_dir(step) / BATCH, batch.to_json())
    return {"paragraphs": len(batch.para_ids), "candidates": batch.candidates,
            "retrieved": sum(bool(sources) for sources in batch.provenance.values())}


def generate(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Base questions for the batch's paragraphs that the bank does not hold yet."""
    return {"new_paragraphs": ws.bank.drafted(_batch(arm, step).para_ids)}


def rephrase(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Every base question's phrasings, gated and de-duplicated."""
    para_ids = _batch(arm, step).para_ids
    completed = ws.bank.phrased(para_ids)
    return {"new_paragraphs": completed, "askable": sum(len(askable(ws.bank.questions(p))) for p in para_ids)}


def evaluate(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """The testee answers the questions of the paragraphs the budget still covers: all of them,
    or, for sea_plus with adaptive questioning, round by round until each paragraph is decided."""
    state, batch = _state_at(arm, step), _batch(arm, step)
    questions = {p: askable(ws.bank.questions(p)) for p in batch.para_ids}
    limits = ws.params.budget
    budget = Budget(limits.testee_calls, limits.tokens, limits.dollars, spent=Reservation(**state.spent))
    testee = ws.testee(arm.testee)

    def ask_all(asked: list[Question]) -> tuple[list[dict], bool]:
        prompts = [testee_messages(q.question, q.options, _hint(ws, q.para_id)) for q in asked]
        return testee.run(ask(testee, asked, prompts, budget))

    plus = ws.params.search.plus
    if ARMS[arm.arm].adaptive(plus):
        evaluated, asked, records, exhausted = ask_in_rounds(questions, ask_all, lambda: budget.calls_left,
                                                             ws.params.search.tau, plus)
    else:
        evaluated = fit_to_budget(batch.para_ids, {p: len(q) for p, q in questions.items()}, budget.calls_left)
        asked = [q for p in evaluated for q in questions[p]]
        records, exhausted = ask_all(asked)
    directory = arm.step_dir(step)
    answered = {r["question_id"] for r in records}
    write_parquet(directory / QUESTIONS, questions_table([q for q in asked if q.question_id in answered]))
    write_parquet(directory / ANSWERS, answers_table(records))
    para_of = {q.question_id: q.para_id for q in asked}
    error_rates = paragraph_error_rates([(para_of[r["question_id"]], r["outcome"]) for r in records])
    write_json(directory / EVALUATION, {
        "evaluated": evaluated, "error_rates": {str(p): rate for p, rate in error_rates.items()}, "exhausted": exhausted,
        "spent": asdict(budget.spent),
        "calls_left": budget.calls_left,
    })
    return {"questions": len(records), "paragraphs": len(evaluated), "budget_exhausted": exhausted}


def _hint(ws: Workspace, para_id: int) -> str | None:
    """The section title, shown to the testee only when questions.section_hint is on (the paper's prompt)."""
    if not ws.params.questions.section_hint:
        return None
    row = ws.paragraphs.store.by_para_id.loc[para_id]
    return row["section"] or row["title"]


def _evaluation(arm: ArmDir, step: int) -> dict:
    evaluation = arm.read(step, EVALUATION)
    evaluation["error_rates"] = {int(p): rate for p, rate in evaluation["error_rates"].items()}
    return evaluation


def update_dag(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Add the evaluated paragraphs to the DAG and promote those above tau to sources."""
    state, batch, evaluation = _state_at(arm, step), _batch(arm, step), _evaluation(arm, step)
    new_sources = update(state, batch, evaluation["evaluated"], evaluation["error_rates"], ws.params.search.tau, ws.doc_of)
    state.spent = evaluation["spent"]
    write_json(arm.step_dir(step) / UPDATED, {"state": state.to_json(), "new_sources": sorted(new_sources)})
    return {"new_sources": len(new_sources), "active_sources": len(state.active_sources)}


def prune(ws: Workspace, arm: ArmDir, step: int) -> dict:
    """Deactivate the sources whose descendants stopped failing, then commit the step."""
    updated = arm.read(step, UPDATED)
    state = SearchState.from_json(updated["state"])
    if state.step != step:
        raise RuntimeError(f"{arm.label}: the updated state is at step {state.step}, not {step}")
    pruned = prune_sources(state, ws.params.search.gamma)
    return commit_step(ws, arm, step, state, set(updated["new_sources"]), pruned)


def commit_step(ws: Workspace, arm: ArmDir, step: int, state: SearchState, new_sources: set[int], pruned: set[int]) -> dict:
    """Record the step — whether the arm is done, its metrics, its paragraph table — and save the
    state last, which marks the step complete."""
    batch, evaluation = _batch(arm, step), _evaluation(arm, step)
    state.finished = (evaluation["exhausted"] or evaluation["calls_left"] == 0 or not batch.para_ids
                      or len(evaluation["evaluated"]) < len(batch.para_ids))
    state.step += 1
    answers = arm.read(step, ANSWERS).to_pandas()
    generation = Meter()
    for para_id in evaluation["evaluated"]:
        for role, tally in ws.bank.usage(para_id).by_role.items():
            generation.add(role, tally)
    previous = arm.read(step - 1, METRICS) if step > 0 else None
    metrics = step_metrics(step, answers, len(evaluation["evaluated"]), new_sources, pruned, state, generation, previous)
    directory = arm.step_dir(step)
    write_parquet(directory / PARAGRAPHS, _paragraph_table(ws, step, batch, evaluation, state))
    write_json(directory / METRICS, metrics)
    state.save(arm.state_path)
    return metrics


def _paragraph_table(ws: Workspace, step: int, batch: Batch, evaluation: dict, state: SearchState) -> pa.Table:
    table = ws.paragraphs.store.by_para_id
    rows = []
    for para_id in evaluation["evaluated"]:
        row = table.loc[para_id]
        rows.append({"para_id": para_id, "doc_id": int(row["doc_id"]), "title": row["title"], "section": row["section"],
                     "category": ws.categories.get(int(row["doc_id"]), ""), "step": step,
                     "error_rate": evaluation["error_rates"].get(para_id), "questions": len(askable(ws.bank.questions(para_id))),
                     "source": para_id in state.sources, "retrieved_by": batch.provenance.get(para_id, [])})
    return pa.Table.from_pylist(rows, schema=PARAGRAPH_SCHEMA)


PARAGRAPH_SCHEMA = pa.schema([
    ("para_id", pa.int64()), ("doc_id", pa.int64()), ("title", pa.string()), ("section", pa.string()),
    ("category", pa.string()), ("step", pa.int32()), ("error_rate", pa.float64()),  # null: no askable question
    ("questions", pa.int32()), ("source", pa.bool_()), ("retrieved_by", pa.list_(pa.int64())),
])




PHASES = (retrieve, generate, rephrase, evaluate, update_dag, prune)


def run_steps(ws: Workspace, arm: ArmDir, count: int | None = None) -> list[dict]:
    """Up to `count` steps (all, until the budget is spent, when None), phase by phase in this
    process: the same files as the Prefect flow writes, for benchmarks and tests of the core."""
    done = []
    while not arm.load_state().finished and (count is None or len(done) < count):
        step = arm.load_state().step
        for phase in PHASES:
            record = phase(ws, arm, step)
        done.append(record)
    return done
