"""An arm's whole-run tables follow its steps."""

from sea.audit.outputs import arm_tables, gather_arm, summarise
from sea.audit.rundir import ANSWERS, PARAGRAPHS, QUESTIONS, ArmDir, RunDir
from sea.audit.steps import in_process, run_steps


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
