"""reports/audit.html: one self-contained page built from a run directory alone (figures inlined,
no network; one small inline script filters the failed questions). It opens with what each testee
gets wrong and what finding it cost, then the arms side by side, the figures, the error clusters,
and every failed paragraph with its questions. The layout is the Jinja2 template beside this
module; this module decides what the page says."""

from __future__ import annotations

import base64
import io
import numbers
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from sea.audit.figures import category_figure, curve_figure, dag_figure
from sea.audit.ground_truth import findings, planted_for
from sea.audit.outputs import CATEGORIES_CSV, arm_tables, asked_once, curves, summarise
from sea.audit.rundir import ANSWERS, FIXED, PARAGRAPHS, QUESTIONS, ArmDir, RunDir, analysis_commands, out_flag
from sea.choices import LETTERS
from sea.files import read_json, write_text
from sea.llm.ledger import dollars_text
from sea.printable import printable
from sea.questions.model import Outcome
from sea.review.verdicts import review_summary
from sea.search.arms import ARMS, BASELINE

FAILED_PARAGRAPHS = 200  # per testee, the most failed first: the rest are in the run's files and `sea export --only-errors`
TOP_TOPICS = 5
CHANGED_SHOWN = 30  # fixed sources, and new ones, in a "Since …" section
NEW = "new"  # a source found only since the earlier audit
LEAD_ARMS = ("sea_plus", "sea", "no_pruning", BASELINE)  # the headline shows the first the run has


def _printable(value):
    """A value the page shows, without control characters (tab and line breaks stay)."""
    if isinstance(value, Markup):
        return Markup(printable(value))
    return printable(value) if isinstance(value, str) else value


_TEMPLATES = Environment(loader=PackageLoader("sea.audit", "templates"), autoescape=select_autoescape(["j2"]),
                         undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True, finalize=_printable)


@dataclass
class Table:
    columns: list[str]
    rows: list[list[str]]
    numeric: set[int] = field(default_factory=set)  # right-aligned
    ids: list[str] | None = None  # anchors, one per row


def isolated(texts: Iterable[str], separator: str) -> Markup:
    """Texts of the data shown together in one cell or line, each in a <bdi> of its own: a right-to-left override one
    leaves open would otherwise reverse the others after it."""
    return Markup(separator).join(Markup("<bdi>{}</bdi>").format(text) for text in texts)


def _missing(value) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and value != value)


def number(value, digits: int = 3) -> str:
    """A cell: thousands separated, rates to `digits` places, a dash for nothing."""
    if _missing(value):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral) or (isinstance(value, float) and value.is_integer() and abs(value) >= 1000):
        return f"{int(value):,}"
    if isinstance(value, float):
        return f"{value:,.{digits}f}"
    return str(value)


def _identifier(value) -> str:
    """A cell of an id column (para_id, …): its digits as they are, with no thousands separators, a dash for nothing."""
    if _missing(value):
        return "—"
    return str(int(value)) if isinstance(value, numbers.Number) else str(value)


def _holds_ids(column: str) -> bool:
    return column.endswith("_id")


def table(frame: pd.DataFrame, columns: dict[str, str], digits: dict[str, int] | None = None, ids: list[str] | None = None,
          joined: dict[str, str] | None = None) -> Table:
    """`columns`: the frame's column -> the name a reader sees, in order; `joined`: a column whose cells are lists of
    texts -> the separator they are shown with, each text isolated."""
    digits, joined = digits or {}, joined or {}
    numeric = {i for i, c in enumerate(columns) if pd.api.types.is_numeric_dtype(frame[c])
               and not pd.api.types.is_bool_dtype(frame[c]) and not _holds_ids(c)}
    rows = [[isolated(value, joined[c]) if c in joined else _identifier(value) if _holds_ids(c) else number(value, digits.get(c, 3))
             for c, value in zip(columns, row, strict=True)] for row in frame[list(columns)].itertuples(index=False)]
    return Table(list(columns.values()), rows, numeric, ids)


def _figure(data: bytes, alt: str) -> dict:
    return {"kind": "figure", "figure": {"alt": alt, "data": base64.b64encode(data).decode()}}


def _text(html: str, muted: bool = False) -> dict:
    return {"kind": "text", "html": Markup(html), "muted": muted}


def _table(t: Table) -> dict:
    return {"kind": "table", "table": t}


