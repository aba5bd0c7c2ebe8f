"""Run directories: created once, continued only with the same params and data."""

import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from sea.audit.rundir import LOCK_FILE, RunBusy, RunDir, audit_lock, data_versions, existing_run, open_run, slug
from sea.audit.validate import check_embedder
from sea.errors import ParamsError, SeaError
from sea.files import DamagedFile


def test_a_missing_run_is_named_with_the_folder_looked_in(tmp_path, monkeypatch):
    # audit.runs_dir is relative to the current directory, not to the params file: the message says where that was
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParamsError, match=rf"^no run 'small1' in {re.escape(str(tmp_path / 'runs'))} \(runs there: none\)"):
        existing_run(Path("runs"), "small1", None)


def test_a_run_continues_only_with_the_params_it_started_with(audit_params, tmp_path):
    runs = audit_params.audit.runs_dir
    run = open_run(runs, "r1", audit_params)
    assert run.params == audit_params and open_run(runs, "r1", audit_params).nonce == run.nonce
    assert open_run(runs, "r1", None).params == audit_params  # --resume: the run's own params
    other = audit_params.model_copy(update={"search": audit_params.search.model_copy(update={"tau": 0.6, "seed": 3})})
    with pytest.raises(ParamsError, match=r"other params \(search.seed, search.tau\).*--resume r1"):
        open_run(runs, "r1", other)
    logging_only = audit_params.model_copy(update={"audit": audit_params.audit.model_copy(update={"mlflow_experiment": "x"})})
    assert open_run(runs, "r1", logging_only).run_id == "r1"  # where results are logged does not change them
    with pytest.raises(ParamsError, match="no run 'r2'.*runs there: r1"):
        open_run(runs, "r2", None)
    with pytest.raises(ParamsError, match="run id '../x'"):
        open_run(runs, "../x", audit_params)
    assert slug("openai-compatible:llama3.1:8b") == "openai-compatible-llama3.1-8b"


def test_a_resumed_run_takes_new_pacing_and_retry_settings_and_refuses_any_other_change(audit_params):
    run = open_run(audit_params.audit.runs_dir, "r1", audit_params)
    assert run.resumed_with({}) == audit_params
    paced = run.resumed_with({"models.testee.requests_per_minute": 30, "models.testee.timeout_s": 120,
                              "models.testee.max_retry_after_s": 86_400})  # as a Retry-After stop advises
    assert (paced.models.testee.requests_per_minute, paced.models.testee.timeout_s) == (30, 120)
    assert paced.models.testee.max_retry_after_s == 86_400
    with pytest.raises(ParamsError, match=r"--set models.testee.base_url, search.tau: a resumed run keeps"):
        run.resumed_with({"search.tau": 0.3, "models.testee.base_url": "http://127.0.0.1:9/v1",
                          "models.testee.max_attempts": 3})
    with pytest.raises(ParamsError, match="requests_per_minute"):
        run.resumed_with({"models.testee.requests_per_minute": -1})  # still validated
    run.keep_params(paced)
    assert open_run(audit_params.audit.runs_dir, "r1", None).params == paced  # every later step reads them


def test_a_moved_run_continues_where_it_is_now(audit_params, tmp_path):
    started = open_run(audit_params.audit.runs_dir, "r1", audit_params)
    shutil.copytree(started.root, tmp_path / "elsewhere" / "r1")
    moved = audit_params.model_copy(update={"audit": audit_params.audit.model_copy(update={"runs_dir": tmp_path / "elsewhere"})})
    run = open_run(moved.audit.runs_dir, "r1", None)  # --resume
    assert run.root == tmp_path / "elsewhere" / "r1" and run.params == moved  # so its steps are written there
    assert open_run(moved.audit.runs_dir, "r1", moved).nonce == started.nonce


def test_what_is_added_after_the_audit_is_kept_out_of_the_run_folder_dvc_restores(audit_params):
    """A bug hunt: `dvc repro` checked runs/default out again and deleted the reviews and comparisons written into it."""
    run = open_run(audit_params.audit.runs_dir, "r1", audit_params)
    assert run.annotations == audit_params.audit.annotations_dir / "r1" and not run.annotations.is_relative_to(run.root)
    del run.config["params"]["audit"]["annotations_dir"]  # a run made before the setting: the default place
    (run.root / "config.json").write_text(json.dumps(run.config), encoding="utf-8")
    assert RunDir(run.root).annotations == Path("annotations") / "r1"  # an absolute runs_dir: from the working directory
    (run.root / "review").mkdir()  # written into the run by an earlier SEA: moved, not read from two places
    with pytest.raises(SeaError, match=re.escape(f"{run.root / 'review'}: kept in annotations/r1 now, out of the run folder "
                                                 f"that `dvc repro` restores; move them there first: mkdir -p annotations/r1 "
                                                 f"&& mv {run.root / 'review'} annotations/r1/")):
        _ = RunDir(run.root).annotations


