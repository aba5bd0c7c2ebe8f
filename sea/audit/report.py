"""reports/audit.html: one self-contained page (figures inlined, no script, no network) built
from a run directory alone — curves per arm, errors by category, the relation DAG, planted blind
spots next to what each arm found (simulated testees), and the most-failed paragraphs with their
questions and the testee's answers."""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

import pandas as pd

from sea.audit.figures import category_figure, curve_figure, dag_figure
from sea.audit.ground_truth import findings, planted_for
from sea.audit.outputs import CATEGORIES_CSV, arm_tables, curves, summarise
from sea.audit.rundir import ANSWERS, PARAGRAPHS, QUESTIONS, ArmDir, RunDir
from sea.choices import LETTERS
from sea.files import read_json, write_text
from sea.questions.model import Outcome
from sea.review.verdicts import review_summary
from sea.search.arms import ARMS

TOP_PARAGRAPHS = 20
_STYLE = """body{font:15px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ddd;padding:.25em .55em;text-align:left;vertical-align:top}
th{background:#f4f4f4}img{max-width:100%}details{margin:.4em 0}summary{cursor:pointer}.wrong{color:#b03a2e}.right{color:#1e8449}
.muted{color:#777;font-size:90%}"""


def _img(data: bytes, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{base64.b64encode(data).decode()}">'


def _table(frame: pd.DataFrame, floats: str = "{:.3f}") -> str:
    def cell(value) -> str:
        if isinstance(value, float):
            return "" if value != value else floats.format(value)
        return html.escape(str(value))

    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in frame.itertuples(index=False))
    return f"<table><tr>{head}</tr>{rows}</table>"


def build_report(run: RunDir, out: Path, findings_dir: Path | None = None) -> Path:
    """The page; the error clusters come from `sea findings` output in findings_dir (default:
    runs/<run_id>/findings), and are said to be missing when it has none."""
    run.check()  # a report of damaged or inconsistent files would state wrong figures
    summary = pd.DataFrame(summarise(run)["arms"])
    sections = [f"<h1>SEA audit <code>{html.escape(run.run_id)}</code></h1>", _setup(run), "<h2>Results</h2>",
                _table(summary[["testee", "arm", "steps", "cumulative_questions", "cumulative_wrong", "cumulative_error_rate",
                                "error_rate_vs_random", "cumulative_sources", "cumulative_pruned_sources", "cost_per_error"]])]
    sections += _review(run)
    curve_rows = pd.read_csv(io.StringIO(curves(run)))
    if not curve_rows.empty:
        sections += ["<h2>Cumulative error rate per arm</h2>", _img(curve_figure(curve_rows), "error curves")]
    tables = {arm: arm_tables(arm) for arm in run.arms()}
    tables = {arm: t for arm, t in tables.items() if t}
    sections += _blind_spots(run, tables)
    sections += _findings(findings_dir or run.root / "findings", run.run_id)
    categories = pd.concat([t[CATEGORIES_CSV].assign(arm=arm.arm, testee=arm.testee) for arm, t in tables.items()]) if tables else None
    if categories is not None and not categories.empty:
        sections += ["<h2>Errors by category</h2>", _img(category_figure(categories), "errors by category"),
                     _table(categories[["testee", "arm", "category", "paragraphs", "mean_error_rate", "sources"]])]
    sections.append("<h2>Relation DAGs</h2><p class=muted>Edges run from a source to the paragraphs it retrieved in the next step.</p>")
    sections += [_img(dag_figure(arm.load_state(), arm.label), f"DAG {arm.label}") for arm in tables if ARMS[arm.arm].retrieves]
    sections += _most_failed(tables)
    sections += [_comparison(result) for result in run.comparisons()]
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>SEA audit {html.escape(run.run_id)}</title>"
            f"<style>{_STYLE}</style></head><body>{''.join(sections)}</body></html>")
    write_text(out, page)
    return out


def _comparison(result: dict) -> str:
    """What changed since an earlier audit (sea compare, or a scheduled audit by itself)."""
    counts = result["counts"]
    arms = pd.DataFrame([{"arm": arm, "error before": result["arms"]["previous"].get(arm, {}).get("error_rate"),
                          "error now": now["error_rate"], "× random before": result["arms"]["previous"].get(arm, {}).get("vs_random"),
                          "× random now": now["vs_random"]} for arm, now in result["arms"]["current"].items()])
    changed = pd.DataFrame([r for r in result["sources"] if r["status"] != "still failing"] + result["new_sources"])
    return (f"<h2>Since {html.escape(result['previous'])}</h2><p>{html.escape(result['testee_before'])} then, "
            f"{html.escape(result['testee'])} now. Of the {counts['sources_before']} earlier sources, re-asked on their "
            f"questions ({result['calls']} calls): <b>{counts['fixed']} fixed</b>, {counts['still_failing']} still failing, "
            f"{counts['not_reasked']} not re-asked (budget); <b>{counts['new_sources']} new sources</b>.</p>"
            + _table(arms) + _table(pd.DataFrame(result["by_category"]))
            + (_table(changed.head(30)) if not changed.empty else ""))


