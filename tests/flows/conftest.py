"""Flows run under a real (temporary) Prefect server and log to a temporary MLflow SQLite store."""

from __future__ import annotations

import os

import pytest
import yaml


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