def test_a_run_audited_again_under_its_id_leaves_out_the_comparisons_of_the_one_before_and_keeps_the_verdicts(
        audit_params, caplog):
    """Left alone in an earlier round: a run deleted and audited again under the same id (or rerun by `dvc repro`)
    read the earlier run's comparisons as its own, though the answers they were made from are gone. Verdicts judge a
    question (its id hashes its paragraph, wording, options and answer), so they still hold for the same question."""
    from sea.files import write_json
    from sea.review.verdicts import verdicts_by_question, verdicts_path

    runs = audit_params.audit.runs_dir
    before = open_run(runs, "r1", audit_params)
    verdicts_path(before).parent.mkdir(parents=True)
    verdicts_path(before).write_text("".join(json.dumps({"question_id": q, "verdict": "gold wrong"}) + "\n" for q in ("q1", "q2")))
    write_json(before.annotations / "compare" / "r0.json", {"previous": "r0", "current": "r1", "run_nonce": before.nonce})
    write_json(before.annotations / "compare" / "old.json", {"previous": "old", "current": "r1"})  # an earlier SEA's: no nonce
    assert len(before.comparisons()) == 2
    shutil.rmtree(before.root)
    again = open_run(runs, "r1", audit_params)
    for _ in range(2):
        assert set(verdicts_by_question(again)) == {"q1", "q2"}
        assert [c["previous"] for c in again.comparisons()] == ["old"]
    said = [record.getMessage() for record in caplog.records if "made for an earlier run" in record.getMessage()]
    assert said == [f"{again.annotations / 'compare' / 'r0.json'}: made for an earlier run 'r1', since audited again under "
                    f"this id: left out; compare again with `sea compare PREVIOUS r1`"]  # once

def test_a_review_folder_left_in_the_run_beside_one_in_annotations_is_to_be_merged_not_moved(audit_params):
    """A docs hunt: the message's mkdir -p annotations/<id> && mv runs/<id>/review annotations/<id>/ stopped with
    'Directory not empty' where annotations/<id>/review was there already."""
    run = open_run(audit_params.audit.runs_dir, "r1", audit_params)
    target = run.annotations
    for folder in (run.root / "review", run.root / "compare", target / "review"):
        folder.mkdir(parents=True)
    with pytest.raises(SeaError) as error:
        _ = RunDir(run.root).annotations
    message = str(error.value)
    assert f"move them there first: mkdir -p {target} && mv {run.root / 'compare'} {target}/; " in message  # that one can move
    assert (f"{target / 'review'} is there already (mv would stop: Directory not empty), so merge {run.root / 'review'}'s "
            f"files into it (a file both hold: keep the newer; verdicts.jsonl: the lines of both, ordered by recorded_at, "
            f"as a later verdict on a question replaces an earlier one), then delete {run.root / 'review'}") in message
    assert f"mv {run.root / 'review'}" not in message


def test_a_run_recorded_with_a_findings_key_since_dropped_still_opens(audit_params):
    run = open_run(audit_params.audit.runs_dir, "r1", audit_params)
    run.config["params"]["findings"]["distance_threshold"] = 0.8  # findings settings before anchor clusters
    (run.root / "config.json").write_text(json.dumps(run.config), encoding="utf-8")
    assert open_run(audit_params.audit.runs_dir, "r1", None).params == audit_params
    run.config["params"]["search"]["distance_threshold"] = 0.8  # anywhere else, an unknown key is still an error
    (run.root / "config.json").write_text(json.dumps(run.config), encoding="utf-8")
    with pytest.raises(ParamsError, match="search.distance_threshold: unknown key"):
        open_run(audit_params.audit.runs_dir, "r1", None)


def test_a_run_is_refused_when_the_data_changed_under_it(audit_params):
    run = open_run(audit_params.audit.runs_dir, "r1", audit_params)
    run.config["data_versions"]["index"] = "0000"
    (run.root / "config.json").write_text(json.dumps(run.config), encoding="utf-8")
    with pytest.raises(ParamsError, match="another index than is built now"):
        open_run(audit_params.audit.runs_dir, "r1", audit_params)