def _setup(run: RunDir) -> str:
    p = run.params
    rows = [("testees", ", ".join(t.model for t in p.testee_settings())),
            ("question generator", p.models.generator.model if p.models.generator else "offline cloze generator"),
            ("knowledge base", f"{p.kb.source} ({p.kb.input})"), ("embedder", p.embedding.model),
            ("budget per arm", ", ".join(f"{k} {v}" for k, v in p.budget.model_dump().items() if v is not None)),
            ("questions per paragraph", f"{p.questions.per_paragraph} × {p.questions.variants} phrasings"),
            ("search", f"batch {p.search.batch_size}, k {p.search.k_documents}, m {p.search.m_paragraphs}, "
                       f"τ {p.search.tau}, γ {p.search.gamma}, seed {p.search.seed}"),
            ("data versions", ", ".join(f"{k} {v}" for k, v in run.config["data_versions"].items()))]
    return _table(pd.DataFrame(rows, columns=["", "setting"]))


def _blind_spots(run: RunDir, tables: dict[ArmDir, dict]) -> list[str]:
    rows = []
    planted_by_testee = {t.model: planted_for(run.params, t.model) for t in run.params.testee_settings()}
    for arm, t in tables.items():
        planted = planted_by_testee[arm.testee]
        if planted is not None:
            rows.append({"testee": arm.testee, "arm": arm.arm, **findings(t[PARAGRAPHS], planted)})
    if not rows:
        return []
    frame = pd.DataFrame(rows)
    return ["<h2>Planted blind spots and what each arm found</h2>",
            "<p class=muted>The simulated testee answers at chance inside planted regions of the knowledge base. "
            "precision: share of an arm's sources inside a planted region; recall: share of regions with at least one "
            "source; budget_inside: share of questions asked inside planted regions.</p>", _table(frame)]


def _findings(directory: Path, run_id: str) -> list[str]:
    path = directory / "findings.json"
    if not path.is_file():
        return ["<h2>Error clusters</h2>", f"<p class=muted>Not computed yet: <code>sea findings {html.escape(run_id)}</code> "
                "groups each testee's failures into named clusters.</p>"]
    result = read_json(path)
    parts = ["<h2>Error clusters</h2>",
             "<p class=muted>Each testee's source paragraphs grouped by topic (average-linkage clustering of their articles' "
             "vectors) and named by their most distinctive terms (class-based TF-IDF) and most central titles.</p>"]
    for testee in result["testees"]:
        parts.append(f"<h3>{html.escape(testee['testee'])}</h3><p>{testee['sources']} sources, {testee['clustered']} of them "
                     f"in {len(testee['clusters'])} clusters.</p>")
        if not testee["clusters"]:
            parts.append(f"<p>Too few sources to cluster (a cluster needs {result['settings']['min_cluster_size']}).</p>")
            continue
        rows = [{"cluster": c["cluster"], "name": c.get("name") or "", "distinctive terms": ", ".join(c["terms"]), "central titles": "; ".join(c["titles"]),
                 "sources": c["sources"], "questions": c["questions"], "error rate": c["error_rate"],
                 "categories": ", ".join(f"{name} {n}" for name, n in c["categories"].items())} for c in testee["clusters"]]
        parts.append(_table(pd.DataFrame(rows), floats="{:.2f}"))
        truth = testee.get("ground_truth")
        if truth and truth["rows"]:
            parts.append(f"<p>Against the {truth['regions']} planted blind spots ({truth['sources_inside']} sources inside them): "
                         f"adjusted Rand {truth['adjusted_rand']:.2f}, homogeneity {truth['homogeneity']:.2f}, "
                         f"completeness {truth['completeness']:.2f}.</p>")
    if (directory / "map.png").is_file():
        parts.append(_img((directory / "map.png").read_bytes(), "map of error clusters"))
    return parts + _retests(directory) + _transfer(directory)


def _review(run: RunDir) -> list[str]:
    """Reviewers' verdicts, when there are any: the pass rate and each error rate without the
    questions they rejected, beside the audited one (never in its place)."""
    summary = review_summary(run)
    if not summary["reviewed"]:
        return []
    counts = ", ".join(f"{count} {verdict}" for verdict, count in summary["verdicts"].items() if count)
    arms = pd.DataFrame(summary["arms"]).rename(columns={"error_rate": "error rate (audited)",
                                                         "error_rate_reviewed": "error rate without rejected",
                                                         "rejected_asked": "rejected questions asked"})
    return ["<h2>Human review</h2>",
            f"<p>{summary['reviewed']} questions reviewed by {html.escape(', '.join(summary['reviewers']))}: "
            f"<b>{summary['pass_rate']:.0%} passed</b> (95% interval {summary['pass_low']:.0%}–{summary['pass_high']:.0%}); "
            f"{html.escape(counts)}. Questions judged <i>gold wrong</i>, <i>ambiguous</i> or <i>not in paragraph</i> "
            f"are rejected: the second error rate leaves their answers out.</p>",
            _table(arms[["testee", "arm", "error rate (audited)", "error rate without rejected", "questions",
                         "rejected questions asked"]])]


