"""flows/tracking.py: audits that start together on a new MLflow store; a SIGTERM or Ctrl-C during a write."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from mlflow.store.tracking.sqlalchemy_store import SqlAlchemyStore
from mlflow.tracking import MlflowClient

from flows.cli import Interrupted, _interrupt
from flows.tracking import DESCRIPTION, AuditTracker, log_to_audit, stop_deferred
from sea.audit.rundir import open_run, slug

REPO = Path(__file__).resolve().parents[2]
OPEN = "import sys; from flows.tracking import open_experiment; open_experiment(sys.argv[1], 'sea'); print('opened')"


def test_audits_that_start_together_on_a_new_store_all_open_it_and_leave_it_usable(tmp_path):
    uri = f"sqlite:///{tmp_path / 'new' / 'mlflow.db'}"
    starts = [subprocess.Popen([sys.executable, "-c", OPEN, uri], cwd=REPO, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True) for _ in range(4)]
    outputs = [start.communicate(timeout=300)[0] for start in starts]
    assert [start.returncode for start in starts] == [0] * 4, "\n".join(outputs)  # unlocked: alembic errors in most
    experiments = [e for e in MlflowClient(uri).search_experiments() if e.name == "sea"]
    assert len(experiments) == 1 and experiments[0].tags["mlflow.note.content"] == DESCRIPTION


@pytest.fixture
def tracked(make_params, tmp_path, monkeypatch):
    """(an MLflow store's URI, a new run logging to it, the run's first arm)."""
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    run = open_run(tmp_path / "runs", "t", make_params(audit={"mlflow_tracking_uri": uri}))
    return uri, run, run.arms()[0]


@pytest.mark.parametrize(("signum", "handler", "raised"), [(signal.SIGTERM, _interrupt, Interrupted),
                                                          (signal.SIGINT, signal.default_int_handler, KeyboardInterrupt)])
def test_a_sigterm_or_ctrl_c_during_an_mlflow_write_is_acted_on_once_the_write_is_done(tracked, monkeypatch, signum, handler,
                                                                                        raised):
    """A handler's exception inside an MLflow write can leave SQLite's write lock held, and the runs' end waits on it
    (a Ctrl-C there made `sea audit` take 49 s to stop, printing MLflow's "database is locked" tracebacks)."""
    uri, run, arm = tracked
    tracker = AuditTracker(run)
    log_batch = SqlAlchemyStore.log_batch

    def interrupted_midway(self, run_id, metrics, params, tags):
        if metrics:
            os.kill(os.getpid(), signum)  # its handler runs at the next line: in the write, unless deferred
        return log_batch(self, run_id, metrics, params, tags)

    monkeypatch.setattr(SqlAlchemyStore, "log_batch", interrupted_midway)
    previous = signal.signal(signum, handler)
    try:
        with pytest.raises(raised), tracker.audit(), tracker.arm(arm):
            tracker.log_steps(arm, [{"step": 0, "cumulative_questions": 10, "cumulative_error_rate": 0.5}])
    finally:
        signal.signal(signum, previous)
    logged = MlflowClient(uri).get_run(tracker.record["children"][f"{arm.testee}/{arm.arm}"]["id"])
    assert logged.data.metrics == {"cumulative_questions": 10.0, "cumulative_error_rate": 0.5,
                                   "by_questions/cumulative_error_rate": 0.5}
    assert logged.info.status == "FAILED"  # and ended, as the signal left the block


def test_a_second_stop_inside_an_mlflow_write_is_acted_on_at_once():
    # a review: a write waiting on a tracking server that is down retries for minutes, and Ctrl-C was held back throughout
    reached = []
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), stop_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            reached.append("the first is deferred")
            os.kill(os.getpid(), signal.SIGINT)
            reached.append("the second was too")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert reached == ["the first is deferred"] and signal.getsignal(signal.SIGINT) is previous


def _steps(n: int) -> list[dict]:
    return [{"step": i, "cumulative_questions": 10 * (i + 1), "cumulative_error_rate": 0.5} for i in range(n)]


