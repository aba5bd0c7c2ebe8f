"""`sea export`: the questions of a run — all, or those a testee got wrong — as evaluation suites
other tools run as they are: JSONL and Parquet in the paper's released form (question, options,
answer, source paragraph, title, url), an inspect_ai task and an lm-evaluation-harness task. Every
file carries its provenance: the run, the knowledge-base and index versions, the generator, and
the reviewers' verdicts where there are any. Questions reviewers rejected stay out unless asked for."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sea.audit.rundir import RunDir, slug
from sea.choices import LETTERS
from sea.errors import SeaError
from sea.files import make_folder, write_json, write_parquet, write_text
from sea.findings.analysis import evaluated
from sea.kb.schema import DOCUMENTS_FILE
from sea.paragraphs import ParagraphStore
from sea.questions.model import Outcome
from sea.review.verdicts import rejected_questions, verdicts_by_question

FORMATS = ("jsonl", "parquet", "inspect", "lm-eval")
WRONG = (Outcome.WRONG, Outcome.UNPARSEABLE)
# _record's fields, typed: an empty suite keeps its columns, and testee_answers is a map, whose keys are the testees
# asked (a null letter: asked, no letter), not a struct of every testee, which reads a testee not asked as null too.
PARQUET_SCHEMA = pa.schema([
    ("id", pa.string()), ("question", pa.string()), ("options", pa.list_(pa.string())), ("answer", pa.string()),
    ("answer_index", pa.int64()), ("paragraph", pa.string()), ("title", pa.string()), ("url", pa.string()),
    ("run_id", pa.string()), ("generator", pa.string()), ("testee_answers", pa.map_(pa.string(), pa.string())),
    ("wrong_for", pa.list_(pa.string())),
    ("review", pa.struct([(name, pa.string()) for name in ("question_id", "verdict", "comment", "reviewer", "recorded_at", "sheet")]))])


def exported_questions(run: RunDir, testee: str | None = None, only_errors: bool = False,
                       include_rejected: bool = False) -> pd.DataFrame:
    """One row per phrasing asked in the run (of `testee`, or of any testee), with its paragraph and
    category, each testee's answer, and the testees that got it wrong; without the questions reviewers rejected
    unless include_rejected."""
    testees = [t.model for t in run.params.testee_settings()]
    if testee is not None and testee not in testees:
        raise SeaError(f"run {run.run_id} did not audit {testee}; its testees: {', '.join(testees)}")
    rows: dict[str, dict] = {}
    category: dict[int, str] = {}
    for model in [testee] if testee else testees:
        asked = evaluated(run, model)
        category.update(zip(asked.paragraphs["para_id"], asked.paragraphs["category"], strict=True))
        for q in asked.asked.itertuples():
            row = rows.setdefault(q.question_id, {
                "id": q.question_id, "question": q.question, "options": [str(o) for o in q.options], "answer": q.gold_letter,
                "answer_index": LETTERS.index(q.gold_letter), "para_id": int(q.para_id), "generator": q.generator,
                "answers": {}, "wrong_for": []})
            row["answers"][model] = q.parsed_letter
            if q.outcome in WRONG:
                row["wrong_for"].append(model)
    table = pd.DataFrame(list(rows.values()))
    if table.empty:
        return table
    if only_errors:
        table = table[table["wrong_for"].str.len() > 0]
    verdicts = verdicts_by_question(run)
    table = table.assign(review=[verdicts.get(i) for i in table["id"]], category=table["para_id"].map(category).fillna(""))
    table = _with_paragraphs(run, table.sort_values("id").reset_index(drop=True))
    return table if include_rejected else without_rejected(run, table)


def without_rejected(run: RunDir, table: pd.DataFrame) -> pd.DataFrame:
    """exported_questions' table without the questions reviewers rejected."""
    if table.empty:
        return table
    return table[~table["id"].isin(rejected_questions(run))].reset_index(drop=True)


def _with_paragraphs(run: RunDir, table: pd.DataFrame) -> pd.DataFrame:
    paragraphs = ParagraphStore(run.params.paths.kb_dir).rows(table["para_id"].tolist())
    documents = pq.read_table(run.params.paths.kb_dir / DOCUMENTS_FILE, columns=["doc_id", "url"],
                              filters=[("doc_id", "in", sorted(set(paragraphs["doc_id"].tolist())))]).to_pandas()
    url = dict(zip(documents["doc_id"], documents["url"], strict=True))
    return table.assign(paragraph=paragraphs["text"].to_numpy(), title=paragraphs["title"].to_numpy(),
                        url=[url.get(d, "") for d in paragraphs["doc_id"]])


def question_ids(run: RunDir) -> set[str]:
    """Every question the run asked any testee."""
    return {q for t in run.params.testee_settings() for q in evaluated(run, t.model).asked.get("question_id", [])}


