"""The benchmark scripts' report code on made-up rows: `make bench` runs for an hour before it
publishes, so a broken report must fail here, not at the end of that hour."""

import json
from argparse import Namespace
from pathlib import Path

import pandas as pd
import pytest

from benchmarks import discovery, headroom, models, question_review, questions, scale
from sea.questions.generate import invalid_record


def _row(arm: str, seed: int, error_rate: float) -> dict:
    return {"setting": "5 questions", "profile": "paper-regime", "seed": seed, "arm": arm, "budget": max(discovery.BUDGETS),
            "questions": 5000, "steps": 25, "error_rate": error_rate, "wrong": int(5000 * error_rate), "sources": 100,
            "precision": 0.8, "recall": 1.0, "budget_inside": 0.3, "tokens_per_error": 700.0, "dollars_per_error": 0.003,
            "curve": [(200, error_rate), (5000, error_rate)], "elapsed_s": 1}


def test_the_discovery_report_and_figure_are_built_from_rows():
    labels = [*discovery.ARMS, *discovery.ABLATIONS]
    rows = [_row(arm, seed, 0.25 + 0.05 * i) | {"true_sources_pruned": 10 + seed} for i, arm in enumerate(labels) for seed in (0, 1)]
    report = discovery.summarise(rows, Namespace(seeds=2, skip_paper=True, rows=None, settings=None), seconds=1.0)
    by_arm = {g["arm"]: g for g in report["groups"]}
    assert set(by_arm) == set(labels) and by_arm["random"]["error_rate_vs_random"]["mean"] == 1.0
    assert [g["arm"] for g in report["groups"]] == labels  # the ablations after the arms, in their fixed order
    assert by_arm["sea_plus + bandit"]["true_sources_pruned"]["mean"] == 10.5
    assert by_arm["sea"]["error_rate"]["mean"] == 0.25 and by_arm["sea"]["error_rate_vs_random"]["mean"] == 0.25 / 0.35
    text = discovery.markdown(report)
    assert "| 5 questions | paper-regime | 5000 | sea | 2 |" in text and "| sea_plus + yield pruning + bandit | 2 |" in text
    assert discovery.curve_figure(rows).startswith(b"\x89PNG")


def test_a_resumed_benchmark_keeps_only_the_runs_that_wrote_every_budget(tmp_path, monkeypatch):
    budgets = discovery.SETTINGS["5 questions"][1]
    complete = [_row("sea", 0, 0.3) | {"budget": b} for b in budgets]
    cut_off = [_row("sea", 1, 0.3) | {"budget": budgets[0]}]  # interrupted before its second budget was written
    rows_file = tmp_path / "rows.jsonl"
    rows_file.write_text("".join(json.dumps(r) + "\n" for r in [*complete, *cut_off]))
    kept = discovery._completed_rows(rows_file, "discovery")
    assert [(r["seed"], r["budget"]) for r in kept] == [(0, b) for b in budgets]
    assert [json.loads(line)["seed"] for line in rows_file.read_text().splitlines()] == [0] * len(budgets)
    # a fresh checkout has no runs/: the committed report's rows, curves included, are resumed from
    monkeypatch.setattr(discovery, "OUT", tmp_path / "reports")
    (tmp_path / "reports").mkdir()
    report = discovery.summarise([*complete, *cut_off], Namespace(seeds=2, skip_paper=True, rows=None, settings=None), 1.0)
    (tmp_path / "reports" / "discovery.json").write_text(json.dumps(report))
    fresh = tmp_path / "runs" / "bench-discovery" / "rows.jsonl"
    assert json.loads(json.dumps(discovery._completed_rows(fresh, "discovery"))) == json.loads(json.dumps(complete))
    assert fresh.is_file()
    with pytest.raises(SystemExit, match="no earlier run"):  # nothing to resume from: said, not a traceback
        discovery._completed_rows(tmp_path / "elsewhere" / "rows.jsonl", "discovery-nothing")


