"""The six phases on the 500-article sample, without Prefect: budget, sharing, exact restoration."""

import json
import re
import shutil

import pandas as pd
import pytest

from sea.audit import rundir, steps
from sea.audit.rundir import open_run
from sea.audit.step_store import StepStore
from sea.audit.outputs import gather_arm, summarise
from sea.audit.steps import in_process, run_steps
from sea.audit.workspace import Workspace, _open
from sea.files import DamagedFile
from sea.questions.grading import askable
from sea.search.pruning import chance_to_beat
from tests.audit.conftest import SEARCHED_SHARE, small_audit

COMPARED = ["question_id", "testee", "raw_reply", "parsed_letter", "outcome", "input_tokens", "output_tokens", "cost_usd"]


def test_every_arm_spends_its_budget_exactly_and_never_more(vital_sample, tmp_path):
    budget = 120
    params = small_audit(vital_sample, tmp_path / "runs", budget__testee_calls=budget)
    workspace = Workspace.of(open_run(params.audit.runs_dir, "exact", params).root)
    run = workspace.run
    for arm in run.arms():
        records = run_steps(arm, in_process(workspace))
        state = arm.load_state()
        answers = pd.concat([pd.read_parquet(arm.step_dir(s) / rundir.ANSWERS) for s in range(state.step)])
        assert state.finished and len(answers) == state.spent["calls"] == records[-1]["cumulative_questions"] <= budget
        assert budget - len(answers) < 2 * 2  # less than one more paragraph's questions were left unspent
        visited = pd.concat([pd.read_parquet(arm.step_dir(s) / rundir.PARAGRAPHS) for s in range(state.step)])
        assert visited["para_id"].is_unique  # nothing is evaluated twice
        assert sum(r["questions_asked"] for r in records) == len(answers)
        edges = list(state.dag.graph.edges)
        assert bool(edges) == (arm.arm != "random")
        for source, target in edges:
            assert state.dag.graph.nodes[source]["step"] < state.dag.graph.nodes[target]["step"]
        if arm.arm != "sea":
            assert not state.pruned_sources  # no_pruning and random never prune


def test_sea_prunes_exactly_the_sources_whose_descendants_stopped_failing(vital_sample, tmp_path):
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["sea"], budget__testee_calls=600)
    workspace = Workspace.of(open_run(params.audit.runs_dir, "prunes", params).root)
    gamma, pruned_so_far, checked = params.search.gamma, set(), []

    def check(state, metrics):
        newly_pruned = state.pruned_sources - pruned_so_far
        assert metrics["pruned_sources"] == len(newly_pruned)
        assert all(state.dag.descendant_error(source) < gamma for source in newly_pruned)
        assert all(state.dag.descendant_error(source) is None or state.dag.descendant_error(source) >= gamma
                   for source in state.active_sources)
        pruned_so_far.update(newly_pruned)
        checked.append(state.step)

    run_steps(workspace.run.arm("simulated:probe", "sea"), in_process(workspace), after_step=check)
    assert pruned_so_far and len(checked) > 3  # the rule fired during an ordinary small audit


def test_one_embedder_serves_the_generator_retrieval_and_the_simulated_testee(workspace):
    assert workspace.testee("simulated:probe").provider.embedder is workspace.embedder is workspace.paragraphs.embedder


def test_the_last_batch_is_cut_to_fit(vital_sample, tmp_path):
    # a budget the random arm spends well before it has visited the sample's every paragraph (at 200, with 222b6e2's
    # rules withholding more questions, it visited them all at 198 calls)
    params = small_audit(vital_sample, tmp_path / "runs", budget__testee_calls=120)
    workspace = Workspace.of(open_run(params.audit.runs_dir, "cut", params).root)
    arm = workspace.run.arm("simulated:probe", "random")
    records = run_steps(arm, in_process(workspace))
    spent, budget = arm.load_state().spent["calls"], workspace.params.budget.testee_calls
    assert [r["paragraphs"] for r in records][:-1] == [6] * (len(records) - 1) and spent <= budget
    # the last batch is cut unless its full batch landed exactly on the budget, and cut whole: every paragraph it keeps
    # is asked all its questions
    assert records[-1]["paragraphs"] < 6 or spent == budget
    last = StepStore(arm, len(records) - 1)
    assert len(last.answers()) == sum(len(askable(workspace.bank.questions(p))) for p in last.evaluation().evaluated)