def provenance(run: RunDir, testee: str | None, only_errors: bool, include_rejected: bool, count: int) -> dict:
    return {"run_id": run.run_id, "testees": [testee] if testee else [t.model for t in run.params.testee_settings()],
            "run_finished": not run.unfinished(), "only_errors": only_errors, "includes_rejected": include_rejected,
            "questions": count,
            "data_versions": run.config["data_versions"],
            "generator": run.params.models.generator.model if run.params.models.generator else "offline",
            "reviewed": bool(verdicts_by_question(run))}


def export(run: RunDir, fmt: str, out: Path, testee: str | None = None, only_errors: bool = False,
           include_rejected: bool = False, table: pd.DataFrame | None = None) -> list[Path]:
    """Writes the suite in `fmt` under `out` (an empty one when nothing matches: provenance.json
    says so); returns the files written, provenance.json first. `table`: exported_questions' for these
    arguments, when already gathered (an export in several formats gathers it once)."""
    if fmt not in FORMATS:
        raise SeaError(f"--format {fmt}: choose one of {', '.join(FORMATS)}")
    if table is None:
        table = exported_questions(run, testee, only_errors, include_rejected)  # may be empty: a run without errors
    name = "sea_" + slug(f"{run.run_id}-{testee or 'all'}{'-errors' if only_errors else ''}").replace("-", "_").replace(".", "_")
    make_folder(out)
    about = provenance(run, testee, only_errors, include_rejected, len(table))
    records = [_record(row, about["run_id"]) for row in table.to_dict("records")]
    written = [out / "provenance.json"]
    write_json(written[0], about)
    if fmt == "jsonl":
        written.append(_jsonl(out / f"{name}.jsonl", records))
    elif fmt == "parquet":
        written.append(out / f"{name}.parquet")
        write_parquet(written[-1], pa.Table.from_pylist(records, schema=PARQUET_SCHEMA))
    elif fmt == "inspect":
        written += [_jsonl(out / "dataset.jsonl", [_inspect_sample(r) for r in records]), out / "task.py"]
        write_text(written[-1], INSPECT_TASK.format(name=name, run_id=run.run_id))
    else:
        written += [_jsonl(out / "dataset.jsonl", records), out / "sea_dataset.py", out / f"{name}.yaml"]
        write_text(written[-2], LM_EVAL_LOADER)
        write_text(written[-1], LM_EVAL_TASK.format(name=name, run_id=run.run_id))
    return written


def _record(row: dict, run_id: str) -> dict:
    """The paper's released fields, then what this audit adds."""
    return {"id": row["id"], "question": row["question"], "options": row["options"], "answer": row["answer"],
            "answer_index": row["answer_index"], "paragraph": row["paragraph"], "title": row["title"], "url": row["url"],
            "run_id": run_id, "generator": row["generator"], "testee_answers": row["answers"], "wrong_for": row["wrong_for"],
            "review": row["review"]}


def _inspect_sample(record: dict) -> dict:
    """inspect_ai's Sample fields: choices without letters, the target a capital letter."""
    metadata = {k: record[k] for k in ("paragraph", "title", "url", "run_id", "generator", "testee_answers", "wrong_for", "review")}
    return {"id": record["id"], "input": record["question"], "choices": record["options"], "target": record["answer"],
            "metadata": metadata}


def _jsonl(path: Path, records: list[dict]) -> Path:
    write_text(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


INSPECT_TASK = '''"""Questions from SEA audit {run_id}, exported by `sea export --format inspect`.
Run: inspect eval task.py --model <provider/model>"""

from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.dataset import json_dataset
from inspect_ai.scorer import choice
from inspect_ai.solver import multiple_choice


@task
def {name}():
    return Task(dataset=json_dataset(str(Path(__file__).parent / "dataset.jsonl")), solver=multiple_choice(), scorer=choice())
'''

LM_EVAL_LOADER = '''"""Loads dataset.jsonl from beside this file, wherever the folder is moved."""

from pathlib import Path

import datasets


def load(**kwargs):
    return datasets.load_dataset("json", data_files={"test": str(Path(__file__).parent / "dataset.jsonl")})
'''

LM_EVAL_TASK = '''# Questions from SEA audit {run_id}, exported by `sea export --format lm-eval`.
# Run: lm_eval --include_path <this folder> --tasks {name} --model hf --model_args pretrained=<model>
task: {name}
custom_dataset: !function sea_dataset.load
test_split: test
output_type: multiple_choice
doc_to_text: "{{{{question}}}}\\nAnswer:"
doc_to_choice: options
doc_to_target: answer_index
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
metadata:
  version: 1.0
'''
