"""MLflow logging for an audit: one parent run per audit, a child run per testee × arm.

The parent carries the audit's params and its headline figures (`<testee>.<arm>.error_rate`,
`.error_rate_vs_random`, `.wrong`, `.sources`, ...), tagged with the testee so audits of one model
over time line up; a child carries its arm, testee, budget and search settings as params, its
per-step metrics by step and again by questions asked (`by_questions/...`), and its final
`error_rate_vs_random`. The MLflow run ids are kept in runs/<run_id>/mlflow.json, so a resumed
audit logs into the same runs; runs are also tagged with the run's nonce, so one made by a process
killed before the record said so is found and used again, and a child's logged steps are read back
from MLflow itself (each step is one batch), so no step is logged twice."""

from __future__ import annotations

import os
import signal
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from urllib.parse import urlsplit

import mlflow
from filelock import FileLock
from mlflow.entities import Experiment, Metric, Param, ViewType
from mlflow.tracking import MlflowClient

from sea.audit.rundir import COMPARE_DIR, ArmDir, RunDir, flatten, slug
from sea.errors import ParamsError
from sea.files import read_json, write_json
from sea.settings import Params, without_credentials

RECORD = "mlflow.json"
_MAX_PARAM_CHARS = 6000  # MLflow's limit on a param value
# Opens the experiment in MLflow's classic runs view rather than its GenAI one (traces).
EXPERIMENT_TAGS = {"mlflow.experimentKind": "custom_model_development"}
DESCRIPTION = (
    "SEA audits. One parent run per audit: the params and, per testee and arm, the headline figures "
    "(`<testee>.<arm>.error_rate`, `.error_rate_vs_random`, `.wrong`, `.sources`, `.cost_per_error`); "
    "tag `sea.testee` lines up the audits of one model. Under it a child run per testee × arm "
    "(params `arm`, `testee`, `budget.*`, `search.*`): compare arms by charting `by_questions/cumulative_error_rate` "
    "(x-axis: step = questions asked) with the runs grouped by `arm`.")
BY_QUESTIONS = ("cumulative_error_rate", "cumulative_wrong", "cumulative_sources", "cumulative_dollars")
HEADLINE = {"error_rate": "cumulative_error_rate", "error_rate_vs_random": "error_rate_vs_random", "wrong": "cumulative_wrong",
            "questions": "cumulative_questions", "sources": "cumulative_sources", "dollars": "cumulative_dollars",
            "cost_per_error": "cost_per_error", "failed_calls": "failed_calls", "paid_dollars": "paid_dollars"}


def tracking_uri(params: Params) -> str:
    return os.environ.get("MLFLOW_TRACKING_URI") or params.audit.mlflow_tracking_uri


