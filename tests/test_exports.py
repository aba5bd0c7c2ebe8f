"""`sea export` on a finished audit: the files, their provenance and filters, and the suites run by
the tools they are for — inspect_ai's own eval with its mock model, lm-evaluation-harness's own
task loader and evaluator."""

import importlib.util
import json
import shutil

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sea.audit.rundir import ANSWERS, CONFIG_FILE, RunDir, open_run
from sea.audit.steps import in_process, run_steps
from sea.audit.workspace import Workspace
from sea.errors import SeaError
from sea.exports import PARQUET_SCHEMA, export, exported_questions, question_ids
from sea.files import write_parquet
from sea.findings.analysis import evaluated, write_findings
from sea.findings.retest import wrong_answers
from sea.llm.fake_server import FakeLLMServer
from sea.questions.grading import answers_table
from sea.questions.model import Outcome
from sea.review.sheet import review_sample, write_sheets
from sea.review.verdicts import import_verdicts
from sea.settings import FindingsSettings, Params
from tests.audit.conftest import small_audit
from tests.finished_audit import PROBE, SHARER, copy_of


def all_errors_rejected(finished_audit, tmp_path) -> RunDir:
    """A copy of the finished audit whose reviewers rejected every wrong answer."""
    run = copy_of(finished_audit, tmp_path)
    sheet = tmp_path / "rejected.json"
    sheet.write_text(json.dumps([{"question_id": q, "verdict": "gold wrong"} for q in exported_questions(run, only_errors=True)["id"]]),
                     encoding="utf-8")
    import_verdicts(run, sheet, "Ada", question_ids(run))
    return run


def test_parquet_reads_back_as_the_jsonl_does_even_empty(finished_audit, tmp_path):
    # a bug hunt: testee_answers was a struct of every testee, so one not asked read back null, as "asked, no letter";
    # and an empty suite had no columns at all
    jsonl = export(finished_audit, "jsonl", tmp_path / "jsonl")[-1]
    records = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    table = pd.read_parquet(export(finished_audit, "parquet", tmp_path / "parquet")[-1])
    assert list(table.columns) == list(records[0])
    assert [dict(pairs) for pairs in table["testee_answers"]] == [r["testee_answers"] for r in records]
    del records[0]["testee_answers"][SHARER]  # every question here was asked to both: one asked to the probe alone
    pq.write_table(pa.Table.from_pylist(records, schema=PARQUET_SCHEMA), tmp_path / "one-not-asked.parquet")
    assert pd.read_parquet(tmp_path / "one-not-asked.parquet")["testee_answers"][0] == [(PROBE, records[0]["testee_answers"][PROBE])]
    run = all_errors_rejected(finished_audit, tmp_path)
    empty = pq.read_table(export(run, "parquet", tmp_path / "empty", only_errors=True)[-1])
    assert empty.num_rows == 0 and empty.schema.names == list(records[0])
    assert empty.schema == pq.read_table(tmp_path / "parquet" / jsonl.with_suffix(".parquet").name).schema