def test_a_process_killed_between_an_mlflow_write_and_its_record_neither_logs_twice_nor_leaves_a_run_behind(tracked):
    """A bug hunt: kill -9 after a run was made (or a step logged) but before mlflow.json said so left a RUNNING
    parent or child for good, a parent without params, or a step logged twice, since a resume went by the record."""
    uri, run, arm = tracked
    first = AuditTracker(run)
    saved = first.record
    with first.audit(), first.arm(arm):
        first.log_steps(arm, _steps(3))
    (run.root / "mlflow.json").unlink()  # the record of every write lost, as with kill -9 right after each
    again = AuditTracker(run)
    with again.audit(), again.arm(arm):
        again.log_steps(arm, _steps(5))
    client = MlflowClient(uri)
    runs = client.search_runs([again.experiment_id])
    assert len(runs) == 2 and again.record == saved  # the same parent and child, adopted
    parent = client.get_run(saved["parent"])
    assert parent.data.params["search.tau"] and parent.info.status == "FINISHED"
    child = saved["children"][f"{arm.testee}/{arm.arm}"]["id"]
    assert [m.step for m in client.get_metric_history(child, "cumulative_error_rate")] == [0, 1, 2, 3, 4]
    assert [m.step for m in client.get_metric_history(child, "by_questions/cumulative_error_rate")] == [10, 20, 30, 40, 50]


def test_a_last_step_that_asked_nothing_is_not_logged_twice_by_questions(tracked):
    """A bug hunt: the final, empty step repeated every by_questions metric at the last count of questions."""
    uri, run, arm = tracked
    tracker = AuditTracker(run)
    with tracker.audit(), tracker.arm(arm):
        tracker.log_steps(arm, [*_steps(2), {"step": 2, "cumulative_questions": 20, "cumulative_error_rate": 0.5}])
    child = tracker.record["children"][f"{arm.testee}/{arm.arm}"]["id"]
    client = MlflowClient(uri)
    assert [m.step for m in client.get_metric_history(child, "cumulative_error_rate")] == [0, 1, 2]
    assert [m.step for m in client.get_metric_history(child, "by_questions/cumulative_error_rate")] == [10, 20]


def test_an_analysis_under_another_store_logs_to_the_audits_and_leaves_its_record(tracked, tmp_path, monkeypatch):
    """A bug hunt: `sea findings` under another MLFLOW_TRACKING_URI rewrote mlflow.json (a new store, a new parent,
    no children), so the audit's own runs were forgotten."""
    uri, run, arm = tracked
    tracker = AuditTracker(run)
    with tracker.audit(), tracker.arm(arm):
        tracker.log_steps(arm, _steps(2))
    record = (run.root / "mlflow.json").read_text()
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'other.db'}")
    log_to_audit(run, {"findings.clusters": 3}, [], "findings")
    assert (run.root / "mlflow.json").read_text() == record
    assert MlflowClient(uri).get_run(tracker.record["parent"]).data.metrics["findings.clusters"] == 3


def test_an_analysis_on_a_store_that_lost_the_audit_leaves_the_runs_record(tracked):
    """A bug hunt: after a `dvc checkout` over another mlflow.db, `sea findings` wrote a new parent into mlflow.json,
    the DVC audit stage's output, so every `dvc repro` checked the run out again and reran findings and the report."""
    uri, run, arm = tracked
    tracker = AuditTracker(run)
    with tracker.audit(), tracker.arm(arm):
        tracker.log_steps(arm, _steps(2))
    record = (run.root / "mlflow.json").read_text()
    MlflowClient(uri).delete_run(tracker.record["parent"])  # the store no longer holds the audit's parent
    for clusters in (3, 4):
        log_to_audit(run, {"findings.clusters": clusters}, [], "findings")
    assert (run.root / "mlflow.json").read_text() == record
    parents = MlflowClient(uri).search_runs([tracker.experiment_id], "attributes.run_name = 't'")
    assert [p.data.metrics["findings.clusters"] for p in parents] == [4]  # made again once, then found by its tags


