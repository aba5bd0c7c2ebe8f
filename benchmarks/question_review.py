"""A blind review by reading: a seeded sample of the questions a run asked, judged against their
paragraphs on four criteria, and the counts.

    python benchmarks/question_review.py draw [--run default]   -> reports/question_review.csv
    (a reviewer fills the four criteria with y/n, and a note for every n)
    python benchmarks/question_review.py count                   -> reports/question_review.md

The seed and the sample size are fixed here, before any question is read. The sheet shows what
the testee saw plus the paragraph and the gold answer; nothing about how the question was made."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sea.audit.rundir import QUESTIONS, RunDir  # noqa: E402
from sea.choices import LETTERS  # noqa: E402
from sea.files import write_text  # noqa: E402
from sea.paragraphs import ParagraphStore  # noqa: E402

SEED, SAMPLE = 20261130, 100
SHEET = Path("reports/question_review.csv")
SUMMARY = Path("reports/question_review.md")
CRITERIA = {
    "supported": "the gold answer is what the paragraph states",
    "self_contained": "the question makes sense on its own and has exactly one right option",
    "distractors": "the three wrong options are plausible and of the gold answer's kind",
    "factual": "it asks about a real fact, not wording or arithmetic",
}


def asked_questions(run: RunDir) -> pd.DataFrame:
    """Every question the run asked (any arm, any step), once."""
    tables = [pd.read_parquet(path) for arm in run.arms() for path in sorted(arm.root.glob(f"steps/*/{QUESTIONS}"))]
    return pd.concat(tables).drop_duplicates("question_id").sort_values("question_id").reset_index(drop=True)


def draw(run_id: str) -> None:
    run = RunDir(Path("runs") / run_id)
    sample = asked_questions(run).sample(SAMPLE, random_state=SEED)
    paragraphs = ParagraphStore(run.params.paths.kb_dir).by_para_id
    rows = []
    for q in sample.itertuples():
        paragraph = paragraphs.loc[q.para_id]
        options = list(q.options)
        rows.append({"question_id": q.question_id, "title": paragraph["title"], "paragraph": paragraph["text"],
                     "question": q.question, **{f"option_{letter}": option for letter, option in zip(LETTERS, options, strict=True)},
                     "gold": q.gold_letter, **dict.fromkeys(CRITERIA, ""), "note": ""})
    write_text(SHEET, pd.DataFrame(rows).to_csv(index=False))
    print(f"{SHEET}: {len(rows)} questions of run {run_id} (seed {SEED}); fill {', '.join(CRITERIA)} with y/n")


def count() -> None:
    sheet = pd.read_csv(SHEET, dtype=str, keep_default_na=False)
    unjudged = sheet[~sheet[list(CRITERIA)].isin(["y", "n"]).all(axis=1)]
    if len(unjudged):
        raise SystemExit(f"{SHEET}: {len(unjudged)} questions lack a y/n verdict on every criterion, e.g. {unjudged['question_id'].iloc[0]}")
    passed = (sheet[list(CRITERIA)] == "y").all(axis=1)
    lines = ["# Blind review of the default audit's questions", "",
             f"`python benchmarks/question_review.py draw` drew {len(sheet)} of the questions the default run asked "
             f"(seed {SEED}, fixed before reading); each was judged against its paragraph. Verdicts: `{SHEET}`.", "",
             "| criterion | passed |", "| --- | --- |",
             *[f"| {text} | {(sheet[name] == 'y').sum()} / {len(sheet)} |" for name, text in CRITERIA.items()],
             f"| **all four** | **{passed.sum()} / {len(sheet)}** |", "", "## The failures", ""]
    for row in sheet[~passed].itertuples():
        failed = ", ".join(name for name in CRITERIA if getattr(row, name) == "n")
        lines.append(f"- `{row.question_id}` ({row.title}; {failed}): {row.note}")
    write_text(SUMMARY, "\n".join(lines) + "\n")
    print("\n".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("draw").add_argument("--run", default="default")
    commands.add_parser("count")
    args = parser.parse_args()
    draw(args.run) if args.command == "draw" else count()


if __name__ == "__main__":
    main()