def test_jsonl_and_parquet_carry_the_papers_fields_and_the_provenance(finished_audit, tmp_path):
    written = export(finished_audit, "jsonl", tmp_path / "jsonl", only_errors=True)
    records = [json.loads(line) for line in written[-1].read_text(encoding="utf-8").splitlines()]
    assert records and all(r["wrong_for"] for r in records)
    first = records[0]
    assert {"question", "options", "answer", "paragraph", "title", "url"} <= set(first) and len(first["options"]) == 4
    assert first["options"][first["answer_index"]] and first["answer"] == "ABCD"[first["answer_index"]]
    assert first["url"].startswith("http") and first["paragraph"]
    about = json.loads(written[0].read_text(encoding="utf-8"))
    assert about["run_id"] == finished_audit.run_id and about["questions"] == len(records) and "index" in about["data_versions"]
    assert about["run_finished"] is True  # a bug hunt: a suite exported mid-run did not say it was partial
    table = pd.read_parquet(export(finished_audit, "parquet", tmp_path / "parquet", only_errors=True)[-1])
    assert list(table["id"]) == [r["id"] for r in records]

    everything = exported_questions(finished_audit)
    probe_errors = exported_questions(finished_audit, testee=PROBE, only_errors=True)
    assert len(everything) > len(records) >= len(probe_errors) > 0
    assert all(PROBE in wrong and set(answers) == {PROBE} for wrong, answers in zip(probe_errors["wrong_for"], probe_errors["answers"]))
    assert set(exported_questions(finished_audit, testee=SHARER)["answers"].map(tuple)) == {(SHARER,)}
    with pytest.raises(SeaError, match="did not audit openai:gpt-4o; its testees: simulated:probe, simulated:sharer"):
        exported_questions(finished_audit, testee="openai:gpt-4o")
    with pytest.raises(SeaError, match="choose one of jsonl, parquet, inspect, lm-eval"):
        export(finished_audit, "csv", tmp_path / "csv")


def test_a_call_that_failed_in_one_arm_hides_no_answer_another_arm_got(finished_audit, tmp_path):
    # a bug hunt: the first arm's record of a question won even when its call had failed, so a wrong answer another arm
    # got to it (a failed call is not cached: asked again) left the export, the retest and the clusters (445 of 475)
    run = copy_of(finished_audit, tmp_path)
    config = json.loads((run.root / CONFIG_FILE).read_text(encoding="utf-8"))
    config["params"]["search"]["arms"] = ["sea", "random"]
    (run.root / CONFIG_FILE).write_text(json.dumps(config), encoding="utf-8")
    run = RunDir(run.root)
    failed, answered = run.arm(PROBE, "sea"), run.arm(PROBE, "random")
    shutil.copytree(failed.root, answered.root)  # the same questions, answered, in the later arm
    for step in range(failed.load_state().step):
        records = failed.read(step, ANSWERS).to_pylist()
        write_parquet(failed.step_dir(step) / ANSWERS, answers_table(
            [{**r, "outcome": Outcome.FAILED, "parsed_letter": None, "raw_reply": "HTTP 400"} for r in records]))
    (failed.root / "steps.csv").unlink(missing_ok=True)  # gathered again from the steps
    before = exported_questions(finished_audit, testee=PROBE, only_errors=True)
    after = exported_questions(run, testee=PROBE, only_errors=True)
    assert len(before) > 0 and list(after["id"]) == list(before["id"]) and list(after["answers"]) == list(before["answers"])
    assert list(wrong_answers(run, PROBE)["question_id"]) == list(wrong_answers(finished_audit, PROBE)["question_id"])


def test_the_inspect_export_runs_in_inspect_eval(finished_audit, tmp_path):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    written = export(finished_audit, "inspect", tmp_path / "inspect", only_errors=True)
    samples = [json.loads(line) for line in written[1].read_text(encoding="utf-8").splitlines()]
    spec = importlib.util.spec_from_file_location("exported_task", written[2])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    task = next(getattr(module, name) for name in dir(module) if name.startswith("sea_"))
    # The mock model answers the gold letter on every third sample and a wrong one elsewhere. (Its
    # usage is given: without it inspect counts tokens with tiktoken, which downloads its encoding.)
    replies = [s["target"] if i % 3 == 0 else "ABCD"[("ABCD".index(s["target"]) + 1) % 4] for i, s in enumerate(samples)]
    outputs = [ModelOutput.from_content("mockllm/model", f"ANSWER: {letter}") for letter in replies]
    for output in outputs:
        output.usage = ModelUsage(input_tokens=100, output_tokens=3, total_tokens=103)
    log = inspect_eval(task(), model=get_model("mockllm/model", custom_outputs=outputs), log_dir=str(tmp_path / "logs"),
                       display="none")[0]
    assert log.status == "success" and len(log.samples) == len(samples)
    accuracy = log.results.scores[0].metrics["accuracy"].value
    assert accuracy == pytest.approx(sum(i % 3 == 0 for i in range(len(samples))) / len(samples))