def _section(section_id: str, heading: str, blocks: list[dict]) -> dict:
    return {"id": section_id, "heading": heading, "blocks": blocks}


def anchor(*parts) -> str:
    return "-".join(re.sub(r"[^a-z0-9]+", "-", str(p).lower()).strip("-") for p in parts)


def build_report(run: RunDir, out: Path, findings_dir: Path | None = None) -> Path:
    """The page; the error clusters come from `sea findings` output in findings_dir (default:
    runs/<run_id>/findings), and are said to be missing when it has none."""
    run.check()  # a report of damaged or inconsistent files would state wrong figures
    commands = analysis_commands(run, findings_dir, out)
    findings_dir = findings_dir or run.root / "findings"
    summary = pd.DataFrame(summarise(run)["arms"])
    tables = {arm: t for arm, t in ((arm, arm_tables(arm)) for arm in run.arms()) if t}
    progress = run.progress()
    clusters = read_json(findings_dir / "findings.json") if (findings_dir / "findings.json").is_file() else None
    stale = clusters is not None and _out_of_date(clusters, progress)
    clusters = None if stale else clusters
    failed = _failed(tables)
    sections = [_section("results", "The arms side by side", _results(run, summary))]
    sections += _review(run)
    curve_rows = pd.read_csv(io.StringIO(curves(run)))
    if not curve_rows.empty:
        sections.append(_section("curves", "Cumulative error rate per arm", [_figure(curve_figure(curve_rows), "cumulative error rate against questions asked, per arm")]))
    sections += _blind_spots(run, tables)
    sections += _findings(findings_dir, clusters, commands, out_flag(run, findings_dir, "findings"), progress, stale)
    sections += _categories(tables)
    sections.append(_dags(run, tables))
    if failed["paragraphs"]:
        sections.append(_section("failed", "Failed questions", [_text(failed["intro"], muted=True), {"kind": "failed", **failed}]))
    sections += [_comparison(result) for result in run.comparisons()]
    page = _TEMPLATES.get_template("report.html.j2").render(
        run_id=run.run_id, subtitle=_subtitle(run), headline=_headline(run, summary, tables, clusters), sections=sections)
    write_text(out, page)
    return out


def _subtitle(run: RunDir) -> str:
    p = run.params
    generator = p.models.generator.model if p.models.generator else "the offline cloze generator"
    going = len(run.unfinished())
    unfinished = (f" Not finished: {going} of {len(run.arms())} arms have budget left (running, or stopped: `sea audit "
                  f"--resume {run.run_id}`); these are the figures so far." if going else "")
    return (f"{', '.join(t.model for t in p.testee_settings())} audited on questions from {generator}, over {p.kb.source} "
            f"({p.kb.input}); {p.questions.per_paragraph} questions × {p.questions.variants} phrasings a paragraph, "
            f"{p.search.batch_size} paragraphs a step.{unfinished}")


def cost_words(model: str, tokens: int | None, dollars: float | None) -> str:
    """What an arm cost, in words: a simulated or local testee costs nothing."""
    tokens_text = f"{number(tokens or 0)} tokens"
    if model.startswith("simulated:"):
        return f"no cost: simulated testee ({tokens_text} counted)"
    if model.startswith("local:"):
        return f"no cost: local model ({tokens_text})"
    if dollars is None:
        return f"{tokens_text}, price unknown"
    return f"{tokens_text}, {dollars_text(dollars)}"


