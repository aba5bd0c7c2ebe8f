"""Every read and write of one step's files, as typed step data (the layout is in rundir.py).

The phases in steps.py work on these objects and never name a file; a step's files are written
in phase order, and the search state last (commit), which marks the step complete."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pyarrow as pa

from sea.audit.rundir import ANSWERS, BATCH, EVALUATION, METRICS, PARAGRAPHS, QUESTIONS, UPDATED, ArmDir
from sea.files import write_json, write_parquet
from sea.search.loop import Batch, paragraph_counts
from sea.search.state import SearchState


@dataclass
class Evaluation:
    """What the testee's answers decided: the paragraphs the budget covered, their error rates,
    and the testee budget after the step."""

    evaluated: list[int]
    error_rates: dict[int, float]
    exhausted: bool
    spent: dict  # calls, tokens, dollars: the state's `spent` after this step
    calls_left: int | None

    def to_json(self) -> dict:
        return {"evaluated": self.evaluated, "error_rates": {str(p): rate for p, rate in self.error_rates.items()},
                "exhausted": self.exhausted, "spent": self.spent, "calls_left": self.calls_left}

    @classmethod
    def from_json(cls, data: dict) -> Evaluation:
        return cls(data["evaluated"], {int(p): rate for p, rate in data["error_rates"].items()}, data["exhausted"],
                   data["spent"], data["calls_left"])


@dataclass(frozen=True)
class StepStore:
    arm: ArmDir
    step: int

    @property
    def directory(self) -> Path:
        return self.arm.step_dir(self.step)

    @property
    def begun(self) -> bool:
        return self.directory.exists()

    def state(self) -> SearchState:
        """The search state the step starts from (the last committed one)."""
        return self._at_step(self.arm.load_state(), "saved")

    def _at_step(self, state: SearchState, which: str) -> SearchState:
        if state.step != self.step:
            raise RuntimeError(f"{self.arm.label}: the {which} state is at step {state.step}, not {self.step}")
        return state

    def batch(self) -> Batch:
        return Batch.from_json(self.arm.read(self.step, BATCH))

    def save_batch(self, batch: Batch) -> None:
        write_json(self.directory / BATCH, batch.to_json())

    def save_answers(self, questions: pa.Table, answers: pa.Table) -> None:
        write_parquet(self.directory / QUESTIONS, questions)
        write_parquet(self.directory / ANSWERS, answers)

    def answers(self) -> pd.DataFrame:
        return self.arm.read(self.step, ANSWERS).to_pandas()

    def answer_counts(self) -> dict[int, tuple[int, int]]:
        """para_id -> (answered, wrong) over the step's answers."""
        para_of = dict(zip(*self.arm.read(self.step, QUESTIONS).select(["question_id", "para_id"]).to_pydict().values(), strict=True))
        answers = self.arm.read(self.step, ANSWERS).select(["question_id", "outcome"]).to_pydict()
        return paragraph_counts([(para_of[q], outcome) for q, outcome in zip(answers["question_id"], answers["outcome"], strict=True)])

    def evaluation(self) -> Evaluation:
        return Evaluation.from_json(self.arm.read(self.step, EVALUATION))

    def save_evaluation(self, evaluation: Evaluation) -> None:
        write_json(self.directory / EVALUATION, evaluation.to_json())

    def updated(self) -> tuple[SearchState, set[int]]:
        """The state after update_dag, and the paragraphs it promoted to sources."""
        updated = self.arm.read(self.step, UPDATED)
        return self._at_step(SearchState.from_json(updated["state"]), "updated"), set(updated["new_sources"])

    def save_updated(self, state: SearchState, new_sources: set[int]) -> None:
        write_json(self.directory / UPDATED, {"state": state.to_json(), "new_sources": sorted(new_sources)}, indent=None)

    def previous_metrics(self) -> dict | None:
        return self.arm.read(self.step - 1, METRICS) if self.step > 0 else None

    def commit(self, paragraphs: pa.Table, metrics: dict, state: SearchState) -> None:
        """The step's paragraph table and metrics, then the state: once it is saved the step is complete."""
        write_parquet(self.directory / PARAGRAPHS, paragraphs)
        write_json(self.directory / METRICS, metrics)
        state.save(self.arm.state_path)


def stop_reason(arm: ArmDir) -> str | None:
    """Why a finished arm stopped, in words (None while it can go on)."""
    state = arm.load_state()
    if not state.finished or state.step == 0:
        return None
    store = StepStore(arm, state.step - 1)
    evaluation = store.evaluation()
    if evaluation.calls_left == 0:
        return "budget spent"
    if evaluation.exhausted:
        return "the token or dollar budget ran out"
    if not store.batch().para_ids:
        return "no paragraph left to ask"
    return f"stopped with {evaluation.calls_left} calls left: too few for the next paragraph's questions"