def _retests(directory: Path) -> list[str]:
    results = [read_json(path) for path in sorted(directory.glob("retest-*.json"))]
    if not results:
        return []
    parts = ["<h2>Context retest</h2>", "<p class=muted>Wrong answers asked again with the source paragraph shown "
             "(as data the prompt says never to obey): fixed, the same wrong answer (the model keeps its memory "
             "against the context), or another wrong answer.</p>"]
    for result in results:
        if not result["asked"]:
            parts.append(f"<p>{html.escape(result['testee'])}: no wrong answer to retest.</p>")
            continue
        low, high = result["fixed_share_95"]
        parts.append(f"<h3>{html.escape(result['testee'])}</h3><p>{result['asked']} of {result['wrong_answers']} wrong "
                     f"answers: <b>{result['fixed_share']:.1%} fixed</b> (95% interval {low:.1%}–{high:.1%}), "
                     f"{result['same_share']:.1%} the same wrong answer, {result['changed_share']:.1%} another.</p>")
        for key in ("by_cluster", "by_category"):
            if result[key]:
                parts.append(_table(pd.DataFrame(result[key]).rename(columns={"changed": "another", "fixed_share": "fixed share",
                                                                              "same_share": "same share", "changed_share": "another share"}),
                                    floats="{:.2f}"))
    return parts


def _transfer(directory: Path) -> list[str]:
    path = directory / "transfer.json"
    if not path.is_file():
        return []
    result = read_json(path)
    pairs = pd.DataFrame([p for p in result["pairs"] if p["testee"] != p["subset_of"]])
    parts = ["<h2>Transfer across testees</h2>", "<p class=muted>Each testee asked the questions of every other testee's "
             "source paragraphs (its error subset): its accuracy there, what the planted blind spots predict (expected, "
             "simulated testees), and the correlation of the two testees' per-paragraph error rates.</p>",
             _img((directory / "transfer.png").read_bytes(), "transfer heat map"),
             _table(pairs[["testee", "subset_of", "sources", "questions", "accuracy", "expected_accuracy", "correlation",
                           "inside_blind_spots"]].rename(columns={"subset_of": "on the sources of",
                                                                  "expected_accuracy": "expected",
                                                                  "inside_blind_spots": "share in its blind spots"}),
                    floats="{:.2f}")]
    if result["clusters"]:
        rows = [{"testee": c["testee"], "cluster": c["cluster"], "name": c.get("name") or "",
                 "distinctive terms": ", ".join(c["terms"]), "sources": c["sources"], "its error rate": c["error_rate"],
                 "others' error rates": ", ".join(f"{o} {r:.2f}" for o, r in c["others"].items() if r is not None),
                 "shared with": ", ".join(c["shared_with"]) or "unique"} for c in result["clusters"]]
        parts.append(_table(pd.DataFrame(rows), floats="{:.2f}"))
    return parts


def _most_failed(tables: dict[ArmDir, dict]) -> list[str]:
    if not tables:
        return []
    parts = [f"<h2>The {TOP_PARAGRAPHS} most-failed paragraphs</h2>"]
    for testee in dict.fromkeys(arm.testee for arm in tables):
        arms = {arm: t for arm, t in tables.items() if arm.testee == testee}
        paragraphs = pd.concat([t[PARAGRAPHS].assign(arm=arm.arm) for arm, t in arms.items()]).dropna(subset=["error_rate"])
        found_by = paragraphs.groupby("para_id")["arm"].agg(lambda a: ", ".join(sorted(set(a))))
        top = (paragraphs.drop_duplicates("para_id").sort_values(["error_rate", "questions"], ascending=False)
               .head(TOP_PARAGRAPHS))
        questions = pd.concat([t[QUESTIONS] for t in arms.values()]).drop_duplicates("question_id")
        answers = pd.concat([t[ANSWERS] for t in arms.values()]).drop_duplicates("question_id")
        asked = questions.merge(answers, on="question_id")
        parts.append(f"<h3>{html.escape(testee)}</h3>")
        for row in top.itertuples():
            items = "".join(_question_item(q) for q in asked[asked["para_id"] == row.para_id].itertuples())
            parts.append(f"<details><summary><b>{html.escape(row.title)}</b> — {html.escape(row.section or 'lead')} · "
                         f"error rate {row.error_rate:.2f} · {html.escape(row.category)} · found by "
                         f"{html.escape(found_by[row.para_id])}</summary><ol>{items}</ol></details>")
    return parts


def _question_item(q) -> str:
    options = "".join(f"<li>{html.escape(o)}{' ✓' if LETTERS[i] == q.gold_letter else ''}</li>" for i, o in enumerate(q.options))
    verdict = "right" if q.outcome == Outcome.CORRECT else "wrong"
    return (f"<li>{html.escape(q.question)}<ol type=A>{options}</ol><span class={verdict}>testee: "
            f"{html.escape(str(q.raw_reply))} ({q.outcome})</span></li>")
