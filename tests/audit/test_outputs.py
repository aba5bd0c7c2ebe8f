"""An arm's whole-run tables follow its steps, and a question several arms asked counts once."""

import json

import pandas as pd

from sea.audit.outputs import arm_tables, asked_once, gather_arm, summarise
from sea.audit.rundir import ANSWERS, PARAGRAPHS, QUESTIONS, ArmDir, RunDir, open_run
from sea.audit.steps import in_process, run_steps
from sea.audit.workspace import Workspace
from sea.llm.cache import ResponseCache
from sea.llm.fake_server import FakeLLMServer
from sea.settings import Params
from tests.audit.conftest import small_audit


def _summary_of(run: RunDir, arm: ArmDir) -> dict:
    return next(row for row in summarise(run)["arms"] if (row["testee"], row["arm"]) == (arm.testee, arm.arm))


def _step_rows(arm: ArmDir, name: str) -> int:
    return sum(len(arm.read(step, name)) for step in range(arm.load_state().step))


def test_tables_read_after_the_run_went_on_hold_every_step_done_since(workspace):
    arm = workspace.run.arm("simulated:probe", "sea")
    run_steps(arm, in_process(workspace), 1)
    assert len(arm_tables(arm)[ANSWERS]) == _summary_of(workspace.run, arm)["cumulative_questions"]  # a report of the run part done
    run_steps(arm, in_process(workspace), 2)  # then a resume
    tables = arm_tables(arm)
    assert _summary_of(workspace.run, arm)["steps"] == 3
    assert len(tables[ANSWERS]) == _summary_of(workspace.run, arm)["cumulative_questions"]
    assert all(len(tables[name]) == _step_rows(arm, name) for name in (QUESTIONS, ANSWERS, PARAGRAPHS))


def test_tables_without_the_record_of_their_steps_are_gathered_again(workspace):
    arm = workspace.run.arm("simulated:probe", "sea")
    run_steps(arm, in_process(workspace), 2)
    gather_arm(arm)
    (arm.root / ANSWERS).write_bytes((arm.step_dir(0) / ANSWERS).read_bytes())  # a gathering killed before steps.csv, its last file
    (arm.root / "steps.csv").unlink()
    assert len(arm_tables(arm)[ANSWERS]) == _step_rows(arm, ANSWERS)


def test_a_step_completed_while_the_tables_are_gathered_is_not_recorded_as_gathered(workspace, monkeypatch):
    # a review: the state was read three times, so a step an audit completed meanwhile reached steps.csv but not
    # the tables, and every reader then took the stale tables as current
    arm = workspace.run.arm("simulated:probe", "sea")
    run_steps(arm, in_process(workspace), 2)
    reads, load_state = [], ArmDir.load_state

    def one_step_done_at_first(self):
        state = load_state(self)
        reads.append(state.step)
        if len(reads) == 1:
            state.step = 1  # the second step completes just after this read
        return state

    monkeypatch.setattr(ArmDir, "load_state", one_step_done_at_first)
    gather_arm(arm)
    monkeypatch.undo()
    assert len(pd.read_csv(arm.root / "steps.csv")) == 1  # the steps the tables hold: the first alone
    assert len(pd.read_parquet(arm.root / ANSWERS)) == len(arm.read(0, ANSWERS))
    assert len(arm_tables(arm)[ANSWERS]) == _step_rows(arm, ANSWERS)  # read again, now that they are out of date


def test_the_summary_reads_each_arms_state_once(workspace, monkeypatch):
    # a read-through: summarise read the state twice, for the steps' figures and for spent and finished, so a step
    # completed in between reached the second and not the first
    arm = workspace.run.arm("simulated:probe", "sea")
    run_steps(arm, in_process(workspace), 2)
    reads, load_state = [], ArmDir.load_state

    def one_step_done_at_first(self):
        state = load_state(self)
        if self.arm == arm.arm:
            reads.append(state.step)
            if len(reads) == 1:
                state.step = 1  # the second step completes just after this read
        return state

    monkeypatch.setattr(ArmDir, "load_state", one_step_done_at_first)
    [row] = [r for r in summarise(workspace.run)["arms"] if r["arm"] == arm.arm]
    assert row["steps"] == 1 and len(reads) == 1


