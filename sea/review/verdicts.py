"""Reviewers' verdicts on a run's questions: checked on import, kept beside the run
(annotations/<run_id>/review/verdicts.jsonl, one line per verdict; a later verdict on a question replaces
an earlier one), and the figures they correct: the pass rate with its 95% interval and every arm's
error rate without the questions reviewers rejected, beside the uncorrected one."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

from sea.audit.outputs import arm_tables
from sea.audit.rundir import ANSWERS, QUESTIONS, REVIEW_DIR, RunDir, slug
from sea.errors import SeaError
from sea.files import make_folder
from sea.intervals import wilson_interval
from sea.questions.model import Outcome

VERDICTS = ("correct", "gold wrong", "ambiguous", "not in paragraph", "other")
# A question with one of these verdicts is not a fair test of the model: its answers leave the
# corrected figures and the exports. "other" fails the pass rate but keeps the question (its comment says why).
REJECTING = frozenset({"gold wrong", "ambiguous", "not in paragraph"})
VERDICTS_FILE = "verdicts.jsonl"


def verdicts_path(run: RunDir) -> Path:
    return run.annotations / REVIEW_DIR / VERDICTS_FILE


def verdicts_by_question(run: RunDir) -> dict[str, dict]:
    """question_id -> its latest verdict record."""
    path = verdicts_path(run)
    if not path.is_file():
        return {}
    latest = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        latest[record["question_id"]] = record
    return latest


def rejected_questions(run: RunDir) -> set[str]:
    return {q for q, record in verdicts_by_question(run).items() if record["verdict"] in REJECTING}


def read_sheet(path: Path) -> list[dict]:
    """The rows of a filled-in sheet: the review page's CSV or JSON, or the spreadsheet CSV."""
    if not path.is_file():
        raise SeaError(f"no file {path}")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:  # Excel's plain "CSV (Comma delimited)" is the Windows code page; no guess at which
        raise SeaError(f"{path} is not UTF-8: save it as \"CSV UTF-8\" (Excel: Save As, CSV UTF-8 (Comma delimited)) "
                       f"and import it again") from None
    if path.suffix.lower() == ".json":
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as error:
            raise SeaError(f"{path} is not valid JSON ({error}); export it again from the review page") from None
        rows = rows.get("verdicts", rows) if isinstance(rows, dict) else rows
    else:
        rows = list(csv.DictReader(io.StringIO(text)))
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise SeaError(f"{path}: expected a list of verdicts with question_id, verdict, comment")
    rows = [row for row in rows if any(_field(row, name) for name in row)]  # a spreadsheet's empty rows say nothing
    columns = list(dict.fromkeys(str(name) for row in rows for name in row if name is not None))
    if rows and not {"question_id", "verdict"} <= set(columns):
        raise SeaError(f"{path}: no question_id and verdict columns (its columns: {', '.join(columns)}); keep review.csv's "
                       f"header row as it is, lower case, and save with commas between the columns")
    return rows


def import_verdicts(run: RunDir, path: Path, reviewer: str | None, known: set[str]) -> dict:
    """Checks a sheet against the run (`known`: the run's question ids) and records its verdicts, each
    with its row's reviewer (else `reviewer`, else the sheet's one name); nothing is recorded unless every row passes."""
    rows = read_sheet(path)
    problems = []
    for number, row in enumerate(rows, start=2):
        if row.get("run_id") and row["run_id"] != run.run_id:
            raise SeaError(f"{path} is a sheet for run {row['run_id']}, not {run.run_id}; import it into that run")
        question, verdict = _field(row, "question_id"), _field(row, "verdict").lower()
        if not question:  # its own refusal: several blank ids are not one question judged several ways
            problems.append(f"row {number}: no question_id; fill in the question's id or delete the row")
        elif question not in known:
            problems.append(f"row {number}: question_id {question!r} is not a question of run {run.run_id}")
        elif not verdict:
            problems.append(f"row {number}: question {question} has no verdict")
        elif verdict not in VERDICTS:
            problems.append(f"row {number}: verdict {verdict!r} is not one of {', '.join(VERDICTS)}")
    problems += _conflicts(rows)
    signed = [_field(row, "reviewer") for row in rows]
    named = set(signed) - {""}
    unsigned = reviewer or (named.pop() if len(named) == 1 else None)  # who signs the rows that name no one
    names = [name or unsigned for name in signed]
    if not rows:
        problems.append("the sheet has no rows")
    if not all(names):
        problems.append("no reviewer name: fill it in on the review page, or pass --reviewer NAME")
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        raise SeaError(f"{path}: nothing imported: " + "; ".join(problems[:5]) + more)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    target = verdicts_path(run)
    make_folder(target.parent)
    with open(target, "a", encoding="utf-8") as out:
        for row, who in zip(rows, names, strict=True):
            out.write(json.dumps({"question_id": _field(row, "question_id"), "verdict": _field(row, "verdict").lower(),
                                  "comment": _field(row, "comment"), "reviewer": who, "recorded_at": now,
                                  "sheet": path.name}) + "\n")
    return review_summary(run)