def test_findings_and_a_headline_run_again_log_only_the_figures_that_changed(tracked):
    """A bug hunt: every `sea findings` logged its figures again with the same values (history [4.0, 4.0])."""
    uri, run, arm = tracked
    for clusters in (4, 4, 5):
        log_to_audit(run, {"findings.clusters": clusters, "findings.unnamed": None}, [], "findings")
    tracker = AuditTracker(run)
    for _ in range(2):
        with tracker.audit():
            tracker.log_headline({"arms": [{"testee": arm.testee, "arm": arm.arm, "cumulative_wrong": 7,
                                            "error_rate_vs_random": None}]})
    client, parent = MlflowClient(uri), tracker.record["parent"]
    assert [m.value for m in client.get_metric_history(parent, "findings.clusters")] == [4.0, 5.0]
    assert [m.value for m in client.get_metric_history(parent, f"{slug(arm.testee)}.{arm.arm}.wrong")] == [7.0]


def test_the_model_names_the_endpoint_said_answered_are_a_tag_of_the_arms_run(tracked):
    # left alone in an earlier round: the name the endpoint said answered was recorded nowhere
    uri, run, arm = tracked
    tracker = AuditTracker(run)
    with tracker.audit():
        with tracker.arm(arm):
            pass
        tracker.log_headline({"arms": [{"testee": arm.testee, "arm": arm.arm, "served_models": ["another-model", "x"],
                                        "error_rate_vs_random": None}]})
    child = tracker.record["children"][f"{arm.testee}/{arm.arm}"]["id"]
    assert MlflowClient(uri).get_run(child).data.tags["sea.served_models"] == "another-model, x"


def test_make_mlflow_ui_serves_the_store_the_audits_log_to(tmp_path):
    """A docs hunt: `make mlflow-ui` served sqlite:///mlflow.db whatever MLFLOW_TRACKING_URI said, so the audits
    logged to another store were not in the UI."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    served = tmp_path / "served"
    scripts = {"python": f'exec {sys.executable} "$@"',  # this environment's, which a symlink would not be
               "mlflow": f'echo "$@" > {served}'}  # stands in for the UI: says what it was asked to serve
    for name, line in scripts.items():
        (venv / "bin" / name).write_text(f"#!/bin/sh\n{line}\n")
        (venv / "bin" / name).chmod(0o755)
    (tmp_path / "params.yaml").write_text((REPO / "params.yaml").read_text())
    env = {key: value for key, value in os.environ.items() if key != "MLFLOW_TRACKING_URI"} | {"PYTHONPATH": str(REPO)}
    make = ["make", "-s", "-f", str(REPO / "Makefile"), "VENV=venv", "-o", "venv/.installed", "mlflow-ui"]  # venv/bin first on PATH
    for uri, expected in ((None, "sqlite:///mlflow.db"), (f"sqlite:///{tmp_path / 'other.db'}", f"sqlite:///{tmp_path / 'other.db'}")):
        subprocess.run(make, cwd=tmp_path, env=env | ({"MLFLOW_TRACKING_URI": uri} if uri else {}), check=True, timeout=300)
        assert served.read_text().split() == ["ui", "--backend-store-uri", expected, "--host", "127.0.0.1", "--port", "5000"]
    # A review: a tracking server's URI was given to `mlflow ui --backend-store-uri`, which cannot serve it
    for uri in ("http://sea:secret@127.0.0.1:5005", "https://mlflow.example.org/"):
        served.unlink(missing_ok=True)
        said = subprocess.run(make, cwd=tmp_path, env=env | {"MLFLOW_TRACKING_URI": uri}, check=True, timeout=300,
                              capture_output=True, text=True).stdout
        shown = uri.replace("sea:secret@", "")
        assert said == f"MLflow: the audits log to the tracking server {shown}, which serves its own UI: open {shown} (nothing started)\n"
        assert not served.exists()