@pytest.mark.parametrize("arm_name", ["random", "sea_plus"])
def test_a_token_budget_that_runs_out_within_a_batch_leaves_unasked_paragraphs_unevaluated(vital_sample, tmp_path, arm_name):
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=[arm_name], budget__testee_calls=None, budget__tokens=2500)
    workspace = Workspace.of(open_run(params.audit.runs_dir, "tokens", params).root)
    arm = workspace.run.arm("simulated:probe", arm_name)
    records = run_steps(arm, in_process(workspace))
    last = StepStore(arm, len(records) - 1)
    assert last.evaluation().exhausted and arm.load_state().spent["tokens"] <= 2500
    asked = set(last.answers()["question_id"])
    for para_id in last.evaluation().evaluated:  # each one asked at least one of its questions, or it had none to ask
        questions = {q.question_id for q in askable(workspace.bank.questions(para_id))}
        assert questions & asked or not questions, para_id
    assert records[-1]["paragraphs"] == len(last.evaluation().evaluated) < 6


def test_questions_written_for_paragraphs_the_budget_left_unasked_are_charged(vital_sample, tmp_path, monkeypatch):
    # they were paid for, but only the evaluated paragraphs' writing was charged: the cost per error read low
    from sea.audit.bank import QuestionBank
    from sea.llm.meter import Meter
    from sea.llm.usage import Usage

    monkeypatch.setattr(QuestionBank, "usage", lambda bank, para_id: Meter({"generator": Usage(calls=1, input_tokens=100)}))
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["random"], budget__testee_calls=None, budget__tokens=2500)
    workspace = Workspace.of(open_run(params.audit.runs_dir, "tokens", params).root)
    arm = workspace.run.arm("simulated:probe", "random")
    records = run_steps(arm, in_process(workspace))
    last = StepStore(arm, len(records) - 1)
    assert len(last.evaluation().evaluated) < len(last.batch().para_ids)  # the budget left some of the batch unasked
    assert [r["generator_tokens"] for r in records] == [100 * len(StepStore(arm, s).batch().para_ids) for s in range(len(records))]


def test_questions_are_written_once_per_paragraph_and_shared_by_the_arms(workspace):
    run = workspace.run
    for arm in run.arms():
        run_steps(arm, in_process(workspace))
    evaluated = [set(pd.read_parquet(arm.step_dir(0) / rundir.PARAGRAPHS)["para_id"]) for arm in run.arms()]
    assert evaluated[0] == evaluated[1] == evaluated[2]  # the same initial batch, so the same paragraphs
    asked = [pd.read_parquet(arm.step_dir(0) / rundir.QUESTIONS).sort_values("question_id") for arm in run.arms()]
    assert asked[0]["question_id"].tolist() == asked[2]["question_id"].tolist()
    chosen = [p for arm in run.arms() for s in range(arm.load_state().step)
              for p in json.loads((arm.step_dir(s) / rundir.BATCH).read_text())["para_ids"]]
    # One bank entry per paragraph any arm chose (a batch's questions are written before the budget cuts it).
    assert sorted(int(path.stem) for path in run.bank_dir.glob("*.json")) == sorted(set(chosen)) and len(chosen) > len(set(chosen))


def _step_files(arm, count):
    out = []
    for step in range(count):
        answers = pd.read_parquet(arm.step_dir(step) / rundir.ANSWERS)[COMPARED]
        out.append((pd.read_parquet(arm.step_dir(step) / rundir.QUESTIONS), answers,
                    pd.read_parquet(arm.step_dir(step) / rundir.PARAGRAPHS), (arm.step_dir(step) / rundir.METRICS).read_text()))
    return out


@pytest.mark.parametrize(("arm_name", "plus"), [("sea", {}), ("random", {}), ("sea_plus", {}),  # sea_plus's defaults (in this sample its prior never has enough failures to guide a draw)
                                                ("sea_plus", {"bandit": True, "yield_pruning": True, "evidence_sources": True,
                                                              "fill_by_exploration": True})])
