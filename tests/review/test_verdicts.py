"""The review loop on a finished audit: a seeded sheet, verdicts filled in here, imported, and the
figures they correct; and every bad sheet refused with nothing recorded."""

import csv
import json
from html.parser import HTMLParser

import pandas as pd
import pytest
from mlflow.tracking import MlflowClient

from flows.cli import main
from sea.audit.report import build_report
from sea.audit.rundir import RunDir
from sea.errors import SeaError
from sea.exports import exported_questions, question_ids
from sea.intervals import wilson_interval
from sea.questions.model import Outcome
from sea.review.sheet import review_sample, write_sheets
from sea.review.verdicts import import_verdicts, review_metrics, review_summary, verdicts_path
from tests.finished_audit import copy_of


@pytest.fixture
def run(finished_audit, tmp_path) -> RunDir:
    return copy_of(finished_audit, tmp_path)


class _Questions(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.radios = [], 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "data-question" in attrs:
            self.ids.append(attrs["data-question"])
        self.radios += tag == "input" and attrs.get("type") == "radio"


def _write(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_the_sample_is_seeded_spread_and_errors_only_when_asked(run):
    sample = review_sample(run, 30, only_errors=False, seed=3)
    assert len(sample) == 30 and sample["id"].is_unique
    assert list(sample["id"]) == list(review_sample(run, 30, only_errors=False, seed=3)["id"])
    assert list(sample["id"]) != list(review_sample(run, 30, only_errors=False, seed=4)["id"])
    assert sample["category"].nunique() >= 5  # drawn in turn from every category
    errors = review_sample(run, 30, only_errors=True, seed=3)
    assert len(errors) == 30 and all(errors["wrong_for"].str.len() > 0)


def test_review_round_trip_corrects_the_figures_and_the_exports(run, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'mlflow.db'}")
    sample = review_sample(run, 12, only_errors=True, seed=0)
    page, sheet = write_sheets(run, sample, tmp_path / "sheets")
    parsed = _Questions()
    parsed.feed(page.read_text(encoding="utf-8"))
    assert parsed.ids == list(sample["id"]) and parsed.radios == 12 * 5  # every sampled question, five verdicts each
    assert "http" not in page.read_text(encoding="utf-8").replace("http://", "")  # no request leaves the page
    rows = list(csv.DictReader(open(sheet, encoding="utf-8")))
    assert [r["question_id"] for r in rows] == list(sample["id"]) and rows[0]["gold"] in "ABCD"

    # a reviewer's verdicts: the first three rejected, one "other", the rest correct
    verdicts = ["gold wrong", "ambiguous", "not in paragraph", "other"] + ["correct"] * 8
    for row, verdict in zip(rows, verdicts, strict=True):
        row.update(verdict=verdict, comment="checked", reviewer="Ada")
    assert main(["--params", str(_params(run, tmp_path)), "review", "import", run.run_id, str(_write(tmp_path / "v.csv", rows))]) == 0
    printed = capsys.readouterr().out
    assert "reviewed 12 questions: 8 passed (67%" in printed

    summary = review_summary(run)
    low, high = wilson_interval(8, 12, 1.96)
    assert (summary["reviewed"], summary["passed"], summary["rejected"]) == (12, 8, 3)
    assert summary["pass_low"] == pytest.approx(low) and summary["pass_high"] == pytest.approx(high)
    rejected = set(sample["id"][:3])
    lowered = 0
    for row in summary["arms"]:  # recomputed by hand from the arm's answers
        answers = pd.read_parquet(run.arm(row["testee"], row["arm"]).root / "answers.parquet")
        answers = answers[answers["outcome"] != Outcome.FAILED]
        wrong = answers["outcome"].isin([Outcome.WRONG, Outcome.UNPARSEABLE])
        assert row["error_rate"] == pytest.approx(wrong.mean())
        kept = ~answers["question_id"].isin(rejected)
        assert row["error_rate_reviewed"] == pytest.approx(wrong[kept].mean())
        if len(wrong[~kept]) and wrong[~kept].all():  # this arm got every rejected question it asked wrong
            assert row["error_rate_reviewed"] < row["error_rate"]
            lowered += 1
    assert lowered  # the sample is of wrong answers, so somewhere leaving them out lowers the error rate
    assert review_metrics(summary)["review.pass_rate"] == pytest.approx(8 / 12)
    logged = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}").search_runs(["1"])[0].data.metrics  # the audit's parent run
    assert logged["review.pass_rate"] == pytest.approx(8 / 12) and logged["review.rejected"] == 3
    report = build_report(run, tmp_path / "audit.html").read_text(encoding="utf-8")
    assert "<h2>Human review</h2>" in report and "67% passed</b> (95% interval" in report and "error rate without rejected" in report
    records = [json.loads(line) for line in verdicts_path(run).read_text().splitlines()]
    assert verdicts_path(run).is_relative_to(run.params.audit.annotations_dir) and not (run.root / "review").exists()
    assert {r["reviewer"] for r in records} == {"Ada"} and all(r["recorded_at"] for r in records)

    assert not rejected & set(exported_questions(run)["id"])  # rejected questions leave the exports...
    assert rejected <= set(exported_questions(run, include_rejected=True)["id"])  # ...unless asked for
    reviewed = exported_questions(run).set_index("id")["review"]
    assert reviewed[sample["id"][3]]["verdict"] == "other"


def _params(run, tmp_path):
    raw = run.params.model_dump(mode="json")
    raw["audit"]["runs_dir"] = str(run.root.parent)
    path = tmp_path / "params.yaml"
    path.write_text(json.dumps(raw), encoding="utf-8")  # JSON is YAML
    return path


@pytest.mark.parametrize(("edit", "message"), [
    (lambda rows: rows[0].update(question_id="nope"), "question_id 'nope' is not a question of run"),
    (lambda rows: rows[1].update(verdict=""), "has no verdict"),
    (lambda rows: rows[2].update(verdict="fine"), "verdict 'fine' is not one of correct, gold wrong"),
    (lambda rows: rows[0].update(run_id="another-run"), "is a sheet for run another-run, not"),
    (lambda rows: [row.update(reviewer="") for row in rows], "no reviewer name"),
    (lambda rows: rows.insert(3, {**rows[0], "verdict": "gold wrong"}),  # a bug hunt: the last of the two was recorded
     r"rows 2, 5: question \w+ is judged 2 ways \('correct'; 'gold wrong'\); keep one row for it"),
    # left alone in an earlier round: blank ids were grouped as one question "judged 2 ways"
    (lambda rows: [rows[0].update(question_id=""), rows[1].update(question_id=" ", verdict="gold wrong")],
     r"nothing imported: row 2: no question_id; fill in the question's id or delete the row; row 3: no question_id; "
     r"fill in the question's id or delete the row$"),
])
def test_a_bad_sheet_is_refused_whole(run, tmp_path, edit, message):
    sample = review_sample(run, 4, only_errors=False, seed=0)
    rows = [{"run_id": run.run_id, "question_id": q, "verdict": "correct", "comment": "", "reviewer": "Ada"} for q in sample["id"]]
    edit(rows)
    known = question_ids(run)
    assert known == set(exported_questions(run, include_rejected=True)["id"])
    with pytest.raises(SeaError, match=message):
        import_verdicts(run, _write(tmp_path / "bad.csv", rows), None, known)
    assert not verdicts_path(run).exists()  # nothing recorded
    (tmp_path / "bad.csv").write_text("question_id,verdict,reviewer\nq,correct,Brasília\n", encoding="cp1252")  # Excel's plain CSV
    with pytest.raises(SeaError, match='bad.csv is not UTF-8: save it as "CSV UTF-8"'):
        import_verdicts(run, tmp_path / "bad.csv", None, known)
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(SeaError, match="is not valid JSON"):
        import_verdicts(run, tmp_path / "bad.json", "Ada", known)
    rows = [{"question_id": q, "verdict": "correct"} for q in sample["id"]]
    (tmp_path / "ok.json").write_text(json.dumps(rows + rows[:1]), encoding="utf-8")  # the page's JSON, the name given here; a copy of a row agrees
    assert import_verdicts(run, tmp_path / "ok.json", "Bob", known)["reviewed"] == 4


def test_a_sheet_a_spreadsheet_saved_its_own_way_is_read_or_refused_in_one_line(run, tmp_path):
    sample = review_sample(run, 4, only_errors=False, seed=0)
    rows = [{"run_id": run.run_id, "question_id": q, "verdict": "correct", "comment": "", "reviewer": "Ada"} for q in sample["id"]]
    known = question_ids(run)
    capitalised = [{name.capitalize(): value for name, value in row.items()} for row in rows]
    with pytest.raises(SeaError, match=r"no question_id and verdict columns \(its columns: Run_id, Question_id, Verdict, Comment, "
                                       r"Reviewer\); keep review.csv's header row") as refused:
        import_verdicts(run, _write(tmp_path / "capitalised.csv", capitalised), None, known)
    assert "row 2" not in str(refused.value)
    with open(tmp_path / "semicolon.csv", "w", newline="", encoding="utf-8") as out:  # a European locale's separator
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), delimiter=";")
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(SeaError, match=r"no question_id and verdict columns \(its columns: run_id;question_id;verdict;comment;reviewer\)"):
        import_verdicts(run, tmp_path / "semicolon.csv", None, known)
    assert not verdicts_path(run).exists()
    trailing = _write(tmp_path / "trailing.csv", [*rows, dict.fromkeys(rows[0], "")])  # an empty last row
    assert import_verdicts(run, trailing, None, known)["reviewed"] == 4


def test_each_row_keeps_its_reviewer_and_the_flag_signs_only_the_unsigned(run, tmp_path):
    sample = review_sample(run, 4, only_errors=False, seed=0)
    rows = [{"question_id": q, "verdict": "correct", "reviewer": name} for q, name in zip(sample["id"], ["Ann", "Bo", "Ann", ""], strict=True)]
    known = question_ids(run)
    with pytest.raises(SeaError, match="no reviewer name"):  # two reviewers: the unsigned row is neither's
        import_verdicts(run, _write(tmp_path / "v.csv", rows), None, known)
    assert import_verdicts(run, _write(tmp_path / "v.csv", rows), "Carl", known)["reviewers"] == ["Ann", "Bo", "Carl"]
    recorded = {r["question_id"]: r["reviewer"] for r in map(json.loads, verdicts_path(run).read_text().splitlines())}
    assert recorded == dict(zip(sample["id"], ["Ann", "Bo", "Ann", "Carl"], strict=True))
    rows[3]["reviewer"] = "Bo"
    assert import_verdicts(run, _write(tmp_path / "v.csv", rows), None, known)["reviewers"] == ["Ann", "Bo"]
