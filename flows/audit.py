"""The `sea_audit` flow: every testee × arm searched step by step until its budget is spent, each
step as the six tasks in tasks/steps.py, logged to MLflow, checkpointed under runs/<run_id>/.

Re-running a run id continues from the last complete step of each arm and reaches exactly the
result an uninterrupted run reaches; a finished run is replayed from its files with no model call."""

from __future__ import annotations

from pathlib import Path

from prefect import flow
from tqdm import tqdm

from flows.tracking import AuditTracker
from sea.audit.compare import compare_runs, previous_run
from sea.audit.figures import arm_figures
from sea.audit.outputs import gather_arm, step_metrics, summarise, write_summary
from sea.audit.rundir import ArmDir, RunDir, audit_lock, open_run
from sea.audit.step_store import stop_reason
from sea.audit.steps import run_steps
from sea.audit.validate import AuditPlan, plan_audit
from sea.audit.workspace import Workspace
from sea.questions.generate import make_stores
from sea.search.state import SearchState
from tasks.steps import as_tasks


def open_audit(plan: AuditPlan, progress: bool) -> RunDir:
    """The run directory, new or continued, once everything that can be checked before a model
    is called has been (plan_audit; the CLI checks the same before Prefect starts). Called with
    the run's audit_lock held."""
    run = open_run(plan.params.audit.runs_dir, plan.run_id, None if plan.resume else plan.params)
    run.keep_params(plan.params)  # a resumed run's new pacing and retry settings
    make_stores(run.params, progress)
    _ = Workspace.of(run.root).index  # loads the index once, before any step
    return run


def run_arm(run: RunDir, arm: ArmDir, tracker: AuditTracker, progress: bool) -> None:
    spent = arm.load_state().spent["calls"]
    with tqdm(total=run.params.budget.testee_calls, initial=spent, unit="call", desc=arm.label, disable=not progress) as bar:

        def after_step(state: SearchState, record: dict) -> None:
            tracker.log_steps(arm, step_metrics(arm))
            bar.update(state.spent["calls"] - bar.n)
            bar.set_postfix(step=state.step, error=f"{record['cumulative_error_rate'] or 0:.3f}",
                            sources=len(state.sources), refresh=False)

        run_steps(arm, as_tasks(run), after_step=after_step)
        tracker.log_steps(arm, step_metrics(arm))  # steps a killed run completed but did not log
        end_bar(bar, stop_reason(arm))


def end_bar(bar: tqdm, reason: str | None) -> None:
    """A bar ends at what was done: an arm that stopped short of its call budget, or that had none (a token or dollar
    budget), says why."""
    if reason and not bar.disable and (bar.total is None or bar.n < bar.total):
        bar.total = bar.n
        bar.set_postfix_str(f"{bar.postfix}, {reason}" if bar.postfix else reason, refresh=False)
        bar.refresh()


@flow(name="sea-audit", description="Stochastic Error Ascent: search a testee's factual blind spots under a budget.")
def sea_audit(params_path: str = "params.yaml", overrides: dict | None = None, run_id: str | None = None,
              resume: bool = False, summary_dir: str | None = None, schedule: str | None = None,
              progress: bool = False) -> dict:
    """Audit every testee with every arm. `overrides` sets params by dotted key; `summary_dir`
    also receives metrics.json and curves.csv (DVC's reports/); `schedule` tags the MLflow run."""
    plan = plan_audit(params_path, overrides, run_id, resume)
    with audit_lock(plan.params.audit.runs_dir, plan.run_id):  # another process auditing the run is refused
        return _audit(open_audit(plan, progress), summary_dir, schedule, progress)


def _audit(run: RunDir, summary_dir: str | None, schedule: str | None, progress: bool) -> dict:
    tracker = AuditTracker(run)
    with tracker.audit(schedule):
        for arm in run.arms():
            with tracker.arm(arm):
                run_arm(run, arm, tracker, progress)
                files = gather_arm(arm)
                tracker.log_files([*files.values(), *arm_figures(arm)])
        summary_files = write_summary(run, run.root)
        if summary_dir:
            write_summary(run, Path(summary_dir))
        tracker.log_files(list(summary_files))
        summary = summarise(run)
        tracker.log_headline(summary)
        previous = previous_run(run) if schedule else None
        if previous:  # a recurring audit says what changed since the last one
            tracker.log_comparison(compare_runs(previous, run, run.params.audit.compare_calls, progress))
    return summary