def _headline(run: RunDir, summary: pd.DataFrame, tables: dict[ArmDir, dict], clusters: dict | None) -> list[dict]:
    """Per testee: the searching arm's error rate against random's, what it found and cost, and
    the topics it fails most (its named error clusters when `sea findings` ran, else categories)."""
    cards = []
    for testee in dict.fromkeys(summary["testee"]) if not summary.empty else []:
        rows = summary[summary["testee"] == testee].set_index("arm")
        lead = next((a for a in LEAD_ARMS if a in rows.index and pd.notna(rows.loc[a, "cumulative_questions"])
                     and rows.loc[a, "cumulative_questions"] > 0), None)  # an arm that has answered something
        card = {"testee": testee, "error_rate": None, "topics": [], "topics_by": ""}
        if lead is not None:
            row = rows.loc[lead]
            answers = pd.concat([t[ANSWERS] for arm, t in tables.items() if arm.testee == testee and arm.arm == lead])
            random_rate = rows.loc[BASELINE, "cumulative_error_rate"] if BASELINE in rows.index and lead != BASELINE else None
            tokens = (row["cumulative_testee_tokens"] or 0) + (row["cumulative_generator_tokens"] or 0)
            dollars = row["cumulative_dollars"]
            card.update(arm=lead, colour=ARMS[lead].colour, error_rate=number(row["cumulative_error_rate"]),
                        ratio=f"{row['error_rate_vs_random']:.2f}×" if lead != BASELINE and pd.notna(row["error_rate_vs_random"]) else "",
                        random_rate=number(random_rate), wrong=number(int(row["cumulative_wrong"])),
                        questions=number(int(row["cumulative_questions"])), sources=number(int(row["cumulative_sources"] or 0)),
                        cost=cost_words(testee, int(tokens), None if pd.isna(dollars) else float(dollars)),
                        latency="" if testee.startswith("simulated:") else
                        f"{answers['latency_s'].fillna(0).sum():,.0f} s summed (calls in flight together overlap)")
        card["topics_by"], card["topics"] = _topics(testee, tables, clusters)
        cards.append(card)
    return cards


def _topics(testee: str, tables: dict[ArmDir, dict], clusters: dict | None) -> tuple[str, list[dict]]:
    found = next((t for t in (clusters or {}).get("testees", []) if t["testee"] == testee and t["clusters"]), None)
    if found:
        ranked = sorted(found["clusters"], key=lambda c: (-c["wrong"], c["cluster"]))[:TOP_TOPICS]
        return "its error clusters, by wrong answers", [
            {"name": c.get("name") or isolated(c["terms"][:3], ", "), "href": f"#{anchor('cluster', testee, c['cluster'])}", "category": "",
             "detail": Markup("{} wrong of {} ({:.2f}); {}").format(c["wrong"], c["questions"], c["error_rate"], isolated(c["titles"][:2], "; "))}
            for c in ranked]
    asked = _asked(tables, testee)
    if asked.empty:
        return "", []
    by_category = asked.groupby("category")["outcome"].agg(questions="size", wrong=lambda o: int((o != Outcome.CORRECT).sum()))
    ranked = by_category.assign(rate=by_category["wrong"] / by_category["questions"]).sort_values(["wrong", "rate"], ascending=False)
    return "categories, by wrong answers", [
        {"name": row.Index, "href": "#failed", "category": row.Index,
         "detail": f"{row.wrong} wrong of {row.questions} ({row.rate:.2f})"}
        for row in ranked.head(TOP_TOPICS).itertuples() if row.wrong]  # itertuples keeps the counts whole


def _asked(tables: dict[ArmDir, dict], testee: str) -> pd.DataFrame:
    """Every question the testee answered in any arm, once, with its paragraph's title and category
    (failed calls left out)."""
    arms = {arm: t for arm, t in tables.items() if arm.testee == testee}
    if not arms:
        return pd.DataFrame(columns=["question_id", "para_id", "outcome", "category"])
    paragraphs = pd.concat([t[PARAGRAPHS] for t in arms.values()]).drop_duplicates("para_id")[["para_id", "title", "section", "category"]]
    asked = asked_once(arms.values()).merge(paragraphs, on="para_id")
    return asked[asked["outcome"] != Outcome.FAILED]


RESULT_COLUMNS = {"testee": "testee", "arm": "arm", "steps": "steps", "cumulative_questions": "questions asked",
                  "cumulative_wrong": "wrong answers", "failed_calls": "failed calls", "cumulative_error_rate": "error rate", "error_rate_vs_random": "× random",
                  "cumulative_sources": "source paragraphs", "cumulative_pruned_sources": "pruned", "tokens": "tokens",
                  "cost": "cost per wrong answer"}


