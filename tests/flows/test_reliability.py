"""Issue 10's faults end to end, through the `sea` command: user errors before anything starts, a
dead endpoint, damaged run files and their stated fixes, SIGTERM."""

import http.server
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pandas as pd
import prefect
import pytest

from flows.server import free_port
from sea.audit import rundir
from sea.audit.outputs import summarise
from sea.audit.rundir import RunDir
from sea.llm.fake_server import FakeLLMServer
from sea.llm.ledger import dollars_text
from tests.flows.conftest import cli_audit_params, subprocess_env, write_params

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.reliability


def sea(args, env=None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flows.cli", *args], cwd=REPO, env=env or os.environ.copy(),
                          capture_output=True, text=True, timeout=600, **kwargs)


@pytest.fixture
def params_path(vital_sample, tmp_path):
    return write_params(cli_audit_params(vital_sample, tmp_path / "runs"), tmp_path / "params.yaml")


@pytest.mark.parametrize(("args", "message"), [
    (["--set", "search.tau=2"], "search.tau: Input should be less than or equal to 1"),
    (["--set", "search.arms=[greedy]"], "search.arms.0: 'greedy' is not allowed"),
    (["--set", "search.typo=1"], "search.typo: unknown key"),
    (["--set", "search.arms=[sea, random, sea]"], "search.arms: sea listed twice"),
    (["--set", "budget.testee_calls=10"], "budget.testee_calls: 10 cannot pay for one batch"),
    (["--set", "questions.gate=on"], "questions.gate: on needs a verifier"),
    (["--resume", "nowhere"], "no run 'nowhere'"),
    (["--run-id", "../x"], "run id '../x'"),
    (["--set", "models.testee.model=openai:gpt-4o-mini"], "OPENAI_API_KEY is not set"),
    (["--set", "models.testee.model=openai-compatible:x", "--set", "models.testee.base_url=not-a-url"],
     "base_url 'not-a-url' is not an http(s) URL"),
    (["--set", "index.factory=IVF999999,Flat"], "index.factory is 'IVF999999,Flat' but the index"),
    (["--set", "models.testee.model=openai-compatible:x", "--set", "models.testee.base_url=http://127.0.0.1:9/v1",
      "--set", "budget.dollars=1"], "budget.dollars: openai-compatible:x has no price"),
    (["--set", "embedding.device=cuda:99"], "embedding.device: cuda:99 is not available on this machine"),
    (["--set", "audit.mlflow_tracking_uri=http://user:secret@127.0.0.1:9"], "the MLflow tracking server http://127.0.0.1:9 does not answer"),
])
def test_a_user_error_is_one_line_before_prefect_or_a_run_directory_exists(params_path, tmp_path, args, message):
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "PREFECT_API_URL", "MLFLOW_TRACKING_URI")}
    done = sea(["--params", params_path, "--quiet", "audit", *args], env)
    assert "secret" not in done.stderr
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("sea: error: ") and message in done.stderr
    assert "Traceback" not in done.stderr and "prefect" not in (done.stdout + done.stderr).lower()
    assert not (tmp_path / "runs").exists()  # nothing half-made for `sea summary` to list


class _BusyPrefectAPI(http.server.BaseHTTPRequestHandler):
    """A Prefect API that is up but whose every call fails as a locked SQLite store makes it fail."""

    def do_GET(self):
        path = self.path.split("?")[0].rstrip("/")
        if path.endswith("/health"):
            self._answer(200, "true")
        elif path.endswith("/admin/version"):
            self._answer(200, json.dumps(prefect.__version__))
        else:
            self._answer(503, json.dumps({"exception_message": "Service Unavailable"}))

    do_POST = do_PATCH = do_GET

    def _answer(self, status: int, body: str) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args) -> None:
        pass


def test_a_prefect_api_that_keeps_failing_is_one_line_that_says_what_to_do(params_path, tmp_path):
    with http.server.ThreadingHTTPServer(("127.0.0.1", 0), _BusyPrefectAPI) as api:
        threading.Thread(target=api.serve_forever, daemon=True).start()
        env = {**os.environ, "PREFECT_API_URL": f"http://127.0.0.1:{api.server_address[1]}/api", "PREFECT_CLIENT_MAX_RETRIES": "0"}
        done = sea(["--params", params_path, "--quiet", "audit", "--run-id", "busy"], env)
        api.shutdown()
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("sea: error: the Prefect API answered 503 to ") and "database is locked" in done.stderr
    assert "Traceback" not in done.stderr and "--resume" not in done.stderr  # no run began, so none to resume
    assert not (tmp_path / "runs" / "busy").exists()


