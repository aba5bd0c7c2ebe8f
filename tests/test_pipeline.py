"""The DVC pipeline (dvc.yaml) run for real: `dvc repro` in a fresh git repository."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.conftest import SAMPLE_ARTICLES, write_jsonl

REPO = Path(__file__).resolve().parents[1]


def _run(args, cwd, api_url):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "DVC_NO_ANALYTICS": "1", "HF_HUB_OFFLINE": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t", "PREFECT_API_URL": api_url,
           "PREFECT_LOGGING_LEVEL": "WARNING", "MLFLOW_DISABLE_TELEMETRY": "true", "DO_NOT_TRACK": "1"}
    env.pop("MLFLOW_TRACKING_URI", None)
    env["PYTHONPATH"] = str(cwd)  # the stages run the project's copy of the code that dvc.yaml hashes, not the installed one
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # ... and write its __pycache__ beside it, as on a user's machine
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def test_dvc_repro_builds_every_artifact_and_then_is_a_no_op(tmp_path, prefect_server):
    work = tmp_path / "project"
    work.mkdir()
    shutil.copy(REPO / "dvc.yaml", work)
    for folder in ("sea", "flows", "tasks", "annotations"):  # annotations/default: the report stage depends on it
        shutil.copytree(REPO / folder, work / folder, ignore=shutil.ignore_patterns("__pycache__"))
    params = yaml.safe_load((REPO / "params.yaml").read_text())
    params["kb"].update(source="jsonl", input="inputs/kb.jsonl")
    (work / "params.yaml").write_text(yaml.safe_dump(params))
    (work / "inputs").mkdir()
    write_jsonl(work / "inputs" / "kb.jsonl", [{"title": t, "text": x} for t, x in SAMPLE_ARTICLES])
    _run(["git", "init", "-q"], work, prefect_server)
    _run(["dvc", "init", "-q"], work, prefect_server)
    shutil.copy(REPO / ".dvcignore", work)

    first = _run(["dvc", "repro"], work, prefect_server)
    for stage in ("fetch", "kb", "embed", "index", "audit", "findings", "exports", "report"):
        assert f"Running stage '{stage}'" in first
    for artifact in ("data/packaged/vital10k.json", "data/packaged/enwiki-sample.xml.bz2", "data/kb/documents.parquet",
                     "data/kb/paragraphs.parquet", "data/embeddings/documents.npy", "data/embeddings/embeddings.json",
                     "data/index/documents.faiss", "runs/default/config.json", "reports/metrics.json", "reports/curves.csv",
                     "reports/audit.html", "mlflow.db"):
        assert (work / artifact).is_file(), artifact
    lock = (work / "dvc.lock").read_text()

    second = _run(["dvc", "repro"], work, prefect_server)
    assert "Running stage" not in second and "Data and pipelines are up to date" in second
    assert (work / "dvc.lock").read_text() == lock

    params["index"]["ef_search"] = 32  # only the index stage reads this section
    (work / "params.yaml").write_text(yaml.safe_dump(params))
    third = _run(["dvc", "repro", "index"], work, prefect_server)  # the index and what it depends on, not the stages after it
    assert "Running stage 'index'" in third and "Running stage 'embed'" not in third and "Running stage 'kb'" not in third

    metrics = json.loads((work / "reports" / "metrics.json").read_text())
    arms = metrics["testees"]["simulated:paper-regime"]
    assert set(arms) == {"sea", "no_pruning", "random"} and all(arm["finished"] for arm in arms.values())
    # The six articles are soon all evaluated: every arm stops when no paragraph is left.
    assert all(arm["cumulative_questions"] > 0 for arm in arms.values())
    for fmt in ("jsonl", "parquet", "inspect", "lm-eval"):  # the suites of wrong answers: empty when there are none
        about = json.loads((work / "exports" / "default" / fmt / "provenance.json").read_text())
        assert about["only_errors"] and (about["questions"] > 0) == any(arm["cumulative_wrong"] for arm in arms.values())