def _conflicts(rows: list[dict]) -> list[str]:
    """The questions that rows judge differently: which judgement stands would depend on the rows' order.
    Copies of one row (a sheet pasted twice) agree, and are taken once. Rows without a question id are refused
    one by one (import_verdicts), not here."""
    judgements: dict[str, dict[tuple[str, str], list[int]]] = {}
    for number, row in enumerate(rows, start=2):
        question = _field(row, "question_id")
        if question:
            judgement = (_field(row, "verdict").lower(), _field(row, "comment"))
            judgements.setdefault(question, {}).setdefault(judgement, []).append(number)
    return [f"rows {', '.join(str(n) for n in sorted(n for numbers in by.values() for n in numbers))}: question {question} "
            f"is judged {len(by)} ways ({'; '.join(repr(v) + (f' ({c})' if c else '') for v, c in by)}); keep one row for it"
            for question, by in judgements.items() if len(by) > 1]


def _field(row: dict, name: str) -> str:
    value = row.get(name)
    return "" if value is None else str(value).strip()


def review_summary(run: RunDir) -> dict:
    """The pass rate with its 95% Wilson interval, and per testee and arm the error rate as audited
    and without the rejected questions (None where nothing was reviewed)."""
    verdicts = verdicts_by_question(run)
    if not verdicts:
        return {"reviewed": 0}
    passed = sum(r["verdict"] == "correct" for r in verdicts.values())
    low, high = wilson_interval(passed, len(verdicts), 1.96)
    rejected = {q for q, r in verdicts.items() if r["verdict"] in REJECTING}
    arms = []
    for arm in run.arms():
        tables = arm_tables(arm)
        if not tables:
            continue
        answered = tables[ANSWERS][tables[ANSWERS]["outcome"] != Outcome.FAILED]
        kept = answered[~answered["question_id"].isin(rejected)]
        arms.append({"testee": arm.testee, "arm": arm.arm, "error_rate": _error_rate(answered),
                     "error_rate_reviewed": _error_rate(kept), "questions": len(answered), "questions_reviewed": len(kept),
                     "rejected_asked": int(answered["question_id"].isin(rejected).sum()),
                     "reviewed_asked": int(answered["question_id"].isin(verdicts).sum()),
                     "asked": int(tables[QUESTIONS]["question_id"].nunique())})
    counts = {v: sum(r["verdict"] == v for r in verdicts.values()) for v in VERDICTS}
    return {"reviewed": len(verdicts), "passed": passed, "pass_rate": passed / len(verdicts), "pass_low": low, "pass_high": high,
            "rejected": len(rejected), "verdicts": counts, "reviewers": sorted({r["reviewer"] for r in verdicts.values()}),
            "arms": arms}


def _error_rate(answers) -> float | None:
    return float(answers["outcome"].isin([Outcome.WRONG, Outcome.UNPARSEABLE]).mean()) if len(answers) else None


def review_metrics(summary: dict) -> dict[str, float | None]:
    """For the audit's MLflow parent run."""
    if not summary["reviewed"]:
        return {}
    metrics = {f"review.{k}": summary[k] for k in ("reviewed", "pass_rate", "pass_low", "pass_high", "rejected")}
    for row in summary["arms"]:
        metrics[f"{slug(row['testee'])}.{row['arm']}.error_rate_reviewed"] = row["error_rate_reviewed"]
    return metrics
