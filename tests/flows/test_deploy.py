"""The recurring audit: a Prefect deployment of sea_audit with its cron schedule and parameters."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from uuid import UUID

import pytest
from mlflow.tracking import MlflowClient

from flows.deploy import DEPLOYMENT_NAME, audit_deployment, drop_missed_runs
from flows.server import healthy
from sea.audit.rundir import RunDir
from sea.errors import SeaError
from tests.audit.conftest import small_audit
from tests.flows.conftest import subprocess_env, write_params

REPO = Path(__file__).resolve().parents[2]


def test_the_deployment_carries_the_schedule_and_parameters(tmp_path):
    params = tmp_path / "params.yaml"
    params.write_text("audit:\n  schedule_cron: '15 4 * * *'\n", encoding="utf-8")
    deployment = audit_deployment(str(params))
    assert deployment.name == DEPLOYMENT_NAME and deployment.flow_name == "sea-audit"
    assert [s.schedule.cron for s in deployment.schedules] == ["15 4 * * *"]
    assert deployment.parameters == {"params_path": str(params), "schedule": "15 4 * * *"}
    assert [s.schedule.cron for s in audit_deployment(str(params), cron="0 */6 * * *").schedules] == ["0 */6 * * *"]
    every = audit_deployment(str(params), interval_s=30)
    assert every.schedules[0].schedule.interval.total_seconds() == 30 and every.parameters["schedule"] == "every 30 s"


@pytest.mark.parametrize("interval_s", [0, -5, float("nan"), float("inf")])  # nan and inf: a review (a traceback)
def test_an_interval_not_above_zero_is_refused_not_taken_for_the_cron(tmp_path, interval_s):
    params = tmp_path / "params.yaml"
    params.write_text("audit:\n  schedule_cron: '15 4 * * *'\n", encoding="utf-8")
    with pytest.raises(SeaError, match=rf"--interval {interval_s:g} is not a number of seconds greater than 0; give --cron"):
        audit_deployment(str(params), interval_s=interval_s)


def _flow_runs(api_url: str) -> list[dict]:
    request = urllib.request.Request(f"{api_url}/flow_runs/filter", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_a_served_schedule_fires_runs_audits_to_completion_and_stops_with_its_server(vital_sample, tmp_path):
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["sea"], budget__testee_calls=48)  # a short audit: the schedule is on trial
    params_path = write_params(params, tmp_path / "params.yaml")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env.update(PREFECT_HOME=str(tmp_path / "prefect"), PREFECT_SERVER_ANALYTICS_ENABLED="false", PREFECT_LOGGING_LEVEL="WARNING",
               PREFECT_SERVER_SERVICES_SCHEDULER_LOOP_SECONDS="1",  # the server's default looks for due runs once a minute
               PREFECT_RUNNER_POLL_FREQUENCY="1", MLFLOW_TRACKING_URI=f"sqlite:///{tmp_path / 'mlflow.db'}")
    served = subprocess.Popen([sys.executable, "-m", "flows.deploy", "--params", params_path, "--interval", "15"], cwd=REPO,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first_line = served.stdout.readline()
        assert first_line.startswith("Prefect API: http://127.0.0.1:"), first_line
        api_url = first_line.split()[2]
        deadline, completed = time.monotonic() + 420, []
        while not completed and served.poll() is None and time.monotonic() < deadline:
            time.sleep(2)
            completed = [r for r in _flow_runs(api_url) if r["state_type"] == "COMPLETED"]
        assert completed, "no scheduled audit completed"
        assert completed[0]["auto_scheduled"] and completed[0]["parameters"]["schedule"] == "every 15 s"
    finally:
        served.send_signal(signal.SIGTERM)
        output = served.communicate(timeout=120)[0]
    assert served.returncode == 0, output
    runs = sorted(p for p in (tmp_path / "runs").iterdir() if (p / "config.json").is_file())
    assert any(all(arm.load_state().finished for arm in RunDir(p).arms()) for p in runs)
    mlflow_runs = MlflowClient(env["MLFLOW_TRACKING_URI"]).search_runs(
        [MlflowClient(env["MLFLOW_TRACKING_URI"]).get_experiment_by_name("sea-audit").experiment_id],
        filter_string="tags.`sea.schedule` = 'every 15 s'")
    assert mlflow_runs
    assert not healthy(api_url)  # the server started for the schedule stopped with it
    time.sleep(20)  # longer than the interval: nothing fires any more
    assert sorted((tmp_path / "runs").iterdir()) == runs


def test_audits_missed_while_nothing_served_run_once_not_back_to_back(prefect_server, tmp_path):
    from prefect import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterDeploymentId
    from prefect.states import Scheduled

    params = tmp_path / "params.yaml"
    params.write_text("audit:\n  schedule_cron: '0 6 * * 1'\n", encoding="utf-8")
    deployment_id = audit_deployment(str(params)).apply()
    now = datetime.now(UTC)
    with get_client(sync_client=True) as client:
        def scheduled(days: int) -> UUID:
            return client.create_flow_run_from_deployment(deployment_id, state=Scheduled(scheduled_time=now + timedelta(days=days))).id

        missed, next_one = [scheduled(days) for days in (-21, -14, -7)], scheduled(7)
        assert drop_missed_runs() == 2
        left = {run.id for run in client.read_flow_runs(
            flow_run_filter=FlowRunFilter(deployment_id=FlowRunFilterDeploymentId(any_=[deployment_id])))}
    assert missed[2] in left and next_one in left and not {missed[0], missed[1]} & left  # one catch-up, the latest
    assert drop_missed_runs() == 0


def test_stopping_the_schedule_leaves_it_unpaused_for_a_restart_to_catch_up(vital_sample, prefect_server, tmp_path):
    from prefect import get_client

    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["sea"], budget__testee_calls=48)
    params_path = write_params(params, tmp_path / "params.yaml")
    served = subprocess.Popen([sys.executable, "-m", "flows.deploy", "--params", params_path, "--cron", "0 6 * * 1"], cwd=REPO,
                              env=subprocess_env(prefect_server, f"sqlite:///{tmp_path / 'mlflow.db'}"),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        with get_client(sync_client=True) as client:
            deadline = time.monotonic() + 120
            while served.poll() is None and time.monotonic() < deadline and not _polled(client):
                time.sleep(0.5)  # the runner polls for due runs once it serves: stopped now, it shuts down as a user's would
            assert _polled(client), "the deployment was never served"
    finally:
        served.send_signal(signal.SIGTERM)
        output = served.communicate(timeout=120)[0]
    assert served.returncode == 0 and "stopped serving the recurring audit" in output, output
    with get_client(sync_client=True) as client:
        assert not client.read_deployment_by_name(f"sea-audit/{DEPLOYMENT_NAME}").paused  # paused, its scheduled runs are deleted


def _polled(client) -> bool:
    from prefect.exceptions import ObjectNotFound

    try:
        return client.read_deployment_by_name(f"sea-audit/{DEPLOYMENT_NAME}").last_polled is not None
    except ObjectNotFound:
        return False