def _results(run: RunDir, summary: pd.DataFrame) -> list[dict]:
    counts = ["steps", "cumulative_questions", "cumulative_wrong", "cumulative_sources", "cumulative_pruned_sources", "failed_calls"]
    frame = summary.astype(dict.fromkeys(counts, "Int64")).assign(  # whole, though an arm not begun leaves them empty
        tokens=(summary["cumulative_testee_tokens"].fillna(0) + summary["cumulative_generator_tokens"].fillna(0)).astype(int),
        cost=[("none" if t.startswith(("simulated:", "local:")) else number(c, 5)) for t, c in zip(summary["testee"], summary["cost_per_error"], strict=True)])
    p = run.params
    setup = pd.DataFrame([
        ("budget per arm", ", ".join(f"{k.replace('_', ' ')} {number(v)}" for k, v in p.budget.model_dump().items() if v is not None)),
        ("search", f"batch {p.search.batch_size}, {p.search.k_documents} documents retrieved and {p.search.m_paragraphs} "
                   f"paragraphs kept per source, τ {p.search.tau}, γ {p.search.gamma}, seed {p.search.seed}"),
        ("embedder", p.embedding.model),
        ("data versions", ", ".join(f"{k} {v}" for k, v in run.config["data_versions"].items()))], columns=["setting", "value"])
    failed = bool(frame["failed_calls"].any())  # a column only when some call failed for good: a count the error rate leaves out
    columns = {key: name for key, name in RESULT_COLUMNS.items() if key != "failed_calls" or failed}
    failures = (" A failed call had no usable reply after every retry: it is not an answer, so neither the questions "
                "asked nor the error rate count it; its reason is the raw reply in the arm's answers.parquet.") if failed else ""
    return [_table(table(frame, columns, {"error_rate_vs_random": 2})),
            _text("The error rate counts every answer (an unparseable reply as wrong); × random divides it by the random "
                  f"arm's, which searches nothing. A source paragraph is one whose error rate passed τ.{failures}", muted=True),
            _table(table(setup, {"setting": "setting", "value": "value"}))]


def _review(run: RunDir) -> list[dict]:
    """Reviewers' verdicts, when there are any: the pass rate and each error rate without the
    questions they rejected, beside the audited one (never in its place)."""
    summary = review_summary(run)
    if not summary["reviewed"]:
        return []
    counts = ", ".join(f"{count} {verdict}" for verdict, count in summary["verdicts"].items() if count)
    arms = pd.DataFrame(summary["arms"])
    return [_section("review", "Human review", [
        _text(f"{summary['reviewed']} questions reviewed by {escape(', '.join(summary['reviewers']))}: "
              f"<b>{summary['pass_rate']:.0%} passed</b> (95% interval {summary['pass_low']:.0%}–{summary['pass_high']:.0%}); "
              f"{escape(counts)}. Questions judged <i>gold wrong</i>, <i>ambiguous</i> or <i>not in paragraph</i> are rejected: "
              f"the second error rate leaves their answers out."),
        _table(table(arms, {"testee": "testee", "arm": "arm", "error_rate": "error rate (audited)",
                            "error_rate_reviewed": "error rate without rejected", "questions": "questions",
                            "rejected_asked": "rejected questions asked"}))])]


def _blind_spots(run: RunDir, tables: dict[ArmDir, dict]) -> list[dict]:
    rows = []
    planted_by_testee = {t.model: planted_for(run.params, t.model) for t in run.params.testee_settings()}
    for arm, t in tables.items():
        planted = planted_by_testee[arm.testee]
        if planted is not None:
            rows.append({"testee": arm.testee, "arm": arm.arm, **findings(t[PARAGRAPHS], planted, t[QUESTIONS]["para_id"])})
    if not rows:
        return []
    frame = pd.DataFrame(rows)
    columns = {"testee": "testee", "arm": "arm", "sources": "sources", "precision": "inside blind spots (precision)",
               "regions_found": "blind spots found", "regions": "blind spots planted", "recall": "recall",
               "budget_inside": "budget spent inside"}
    return [_section("blind-spots", "Planted blind spots and what each arm found", [
        _text("The simulated testee answers at chance inside planted regions of the knowledge base: precision is the share "
              "of an arm's sources inside one, recall the share of regions with at least one source, and the budget spent "
              "inside the share of its questions asked there.", muted=True),
        _table(table(frame, {c: n for c, n in columns.items() if c in frame}, {"precision": 2, "recall": 2, "budget_inside": 2}))])]


def _out_of_date(result: dict, progress: dict[str, int]) -> bool:
    """Made from fewer steps than the run now has (a result without the stamp predates it, and is taken as it is)."""
    return result.get("run_steps", progress) != progress