def test_dvc_hashes_are_recorded_for_the_data_dvc_makes_and_checked_where_dvc_lock_is(audit_params, tmp_path, monkeypatch):
    # a bug hunt: a run started in the project was refused elsewhere as made with "another kb_dvc_md5, index_dvc_md5"
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir(), elsewhere.mkdir()
    outs = {"kb": audit_params.paths.kb_dir, "index": audit_params.paths.index_dir}
    lock = {"schema": "2.0", "stages": {name: {"cmd": "sea", "outs": [{"path": str(folder), "md5": f"{name}1.dir"}]}
                                        for name, folder in outs.items()}}
    (project / "dvc.lock").write_text(yaml.safe_dump(lock))
    monkeypatch.chdir(project)
    run = open_run(audit_params.audit.runs_dir, "r1", audit_params)
    assert run.config["data_versions"]["kb_dvc_md5"] == "kb1.dir" and run.config["data_versions"]["index_dvc_md5"] == "index1.dir"
    monkeypatch.chdir(elsewhere)
    assert open_run(audit_params.audit.runs_dir, "r1", None).nonce == run.nonce
    monkeypatch.chdir(project)
    lock["stages"]["kb"]["outs"][0]["md5"] = "kb2.dir"  # rebuilt: where the lock can be read, its hashes are checked
    (project / "dvc.lock").write_text(yaml.safe_dump(lock))
    with pytest.raises(ParamsError, match="another kb_dvc_md5 than is built now"):
        open_run(audit_params.audit.runs_dir, "r1", None)
    lock["stages"]["kb"]["outs"][0]["path"] = "data/kb"  # a knowledge base of the user's own: the project's hash is not its
    (project / "dvc.lock").write_text(yaml.safe_dump(lock))
    assert "kb_dvc_md5" not in open_run(audit_params.audit.runs_dir, "r2", audit_params).config["data_versions"]
    parsed = []
    monkeypatch.setattr(yaml, "safe_load", lambda text: parsed.append(text) or yaml.load(text, yaml.SafeLoader))
    assert data_versions(audit_params)["index_dvc_md5"] == "index1.dir" and len(parsed) == 1  # read-through: dvc.lock once


def test_a_run_folder_that_lost_its_config_is_refused_not_started_again_with_other_params(audit_params):
    runs = audit_params.audit.runs_dir
    run = open_run(runs, "r1", audit_params)
    arm = run.arms()[0]
    arm.step_dir(0).mkdir(parents=True)
    (arm.step_dir(0) / "metrics.json").write_text("{}", encoding="utf-8")
    (arm.state_path).write_text("{}", encoding="utf-8")
    config = (run.root / "config.json").read_bytes()
    fix = f"restore config.json from a backup, or delete the whole run folder {run.root} to start the audit over"
    (run.root / "config.json").write_bytes(config[:40])  # damaged: the fix is not to delete the file alone
    with pytest.raises(DamagedFile, match=r"config.json is damaged \(not valid JSON.*\); " + re.escape(fix) + "$"):
        open_run(runs, "r1", None)
    (run.root / "config.json").unlink()
    other = audit_params.model_copy(update={"search": audit_params.search.model_copy(update={"tau": 0.3, "seed": 5})})
    for params in (other, audit_params, None):  # a new audit would continue the old arms' state
        with pytest.raises(DamagedFile, match=r"config.json is damaged \(missing, but the run folder holds an audit's files: "
                                              r"simulated-probe\); " + re.escape(fix)):
            open_run(runs, "r1", params)
    (run.root / "config.json").write_bytes(config)  # restored
    assert open_run(runs, "r1", audit_params).nonce == run.nonce
    with audit_lock(runs, "r2"):  # a folder holding only the lock of the audit starting it is a new run
        assert open_run(runs, "r2", audit_params).params == audit_params


def test_data_built_with_another_embedder_is_refused(audit_params):
    other = audit_params.model_copy(update={"embedding": audit_params.embedding.model_copy(update={"model": "BAAI/bge-small-en"})})
    with pytest.raises(ParamsError, match="embedding.model is 'BAAI/bge-small-en' but the knowledge base's embeddings"):
        check_embedder(other)


REPO = Path(__file__).resolve().parents[2]
_HOLD = ("import sys; from pathlib import Path; from sea.audit.rundir import audit_lock\n"
         "with audit_lock(Path(sys.argv[1]), sys.argv[2]):\n    print('held', flush=True); sys.stdin.read()")


def hold_audit_lock(runs_dir: Path, run_id: str) -> subprocess.Popen:
    """Another process auditing the run (as far as the lock tells): it holds the run's lock until killed."""
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(runs_dir), run_id], cwd=REPO, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline() == "held\n"
    return holder


def test_a_run_audited_by_another_process_is_refused_until_that_process_dies(audit_params):
    runs = audit_params.audit.runs_dir
    open_run(runs, "r1", audit_params)
    holder = hold_audit_lock(runs, "r1")
    try:
        with pytest.raises(RunBusy, match=rf"run 'r1' is being audited by another process \(process {holder.pid}\); .*"
                                          r"`sea audit --resume r1`"):
            with audit_lock(runs, "r1"):
                pass
        with audit_lock(runs, "r2"):  # another run is free
            pass
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert (runs / "r1" / LOCK_FILE).is_file()  # a killed audit's lock file stays, its lock does not
    with audit_lock(runs, "r1"):
        with audit_lock(runs, "r1"):  # reentrant: the CLI holds it around the flow, which takes it too
            pass
        assert (runs / "r1" / LOCK_FILE).is_file()
    assert not (runs / "r1" / LOCK_FILE).exists() and (runs / "r1" / "config.json").is_file()
    assert not (runs / "r2").exists()  # a folder the lock alone made is removed with it
    with audit_lock(runs.parent / "new-runs", "r3"):
        assert (runs.parent / "new-runs" / "r3" / LOCK_FILE).is_file()
    assert not (runs.parent / "new-runs").exists()  # and the runs folder made for it: nothing half-made to list