@pytest.mark.parametrize(("text", "message"), [(b"search: {tau: [\n", "not valid YAML"),
                                               (b"search: {tau: 0.5}  # caf\xe9\n", "not UTF-8 text")])
def test_a_params_file_that_cannot_be_read_is_one_line(tmp_path, text, message):
    broken = tmp_path / "params.yaml"
    broken.write_bytes(text)
    done = sea(["--params", str(broken), "audit"])
    assert done.returncode == 2 and done.stderr.startswith("sea: error: ") and message in done.stderr, done.stderr


def test_a_runs_folder_that_cannot_be_written_is_one_line(params_path, tmp_path):
    (tmp_path / "a-file").write_text("")
    done = sea(["--params", params_path, "--quiet", "audit", "--set", f"audit.runs_dir={tmp_path / 'a-file' / 'runs'}"])
    assert done.returncode == 2 and done.stderr.startswith("sea: error: ") and "Traceback" not in done.stdout + done.stderr
    assert "Not a directory; a file stands where a folder should be" in done.stderr, done.stderr


@pytest.mark.parametrize(("args", "message"), [(["--cron", "not a cron"], 'the schedule: Invalid cron string: "not a cron"'),
                                               (["--interval", "-5"], "the schedule: --interval -5 is not a number of seconds greater than 0"),
                                               (["--interval", "0"], "the schedule: --interval 0 is not a number of seconds greater than 0"),
                                               (["--params", "nowhere.yaml"], "nowhere.yaml: not found"),
                                               (["--params", "{small_budget}"], "budget.testee_calls: 40 cannot pay for one batch")])