def test_the_lm_eval_export_loads_and_scores_in_lm_evaluation_harness(finished_audit, tmp_path):
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager, get_task_dict

    written = export(finished_audit, "lm-eval", tmp_path / "lm-eval", testee=PROBE, only_errors=True)
    name = written[-1].stem
    records = [json.loads(line) for line in written[1].read_text(encoding="utf-8").splitlines()]
    manager = TaskManager(include_path=str(tmp_path / "lm-eval"))
    task = get_task_dict([name], manager)[name]
    docs = list(task.test_docs())
    assert task.OUTPUT_TYPE == "multiple_choice" and len(docs) == len(records)
    assert task.doc_to_text(docs[0]) == records[0]["question"] + "\nAnswer:"
    assert task.doc_to_choice(docs[0]) == records[0]["options"] and task.doc_to_target(docs[0]) == records[0]["answer_index"]

    gold = {r["question"] + "\nAnswer:": r["options"][r["answer_index"]] for r in records}

    class KnowsTheGold(LM):  # log-likelihood 0 for the gold option, -1 for the others
        def loglikelihood(self, requests, disable_tqdm=False):
            return [(0.0 if continuation.strip() == gold[context] else -1.0, False)
                    for context, continuation in (r.args for r in requests)]

        def loglikelihood_rolling(self, requests, disable_tqdm=False):
            raise NotImplementedError

        def generate_until(self, requests, disable_tqdm=False):
            raise NotImplementedError

    results = simple_evaluate(model=KnowsTheGold(), tasks=[name], task_manager=manager)
    assert results["results"][name]["acc,none"] == 1.0


def test_an_unparseable_reply_and_a_failed_call_have_no_letter_anywhere(vital_sample, tmp_path):
    raw = small_audit(vital_sample, tmp_path / "runs").model_dump(mode="json")
    raw["search"]["arms"] = ["sea"]
    # The first call refused for good; then a reply with no letter to 3 prompts in 4.
    with FakeLLMServer(script=["500"], reply=lambda prompt: "Answer: A" if len(prompt) % 4 == 0 else "maybe the second one?") as server:
        raw["models"]["testee"].update(model="openai-compatible:x", base_url=f"{server.base_url}/v1", max_attempts=1)
        workspace = Workspace.of(open_run(tmp_path / "runs", "unparseable", Params.model_validate(raw)).root)
        run_steps(workspace.run.arm("openai-compatible:x", "sea"), in_process(workspace))
    run = workspace.run
    asked = evaluated(run, "openai-compatible:x").asked
    assert {"unparseable", "failed", "wrong"} <= set(asked["outcome"])
    assert set(asked.loc[asked["outcome"].isin(["unparseable", "failed"]), "parsed_letter"]) == {None}

    def no_nan(constant):
        raise AssertionError(f"{constant} in an export: not JSON")

    for fmt in ("jsonl", "inspect", "lm-eval"):
        for line in export(run, fmt, tmp_path / fmt)[1].read_text(encoding="utf-8").splitlines():
            json.loads(line, parse_constant=no_nan)
    table = pd.read_parquet(export(run, "parquet", tmp_path / "parquet")[-1])
    assert None in [dict(answers)["openai-compatible:x"] for answers in table["testee_answers"]]
    write_findings(run, FindingsSettings(min_cluster_size=2, anchor_neighbours=30), tmp_path / "findings")
    assert "(no option: maybe the second one?)" in (tmp_path / "findings" / "findings.md").read_text(encoding="utf-8")
    page, _ = write_sheets(run, review_sample(run, 50, only_errors=True, seed=0), tmp_path / "review")
    assert "<bdi>openai-compatible:x</bdi>: <b>(no letter)</b>" in page.read_text(encoding="utf-8")