def test_the_failure_prior_is_reported_per_profile_and_block_of_steps():
    blocks = lambda accuracy: [{"first_step": 0, "paragraphs": 0, "accuracy": None, "auc": None},  # noqa: E731
                               {"first_step": 5, "paragraphs": 40, "accuracy": accuracy, "auc": accuracy + 0.1}]
    rows = [_row("sea_plus + failure prior", seed, 0.3) | {"prior_by_block": blocks(0.6 + 0.1 * seed)} for seed in (0, 1)]
    rows.append(_row("sea_plus + all four", 0, 0.3) | {"prior_by_block": blocks(0.0)})  # the prior alone is what is scored
    rows.append(_row("sea_plus + neighbour prior", 0, 0.3) | {"prior_by_block": blocks(0.8)})
    summary = discovery.prior_summary(rows)
    assert [(s["arm"], s["profile"], s["first_step"], s["seeds"]) for s in summary] == [
        ("sea_plus + failure prior", "paper-regime", 5, 2), ("sea_plus + neighbour prior", "paper-regime", 5, 1)]  # nothing predicted at first
    assert abs(summary[0]["accuracy"]["mean"] - 0.65) < 1e-12 and abs(summary[0]["auc"]["mean"] - 0.75) < 1e-12
    text = discovery.markdown(discovery.summarise([*rows, _row("random", 0, 0.2)], Namespace(seeds=2, skip_paper=True, rows=None, settings=None), 1.0))
    assert "| steps | paper-regime |" in text and "| 5-9 | 0.65 / 0.75 |" in text and discovery.PAPER_PRIOR_ACCURACY in text
    assert "## The learned failure prior, held out: neighbour prior" in text and "| 5-9 | 0.80 / 0.90 |" in text


def test_each_switch_is_judged_against_plain_sea_plus_on_the_same_seeds():
    rates = {("random", "paper-regime"): (0.2, 0.2), ("sea_plus", "paper-regime"): (0.3, 0.4),
             ("sea_plus + bandit", "paper-regime"): (0.32, 0.44), ("random", "scattered"): (0.1, 0.1),
             ("sea_plus", "scattered"): (0.2, 0.2), ("sea_plus + bandit", "scattered"): (0.19, 0.2),
             ("sea_plus + failure prior", "paper-regime"): (0.34, 0.42), ("sea_plus + failure prior", "scattered"): (0.21, 0.22),
             ("sea_plus + region retrieval", "paper-regime"): (0.4, 0.5),  # better, but measured on one profile of two
             (discovery.THE_DEFAULT, "paper-regime"): (0.36, 0.5), (discovery.THE_DEFAULT, "scattered"): (0.2, 0.3),
             ("sea_plus default + bandit", "paper-regime"): (0.34, 0.48), ("sea_plus default + bandit", "scattered"): (0.22, 0.32)}
    rows = [_row(arm, seed, pair[seed]) | {"profile": profile} for (arm, profile), pair in rates.items() for seed in (0, 1)]
    report = discovery.summarise(rows, Namespace(seeds=2, skip_paper=True, rows=None, settings=None), 1.0)
    effects = {e["ablation"]: e for e in report["switch_effects"]}
    on_default = effects["sea_plus default + bandit"]  # above plain sea_plus on both profiles, below the default on one
    assert on_default["baseline"] == discovery.THE_DEFAULT and not on_default["helps_on_every_profile"]
    assert abs(on_default["difference"]["paper-regime"]["mean"] + 0.1) < 1e-9 and abs(on_default["difference"]["scattered"]["mean"] - 0.2) < 1e-9
    assert effects[discovery.THE_DEFAULT]["baseline"] == "sea_plus" and effects[discovery.THE_DEFAULT]["helps_on_every_profile"]
    bandit = effects["sea_plus + bandit"]["difference"]
    assert abs(bandit["paper-regime"]["mean"] - 0.15) < 1e-9  # seed 0: 1.6 - 1.5, seed 1: 2.2 - 2.0
    assert abs(bandit["scattered"]["mean"] + 0.05) < 1e-9  # seed 0: 1.9 - 2.0, seed 1: even
    assert not effects["sea_plus + bandit"]["helps_on_every_profile"]  # better on one profile is not enough
    assert effects["sea_plus + failure prior"]["helps_on_every_profile"]
    assert not effects["sea_plus + region retrieval"]["helps_on_every_profile"]
    text = discovery.markdown(report)
    assert "| 5 questions, 5000 questions | paper-regime | scattered | helps on every profile |" in text
    assert "| sea_plus + bandit | +0.15 [" in text and "| no |" in text and "| yes |" in text
    assert "| 5 questions, 5000 questions, against the earlier default | paper-regime | scattered | helps on every profile |" in text


