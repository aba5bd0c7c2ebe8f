"""An arm's step files gathered into whole-run tables, and the run's summary across arms:
metrics.json (final figures) and curves.csv (step × arm × cumulative error), rebuilt from the
run directory alone, without asking any model."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import pyarrow as pa

from sea.audit.rundir import ANSWERS, METRICS, PARAGRAPHS, QUESTIONS, STEPS_CSV, ArmDir, RunDir
from sea.files import read_table, write_json, write_parquet, write_text
from sea.llm.ledger import Reservation, SentCalls, over_limits
from sea.questions.model import Outcome
from sea.search.arms import BASELINE
from sea.search.state import SearchState

DAG_JSON, CATEGORIES_CSV = "dag.json", "categories.csv"
CURVE_COLUMNS = ("testee", "arm", "step", "questions", "cumulative_questions", "step_error_rate", "cumulative_error_rate")


def step_metrics(arm: ArmDir, state: SearchState | None = None) -> list[dict]:
    """The completed steps' metrics, by `state` when the caller has read it (one read: a step an audit still running
    completes meanwhile must not reach some of the caller's figures and not others)."""
    return [arm.read(step, METRICS) for step in range((state or arm.load_state()).step)]


def gather_arm(arm: ArmDir) -> dict[str, Path]:
    """Whole-run tables for one arm from its completed steps; returns the files written. The state is read once:
    a step an audit still running completes meanwhile must not reach steps.csv without reaching the tables."""
    state = arm.load_state()
    steps = range(state.step)
    written = {}
    for name in (QUESTIONS, ANSWERS, PARAGRAPHS):
        tables = [arm.read(step, name) for step in steps]
        if tables:
            written[name] = arm.root / name
            write_parquet(written[name], pa.concat_tables(tables))
    written[DAG_JSON] = arm.root / DAG_JSON
    write_json(written[DAG_JSON], state.dag.to_json())
    if PARAGRAPHS in written:
        written[CATEGORIES_CSV] = arm.root / CATEGORIES_CSV
        write_text(written[CATEGORIES_CSV], category_table(pd.read_parquet(written[PARAGRAPHS])).to_csv(index=False))
    # Last, as it records which steps the tables above hold: a gathering cut short is done again.
    written[STEPS_CSV] = arm.root / STEPS_CSV
    write_text(written[STEPS_CSV], pd.DataFrame(step_metrics(arm, state)).to_csv(index=False))
    return written


def arm_tables(arm: ArmDir) -> dict[str, pd.DataFrame]:
    """An arm's whole-run tables, gathered again unless they hold every step it has completed
    (a run reported part done and then resumed); empty before its first step."""
    files = {name: arm.root / name for name in (PARAGRAPHS, QUESTIONS, ANSWERS, CATEGORIES_CSV)}
    if arm.gathered_steps() != arm.load_state().step or not all(path.is_file() for path in files.values()):
        gather_arm(arm)
    if not files[PARAGRAPHS].is_file():
        return {}
    tables = {name: pd.read_csv(path) if name.endswith(".csv") else read_table(path).to_pandas() for name, path in files.items()}
    # pandas reads a null string as NaN, which `in`, `or` and json.dumps take for a value: no letter is None
    letters = tables[ANSWERS]["parsed_letter"]
    tables[ANSWERS]["parsed_letter"] = letters.astype(object).where(letters.notna(), None)
    return tables


def asked_once(tables: Iterable[dict[str, pd.DataFrame]]) -> pd.DataFrame:
    """Every question in several arms' tables, once, joined with the testee's answer: an answer where
    any arm got one, the failed record only where every arm's call failed (a failed call is not
    cached, so another arm asking the same question may get a real answer); among several, the
    first arm's."""
    tables = list(tables)
    questions = pd.concat([t[QUESTIONS] for t in tables]).drop_duplicates("question_id")
    answers = pd.concat([t[ANSWERS] for t in tables])
    answers = answers.sort_values("outcome", key=lambda outcome: outcome == Outcome.FAILED, kind="stable")
    return questions.merge(answers.drop_duplicates("question_id"), on="question_id")


def category_table(paragraphs: pd.DataFrame) -> pd.DataFrame:
    """Per top-level category: paragraphs evaluated, their mean error rate, sources found."""
    evaluated = paragraphs.dropna(subset=["error_rate"])
    table = evaluated.groupby("category").agg(paragraphs=("para_id", "size"), mean_error_rate=("error_rate", "mean"),
                                              sources=("source", "sum"))
    return table.reset_index().sort_values(["sources", "mean_error_rate"], ascending=False)


def summarise(run: RunDir) -> dict:
    """Final figures per testee and arm, and each arm's cumulative error relative to random's."""
    arms = []
    recorded = run.params  # the run's own, from its config.json (a dependency of every stage reading the run), not params.yaml
    limits = {"calls": recorded.budget.testee_calls, "tokens": recorded.budget.tokens, "dollars": recorded.budget.dollars}
    for arm in run.arms():
        state = arm.load_state()
        steps = step_metrics(arm, state)
        last = steps[-1] if steps else {}
        # a server counted more than the client reserved (ModelClient._note_excess): the exact figure, the limit beside it
        over = {field: {"spent": spent, "limit": limits[field]}
                for field, spent in over_limits(limits, Reservation(**state.spent)).items()}
        arms.append({"testee": arm.testee, "arm": arm.arm, "steps": len(steps), "finished": state.finished,
                     **({"over_budget": over} if over else {}),
                     "failed_calls": sum(step["failed_calls"] for step in steps),
                     **({"served_models": served} if (served := arm.served_models()) else {}),
                     **{key: last.get(key) for key in ("cumulative_questions", "cumulative_wrong", "cumulative_error_rate",
                                                       "cumulative_sources", "cumulative_pruned_sources", "active_sources",
                                                       "cumulative_testee_tokens", "cumulative_generator_tokens",
                                                       "cumulative_dollars", "cost_per_error", "tokens_per_error")},
                     **(SentCalls(arm.sent_calls_path, len(steps)).paid() if arm.sent_calls_path.is_file() else {})})
    for row in arms:
        random = next((r for r in arms if r["testee"] == row["testee"] and r["arm"] == BASELINE), None)
        ratio = None
        if random and random["cumulative_error_rate"] and row["cumulative_error_rate"] is not None:
            ratio = row["cumulative_error_rate"] / random["cumulative_error_rate"]
        row["error_rate_vs_random"] = ratio
    return {"run_id": run.run_id, "arms": arms}


def curves(run: RunDir) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CURVE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for arm in run.arms():
        for m in step_metrics(arm):
            writer.writerow({"testee": arm.testee, "arm": arm.arm, "step": m["step"], "questions": m["questions_asked"],
                             "cumulative_questions": m["cumulative_questions"], "step_error_rate": m["step_error_rate"],
                             "cumulative_error_rate": m["cumulative_error_rate"]})
    return out.getvalue()


def write_summary(run: RunDir, directory: Path) -> tuple[Path, Path]:
    """metrics.json and curves.csv for the run into `directory` (the run's own, or reports/ for DVC)."""
    metrics_path, curves_path = directory / "metrics.json", directory / "curves.csv"
    nested: dict[str, dict] = {}
    for row in summarise(run)["arms"]:
        nested.setdefault(row["testee"], {})[row["arm"]] = {k: v for k, v in row.items() if k not in ("testee", "arm")}
    write_json(metrics_path, {"run_id": run.run_id, "testees": nested})  # nested keys: what `dvc metrics show` reads
    write_text(curves_path, curves(run))
    return metrics_path, curves_path