def _findings(directory: Path, result: dict | None, commands: tuple[str, str], out: str, progress: dict[str, int],
              stale: bool) -> list[dict]:
    """`out`: the --out that writes to directory, for the hints of its retests and transfer."""
    if result is None:
        findings, report = (f"<code>{escape(command)}</code>" for command in commands)
        return [_section("clusters", "Error clusters", [_text(
            f"Out of date: made before the run's latest steps; run {findings} again (and its retest and transfer), then "
            f"{report}." if stale else
            f"Not computed yet: {findings} groups each testee's failures into named clusters; then {report}.")])]
    blocks = [_text("Each testee's source paragraphs grouped by where they lie (a cluster: the sources among one article's nearest "
                    "articles in the index), named by their most distinctive terms (class-based TF-IDF) and most central titles.", muted=True)]
    for testee in result["testees"]:
        blocks += [{"kind": "subheading", "text": testee["testee"]},
                   _text(f"{testee['sources']} sources over all the run's arms, {testee['clustered']} of them in "
                         f"{len(testee['clusters'])} clusters.")]
        if not testee["clusters"]:
            blocks.append(_text(f"Too few sources to cluster (a cluster needs {result['settings']['min_cluster_size']})."))
            continue
        frame = pd.DataFrame([{"cluster": c["cluster"], "name": c.get("name") or "", "terms": c["terms"],
                               "titles": c["titles"], "sources": c["sources"], "questions": c["questions"],
                               "error_rate": c["error_rate"],
                               "categories": ", ".join(f"{name} {n}" for name, n in c["categories"].items())} for c in testee["clusters"]])
        columns = {"cluster": "cluster", "name": "name", "terms": "distinctive terms", "titles": "central titles",
                   "sources": "sources", "questions": "questions", "error_rate": "error rate", "categories": "categories"}
        if not frame["name"].any():  # no generator named them (offline): the terms and titles are the names
            del columns["name"]
        blocks.append(_table(table(frame, columns, {"error_rate": 2}, joined={"terms": ", ", "titles": "; "})))
        blocks.append({"kind": "examples", "clusters": [
            {"id": anchor("cluster", testee["testee"], c["cluster"]),
             "summary": Markup(f"cluster {c['cluster']}: <bdi>{escape(c.get('name') or isolated(c['terms'][:3], ', '))}</bdi> — "
                               f"{len(c['examples'])} of its wrong answers"),
             "examples": c["examples"]} for c in testee["clusters"] if c["examples"]]})
        truth = testee.get("ground_truth")
        if truth and truth["rows"]:
            blocks.append(_text(f"Against the {truth['regions']} planted blind spots ({truth['sources_inside']} sources inside them): "
                                f"adjusted Rand {truth['adjusted_rand']:.2f}, homogeneity {truth['homogeneity']:.2f}, "
                                f"completeness {truth['completeness']:.2f}.{_separability(truth)}"))
    if (directory / "map.png").is_file():
        blocks.append(_figure((directory / "map.png").read_bytes(), "map of the evaluated articles, sources coloured by error cluster"))
    return [_section("clusters", "Error clusters", blocks)] + _retests(directory, out, progress) + _transfer(directory, out, progress)


def _separability(truth: dict) -> str:
    """The clusters' yardstick (sea.findings.analysis: each source with the nearest region's mean vector); absent in older findings."""
    bound = truth.get("nearest_region_centroid")
    return f" Sources put with the nearest region's mean vector would score adjusted Rand {bound['adjusted_rand']:.2f}." if bound else ""


def _retests(directory: Path, out: str, progress: dict[str, int]) -> list[dict]:
    results = [read_json(path) for path in sorted(directory.glob("retest-*.json"))]
    if not results:
        return []
    blocks = [_text("Wrong answers asked again with the source paragraph shown (as data the prompt says never to obey): "
                    "fixed, the same wrong answer (the model keeps its memory against the context), or another wrong answer.", muted=True)]
    for result in results:
        if _out_of_date(result, progress):
            blocks.append(_text(f"{escape(result['testee'])}: out of date, made before the run's latest steps; run "
                                f"<code>sea retest {escape(shlex.quote(result['run_id']))} --testee "
                                f"{escape(shlex.quote(result['testee']))}{escape(out)}</code> again."))
            continue
        if not result["asked"]:
            blocks.append(_text(f"{escape(result['testee'])}: no wrong answer to retest."))
            continue
        low, high = result["fixed_share_95"]
        blocks += [{"kind": "subheading", "text": result["testee"]},
                   _text(f"{result['asked']} of {result['wrong_answers']} wrong answers: <b>{result['fixed_share']:.1%} fixed</b> "
                         f"(95% interval {low:.1%}–{high:.1%}), {result['same_share']:.1%} the same wrong answer, "
                         f"{result['changed_share']:.1%} another.")]
        for key in ("by_cluster", "by_category"):
            if result[key]:
                frame = pd.DataFrame(result[key])
                names = {c: c.replace("_share", " share").replace("changed", "another").replace("_", " ") for c in frame.columns}
                blocks.append(_table(table(frame, names, {c: 2 for c in frame.columns})))
    return [_section("retest", "Context retest", blocks)]


