import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from flows.cli import Interrupted, _interrupt, main
from tests.conftest import SAMPLE_ARTICLES, write_jsonl


def _params_file(tmp_path, **kb):
    params = {
        "paths": {name: str(tmp_path / name) for name in ("packaged_dir", "kb_dir", "embeddings_dir", "index_dir", "cache_dir")},
        "kb": kb,
    }
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params))
    return path


def test_build_stats_embed_index_query(tmp_path, capsys):
    source = write_jsonl(tmp_path / "kb.jsonl", [{"title": t, "text": x} for t, x in SAMPLE_ARTICLES])
    params = str(_params_file(tmp_path, source="jsonl", input=str(source)))
    for command in (["kb", "build"], ["embed"], ["index", "build"]):
        assert main(["--params", params, "--quiet", *command]) == 0
    capsys.readouterr()

    assert main(["--params", params, "kb", "stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["documents"] == len(SAMPLE_ARTICLES) and stats["paragraphs"] == len(SAMPLE_ARTICLES)
    assert sum(stats["categories"].values()) == len(SAMPLE_ARTICLES) and stats["uncategorised"] == 0

    assert main(["--params", params, "kb", "stats"]) == 0
    table = capsys.readouterr().out
    assert "documents: 6" in table and "Mathematics and logic" in table

    assert main(["--params", params, "index", "query", "highest mountain on Earth", "-k", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0].split("  ")[1] == "Mount Everest"


def test_errors_are_one_clear_line(tmp_path, capsys):
    params = _params_file(tmp_path, source="jsonl", input=str(tmp_path / "absent.jsonl"))
    assert main(["--params", str(params), "kb", "build"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("sea: error: kb.input: file") and "Traceback" not in error

    params.write_text("kb:\n  source: 7\n")
    assert main(["--params", str(params), "kb", "build"]) == 2
    assert "kb.source" in capsys.readouterr().err


@pytest.mark.parametrize(("command", "in_the_way"), [(["report", "{run}"], "folder"), (["review", "export", "{run}"], "file"),
                                                     (["export", "{run}", "--format", "jsonl"], "file")])
def test_an_out_path_something_stands_in_is_one_line_naming_it(finished_audit, tmp_path, capsys, command, in_the_way):
    from tests.flows.conftest import write_params

    params = write_params(finished_audit.params, tmp_path / "params.yaml")
    out = tmp_path / "taken"
    out.mkdir() if in_the_way == "folder" else out.write_text("")
    command = [part.format(run=finished_audit.run_id) for part in command]
    assert main(["--params", params, "--quiet", *command, "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"sea: error: {out}") and f"a {in_the_way} stands where" in error, error
    assert "--resume" not in error and error.count("\n") == 1  # nothing to resume: only an audit is
    assert set(tmp_path.iterdir()) == {tmp_path / "params.yaml", out}


@pytest.mark.parametrize("command", [["report"], ["findings"], ["retest", "--n", "1"], ["transfer"], ["export", "--format", "jsonl"]])
def test_a_run_folder_dvc_makes_is_not_written_into(finished_audit, tmp_path, capsys, monkeypatch, command):
    # a user's `sea findings default --retest` went into runs/default, the audit stage's output: `dvc repro` deleted it
    from tests.finished_audit import copy_of
    from tests.flows.conftest import write_params

    run = copy_of(finished_audit, tmp_path)
    params = write_params(run.params.model_copy(update={"audit": run.params.audit.model_copy(update={"runs_dir": run.root.parent})}),
                          tmp_path / "params.yaml")
    before = sorted(run.root.rglob("*"))
    lock = yaml.safe_load(Path("dvc.lock").read_text())  # this project's: the run's data versions are checked against it

    def lock_making(folder: str) -> None:
        lock["stages"]["audit"]["outs"] = [{"path": folder}]
        (tmp_path / "dvc.lock").write_text(yaml.safe_dump(lock))

    monkeypatch.chdir(tmp_path)
    lock_making(f"runs/{run.run_id}")
    assert main(["--params", params, "--quiet", command[0], run.run_id, *command[1:]]) == 2
    assert capsys.readouterr().err == (f"sea: error: {run.root} is the DVC stage `audit`'s output: the next `dvc repro` checks it "
                                       f"out again and deletes what is written there; give --out a path outside it (the pipeline "
                                       f"writes this run's findings, report and exports to reports/ and exports/)\n")
    assert sorted(run.root.rglob("*")) == before
    lock_making("runs/another")
    if command[0] in ("report", "export"):  # the folder of a run DVC does not make is written into as before
        assert main(["--params", params, "--quiet", command[0], run.run_id, *command[1:]]) == 0
        assert sorted(run.root.rglob("*")) != before


def test_a_findings_folder_that_is_not_there_is_refused(tmp_path, capsys):
    # a bug hunt: it was ignored, and the report said the findings were not computed yet
    missing = tmp_path / "nowhere"
    assert main(["report", "r", "--findings", str(missing)]) == 2
    assert capsys.readouterr().err == (f"sea: error: --findings {missing}: no such folder; give the folder `sea findings --out` "
                                       f"wrote to, or leave --findings out for runs/r/findings\n")


def test_an_export_emptied_by_reviewers_says_so(finished_audit, tmp_path, capsys, monkeypatch):
    # a bug hunt: it said the run had no wrong answers
    import sea.exports
    from sea.exports import exported_questions
    from sea.findings.analysis import evaluated
    from tests.flows.conftest import write_params
    from tests.test_exports import all_errors_rejected

    run = all_errors_rejected(finished_audit, tmp_path)
    params = write_params(run.params.model_copy(update={"audit": run.params.audit.model_copy(update={"runs_dir": run.root.parent})}),
                          tmp_path / "params.yaml")
    errors = len(exported_questions(finished_audit, only_errors=True))
    gathered = []  # left alone in an earlier round: each format gathered the suite again, and its note once more

    def counted(run, testee):
        gathered.append(testee)
        return evaluated(run, testee)

    monkeypatch.setattr(sea.exports, "evaluated", counted)
    assert main(["--params", params, "export", run.run_id, "--format", "jsonl", "parquet", "--only-errors",
                 "--out", str(tmp_path / "out")]) == 0
    for fmt, note in zip(["jsonl", "parquet"], capsys.readouterr().out.splitlines()[-3::2], strict=True):
        assert re.fullmatch(rf"note: reviewers rejected all {errors} wrong answers of run {run.run_id} \(--include-rejected keeps "
                            rf"them\): the {fmt} suite is empty", note), note
    assert sorted(gathered) == sorted(model.model for model in run.params.testee_settings())  # each testee's answers read once


@pytest.mark.parametrize("command", [["retest", "r", "--n", "0"], ["retest", "r", "--n", "-1"], ["compare", "a", "b", "--calls", "0"],
                                     ["review", "export", "r", "--n", "-3"], ["index", "query", "text", "-k", "0"]])
def test_a_count_below_one_is_refused_before_any_work(command, capsys):
    # 0 was taken for "not given", and spent the default's paid calls
    with pytest.raises(SystemExit) as stopped:
        main(command)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"argument {command[-2]}: {command[-1]} is not a count: give 1 or more")


@pytest.mark.parametrize(("args", "message"), [
    (["--resume", "a", "--run-id", "b"], "argument --run-id: not allowed with argument --resume"),  # b was ignored
    (["--run-id="], "run id '': use letters, digits"),  # was a new timestamped run
    (["--resume="], "resume needs the id of the run to continue"),  # was a new timestamped run too
])
def test_a_run_id_empty_or_given_with_resume_is_refused_before_any_run(tmp_path, capsys, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)  # audit.runs_dir: runs
    try:
        code = main(["--params", str(_params_file(tmp_path)), "audit", *args])
    except SystemExit as stopped:  # argparse's refusal
        code = stopped.code
    assert code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "runs").exists()


def test_models_check_makes_one_call_and_reports_it(tmp_path, capsys, monkeypatch):
    from sea.llm.fake_server import FakeLLMServer

    monkeypatch.setenv("FAKE_KEY", "sk-check-secret")
    params = str(_params_file(tmp_path, source="jsonl", input=str(tmp_path / "unused.jsonl")))
    with FakeLLMServer(reply=lambda prompt: "A") as server:
        assert main(["--params", params, "models", "check", "openai-compatible:fake-model",
                     "--base-url", f"{server.base_url}/v1", "--api-key-env", "FAKE_KEY"]) == 0
        assert server.state.requests == 1
    out = capsys.readouterr().out
    assert "openai-compatible:fake-model: replied 'A'" in out and "cost unknown" in out and "sk-check-secret" not in out

    with FakeLLMServer(reply=lambda prompt: "Certainly! " * 100_000) as server:  # a chatty or broken endpoint
        assert main(["--params", params, "models", "check", "openai-compatible:fake-model",
                     "--base-url", f"{server.base_url}/v1", "--api-key-env", "FAKE_KEY"]) == 0
    out = capsys.readouterr().out
    assert "… (1,099,999 characters)" in out and len(out) < 500

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert main(["--params", params, "models", "check", "openai:gpt-4o-mini"]) == 2
    assert "OPENAI_API_KEY is not set" in capsys.readouterr().err
    assert main(["--params", params, "models", "check", "gpt-4o"]) == 2
    assert "provider:model" in capsys.readouterr().err


def test_questions_preview_shows_questions_variants_and_verdicts(vital_sample, embedder, capsys):
    import asyncio

    from sea.questions.generate import QuestionGenerator
    from sea.questions.model import KEPT
    from sea.questions.preview import RANDOM_TRIES

    params = vital_sample.model_dump(mode="json")
    params["questions"]["variants"] = 5  # every offline template
    path = vital_sample.paths.kb_dir.parent / "preview-params.yaml"
    path.write_text(yaml.safe_dump(params))
    generator = QuestionGenerator(vital_sample, embedder)
    para_id = next(p for p in generator.store.para_ids()  # the first paragraph with a question and a dropped candidate
                   if {q.verdict == KEPT for q in asyncio.run(generator.for_paragraph(generator.paragraph(int(p))))} == {True, False})
    assert main(["--params", str(path), "questions", "preview", "--para-id", str(para_id)]) == 0
    out = capsys.readouterr().out
    assert f"(para_id {para_id})" in out and "generator: offline-cloze; gate: off" in out
    assert re.search(r"^Q\d+  answer:", out, re.M) and "  v0: " in out and "  v4: " in out and "phrasings kept." in out
    assert re.search(r"^Q\d+ dropped \(invalid: .+\): ", out, re.M)  # dropped candidates are shown with their reason
    assert out.count("*") >= 5  # the gold option is marked in every phrasing

    assert main(["--params", str(path), "questions", "preview", "--para-id", "12345"]) == 2
    assert "no paragraph with para_id 12345" in capsys.readouterr().err

    assert main(["--params", str(path), "questions", "preview"]) == 0  # without an id: a random one that keeps a question
    out = capsys.readouterr().out
    shown = int(re.search(r"\(para_id (\d+)\)", out).group(1))
    kept = int(re.search(r"^(\d+) of \d+ phrasings kept\.$", out, re.M).group(1))
    assert shown in generator.store and (kept > 0) != (f"(none of {RANDOM_TRIES} random paragraphs kept a question" in out)


_STUCK_ON_SIGTERM = """
import signal, sys, threading, time
from flows import cli

cli.stop_at_the_latest(grace_s=1)
def stuck_cleanup():  # waits for ever, whatever a signal raises in it
    while True:
        try:
            threading.Event().wait()
        except BaseException:
            pass
if sys.argv[1] == "handler":  # as if Prefect's crash report, which runs first, never returned
    signal.signal(signal.SIGTERM, lambda *_: stuck_cleanup())
else:
    signal.signal(signal.SIGTERM, cli._interrupt)
try:
    print("ready", flush=True)
    time.sleep(60)
finally:
    stuck_cleanup()
"""


@pytest.mark.parametrize("where", ["handler", "cleanup"])
def test_a_sigterm_whose_cleanup_hangs_still_stops_the_command_with_every_threads_stack(where):
    command = subprocess.Popen([sys.executable, "-c", _STUCK_ON_SIGTERM, where], cwd=Path(__file__).resolve().parents[1],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert command.stdout.readline() == "ready\n"
        command.send_signal(signal.SIGINT)  # not a stop the watchdog is for: Python's KeyboardInterrupt, then the hang
        time.sleep(2)
        assert command.poll() is None
        command.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        stderr = command.communicate(timeout=30)[1]
    finally:
        command.kill()  # a watchdog that failed leaves it waiting for ever
    assert command.returncode == 128 + signal.SIGTERM and 1 <= time.monotonic() - sent < 10, stderr
    assert "still running 1 s later" in stderr and "sea audit --resume RUN_ID" in stderr
    assert "in stuck_cleanup" in stderr  # the stack of the thread that hung


def test_a_sigterm_escapes_code_that_catches_every_error():
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        with pytest.raises(Interrupted):
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)  # the handler raises here
            except Exception:  # noqa: BLE001 — a library's "log it and carry on", as around a server's shutdown
                pass
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_the_summary_says_how_many_calls_failed_and_where():
    from flows.cli import format_summary

    row = {"testee": "openai:gpt-4o-mini", "steps": 3, "cumulative_questions": 60, "cumulative_wrong": 20, "cumulative_error_rate": 1 / 3,
           "cumulative_sources": 4, "error_rate_vs_random": None, "finished": True}
    clean = format_summary({"run_id": "r", "arms": [{**row, "arm": "sea", "failed_calls": 0}]})
    assert "failed" not in clean and "finished" not in clean and "openai:gpt-4o-mini" in clean and "0.333" in clean
    failing = format_summary({"run_id": "r", "arms": [{**row, "arm": "sea", "failed_calls": 9}, {**row, "arm": "random", "failed_calls": 2}]})
    assert failing.endswith("\n\n11 calls failed after every retry (openai:gpt-4o-mini sea: 9, openai:gpt-4o-mini random: 2): "
                            "they are not answers, so the error rates leave them out; each step's count is in steps.csv")
    # a stopped run's figures read like a finished one's: the report said so, the summary did not
    cut = format_summary({"run_id": "r", "arms": [{**row, "arm": "sea", "failed_calls": 0, "finished": False}, {**row, "arm": "random", "failed_calls": 0}]})
    assert cut.endswith("\n\nNot finished: openai:gpt-4o-mini sea; its figures are those of the steps done so far. "
                        "Continue it with `sea audit --resume r`")
    over = format_summary({"run_id": "r", "arms": [{**row, "arm": "sea", "failed_calls": 0, "over_budget": {
        "dollars": {"spent": 0.012051, "limit": 0.01}, "tokens": {"spent": 6188, "limit": 6000}}}]})
    assert ("\n\nOver budget: openai:gpt-4o-mini sea spent $0.012051, above its limit of $0.01: the API counted more tokens "
            "than the calls in flight had reserved (the log names the model and counts)") in over  # the exact figure, not "$0.01"
    assert "spent 6,188 tokens, above its limit of 6,000 tokens" in over


def test_a_file_that_exists_elsewhere_is_not_told_as_a_file_in_a_folders_way(tmp_path):
    """Left alone in an earlier round: every EEXIST in a cause chain read as 'a file stands where a folder should
    be'; only a mkdir's is, and make_folder says it where it happens."""
    import errno

    from flows.cli import disk_problem
    from sea.errors import SeaError
    from sea.files import make_folder

    taken = tmp_path / "taken"
    taken.write_text("")
    with pytest.raises(FileExistsError) as exclusive:
        open(taken, "x")
    assert exclusive.value.errno == errno.EEXIST and disk_problem(exclusive.value) is None
    with pytest.raises(SeaError, match=f"^{re.escape(str(taken))}: a file stands where a folder should be: move it or give "
                                       f"another path, then run again$"):
        make_folder(taken)


def test_the_summary_names_other_models_an_endpoint_said_answered():
    # an end-to-end check: served_models reached metrics.json and MLflow, but `sea summary` said nothing of them
    from flows.cli import format_summary

    row = {"testee": "openai-compatible:x", "arm": "sea", "steps": 1, "cumulative_questions": 4, "cumulative_wrong": 1,
           "cumulative_error_rate": 0.25, "error_rate_vs_random": None, "cumulative_sources": 0, "finished": True}
    said = format_summary({"run_id": "r", "arms": [{**row, "served_models": ["another-model", "x"]},
                                                   {**row, "arm": "random", "served_models": ["x-2024-07-18"]}]})
    assert said.endswith("\n\nAnswered as other models than asked for: openai-compatible:x sea's endpoint named "
                         "another-model, x (served_models in metrics.json)")  # the dated x is x: not said


def test_the_paid_line_shows_a_small_figure_with_its_own_digits():
    # left alone in an earlier round: from a cent up, figures were rounded to cents, so $0.0149 read "$0.01"
    from flows.cli import paid_line

    row = {"paid_calls": 12, "paid_tokens": 3400, "paid_dollars": 0.0149, "unsettled_calls": 1, "unsettled_dollars": 0.061}
    assert paid_line([row]) == ("\nPaid to the testee API: $0.015 for 12 replies, 3,400 tokens (cached replies cost nothing); "
                                "1 attempts got no usable reply and may be billed too, up to $0.061 more")
    assert paid_line([{**row, "paid_dollars": 0.0061}]).startswith("\nPaid to the testee API: $0.0061 for")
    assert paid_line([{**row, "paid_dollars": 0.25}]).startswith("\nPaid to the testee API: $0.25 for")
    assert paid_line([{**row, "paid_dollars": 12.254}]).startswith("\nPaid to the testee API: $12.25 for")
