"""`sea retest RUN_ID`: a testee's wrong answers asked again with the source paragraph shown
(fenced as data: a JSON string the prompt says never to obey). Each becomes fixed, the same wrong
answer (the model keeps its memory against the context: memory-context conflict, the paper's
Knowl 10), or another wrong answer; counted overall, per category and per error cluster."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

from sea.audit.rundir import RunDir, slug
from sea.audit.workspace import Workspace
from sea.errors import ParamsError
from sea.files import read_json, write_json, write_parquet
from sea.findings.analysis import evaluated
from sea.findings.clusters import UNCLUSTERED
from sea.intervals import wilson_interval
from sea.paragraphs import DocumentCategories, ParagraphStore
from sea.questions.grading import answers_table, ask_once_each
from sea.questions.model import Outcome, question_from_record
from sea.questions.prompts import open_book_messages

FIXED, SAME, CHANGED = "fixed", "same wrong answer", "another wrong answer"


def wrong_answers(run: RunDir, testee: str) -> pd.DataFrame:
    """Every question the testee answered wrongly in the run (any arm, once), with its answer."""
    asked = evaluated(run, testee).asked
    if asked.empty:
        return pd.DataFrame(columns=["question_id", "para_id", "parsed_letter"])
    wrong = asked[asked["outcome"].isin([Outcome.WRONG, Outcome.UNPARSEABLE])]
    return wrong.sort_values("question_id").reset_index(drop=True)


def retest(run: RunDir, testee: str, sample: int | None, seed: int, out: Path, clusters: dict[int, int] | None = None,
           progress: bool = True) -> dict:
    """Re-asks the wrong answers (all, or a seeded sample) with their paragraphs; writes
    retest-<testee>.json and its answers (Parquet) into `out`, and returns the result."""
    if testee not in {t.model for t in run.params.testee_settings()}:
        known = ", ".join(t.model for t in run.params.testee_settings())
        raise ParamsError(f"run {run.run_id} did not audit {testee!r} (its testees: {known}); pass one of them to --testee")
    wrong = every_wrong = wrong_answers(run, testee)
    if sample is not None and sample < len(wrong):
        wrong = wrong.iloc[np.sort(np.random.default_rng(seed).choice(len(wrong), sample, replace=False))]
    questions = [question_from_record(row) for row in wrong.to_dict("records")]
    store = ParagraphStore(run.params.paths.kb_dir)
    paragraphs = store.rows(wrong["para_id"].drop_duplicates()) if len(wrong) else pd.DataFrame(columns=["text", "doc_id"])
    prompts = [open_book_messages(paragraphs.loc[q.para_id, "text"], q.question, q.options) for q in questions]
    client = Workspace.of(run.root).testee(testee)
    records = ask_once_each(client, questions, prompts, f"retest {run.nonce}", f"retest · {testee}", out, progress)
    before = dict(zip(wrong["question_id"], wrong["parsed_letter"], strict=True))
    categories = DocumentCategories(store)
    para_of = {q.question_id: q.para_id for q in questions}
    rows = [{"question_id": r["question_id"], "para_id": para_of[r["question_id"]],
             "category": categories.get(int(paragraphs.loc[para_of[r["question_id"]], "doc_id"]), ""),
             "cluster": _cluster_name((clusters or {}).get(para_of[r["question_id"]])),
             "status": _status(r, before[r["question_id"]])} for r in records if r["outcome"] != Outcome.FAILED]
    result = {"run_id": run.run_id, "run_steps": run.progress(), "testee": testee, "wrong_answers": len(every_wrong),
              "asked": len(rows), "failed_calls": len(records) - len(rows), **_shares(rows),
              "by_category": _grouped(rows, "category"),
              "by_cluster": _grouped([r for r in rows if r["cluster"] is not None], "cluster") if clusters else [],
              "questions": rows}
    write_json(out / f"retest-{slug(testee)}.json", result)
    write_parquet(out / f"retest-{slug(testee)}.answers.parquet", answers_table(records))
    return result


def retest_metrics(result: dict) -> dict[str, float | None]:
    prefix = f"findings.{slug(result['testee'])}.retest"
    return {f"{prefix}_{key}": result[f"{key}_share"] for key in ("fixed", "same", "changed")}


def format_retest(result: dict) -> str:
    if not result["asked"]:
        return f"{result['testee']}: no wrong answer to retest"
    low, high = result["fixed_share_95"]
    lines = [f"{result['testee']}: {result['asked']} of {result['wrong_answers']} wrong answers asked again with the paragraph "
             f"shown: {result['fixed']} fixed ({result['fixed_share']:.1%}, 95% interval {low:.1%}–{high:.1%}), "
             f"{result['same']} the same wrong answer, {result['changed']} another wrong answer", "",
             f"{'category':32} {'asked':>6} {'fixed':>6} {'same':>6} {'other':>6}"]
    lines += [f"{str(row['category'])[:32]:32} {row['asked']:>6} {row['fixed']:>6} {row['same']:>6} {row['changed']:>6}"
              for row in result["by_category"]]
    return "\n".join(lines)


def _cluster_name(cluster: int | None) -> int | str | None:
    """A source's cluster, "unclustered" for a source in none, None for a paragraph that is no source."""
    return "unclustered" if cluster == UNCLUSTERED else cluster


def _status(record: dict, letter_before: str | None) -> str:
    if record["outcome"] == Outcome.CORRECT:
        return FIXED
    return SAME if record["parsed_letter"] == letter_before else CHANGED


def _shares(rows: list[dict]) -> dict:
    counts = Counter(r["status"] for r in rows)
    n = len(rows)
    interval = list(wilson_interval(counts[FIXED], n, 1.96)) if n else [None, None]
    return {"fixed": counts[FIXED], "same": counts[SAME], "changed": counts[CHANGED],
            "fixed_share": counts[FIXED] / n if n else None, "fixed_share_95": interval,
            "same_share": counts[SAME] / n if n else None, "changed_share": counts[CHANGED] / n if n else None}


def _grouped(rows: list[dict], key: str) -> list[dict]:
    groups: dict = {}
    for row in rows:
        groups.setdefault(row[key], []).append(row)
    return [{key: name, "asked": len(members), **{k: v for k, v in _shares(members).items() if k != "fixed_share_95"}}
            for name, members in sorted(groups.items(), key=lambda item: (-len(item[1]), str(item[0])))]


def cluster_assignments(findings_dir: Path, testee: str) -> dict[int, int] | None:
    """para_id -> cluster from a `sea findings` output, when there is one for this testee."""
    path = findings_dir / "findings.json"
    if not path.is_file():
        return None
    found = next((t for t in read_json(path)["testees"] if t["testee"] == testee), None)
    return {int(p): c for p, c in found["assignments"].items()} if found else None