def check_tracking(params: Params, timeout_s: float = 5) -> None:
    """An MLflow server that does not answer is said at once, not after minutes of MLflow's retries."""
    uri = urlsplit(tracking_uri(params))
    if uri.scheme not in ("http", "https"):
        return
    shown = without_credentials(uri.geturl())
    try:
        with urllib.request.urlopen(f"{uri.geturl().rstrip('/')}/health", timeout=timeout_s):
            pass
    except urllib.error.HTTPError:
        pass  # it answers
    except (OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise ParamsError(f"the MLflow tracking server {shown} does not answer ({reason}); start it, or point "
                          f"audit.mlflow_tracking_uri (MLFLOW_TRACKING_URI wins over it) at one that does, or at "
                          f"sqlite:///mlflow.db") from None


@contextmanager
def stop_deferred() -> Iterator[None]:
    """A SIGTERM or a Ctrl-C (SIGINT) that arrives inside the block is acted on (its handler called) as the block ends.
    Handlers raise (Prefect's TerminationSignal, the CLI's Interrupted, Python's KeyboardInterrupt), and one raised
    inside an MLflow write can leave a SQLite connection holding the database's write lock: the runs' own end then
    waits on it (found by sending SIGTERM at chosen points of a step; a Ctrl-C in log_steps' write made the same stop
    take 49 s, with MLflow's "database is locked" tracebacks). A second one is acted on at once. Main thread only:
    elsewhere no handler runs anyway."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived = []

    def deferred(signum, frame) -> None:
        arrived.append((signum, frame))
        if len(arrived) == 2:  # not deferred: a write waiting on a tracking server that is down may retry for minutes
            _restore(previous)
            _act(previous, signum, frame)

    previous = {signum: signal.signal(signum, deferred) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        _restore(previous)
        if len(arrived) == 1:
            _act(previous, *arrived[0])


def _restore(handlers: dict) -> None:
    for signum, handler in handlers.items():
        signal.signal(signum, handler)


def _act(handlers: dict, signum: int, frame) -> None:
    if callable(handlers[signum]):
        handlers[signum](signum, frame)
    elif handlers[signum] == signal.SIG_DFL:
        signal.raise_signal(signum)


@contextmanager
def _active(run_id: str, nested: bool = False) -> Iterator[str]:
    """MLflow's active run for the block (FINISHED, or FAILED if the block raised), started and ended with SIGTERM and
    Ctrl-C deferred."""
    with stop_deferred():
        mlflow.start_run(run_id=run_id, nested=nested)
    status = "FAILED"
    try:
        yield run_id
        status = "FINISHED"
    finally:
        with stop_deferred():
            mlflow.end_run(status)


@stop_deferred()
def open_experiment(uri: str, name: str) -> tuple[MlflowClient, Experiment]:
    """The store at uri, made the current one, and its experiment `name`, described. MLflow creates and migrates a
    SQLite store on first use with no lock of its own: audits that start together on a new mlflow.db fail, and
    can leave it unusable ("table _alembic_tmp_experiments already exists" ever after). Here they open it one
    at a time, holding a lock file beside the database."""
    database = uri.removeprefix("sqlite:///").split("?")[0] if uri.startswith("sqlite:///") else ""
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        one_at_a_time = FileLock(f"{database}.lock")
    else:
        one_at_a_time = nullcontext()
    with one_at_a_time:
        mlflow.set_tracking_uri(uri)
        client = MlflowClient(uri)
        experiment = mlflow.set_experiment(name)
        for key, value in {**EXPERIMENT_TAGS, "mlflow.note.content": DESCRIPTION}.items():
            if key not in experiment.tags:  # a description a user wrote stays
                client.set_experiment_tag(experiment.experiment_id, key, value)
    return client, experiment


class AuditTracker:
    def __init__(self, run: RunDir, analysis: bool = False):
        """analysis: log to the store the run's record names, when it has one, not the one MLFLOW_TRACKING_URI (else
        the params) names now, and never rewrite the record: the run folder is the audit's (the DVC audit stage's
        output, which a rewrite would leave modified, so that every `dvc repro` checks it out and reruns the stages
        after it). A parent the store no longer holds is made again there, and found again by its tags."""
        self.run = run
        self._path = run.root / RECORD
        self._keeps_record = not analysis
        self.record = read_json(self._path) if self._path.is_file() else {}
        self.uri = (analysis and self.record.get("uri")) or tracking_uri(run.params)
        self.client, experiment = open_experiment(self.uri, run.params.audit.mlflow_experiment)
        self.experiment_id = experiment.experiment_id
        if self.record.get("uri") != self.uri:
            self.record = {"uri": self.uri, "parent": None, "children": {}}

    def _save(self) -> None:
        if self._keeps_record:
            write_json(self._path, self.record)

    def _live(self, run_id: str | None) -> bool:
        if not run_id:
            return False
        try:
            return self.client.get_run(run_id).info.lifecycle_stage == "active"
        except mlflow.exceptions.MlflowException:
            return False

    @contextmanager
    def audit(self, schedule: str | None = None) -> Iterator[str]:
        """The parent run, created on first use with the run's params and data versions."""
        with _active(self._parent(schedule)) as run_id:
            yield run_id

    def _made_before(self, **tags: str) -> str | None:
        """The live run of this audit with these tags that an earlier process made but did not record (killed
        in between): used again rather than left RUNNING beside a new one."""
        wanted = {"sea.nonce": self.run.nonce, **tags}
        found = self.client.search_runs([self.experiment_id], " and ".join(f"tags.`{k}` = '{v}'" for k, v in wanted.items()),
                                        run_view_type=ViewType.ACTIVE_ONLY)
        return next((r.info.run_id for r in found if ("mlflow.parentRunId" in r.data.tags) == ("mlflow.parentRunId" in tags)),
                    None)

    @stop_deferred()
    def _parent(self, schedule: str | None) -> str:
        run_id = self.record["parent"]
        if not self._live(run_id):
            run_id = self._made_before(**{"sea.run_id": self.run.run_id})
            if run_id is None:
                testees = [t.model for t in self.run.params.testee_settings()]
                tags = {"sea.run_id": self.run.run_id, "sea.nonce": self.run.nonce, "sea.testee": testees[0],
                        "sea.testees": ", ".join(testees), **({"sea.schedule": schedule} if schedule else {})}
                run_id = self.client.create_run(self.experiment_id, run_name=self.run.run_id, tags=tags).info.run_id
            self.client.log_batch(run_id, params=[Param(k, v) for k, v in self._params().items()])  # again: the same values
            self.record.update(parent=run_id, children={})
            self._save()
        return run_id

    def _params(self) -> dict[str, str]:
        params = flatten(self.run.params.model_dump(mode="json"))
        params.update({f"data.{name}": value for name, value in self.run.config["data_versions"].items()})
        params["models.testees"] = ", ".join(t.model for t in self.run.params.testee_settings())
        return {key: str(value)[:_MAX_PARAM_CHARS] for key, value in params.items()}

    @contextmanager
    def arm(self, arm: ArmDir) -> Iterator[str]:
        """The child run of one testee × arm, nested under the parent."""
        with _active(self._child(arm), nested=True) as run_id:
            yield run_id

    @stop_deferred()
    def _child(self, arm: ArmDir) -> str:
        label = f"{arm.testee}/{arm.arm}"
        child = self.record["children"].get(label)
        if not child or not self._live(child["id"]):
            tags = {"sea.run_id": self.run.run_id, "sea.arm": arm.arm, "sea.testee": arm.testee,
                    "mlflow.parentRunId": self.record["parent"]}
            run_id = self._made_before(**tags)
            if run_id is None:
                run_id = self.client.create_run(self.experiment_id, run_name=f"{arm.arm} · {arm.testee}",
                                                tags={**tags, "sea.nonce": self.run.nonce}).info.run_id
            self.client.log_batch(run_id, params=[Param(k, v) for k, v in self._arm_params(arm).items()])
            child = self.record["children"][label] = {"id": run_id}
            self._save()
        return child["id"]

    def _arm_params(self, arm: ArmDir) -> dict[str, str]:
        settings = self.run.params.model_dump(mode="json")
        params = {"arm": arm.arm, "testee": arm.testee, **flatten(settings["budget"], "budget."), **flatten(settings["search"], "search.")}
        return {key: str(value)[:_MAX_PARAM_CHARS] for key, value in params.items()}

    @stop_deferred()
    def log_steps(self, arm: ArmDir, metrics: list[dict]) -> None:
        """Per-step metrics not logged yet (numbers only: an unknown price is left out, not zero), each step in one
        batch; by questions asked only for a step that asked some (the last, empty one would repeat its count)."""
        run_id = self.record["children"][f"{arm.testee}/{arm.arm}"]["id"]
        logged = len(self.client.get_metric_history(run_id, "cumulative_questions"))  # steps 0 .. logged-1
        for i, row in enumerate(metrics[logged:], start=logged):
            values = {k: float(v) for k, v in row.items() if k != "step" and isinstance(v, int | float) and not isinstance(v, bool)}
            now = int(time.time() * 1000)
            batch = [Metric(k, v, now, row["step"]) for k, v in values.items()]
            if i == 0 or row["cumulative_questions"] != metrics[i - 1]["cumulative_questions"]:
                batch += [Metric(f"by_questions/{k}", values[k], now, int(row["cumulative_questions"])) for k in BY_QUESTIONS
                          if k in values]
            self.client.log_batch(run_id, metrics=batch)

    @stop_deferred()
    def log_changed(self, run_id: str, metrics: dict[str, float]) -> None:
        """Metrics on an MLflow run, but those it already holds with that value (a finished run run again,
        `sea findings` again): a figure's history is its changes."""
        logged = self.client.get_run(run_id).data.metrics
        now = int(time.time() * 1000)
        self.client.log_batch(run_id, metrics=[Metric(name, value, now, 0) for name, value in metrics.items()
                                               if logged.get(name) != value])

    def log_headline(self, summary: dict) -> None:
        """The final figures: per testee and arm on the parent run, and each child's ratio to random on it."""
        self.log_changed(self.record["parent"], {
            f"{slug(row['testee'])}.{row['arm']}.{name}": float(row[key])
            for row in summary["arms"] for name, key in HEADLINE.items() if row.get(key) is not None})
        for row in summary["arms"]:
            child = self.record["children"].get(f"{row['testee']}/{row['arm']}")
            if child and row.get("served_models"):
                self.client.set_tag(child["id"], "sea.served_models", ", ".join(row["served_models"])[:_MAX_PARAM_CHARS])
            if child and row["error_rate_vs_random"] is not None:
                self.log_changed(child["id"], {"error_rate_vs_random": float(row["error_rate_vs_random"])})

    @stop_deferred()
    def log_comparison(self, comparison: dict) -> None:
        """On the parent run: what changed since the previous audit of the testee, as metrics and a tag."""
        mlflow.set_tag("sea.compared_with", comparison["previous"])
        mlflow.log_metrics({f"compare.{key}": float(value) for key, value in comparison["counts"].items()})
        for arm, now in comparison["arms"]["current"].items():
            then = comparison["arms"]["previous"].get(arm, {}).get("error_rate")
            if then is not None and now["error_rate"] is not None:
                mlflow.log_metric(f"compare.{arm}.error_rate_change", now["error_rate"] - then)
        self.log_files([self.run.annotations / COMPARE_DIR / f"{comparison['previous']}.json"], COMPARE_DIR)

    @staticmethod
    @stop_deferred()
    def log_files(paths: list[Path], artifact_path: str | None = None) -> None:
        for path in paths:
            if path.is_file():
                mlflow.log_artifact(str(path), artifact_path)



def log_to_audit(run: RunDir, metrics: dict[str, float | None], files: list[Path], artifact_path: str) -> None:
    """Metrics (numbers only: None is left out) and files on the audit's parent run, as `sea findings`
    and `sea retest` leave them: in the store the audit logged to, whatever MLFLOW_TRACKING_URI says now, so
    an analysis neither makes the audit a second parent elsewhere nor rewrites the run's record of its own."""
    tracker = AuditTracker(run, analysis=True)
    with tracker.audit() as run_id, stop_deferred():
        tracker.log_changed(run_id, {key: float(value) for key, value in metrics.items() if value is not None})
        tracker.log_files(files, artifact_path)