def test_a_schedule_that_cannot_be_served_is_one_line(args, message, tmp_path):
    (tmp_path / "small.yaml").write_text("budget:\n  testee_calls: 40\n", encoding="utf-8")  # said at once, not in each audit's log
    args = [arg.format(small_budget=tmp_path / "small.yaml") for arg in args]
    done = subprocess.run([sys.executable, "-m", "flows.deploy", *args], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("sea: error: "), done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_an_unreachable_testee_stops_the_audit_at_once_and_the_run_can_resume(prefect_server, mlflow_uri, params_path):
    url = f"http://127.0.0.1:{free_port()}/v1"
    args = ["--params", params_path, "--quiet", "audit", "--run-id", "dead", "--set", "models.testee.model=openai-compatible:x",
            "--set", f"models.testee.base_url={url}"]
    started = time.monotonic()
    done = sea(args, subprocess_env(prefect_server, mlflow_uri))
    assert done.returncode == 2, done.stdout + done.stderr
    last = done.stderr.strip().splitlines()[-1]
    # the tenth failure in a row, or a first step that ends failing, whichever comes first
    assert re.match(rf"sea: error: openai-compatible:x at {re.escape(url)}: (the last \d+ calls all failed|\d+ calls failed after)", last)
    assert "Traceback" not in done.stdout + done.stderr  # said once, by sea: not first in Prefect's report
    assert "sea audit --resume dead" in done.stderr
    assert time.monotonic() - started < 120  # it used to run for as long as it was let
    run = RunDir(Path(params_path).parent / "runs" / "dead")
    # Nothing charged and nothing finished, and no step kept with the failed calls it ended on.
    assert all(not arm.load_state().finished and arm.load_state().spent["calls"] == 0 for arm in run.arms())
    committed = [arm.step_dir(step) / rundir.ANSWERS for arm in run.arms() for step in range(arm.load_state().step)]
    failed = sum(len(pd.read_parquet(answers)) for answers in committed)
    assert failed == 0
    summary = sea(["--params", params_path, "summary", "dead"]).stdout  # the failed calls are said, not hidden
    assert (f"\n{failed} calls failed after every retry" in summary) == (failed > 0), summary
    assert "Continue it with `sea audit --resume dead`" in summary  # not figures that read as a finished audit's


def test_a_paid_run_killed_with_calls_in_flight_and_resumed_stays_within_its_budget(prefect_server, mlflow_uri, params_path):
    env = subprocess_env(prefect_server, mlflow_uri)
    with FakeLLMServer(latency_s=0.3) as server:
        args = ["--params", params_path, "--quiet", "audit", "--run-id", "paid", "--set", "models.testee.model=openai-compatible:x",
                "--set", f"models.testee.base_url={server.base_url}/v1", "--set", "models.testee.max_in_flight=8",
                "--set", "search.arms=[sea]",  # one arm: another would be answered from its cache, and hide an overshoot
                "--set", "prices={openai-compatible:x: {input: 1000, output: 2000}}"]  # dollars per million tokens
        victim = subprocess.Popen([sys.executable, "-m", "flows.cli", *args], cwd=REPO, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 300
        while server.state.requests < 30 and victim.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        victim.kill()  # with calls in flight: the server does them, and would bill them
        output = victim.communicate()[0]
        assert victim.returncode == -signal.SIGKILL, output
        resumed = sea(["--params", params_path, "--quiet", "audit", "--resume", "paid"], env)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    arms = RunDir(Path(params_path).parent / "runs" / "paid").arms()
    charged = sum(arm.load_state().spent["calls"] for arm in arms)
    assert len(arms) == 1 and arms[0].load_state().finished and charged <= 72
    assert server.state.requests <= charged  # the calls cut in flight are charged, though asked again
    paid = summarise(RunDir(Path(params_path).parent / "runs" / "paid"))["arms"][0]  # what the server saw, over both processes
    assert paid["paid_calls"] + paid["unsettled_calls"] == server.state.requests and paid["unsettled_calls"] > 0
    assert paid["paid_tokens"] <= server.state.input_tokens + server.state.output_tokens
    answers = pd.concat(pd.read_parquet(arms[0].step_dir(step) / rundir.ANSWERS) for step in range(arms[0].load_state().step))
    # every uncached answer was paid, and so was each reply the killed process got and the resumed one found in the cache
    assert answers.query("not cached")["cost_usd"].sum() - 1e-9 <= paid["paid_dollars"] <= answers["cost_usd"].sum() + 1e-9
    assert f"Paid to the testee API: {dollars_text(paid['paid_dollars'])} for {paid['paid_calls']} replies" in resumed.stdout


def test_an_outage_that_begins_at_the_end_of_a_step_is_redone_on_resume_not_kept(prefect_server, mlflow_uri, params_path):
    env = subprocess_env(prefect_server, mlflow_uri)
    with FakeLLMServer() as server:
        def audit(*args):
            return sea(["--params", params_path, "--quiet", "audit", *args, "--set", "models.testee.model=openai-compatible:x",
                        "--set", f"models.testee.base_url={server.base_url}/v1", "--set", "models.testee.max_in_flight=1",
                        "--set", "models.testee.max_attempts=1", "--set", "search.arms=[sea]"], env)

        assert audit("--run-id", "straight").returncode == 0
        straight = RunDir(Path(params_path).parent / "runs" / "straight")
        first_step = json.loads((straight.arms()[0].step_dir(0) / rundir.METRICS).read_text())["questions_asked"]
        server.script.extend(["ok"] * (first_step - 3) + ["500"] * 100)  # the last 3 calls of step 0 fail, and all after
        stopped = audit("--run-id", "outage")
        assert (stopped.returncode == 2 and "3 calls failed after their retries" in stopped.stderr
                and "a probe after them failed too" in stopped.stderr), stopped.stderr
        assert "ERROR" not in stopped.stdout + stopped.stderr  # said once, by sea
        outage = RunDir(Path(params_path).parent / "runs" / "outage")
        assert outage.arms()[0].load_state().step == 0  # step 0 is not kept with 3 failed calls
        server.script.clear()  # the endpoint is back
        resumed = sea(["--params", params_path, "--quiet", "audit", "--resume", "outage"], env)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert _step_files(outage) == _step_files(straight)  # as if the outage had never been


@pytest.fixture(scope="module")
def finished(straight_cli_audit, vital_sample, prefect_server, tmp_path_factory):
    """The shared uninterrupted audit, copied into a runs folder of this module's own: its params file,
    run, environment and step files. The tests below damage it or interrupt another run, and compare
    with these files; resuming the copy redoes its arm in this folder, not in the shared one."""
    root = tmp_path_factory.mktemp("reliability")
    shutil.copytree(straight_cli_audit.run.root, root / "runs" / "straight")
    params_path = write_params(cli_audit_params(vital_sample, root / "runs"), root / "params.yaml")
    run = RunDir(root / "runs" / "straight")
    return params_path, run, subprocess_env(prefect_server, f"sqlite:///{root / 'mlflow.db'}"), _step_files(run)


def _step_files(run: RunDir):
    return [(arm.arm, step, name, (arm.step_dir(step) / name).read_bytes())
            for arm in run.arms() for step in range(arm.load_state().step)
            for name in (rundir.QUESTIONS, rundir.METRICS, rundir.PARAGRAPHS, rundir.BATCH)]


def test_damaged_run_files_are_named_with_a_fix_that_works(finished):
    params_path, run, env, before = finished
    arm = run.arm("simulated:probe", "sea")
    state = arm.state_path.read_text()

    answers = arm.step_dir(1) / rundir.ANSWERS
    answers.write_bytes(answers.read_bytes()[:-40])  # a damaged Parquet footer
    report = sea(["--params", params_path, "report", "straight"], env)
    assert report.returncode == 2 and f"{answers} is damaged (not readable Parquet" in report.stderr
    assert f"delete {arm.root} and resume" in report.stderr and "Traceback" not in report.stderr

    pd.read_parquet(arm.step_dir(0) / rundir.ANSWERS).head(1).to_parquet(answers)  # readable, but not this step's answers
    report = sea(["--params", params_path, "report", "straight"], env)
    assert report.returncode == 2 and "1 rows where the step's metrics.json records" in report.stderr

    arm.state_path.write_text(state[: len(state) // 2])  # truncated mid-write by a full disk
    resume = sea(["--params", params_path, "--quiet", "audit", "--resume", "straight"], env)
    assert resume.returncode == 2 and f"{arm.state_path} is damaged (not valid JSON" in resume.stderr
    fix = resume.stderr.split("; ", 1)[1]
    assert fix.startswith(f"delete {arm.root} and resume")

    shutil.rmtree(arm.root)  # what the message says to do
    resume = sea(["--params", params_path, "--quiet", "audit", "--resume", "straight"], env)
    assert resume.returncode == 0, resume.stdout + resume.stderr
    assert _step_files(run) == before  # the arm redone to the same files
    assert sea(["--params", params_path, "report", "straight"], env).returncode == 0


@pytest.mark.filterwarnings("ignore:Logger 'prefect.flow_runs' attempted to send logs")  # the records here come from no flow run
def test_an_error_prefect_raises_while_a_sigterm_unwinds_stops_the_run_as_the_signal_does(prefect_server, params_path, tmp_path,
                                                                                            monkeypatch, capsys):
    """A SIGTERM that lands while Prefect creates a task run makes its crash handling fail in turn ("Task run is not
    set", CI 2026-12-06): the run must still stop as a signal stops it, with the command that resumes it."""
    import flows.audit
    from flows.cli import main
    from prefect.exceptions import TerminationSignal

    flow_runs, reported = logging.getLogger("prefect.flow_runs"), []

    def failing(error: Exception):
        def flow(**kwargs):
            (tmp_path / "runs" / kwargs["run_id"] / "config.json").write_text("{}")  # the run had begun (its lock made the folder)
            try:
                raise error
            except Exception as raised:
                flow_runs.exception("Encountered exception during execution: %r", raised)  # as Prefect's flow engine does
                raise
        return flow

    def raced_error() -> ValueError:
        try:
            raise TerminationSignal(signal.SIGTERM)
        except TerminationSignal:
            try:
                raise ValueError("Task run is not set")  # as Prefect's handle_crash raises it
            except ValueError as error:
                return error

    handler = logging.Handler()
    handler.emit = lambda record: reported.append(record.getMessage())
    flow_runs.addHandler(handler)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        monkeypatch.setattr(flows.audit, "sea_audit", failing(raced_error()))
        code = main(["--params", params_path, "--quiet", "audit", "--run-id", "raced"])
        stderr = capsys.readouterr().err
        assert code == 128 + signal.SIGTERM and "sea: stopped by SIGTERM" in stderr and "sea audit --resume raced" in stderr
        assert reported == []  # Prefect's report of the error, traceback and all, is not shown
        monkeypatch.setattr(flows.audit, "sea_audit", failing(ValueError("a bug")))  # any other error is not a signal
        with pytest.raises(ValueError, match="a bug"):
            main(["--params", params_path, "--quiet", "audit", "--run-id", "buggy"])
        assert reported == ["Encountered exception during execution: ValueError('a bug')"]
    finally:
        flow_runs.removeHandler(handler)
        signal.signal(signal.SIGTERM, previous)


def test_a_ctrl_c_while_prefect_creates_a_task_run_is_said_once_by_sea(prefect_server, params_path, tmp_path, monkeypatch,
                                                                        capsys):
    """A Ctrl-C that lands while Prefect creates a task run (CI 2026-12-06; found again by raising SIGINT at chosen points
    after step 1 began: in _create_task_run_locally) is reported on the logger a task run engine has until its run
    exists, "prefect.engine": its "Crash detected! Execution was aborted by an interrupt signal." reached the console."""
    import flows.audit
    import prefect.task_engine
    from flows.cli import main
    from prefect import flow, task

    @task
    def phase() -> None:
        pass

    @flow
    def audit(params_path: str, overrides: dict, run_id: str, resume: bool, summary_dir: str | None, progress: bool) -> None:
        (tmp_path / "runs" / run_id / "config.json").write_text("{}")  # the run had begun
        phase()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt  # where the signal landed

    reported = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = lambda record: reported.append(f"{record.name}: {record.getMessage()}")
    loggers = [logging.getLogger(name) for name in ("prefect.flow_runs", "prefect.task_runs", "prefect.engine")]
    for logger in loggers:
        logger.addHandler(handler)
    previous = signal.getsignal(signal.SIGTERM)
    try:
        monkeypatch.setattr(flows.audit, "sea_audit", audit)
        monkeypatch.setattr(prefect.task_engine, "_create_task_run_locally", interrupted)
        code = main(["--params", params_path, "--quiet", "audit", "--run-id", "ctrl-c-raced"])
        stderr = capsys.readouterr().err
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
        signal.signal(signal.SIGTERM, previous)
    assert code == 128 + signal.SIGINT and "sea: stopped by Ctrl-C" in stderr and "sea audit --resume ctrl-c-raced" in stderr
    assert reported == []  # not "prefect.engine: Crash detected! Execution was aborted by an interrupt signal."


def test_sigterm_stops_within_seconds_and_the_run_resumes(finished):
    params_path, run, env, before = finished
    victim = subprocess.Popen([sys.executable, "-m", "flows.cli", "--params", params_path, "--quiet", "audit", "--run-id", "termed"],
                              cwd=REPO, env={**env, "PYTHONFAULTHANDLER": "1"}, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    started_step = run.root.parent / "termed" / "simulated-probe" / "sea" / "steps" / "0001" / rundir.BATCH
    deadline = time.monotonic() + 300
    while not started_step.is_file() and victim.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    victim.send_signal(signal.SIGTERM)
    sent = time.monotonic()
    try:
        output = victim.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:  # hung: SIGABRT makes faulthandler print every thread's stack
        victim.send_signal(signal.SIGABRT)
        pytest.fail("SIGTERM did not stop the audit; where its threads were:\n" + victim.communicate(timeout=60)[0])
    assert time.monotonic() - sent < 15, output
    assert victim.returncode == 143, output
    if "the cleanup after SIGTERM was still running" in output:  # flows.cli's watchdog ended a stop that hung
        warnings.warn(f"the stop hung and the watchdog ended it; where:\n{output}")
    else:
        assert "Traceback" not in output and "sea audit --resume termed" in output
        assert "Crash detected" not in output and "Crashed" not in output  # the stop is said once, by sea
    resumed = sea(["--params", params_path, "--quiet", "audit", "--resume", "termed"], env)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert _step_files(RunDir(run.root.parent / "termed")) == before


def test_ctrl_c_in_a_terminal_stops_within_seconds_and_the_run_resumes(finished, tmp_path):
    """Ctrl-C signals the terminal's whole process group: the Prefect server the command started must outlive
    the flow's report of how it ended (it once went first, and the report retried against a dead server for a minute)."""
    params_path, run, env, before = finished
    env = {k: v for k, v in env.items() if k != "PREFECT_API_URL"} | {"PREFECT_HOME": str(tmp_path / "prefect-home")}
    victim = subprocess.Popen([sys.executable, "-m", "flows.cli", "--params", params_path, "--quiet", "audit", "--run-id", "ctrl-c"],
                              cwd=REPO, env={**env, "PYTHONFAULTHANDLER": "1"}, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, start_new_session=True)  # a terminal's job
    started_step = run.root.parent / "ctrl-c" / "simulated-probe" / "sea" / "steps" / "0001" / rundir.BATCH
    deadline = time.monotonic() + 300
    while not started_step.is_file() and victim.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(victim.pid, signal.SIGINT)
    sent = time.monotonic()
    try:
        output = victim.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        os.killpg(victim.pid, signal.SIGKILL)
        pytest.fail("Ctrl-C did not stop the audit within 60 s:\n" + victim.communicate(timeout=60)[0])
    assert time.monotonic() - sent < 15 and victim.returncode == 128 + signal.SIGINT, output
    assert "sea: stopped by Ctrl-C" in output and "sea audit --resume ctrl-c" in output
    assert "Traceback" not in output and "Crash" not in output and "ERROR" not in output, output
    resumed = sea(["--params", params_path, "--quiet", "audit", "--resume", "ctrl-c"], env)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert _step_files(RunDir(run.root.parent / "ctrl-c")) == before