def _transfer(directory: Path, out: str, progress: dict[str, int]) -> list[dict]:
    path = directory / "transfer.json"
    if not path.is_file():
        return []
    result = read_json(path)
    if _out_of_date(result, progress):
        return [_section("transfer", "Transfer across testees", [_text(
            f"Out of date: made before the run's latest steps; run <code>sea transfer {escape(shlex.quote(result['run_id']))}{escape(out)}</code> again.")])]
    pairs = pd.DataFrame([p for p in result["pairs"] if p["testee"] != p["subset_of"]])
    blocks = [_text("Each testee asked the questions of every other testee's source paragraphs (its error subset): its accuracy "
                    "there, what the planted blind spots predict (expected, simulated testees), and the correlation of the two "
                    "testees' per-paragraph error rates.", muted=True),
              _figure((directory / "transfer.png").read_bytes(), "accuracy of each testee on the others' error subsets"),
              _table(table(pairs, {"testee": "testee", "subset_of": "on the sources of", "sources": "sources", "questions": "questions",
                                   "accuracy": "accuracy", "expected_accuracy": "expected", "correlation": "correlation",
                                   "inside_blind_spots": "share in its blind spots"}, dict.fromkeys(pairs.columns, 2)))]
    if result["clusters"]:
        frame = pd.DataFrame([{"testee": c["testee"], "cluster": c["cluster"], "name": [c["name"]] if c.get("name") else c["terms"],
                               "sources": c["sources"], "error_rate": c["error_rate"],
                               "others": ", ".join(f"{o} {r:.2f}" for o, r in c["others"].items() if r is not None),
                               "shared": ", ".join(c["shared_with"]) or "unique"} for c in result["clusters"]])
        blocks.append(_table(table(frame, {"testee": "testee", "cluster": "cluster", "name": "name", "sources": "sources",
                                           "error_rate": "its error rate", "others": "others' error rates", "shared": "shared with"},
                                   {"error_rate": 2}, joined={"name": ", "})))
    return [_section("transfer", "Transfer across testees", blocks)]


def _categories(tables: dict[ArmDir, dict]) -> list[dict]:
    frames = [t[CATEGORIES_CSV].assign(arm=arm.arm, testee=arm.testee) for arm, t in tables.items()]
    categories = pd.concat(frames) if frames else pd.DataFrame()
    if categories.empty:
        return []
    return [_section("categories", "Errors by category", [
        _figure(category_figure(categories), "mean error rate of the evaluated paragraphs per category, per arm"),
        _table(table(categories, {"testee": "testee", "arm": "arm", "category": "category", "paragraphs": "paragraphs",
                                  "mean_error_rate": "mean error rate", "sources": "sources"}))])]


def _dags(run: RunDir, tables: dict[ArmDir, dict]) -> dict:
    blocks = [_text("Each column is a step; an edge runs from a source to a paragraph it retrieved. The sources that led to "
                    "the most are labelled with their titles; outlined sources were pruned.", muted=True)]
    for arm, t in tables.items():
        if not ARMS[arm.arm].retrieves:
            blocks.append(_text(f"{escape(arm.label)}: no relations — this arm draws paragraphs without retrieving from sources.", muted=True))
            continue
        titles = dict(zip(t[PARAGRAPHS]["para_id"], t[PARAGRAPHS]["title"], strict=True))
        blocks.append(_figure(dag_figure(arm.load_state(), arm.label, titles), f"relation DAG of {arm.label}"))
    return _section("dags", "Relation DAGs", blocks)