def test_a_run_reopened_in_a_new_process_state_continues_exactly(vital_sample, tmp_path, arm_name, plus):
    params = small_audit(vital_sample, tmp_path / "runs", SEARCHED_SHARE, budget__testee_calls=10_000, search__arms=[arm_name])
    params = params.model_copy(update={"search": params.search.model_copy(update={
        "plus": params.search.plus.model_copy(update=plus)})})  # sea_plus: the bandit's draws, the yields, promotion on evidence and filled batches resume too
    straight = Workspace.of(open_run(params.audit.runs_dir, "straight", params).root)
    run_steps(straight.run.arm("simulated:probe", arm_name), in_process(straight), 5)

    interrupted = Workspace.of(open_run(params.audit.runs_dir, "interrupted", params).root)
    arm = interrupted.run.arm("simulated:probe", arm_name)
    run_steps(arm, in_process(interrupted), 2)
    steps.retrieve(interrupted, arm, 2)  # a step left half-done
    steps.generate(interrupted, arm, 2)
    _open.clear()  # forget everything in memory, as a new process would
    resumed = Workspace.of(open_run(params.audit.runs_dir, "interrupted", params).root)
    run_steps(arm, in_process(resumed), 3)

    ours, theirs = _step_files(arm, 5), _step_files(straight.run.arm("simulated:probe", arm_name), 5)
    for (q1, a1, p1, m1), (q2, a2, p2, m2) in zip(ours, theirs, strict=True):
        pd.testing.assert_frame_equal(q1, q2)
        pd.testing.assert_frame_equal(a1, a2)
        pd.testing.assert_frame_equal(p1, p2)
        assert m1 == m2
    assert arm.load_state().to_json() == straight.run.arm("simulated:probe", arm_name).load_state().to_json()
    batches = [json.loads((arm.step_dir(s) / rundir.BATCH).read_text()) for s in range(1, 5)]
    retrieved = [sum(bool(sources) for sources in batch["provenance"].values()) for batch in batches]
    if arm_name != "random":  # the steps resumed searched around sources, not only explored
        assert any(retrieved[1:])
    if plus.get("fill_by_exploration"):  # and a step filled its batch beside its candidates
        assert any(0 < n < len(batch["para_ids"]) for n, batch in zip(retrieved, batches, strict=True))


def test_all_four_arms_get_the_same_budget_and_sea_plus_stops_asking_decided_paragraphs(vital_sample, tmp_path):
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["sea", "no_pruning", "random", "sea_plus"],
                         budget__testee_calls=120)  # sea_plus asks all the sample's paragraphs near its sources by 200
    params = params.model_copy(update={"search": params.search.model_copy(update={
        "plus": params.search.plus.model_copy(update={"round_size": 2})})})
    workspace = Workspace.of(open_run(params.audit.runs_dir, "four", params).root)
    spent = {}
    for arm in workspace.run.arms():
        run_steps(arm, in_process(workspace))
        spent[arm.arm] = arm.load_state().spent["calls"]
    assert all(120 - 4 < calls <= 120 for calls in spent.values()), spent  # equal budgets, to within one paragraph
    plus = workspace.run.arm("simulated:probe", "sea_plus")
    # Every step but the last, where the budget may leave a paragraph's next round unasked.
    asked = pd.concat([pd.read_parquet(plus.step_dir(s) / rundir.QUESTIONS) for s in range(plus.load_state().step - 1)])
    per_paragraph = asked.groupby("para_id").size()
    available = {p: len(askable(workspace.bank.questions(p))) for p in per_paragraph.index}
    stopped_early = [p for p, count in per_paragraph.items() if count < available[p]]
    assert stopped_early and any(count == available[p] == 4 for p, count in per_paragraph.items())
    for para_id in stopped_early:  # two answers alone settled the side of tau: both right, or both wrong
        assert per_paragraph[para_id] == 2 and plus.load_state().error_rates[para_id] in (0.0, 1.0)
    sea = workspace.run.arm("simulated:probe", "sea")
    assert len(plus.load_state().error_rates) > len(sea.load_state().error_rates)  # the saved budget bought more paragraphs


def test_sea_plus_on_evidence_promotes_only_paragraphs_convincingly_above_tau(vital_sample, tmp_path):
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["sea_plus"], budget__testee_calls=300,
                         questions__per_paragraph=3, questions__variants=1)  # 2 of 3 wrong: above tau, not convincing
    params = params.model_copy(update={"search": params.search.model_copy(update={
        "plus": params.search.plus.model_copy(update={"evidence_sources": True})})})
    workspace = Workspace.of(open_run(params.audit.runs_dir, "evidence", params).root)
    arm = workspace.run.arm("simulated:probe", "sea_plus")
    run_steps(arm, in_process(workspace))
    state, tau = arm.load_state(), params.search.tau
    answers = pd.concat([pd.read_parquet(arm.step_dir(s) / rundir.ANSWERS).merge(
        pd.read_parquet(arm.step_dir(s) / rundir.QUESTIONS)[["question_id", "para_id"]]) for s in range(state.step)])
    counts = answers.groupby("para_id")["outcome"].agg(answered="size", wrong=lambda o: int((o != "correct").sum()))
    above = {p for p, rate in state.error_rates.items() if rate > tau}
    assert state.sources and state.sources < above  # some paragraphs above tau were not promoted
    for para_id in above:
        answered, wrong = counts.loc[para_id, ["answered", "wrong"]]
        assert (para_id in state.sources) == (chance_to_beat(int(wrong), int(answered - wrong), tau) >= 0.8)
    assert any(counts.loc[p, "answered"] == 1 for p in above - state.sources)  # one wrong answer out of one is not enough