def test_a_question_asked_in_several_arms_counts_once_with_an_answer_where_any_arm_got_one():
    # a bug hunt: a call that failed in the first arm hid the answer a later arm got to the same question (not cached,
    # so asked again): 445 of a run's 475 wrong answers were counted, the rest read as failed
    def arm(records: list[tuple[str, str, str | None]]) -> dict[str, pd.DataFrame]:
        return {QUESTIONS: pd.DataFrame({"question_id": [q for q, _, _ in records], "para_id": 7}),
                ANSWERS: pd.DataFrame({"question_id": [q for q, _, _ in records], "outcome": [o for _, o, _ in records],
                                       "parsed_letter": [letter for _, _, letter in records]})}

    first = arm([("failed-then-wrong", "failed", None), ("both-answered", "correct", "A"), ("never-answered", "failed", None)])
    second = arm([("never-answered", "failed", None), ("both-answered", "wrong", "B"), ("failed-then-wrong", "wrong", "C")])
    asked = asked_once([first, second]).set_index("question_id")
    assert list(asked.index) == ["failed-then-wrong", "both-answered", "never-answered"]  # the questions in the order first asked
    assert asked.loc["failed-then-wrong", ["outcome", "parsed_letter"]].tolist() == ["wrong", "C"]
    assert asked.loc["both-answered", ["outcome", "parsed_letter"]].tolist() == ["correct", "A"]  # answered in both: the first arm's
    assert asked.loc["never-answered", "outcome"] == "failed"
    assert (asked["para_id"] == 7).all()


def test_an_arm_that_spent_above_its_budget_says_so_with_the_exact_figure(workspace):
    # A bug hunt: a server counting more than the client reserved took budget.dollars=0.01 to 0.012051, and the
    # summary printed "$0.01". The summary now gives what was spent above a limit, as spent, beside the limit.
    arm = workspace.run.arm("simulated:probe", "sea")
    run_steps(arm, in_process(workspace), 1)
    assert "over_budget" not in _summary_of(workspace.run, arm)  # within its budget: no key, the metrics as before
    limit = workspace.run.params.budget.testee_calls
    state = json.loads(arm.state_path.read_text(encoding="utf-8"))
    state["spent"]["calls"] = limit + 3  # as a step's replies counted above their reservations leave it
    arm.state_path.write_text(json.dumps(state), encoding="utf-8")
    assert _summary_of(workspace.run, arm)["over_budget"] == {"calls": {"spent": limit + 3, "limit": limit}}


def test_the_model_names_the_endpoint_said_answered_are_in_the_arms_summary(vital_sample, tmp_path, workspace):
    """Left alone in an earlier round: the name the endpoint said answered was warned of when it differed, but recorded
    nowhere, so an audit's claims named the model asked for, not the one that answered."""
    raw = small_audit(vital_sample, tmp_path / "runs").model_dump(mode="json")
    raw["search"]["arms"] = ["random", "sea", "no_pruning"]
    with FakeLLMServer(script=["ok", "other_model"]) as server:  # the server names the model asked for, x, or another
        raw["models"]["testee"].update(model="openai-compatible:x", base_url=f"{server.base_url}/v1", max_in_flight=1)
        served = Workspace.of(open_run(tmp_path / "runs", "served", Params.model_validate(raw)).root)
        arm, after = served.run.arm("openai-compatible:x", "random"), served.run.arm("openai-compatible:x", "sea")
        run_steps(arm, in_process(served), 1)
        run_steps(after, in_process(served), 1)  # the same questions, from the cache: their replies' names with them
        assert _summary_of(served.run, after)["served_models"] == ["another-model", "x"]
        again = served.run.arm("openai-compatible:x", "no_pruning")
        served.testee("openai-compatible:x").cache = ResponseCache(None)  # asked afresh: the server names x only now
        run_steps(again, in_process(served), 1)
    assert _summary_of(served.run, arm)["served_models"] == ["another-model", "x"]
    assert _summary_of(served.run, again)["served_models"] == ["x"]  # found by a review: not the earlier arms' names
    simulated = workspace.run.arm("simulated:probe", "random")
    run_steps(simulated, in_process(workspace), 1)
    assert "served_models" not in _summary_of(workspace.run, simulated)  # a simulated testee's replies name no model