def test_todays_default_row_runs_sea_plus_as_its_settings_default_and_the_switches_on_it_are_judged_against_it():
    from sea.settings import PlusSettings

    runs_as = {**discovery.SEA_PLUS_AS_MEASURED, **discovery.ABLATIONS[discovery.THE_CURRENT_DEFAULT]}
    defaults = PlusSettings()
    assert {key: runs_as[key] for key in discovery.SEA_PLUS_AS_MEASURED} == {
        key: getattr(defaults, key.rsplit(".", 1)[1]) for key in discovery.SEA_PLUS_AS_MEASURED}
    on_today = f"{discovery.THE_CURRENT_DEFAULT} + neighbour prior"
    assert discovery.ABLATIONS[on_today]["search.plus.failure_prior"] is True
    assert discovery.baseline_of(on_today) == discovery.THE_CURRENT_DEFAULT
    assert discovery.baseline_of(discovery.THE_CURRENT_DEFAULT) == discovery.THE_DEFAULT  # as it was judged when it became the default
    assert discovery.baseline_of("sea_plus default + confidence z 1.28 + neighbour prior") == discovery.THE_DEFAULT


def test_a_switch_counts_only_where_it_helps_on_every_profile_at_every_budget_with_room():
    places = [(setting, budget) for setting in discovery.SETTINGS_WITH_ROOM for budget in discovery.SETTINGS[setting][1]]
    effect = lambda ablation, setting, budget, helps: {"ablation": ablation, "setting": setting, "budget": budget,  # noqa: E731
                                                      "helps_on_every_profile": helps}
    effects = [effect("everywhere", s, b, True) for s, b in places]
    effects += [effect("all but one", s, b, (s, b) != places[-1]) for s, b in places]
    effects += [effect("not run everywhere", s, b, True) for s, b in places[:-1]]
    effects.append(effect("everywhere", "5 questions", 2000, False))  # a setting without room does not decide
    verdicts = {v["ablation"]: v for v in discovery.verdicts(effects)}
    assert verdicts["everywhere"]["counts"] and not verdicts["all but one"]["counts"]
    assert not verdicts["not run everywhere"]["counts"] and list(verdicts["not run everywhere"]["helps"].values())[-1] is None
    assert list(verdicts["everywhere"]["helps"]) == [f"{s}, {b}" for s, b in places]
    text = "\n".join(discovery.verdict_markdown(list(verdicts.values())))
    assert "| everywhere | yes | yes | yes | yes |" in text and "| not run everywhere | yes | yes | not run | no |" in text
    assert discovery.verdicts([e for e in effects if e["setting"] == places[0][0]]) == []  # one setting of two: no verdict


def test_a_second_question_setting_has_its_own_rows_budgets_and_figure():
    rows = [_row(arm, 0, rate) | {"setting": "10 questions", "budget": 1000, "curve": [(100, rate), (1000, rate)]}
            for arm, rate in (("random", 0.2), ("sea", 0.3))]
    report = discovery.summarise(rows, Namespace(seeds=1, skip_paper=True, rows=["random", "sea"], settings=["10 questions"]), 1.0)
    assert [(g["setting"], g["budget"], g["arm"]) for g in report["groups"]] == [("10 questions", 1000, "sea"), ("10 questions", 1000, "random")]
    assert abs(report["groups"][0]["error_rate_vs_random"]["mean"] - 1.5) < 1e-12
    assert "--settings '10 questions'" in report["command"] and report["fixed_before_results"]["settings"]["10 questions"]["budgets"] == [1000]
    assert "| 10 questions | paper-regime | 1000 | sea | 1 |" in discovery.markdown(report)
    assert discovery.curve_figure(rows).startswith(b"\x89PNG")
    assert discovery.report_name(Namespace(settings=["10 questions"])) == "discovery-10-questions"
    assert discovery.report_name(Namespace(settings=None)) == "discovery"  # a full run's report and rows stay apart from it


def test_the_headroom_table_gives_each_budget_against_random_and_survives_an_empty_supply():
    report = {"command": headroom.COMMAND, "seconds": 1.0, "date": "2026-12-02", "budgets": [1000, 2000], "paragraphs": 10,
              "with_questions": 4, "rows": [
                  {"profile": "paper-regime", "phrasings": 2, "questions": 3000, "inside_blind_spots": 600, "random": 0.25,
                   "best": {"1000": 0.5, "2000": 0.3}},
                  {"profile": "sparse-spots", "phrasings": 1, "questions": 0, "inside_blind_spots": 0, "random": None,
                   "best": {"1000": None, "2000": None}}]}
    text = headroom.markdown(report)
    assert "| paper-regime | 2 | 3,000 | 600 | 0.250 | 0.500 (2.00×) | 0.300 (1.20×) |" in text
    assert "| sparse-spots | 1 | 0 | 0 | - | - | - |" in text


