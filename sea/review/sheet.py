"""`sea review export`: a seeded sample of a run's questions as a sheet people can check — a
self-contained HTML page (no network; the verdicts are saved from the page as CSV or JSON, and kept
in the browser between visits) and the same rows as CSV for a spreadsheet."""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd

from sea.audit.rundir import RunDir
from sea.exports import exported_questions
from sea.files import write_text
from sea.printable import printable
from sea.review.verdicts import VERDICTS

SHEET_COLUMNS = ("run_id", "question_id", "title", "paragraph", "question", "A", "B", "C", "D", "gold", "testee_answers",
                 "verdict", "comment", "reviewer")


def review_sample(run: RunDir, n: int, only_errors: bool, seed: int) -> pd.DataFrame:
    """Up to n questions, spread over testees and categories: strata are (testee that got it
    wrong, or the first that answered it; category), drawn in turn in a seeded order."""
    table = exported_questions(run, only_errors=only_errors)
    if table.empty:
        return table
    strata = [(row.wrong_for[0] if row.wrong_for else next(iter(row.answers)), row.category) for row in table.itertuples()]
    rng = np.random.default_rng(seed)
    pools = {}
    for position in rng.permutation(len(table)):
        pools.setdefault(strata[position], []).append(int(position))
    chosen, order = [], sorted(pools)
    while len(chosen) < n and any(pools.values()):
        for stratum in order:
            if pools[stratum] and len(chosen) < n:
                chosen.append(pools[stratum].pop(0))
    return table.iloc[chosen].reset_index(drop=True)


def sheet_rows(run: RunDir, sample: pd.DataFrame) -> list[dict]:
    return [{"run_id": run.run_id, "question_id": row.id, "title": row.title, "paragraph": row.paragraph,
             "question": row.question, **dict(zip("ABCD", row.options, strict=True)), "gold": row.answer,
             "testee_answers": "; ".join(f"{t}: {a or '(no letter)'}" for t, a in row.answers.items()),
             "verdict": "", "comment": "", "reviewer": ""} for row in sample.itertuples()]


def write_sheets(run: RunDir, sample: pd.DataFrame, out: Path) -> tuple[Path, Path]:
    """review.html and review.csv under `out`."""
    rows = sheet_rows(run, sample)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=SHEET_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    page, table = out / "review.html", out / "review.csv"
    write_text(table, buffer.getvalue())
    write_text(page, review_page(run.run_id, sample))
    return page, table


def review_page(run_id: str, sample: pd.DataFrame) -> str:
    cards = "\n".join(_card(number, row) for number, row in enumerate(sample.itertuples(), start=1))
    data = json.dumps({"run_id": run_id, "questions": list(sample["id"]), "verdicts": list(VERDICTS)}).replace("</", "<\\/")
    return PAGE.format(run_id=html.escape(run_id), count=len(sample), cards=cards, data=data)


def _escaped(text: str) -> str:
    return html.escape(printable(text))


def _isolated(text: str) -> str:
    """Escaped, in a <bdi>: a right-to-left override the text leaves open would reverse what follows it on its line."""
    return f"<bdi>{_escaped(text)}</bdi>"