def _failed(tables: dict[ArmDir, dict]) -> dict:
    """Every paragraph a testee answered wrongly at least once, most failed first (FAILED_PARAGRAPHS
    per testee), with its questions, the gold answer and the testee's replies."""
    paragraphs, total = [], 0
    for testee in dict.fromkeys(arm.testee for arm in tables):
        arms = {arm: t for arm, t in tables.items() if arm.testee == testee}
        evaluated = pd.concat([t[PARAGRAPHS].assign(arm=arm.arm) for arm, t in arms.items()]).dropna(subset=["error_rate"])
        found_by = evaluated.groupby("para_id")["arm"].agg(lambda a: ", ".join(sorted(set(a))))
        failing = evaluated[evaluated["error_rate"] > 0].drop_duplicates("para_id")
        total += len(failing)
        top = failing.sort_values(["error_rate", "questions", "para_id"], ascending=[False, False, True]).head(FAILED_PARAGRAPHS)
        asked = _asked(arms, testee)
        by_paragraph = {p: rows for p, rows in asked.groupby("para_id")}
        for row in top.itertuples():
            questions = by_paragraph.get(row.para_id, asked.iloc[:0])
            paragraphs.append({"testee": testee, "arms": found_by[row.para_id], "category": row.category, "title": row.title,
                               "section": row.section or "lead", "rate": f"{row.error_rate:.2f}",
                               "questions": [_question(q) for q in questions.itertuples()]})
    shown = len(paragraphs)
    intro = (f"The {shown:,} paragraphs answered wrongly most often" + (f", of {total:,} with a wrong answer" if total > shown else "")
             + f" (at most {FAILED_PARAGRAPHS} per testee; the rest are in the run's files and <code>sea export --only-errors</code>). "
             "Filter them by testee, arm, category or error rate; a topic in the headline opens its paragraphs. ✓ marks the gold answer.")
    return {"paragraphs": paragraphs, "intro": intro, "testees": sorted({p["testee"] for p in paragraphs}),
            "arms": sorted({a for p in paragraphs for a in p["arms"].split(", ")}),
            "categories": sorted({p["category"] for p in paragraphs})}


def _question(q) -> dict:
    return {"question": q.question, "reply": str(q.raw_reply), "outcome": q.outcome, "right": q.outcome == Outcome.CORRECT,
            "options": [{"text": o, "gold": LETTERS[i] == q.gold_letter} for i, o in enumerate(q.options)]}


def _comparison(result: dict) -> dict:
    """What changed since an earlier audit (sea compare, or a scheduled audit by itself)."""
    counts = result["counts"]
    arms = pd.DataFrame([{"arm": arm, "before": result["arms"]["previous"].get(arm, {}).get("error_rate"),
                          "now": now["error_rate"], "ratio_before": result["arms"]["previous"].get(arm, {}).get("vs_random"),
                          "ratio_now": now["vs_random"]} for arm, now in result["arms"]["current"].items()])
    blocks = [_text(f"{escape(result['testee_before'])} then, {escape(result['testee'])} now. Of the {counts['sources_before']} "
                    f"earlier sources, re-asked on their questions ({result['calls']} calls): <b>{counts['fixed']} fixed</b>, "
                    f"{counts['still_failing']} still failing, {counts['not_reasked']} not re-asked (budget); "
                    f"<b>{counts['new_sources']} new sources</b>."),
              _table(table(arms, {"arm": "arm", "before": "error rate before", "now": "error rate now",
                                  "ratio_before": "× random before", "ratio_now": "× random now"})),
              ]
    if result["by_category"]:
        blocks.append(_table(table(pd.DataFrame(result["by_category"]), {c: c.replace("_", " ") for c in result["by_category"][0]})))
    fixed = [r for r in result["sources"] if r["status"] == FIXED]
    new = [{**r, "status": NEW} for r in result["new_sources"]]
    changed = pd.DataFrame(fixed[:CHANGED_SHOWN] + new[:CHANGED_SHOWN])
    if not changed.empty:
        blocks.append(_table(table(changed, {c: c.replace("_", " ") for c in changed.columns})))
    if len(fixed) > CHANGED_SHOWN or len(new) > CHANGED_SHOWN:
        blocks.append(_text(f"The first {CHANGED_SHOWN} fixed and {CHANGED_SHOWN} new sources; every source is in the run's "
                            f"annotations, <code>compare/{escape(result['previous'])}.json</code>.", muted=True))
    return _section(anchor("since", result["previous"]), f"Since {result['previous']}", blocks)