def test_paragraphs_without_a_question_count_once_per_reason_or_as_without_candidates():
    records = [invalid_record(1, "Sudan", "the title gives the answer away", "offline-cloze"),
               invalid_record(1, "Sudan", "the title gives the answer away", "offline-cloze"),
               invalid_record(1, "1798", "the date of a statistic", "offline-cloze"),
               invalid_record(3, "Nile", "the title gives the answer away", "offline-cloze"),
               invalid_record(3, "Nile", "near-duplicate of an earlier question with the same answer (similarity 0.961)", "x"),
               invalid_record(5, "Nile", "near-duplicate of an earlier question with the same answer (similarity 0.973)", "x"),
               invalid_record(4, "Egypt", "the date of a statistic", "offline-cloze")]  # 4 has a question: not counted
    assert questions.why_without_question(records, {1, 2, 3, 5}) == {
        "the title gives the answer away": 2, "near-duplicate of an earlier question with the same answer": 2,
        "the date of a statistic": 1, questions.NO_CANDIDATE: 1}


def test_a_review_round_on_a_run_already_reviewed_draws_none_of_the_earlier_rounds_questions(finished_audit, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the tool reads runs/<id> and writes reports/question_review-N.csv where it is run
    (tmp_path / "runs").symlink_to(finished_audit.root.parent)
    monkeypatch.setattr(question_review, "SAMPLE", 20)
    asked = set(question_review.asked_questions(finished_audit)["question_id"])
    sheets = {}
    for round_, exclude in ((1, []), (2, []), (3, [1])):
        question_review.draw([finished_audit.root.name], round_, seed=0, exclude=exclude)
        sheets[round_] = set(pd.read_csv(question_review.sheet(round_, "csv"), dtype=str)["question_id"])
    assert len(asked) >= 40 and all(len(drawn) == 20 and drawn <= asked for drawn in sheets.values())
    assert sheets[1] == sheets[2]  # the same seed on the same run draws the same questions
    assert not sheets[3] & sheets[1]  # unless told to leave an earlier round's out
    question_review.draw([finished_audit.root.name] * 2, 5, seed=0, exclude=[])  # several runs: what they asked together, once
    assert set(pd.read_csv(question_review.sheet(5, "csv"), dtype=str)["question_id"]) == sheets[1]
    monkeypatch.setattr(question_review, "SAMPLE", len(asked) - 10)  # too few left once round 1's 20 are out
    with pytest.raises(SystemExit, match=f"asked {len(asked) - 20} questions that rounds 1 did not judge.*draw from another run"):
        question_review.draw([finished_audit.root.name], 4, seed=0, exclude=[1])


def test_the_full_dumps_extrapolation_takes_the_embedding_rate_bench_kb_measured(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit, match="run `make bench-kb` first"):
        scale.embedding_rate()
    scale.KB_REPORT.parent.mkdir(parents=True)
    scale.KB_REPORT.write_text(json.dumps({"embedding": {"documents_per_second": 50.0}}))
    build = [{"runner": "local", "articles_per_second": 9.0}, {"runner": "dask", "articles_per_second": 10.0}]
    one_worker = scale.extrapolate(build, scale.embedding_rate())[0]
    assert one_worker == {"workers": 1, "build_hours": round(7_100_000 / 5.0 / 3600, 1),  # the cluster's rate per worker
                          "embed_hours_cpu": round(7_100_000 / 25.0 / 3600, 1)}  # 50 documents/s on 2 cores: 25 a worker


def test_a_round_on_unread_articles_draws_none_of_the_articles_a_sheet_has_shown(finished_audit, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").symlink_to(finished_audit.root.parent)
    monkeypatch.setattr(question_review, "SAMPLE", 10)
    question_review.draw([finished_audit.root.name], 1, seed=0, exclude=[])
    read = set(pd.read_csv(question_review.sheet(1, "csv"), dtype=str)["title"])
    asked = question_review.asked_questions(finished_audit)
    titles = question_review.ParagraphStore(finished_audit.params.paths.kb_dir).rows(asked["para_id"].drop_duplicates())["title"]
    unread = asked[~asked["para_id"].map(titles).isin(read)]
    assert 0 < len(unread) < len(asked)
    monkeypatch.setattr(question_review, "SAMPLE", len(unread) + 5)  # fewer unread than a sample: all of them, no error
    question_review.draw([finished_audit.root.name], 2, seed=0, exclude=[], unread_articles=True)
    drawn = pd.read_csv(question_review.sheet(2, "csv"), dtype=str)
    assert set(drawn["question_id"]) == set(unread["question_id"]) and not set(drawn["title"]) & read
    with pytest.raises(SystemExit, match="no question on an article that no round's sheet shows"):  # round 2 read the rest
        question_review.draw([finished_audit.root.name], 3, seed=0, exclude=[], unread_articles=True)


def test_a_second_dump_joins_the_first_without_the_pages_it_already_has():
    def page(title: str, text: str) -> str:
        return f"<page><title>{title}</title><revision><text>{text}</text></revision></page>"

    first = f"<mediawiki><siteinfo>site</siteinfo>\n  {page('Alaska', 'cold')}\n</mediawiki>\n"
    second = f"<mediawiki>\n  {page('Alaska', 'other revision')}\n  {page('Economy of Estonia', 'euro')}\n</mediawiki>"
    merged = question_review.merged_dump(first, second)
    assert merged == f"<mediawiki><siteinfo>site</siteinfo>\n  {page('Alaska', 'cold')}\n  {page('Economy of Estonia', 'euro')}\n</mediawiki>\n"


def test_a_second_readers_sheet_must_show_the_questions_the_first_shows(finished_audit, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").symlink_to(finished_audit.root.parent)
    monkeypatch.setattr(question_review, "SAMPLE", 10)
    question_review.draw([finished_audit.root.name], 1, seed=0, exclude=[])
    judged = pd.read_csv(question_review.sheet(1, "csv"), dtype=str, keep_default_na=False)
    judged[list(question_review.CRITERIA)] = "y"
    judged.to_csv(question_review.sheet(1, "csv"), index=False)
    second = question_review.sheet(1, "csv").with_name("question_review-1-second-reader.csv")
    judged.iloc[::-1].to_csv(second, index=False)  # another order is no change
    question_review.count(1, [finished_audit.root.name])
    summary = question_review.sheet(1, "md").read_text()
    assert "the two readers agree on 10 of 10" in summary
    assert f"questions run `{finished_audit.root.name}` asked, drawn by `python benchmarks/question_review.py draw --round 1 " \
           f"--run {finished_audit.root.name}`" in summary  # the run they came from, not the default's
    judged.loc[3, "paragraph"] = judged.loc[3, "paragraph"][:-20]  # a reader's script cut a paragraph short
    judged.to_csv(second, index=False)
    with pytest.raises(SystemExit, match="does not show the questions"):
        question_review.count(1, [finished_audit.root.name])


def test_the_standing_of_a_runs_questions_takes_each_ones_latest_verdicts(finished_audit, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").symlink_to(finished_audit.root.parent)
    monkeypatch.setattr(question_review, "SAMPLE", 10)
    run = finished_audit.root.name

    def judge(round_: int, exclude: list[int], failed_by_first: list[int], failed_by_second: list[int]) -> set[str]:
        question_review.draw([run], round_, seed=0, exclude=exclude)
        first = pd.read_csv(question_review.sheet(round_, "csv"), dtype=str, keep_default_na=False)
        second = first.copy()
        for verdicts, failed, reader in ((first, failed_by_first, "first"), (second, failed_by_second, "second")):
            verdicts[list(question_review.CRITERIA)] = "y"
            verdicts.loc[failed, "distractors"], verdicts.loc[failed, "note"] = "n", f"distractors: {reader} in round {round_}"
        first.to_csv(question_review.sheet(round_, "csv"), index=False)
        second.to_csv(question_review.sheet(round_, "csv").with_name(f"question_review-{round_}-second-reader.csv"), index=False)
        return set(first["question_id"])

    def standing(since: int) -> str:
        question_review.standing([run], since)
        return Path(f"reports/question_review-standing-{run}.md").read_text()

    round_1 = judge(1, [], [0, 1], [1])
    round_2 = judge(2, [1], [0], [0])
    assert judge(3, [], [], [2]) == round_1  # the same seed: round 1's questions judged again
    question_review.sheet(4, "csv").write_text("question_id\n")  # drawn, not yet read by both readers: not counted
    summary = standing(since=1)
    assert "of the" in summary and "20 were judged" in summary and len(round_1 | round_2) == 20
    assert "| first | 19 / 20 (95.0%) |" in summary and "| second | 18 / 20 (90.0%) |" in summary  # round 3's verdicts, not 1's
    assert "second in round 3" in summary and "round 2" in summary and "in round 1" not in summary
    summary = standing(since=3)
    assert "10 were judged" in summary and "| first | 10 / 10 (100.0%) |" in summary and "| second | 9 / 10 (90.0%) |" in summary


def test_the_model_benchmarks_client_answers_through_the_fake_server():
    from sea.llm.fake_server import FakeLLMServer

    with FakeLLMServer(reply=lambda prompt: "B") as server:  # the client every bench-models row is measured with
        assert models.client_for(server).complete_sync(models.prompt(0)).text == "B" and server.state.requests == 1
