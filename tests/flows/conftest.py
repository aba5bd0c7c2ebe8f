"""Flows run under a real (temporary) Prefect server and log to a temporary MLflow SQLite store."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from flows import QUIET_ENVIRONMENT
from sea.audit.rundir import RunDir
from sea.settings import Params
from tests.audit.conftest import SEARCHED_SHARE, small_audit
from tests.conftest import built_once

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def mlflow_uri(tmp_path, monkeypatch):
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    return uri


def write_params(params, path) -> str:
    path.write_text(yaml.safe_dump(params.model_dump(mode="json")), encoding="utf-8")
    return str(path)


def subprocess_env(api_url: str, mlflow_uri: str) -> dict:
    return {**os.environ, "PREFECT_API_URL": api_url, "MLFLOW_TRACKING_URI": mlflow_uri, "PREFECT_LOGGING_LEVEL": "WARNING",
            "HF_HUB_OFFLINE": "1", "DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
            "MLFLOW_DISABLE_TELEMETRY": "true"}


@dataclass(frozen=True)
class FinishedCliAudit:
    """An uninterrupted 72-question audit (sea and random) run through `sea audit` as a user starts it."""

    run: RunDir
    console: str


def cli_audit_params(vital_sample, runs_dir: Path) -> Params:
    """Two arms, 72 questions each (three steps an arm): a fault in the first must leave the second to
    the resumed run too."""
    return small_audit(vital_sample, runs_dir, SEARCHED_SHARE, search__arms=["sea", "random"], budget__testee_calls=72)


@pytest.fixture(scope="session")
def straight_cli_audit(vital_sample, prefect_server) -> FinishedCliAudit:
    """Run once per session and shared: the killed-run and the damaged-run tests compare with its files.
    Bars on and none of the opt-outs the Makefile sets, so its console is what a user sees."""
    def build(folder: Path) -> None:
        params_path = write_params(cli_audit_params(vital_sample, folder / "runs"), folder / "params.yaml")
        env = {k: v for k, v in subprocess_env(prefect_server, f"sqlite:///{folder / 'mlflow.db'}").items()
               if k not in QUIET_ENVIRONMENT}
        done = subprocess.run([sys.executable, "-m", "flows.cli", "--params", params_path, "audit", "--run-id", "straight"],
                              cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        (folder / "console.txt").write_text(done.stdout, encoding="utf-8")
        if done.returncode != 0:
            raise RuntimeError(f"the shared audit failed:\n{done.stdout[-4000:]}")

    folder = built_once("straight-cli-audit", build)
    return FinishedCliAudit(RunDir(folder / "runs" / "straight"), (folder / "console.txt").read_text(encoding="utf-8"))