def test_an_arm_past_its_first_step_without_its_state_is_damaged_not_an_arm_never_run(vital_sample, tmp_path):
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["sea"])
    ws = Workspace.of(open_run(params.audit.runs_dir, "r1", params).root)
    arm = ws.run.arms()[0]
    run_steps(arm, in_process(ws), 1)
    state = arm.state_path.read_bytes()
    arm.state_path.unlink()  # as a kill between step 0's metrics.json and its state.json leaves it
    ws.run.check()  # the first step is redone on resume
    arm.state_path.write_bytes(state)
    run_steps(arm, in_process(ws), 2)
    metrics = [(arm.step_dir(s) / rundir.METRICS).read_text() for s in range(3)]
    arm.state_path.unlink()
    fix = (f"delete {arm.root} and resume (`sea audit --resume r1`): the arm is redone, every model call answered from "
           f"the response cache, so no paid call is repeated")
    with pytest.raises(DamagedFile, match=re.escape(f"{arm.state_path} is damaged (missing, though the arm went past its "
                                                    f"first step (steps/0001 to steps/0002)); {fix}")):
        ws.run.check()  # summed as an arm that never ran, the report would print another arm's figures as the headline
    with pytest.raises(DamagedFile, match=re.escape(f"{arm.state_path} is damaged (missing")):
        summarise(ws.run)  # `sea summary` too
    shutil.rmtree(arm.root)  # as told
    run_steps(arm, in_process(ws), 3)
    ws.run.check()
    assert [(arm.step_dir(s) / rundir.METRICS).read_text() for s in range(3)] == metrics


def test_an_arm_of_exactly_one_step_without_its_state_is_damaged_once_its_tables_were_gathered(vital_sample, tmp_path):
    """No steps/0001 to tell it from a kill before step 0's state.json, but the tables gathered at the arm's end are
    gathered from a saved state only: with steps.csv's row, the arm read as never run would drop out of the report."""
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["sea"])
    ws = Workspace.of(open_run(params.audit.runs_dir, "r1", params).root)
    arm = ws.run.arms()[0]
    gather_arm(arm)  # a report of the run before the arm began: steps.csv without a row
    run_steps(arm, in_process(ws), 1)
    arm.state_path.unlink()  # a kill between step 0's metrics.json and its state.json: redone on resume
    ws.run.check()
    run_steps(arm, in_process(ws), 1)
    gather_arm(arm)  # as the audit does at the arm's end
    arm.state_path.unlink()
    with pytest.raises(DamagedFile, match=re.escape(f"{arm.state_path} is damaged (missing, though the arm's steps.csv "
                                                    f"records a completed step); delete {arm.root} and resume")):
        ws.run.check()
    with pytest.raises(DamagedFile, match=re.escape(f"{arm.state_path} is damaged (missing")):
        summarise(ws.run)


def test_a_missing_file_of_a_completed_step_is_named_with_its_fix_like_a_damaged_one(vital_sample, tmp_path):
    params = small_audit(vital_sample, tmp_path / "runs", search__arms=["sea"])
    ws = Workspace.of(open_run(params.audit.runs_dir, "r1", params).root)
    arm = ws.run.arms()[0]
    run_steps(arm, in_process(ws), 3)
    fix = re.escape(f"; delete {arm.root} and resume (`sea audit --resume r1`): the arm is redone")
    for name, read in ((rundir.ANSWERS, ws.run.check), (rundir.METRICS, ws.run.check), (rundir.METRICS, lambda: summarise(ws.run)),
                       (rundir.QUESTIONS, lambda: gather_arm(arm))):
        path = arm.step_dir(1) / name
        kept = path.read_bytes()
        path.unlink()
        with pytest.raises(DamagedFile, match=re.escape(f"{path} is damaged (missing)") + fix):  # not a FileNotFoundError
            read()
        path.write_bytes(kept)
    ws.run.check()