def _card(number: int, row) -> str:
    options = "".join(f'<li class="{"gold" if letter == row.answer else ""}"><b>{letter})</b> {_isolated(option)}'
                      f'{" ← gold" if letter == row.answer else ""}</li>' for letter, option in zip("ABCD", row.options, strict=True))
    answers = ", ".join(f"{_isolated(t)}: <b>{_escaped(a or '(no letter)')}</b>" for t, a in row.answers.items())
    radios = "".join(f'<label><input type="radio" name="v-{row.id}" value="{v}"> {v}</label>' for v in VERDICTS)
    return (f'<section class="card" data-question="{row.id}"><h2>{number}. {_isolated(row.title)} '
            f'<small>{_isolated(row.category)} · {row.id}</small></h2>'
            f'<blockquote>{_escaped(row.paragraph)}</blockquote><p class="q">{_isolated(row.question)}</p>'
            f'<ol class="options">{options}</ol><p>Answered: {answers}</p>'
            f'<fieldset><legend>Verdict</legend>{radios}</fieldset>'
            f'<textarea name="c-{row.id}" placeholder="comment (optional)"></textarea></section>')


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Review: SEA run {run_id}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 0 auto; padding: 1rem; }}
header {{ position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ccc; padding: .5rem 0; }}
.card {{ border: 1px solid #ddd; border-radius: 6px; padding: .8rem 1rem; margin: 1rem 0; overflow-wrap: anywhere; }}
.card.done {{ border-color: #2e7d32; }} h2 {{ font-size: 1.05rem; margin: 0 0 .4rem; }} small {{ color: #666; font-weight: normal; }}
blockquote {{ margin: .4rem 0; padding: .4rem .8rem; background: #f6f6f6; border-left: 3px solid #bbb; }}
.q {{ font-weight: 600; }} .gold {{ color: #1b5e20; }} fieldset {{ border: 0; padding: 0; }} label {{ margin-right: 1rem; white-space: nowrap; }}
textarea {{ width: 100%; min-height: 2.2rem; box-sizing: border-box; }}
</style></head><body>
<header><h1>Review of SEA run {run_id}: {count} questions</h1>
<p>For each question, read the paragraph and judge: is the gold answer right and supported by the paragraph, is the
question clear with a single right answer? Verdicts: <i>correct</i> (a fair question), <i>gold wrong</i>,
<i>ambiguous</i> (more than one option fits, or the question is unclear), <i>not in paragraph</i> (the paragraph does
not support the gold), <i>other</i> (say why in the comment). Your answers are kept in this browser as you go.</p>
<label>Reviewer <input id="reviewer" required></label> <span id="progress"></span>
<button id="csv">Save verdicts (CSV)</button> <button id="json">Save verdicts (JSON)</button>
<p>Then: <code>sea review import {run_id} FILE</code></p></header>
{cards}
<script id="sheet" type="application/json">{data}</script>
<script>
const sheet = JSON.parse(document.getElementById("sheet").textContent);
const key = "sea-review-" + sheet.run_id;
const saved = JSON.parse(localStorage.getItem(key) || "{{}}");
const reviewer = document.getElementById("reviewer");
reviewer.value = saved.reviewer || "";
function collect() {{
  return sheet.questions.map(q => ({{run_id: sheet.run_id, question_id: q,
    verdict: (document.querySelector(`input[name="v-${{q}}"]:checked`) || {{}}).value || "",
    comment: document.querySelector(`textarea[name="c-${{q}}"]`).value, reviewer: reviewer.value}}));
}}
function refresh() {{
  const rows = collect();
  rows.forEach(r => document.querySelector(`[data-question="${{r.question_id}}"]`).classList.toggle("done", !!r.verdict));
  document.getElementById("progress").textContent = rows.filter(r => r.verdict).length + " of " + rows.length + " judged";
  localStorage.setItem(key, JSON.stringify({{reviewer: reviewer.value, rows}}));
}}
(saved.rows || []).forEach(r => {{
  const radio = document.querySelector(`input[name="v-${{r.question_id}}"][value="${{r.verdict}}"]`);
  if (radio) radio.checked = true;
  const box = document.querySelector(`textarea[name="c-${{r.question_id}}"]`);
  if (box) box.value = r.comment || "";
}});
document.body.addEventListener("input", refresh);
function save(name, text, type) {{
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], {{type}}));
  link.download = name; link.click();
}}
const cell = v => '"' + String(v).replaceAll('"', '""') + '"';
document.getElementById("csv").onclick = () => save("verdicts-" + sheet.run_id + ".csv",
  "run_id,question_id,verdict,comment,reviewer\\n" + collect().map(r => [r.run_id, r.question_id, r.verdict, r.comment,
  r.reviewer].map(cell).join(",")).join("\\n") + "\\n", "text/csv");
document.getElementById("json").onclick = () => save("verdicts-" + sheet.run_id + ".json",
  JSON.stringify(collect(), null, 1), "application/json");
refresh();
</script></body></html>
"""
