"""The HTML report: self-contained, rebuilt from the run directory alone."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd

from sea.audit.outputs import write_summary
from sea.audit.report import _TEMPLATES, FAILED_PARAGRAPHS, _findings, _topics, build_report, cost_words, number, table
from sea.audit.rundir import open_run
from sea.audit.steps import in_process, run_steps
from sea.audit.workspace import Workspace
from sea.llm.fake_server import FakeLLMServer
from sea.settings import Params
from tests.audit.conftest import small_audit

RIGHT_TO_LEFT = "\u202e"  # RIGHT-TO-LEFT OVERRIDE, left open as a knowledge base's text may


class _Page(HTMLParser):
    """Headings, figures, the failed paragraphs' error rates and the headline's topic links."""

    def __init__(self):
        super().__init__()
        self.headings, self.figures, self.failed, self.topics, self._heading = [], 0, [], [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self._heading = tag == "h2"
        if tag == "img":
            self.figures += attrs["src"].startswith("data:image/png;base64,")
        if tag == "details" and "failed" in attrs.get("class", ""):
            self.failed.append(attrs)
        if tag == "a" and "filter-link" in attrs.get("class", ""):
            self.topics.append(attrs)

    def handle_data(self, data):
        if self._heading:
            self.headings.append(data)
            self._heading = False


def test_the_report_is_one_offline_page_with_every_section(workspace, tmp_path):
    for arm in workspace.run.arms():
        run_steps(arm, in_process(workspace))
    html = build_report(workspace.run, tmp_path / "audit.html").read_text(encoding="utf-8")
    page = _Page()
    page.feed(html)
    assert page.headings == ["What the audit found", "The arms side by side", "Cumulative error rate per arm",
                             "Planted blind spots and what each arm found", "Error clusters", "Errors by category",
                             "Relation DAGs", "Failed questions"]
    assert "Not computed yet: <code>sea findings test</code>" in html  # the clusters come from `sea findings`
    assert not re.search(r"(src|href)=\"https?://", html)  # nothing loaded from the network
    assert page.figures == 1 + 1 + 2  # curves, categories, the DAGs of sea and no_pruning
    assert "random · simulated:probe: no relations" in html  # the arm without a DAG says why
    assert "no cost: simulated testee" in html and "cumulative_error_rate" not in html  # words, not field names
    assert "failed calls" not in _results_table(html)[0]  # a column only when some call failed for good
    assert "Not finished" not in html
    topics = re.findall(r"([\d.,]+) wrong of ([\d.,]+) \(", html)  # the categories it fails most, before `sea findings`
    assert topics and all(wrong.isdigit() and asked.isdigit() for wrong, asked in topics), topics

    evaluated = pd.concat([pd.read_parquet(arm.root / "paragraphs.parquet") for arm in workspace.run.arms()])
    failing = evaluated[evaluated["error_rate"] > 0].drop_duplicates("para_id")
    assert len(page.failed) == min(len(failing), FAILED_PARAGRAPHS) > 0  # every failed paragraph, most failed first
    rates = [float(p["data-rate"]) for p in page.failed]
    assert rates == sorted(rates, reverse=True) and min(rates) > 0
    assert all(p["data-category"] in set(failing["category"]) for p in page.failed)
    assert page.topics and {t["data-category"] for t in page.topics} <= {p["data-category"] for p in page.failed}
    metrics, curves = write_summary(workspace.run, tmp_path)
    assert "cumulative_error_rate" in metrics.read_text() and curves.read_text().count("\n") > 3


def test_cells_and_costs_read_as_words():
    assert [number(v) for v in (1234, 0.29345, None, float("nan"), 12000.0, True)] == ["1,234", "0.293", "—", "—", "12,000", "yes"]
    assert [number(v) for v in pd.array([1234, None], dtype="Int64")] == ["1,234", "—"]  # a count column an arm not begun left empty
    assert cost_words("simulated:x", 10, 0.0).startswith("no cost: simulated") and cost_words("local:m", 5, None).startswith("no cost: local")
    assert cost_words("openai:gpt-4o-mini", 1500, 0.25) == "1,500 tokens, $0.25" and cost_words("openai:x", 1, None).endswith("price unknown")
    assert cost_words("openai:gpt-4o-mini", 5802, 0.00097) == "5,802 tokens, $0.00097"  # a paid audit never reads as $0.00


def test_ids_are_shown_as_identifiers_not_as_quantities():
    frame = pd.DataFrame({"para_id": pd.array([417769759320187104, None], dtype="Int64"), "questions": [1234, 5]})
    shown = table(frame, {"para_id": "para id", "questions": "questions"})
    assert shown.rows == [["417769759320187104", "1,234"], ["—", "5"]] and shown.numeric == {1}  # a bug hunt: 417,769,759,320,187,104


def test_a_run_part_done_reports_what_was_answered_and_no_more(workspace, tmp_path):
    html = build_report(workspace.run, tmp_path / "audit.html").read_text(encoding="utf-8")
    page = _Page()
    page.feed(html)
    assert "No answers yet." in html and page.figures == 0 and not page.failed  # before the first step
    assert "Not finished: 3 of 3 arms have budget left" in html  # a bug hunt: a partial page read as a finished audit
    assert "Failed questions" not in page.headings and "Relation DAGs" in page.headings
    run_steps(workspace.run.arm("simulated:probe", "random"), in_process(workspace))  # sea and no_pruning not begun
    html = build_report(workspace.run, tmp_path / "audit.html").read_text(encoding="utf-8")
    assert "error rate in <span class=\"arm\" style=\"background:#7f8c8d\"></span>random" in html and "× random" not in html.split("</header>")[1].split("<section")[0]
    header, *rows = _results_table(html)
    random = next(row for row in rows if row[1] == "random")
    assert all(random[header.index(column)].replace(",", "").isdigit() for column in ("steps", "questions asked", "wrong answers"))
    assert {row[header.index("questions asked")] for row in rows if row[1] != "random"} == {"—"}  # not begun; the rest stay whole
    assert "Not finished: 2 of 3 arms have budget left" in html


def _tables(html: str, section_id: str) -> list[list[list[str]]]:
    """The section's tables, each as rows of cells, its header first."""
    section = html.split(f'id="{section_id}"')[1].split("</section>")[0]
    return [[re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", t, re.S)]
            for t in section.split("</table>")[:-1]]


def _results_table(html: str) -> list[list[str]]:
    return _tables(html, "results")[0]


def test_calls_that_failed_for_good_are_shown_beside_the_answers(vital_sample, tmp_path):
    raw = small_audit(vital_sample, tmp_path / "runs").model_dump(mode="json")
    raw["search"]["arms"] = ["random"]
    with FakeLLMServer(script=["500", "ok", "500"]) as server:  # two calls refused for good, the rest answered
        raw["models"]["testee"].update(model="openai-compatible:x", base_url=f"{server.base_url}/v1", max_attempts=1, max_in_flight=1)
        workspace = Workspace.of(open_run(tmp_path / "runs", "failing", Params.model_validate(raw)).root)
        run_steps(workspace.run.arm("openai-compatible:x", "random"), in_process(workspace))
    html = build_report(workspace.run, tmp_path / "audit.html").read_text(encoding="utf-8")
    header, row = _results_table(html)[:2]
    assert header[header.index("wrong answers") + 1] == "failed calls" and row[header.index("failed calls")] == "2"
    assert "its reason is the raw reply in the arm" in html


def test_findings_made_before_the_run_went_on_are_said_to_be_out_of_date(workspace, tmp_path):
    from sea.findings.analysis import write_findings
    from sea.findings.retest import retest
    from sea.settings import FindingsSettings

    sea = workspace.run.arm("simulated:probe", "sea")
    run_steps(sea, in_process(workspace), count=3)
    findings = workspace.run.root / "findings"
    write_findings(workspace.run, FindingsSettings(min_cluster_size=2), findings)
    retest(workspace.run, "simulated:probe", 5, 0, findings)
    current = build_report(workspace.run, tmp_path / "current.html").read_text(encoding="utf-8")
    assert "ut of date" not in current and "sources over all the run's arms" in current and "Context retest" in current
    run_steps(sea, in_process(workspace))  # the run went on (a resume) after the findings were made
    stale = build_report(workspace.run, tmp_path / "stale.html").read_text(encoding="utf-8")
    assert f"Out of date: made before the run's latest steps; run <code>sea findings {workspace.run.run_id}</code> again" in stale
    assert "sources over all the run's arms" not in stale and "categories, by wrong answers" in stale  # the headline's topics too
    write_findings(workspace.run, FindingsSettings(min_cluster_size=2), findings)  # made again; the retest not
    html = build_report(workspace.run, tmp_path / "retest.html").read_text(encoding="utf-8")
    assert "sources over all the run's arms" in html and "simulated:probe: out of date, made before the run's latest steps" in html


def test_the_since_section_lists_the_fixed_and_the_new_sources_not_those_left_unasked(workspace, tmp_path):
    from sea.audit.rundir import COMPARE_DIR, FIXED, NOT_ASKED, STILL_FAILING
    from sea.files import write_json

    def source(i: int, status: str) -> dict:
        return {"para_id": i, "title": f"{status} {i}", "category": "History", "error_before": 0.75,
                "error_now": None if status == NOT_ASKED else 0.0 if status == FIXED else 1.0, "status": status}

    # A re-asking budget that covered few earlier sources, as in a bug hunt's compare/default.json
    sources = [source(i, FIXED) for i in range(2)] + [source(i, STILL_FAILING) for i in range(2, 11)] + \
              [source(i, NOT_ASKED) for i in range(11, 107)]
    new = [{"para_id": i, "title": f"new {i}", "category": "History"} for i in range(107, 116)]
    arms = {run: {"sea": {"error_rate": rate, "vs_random": 1.5, "sources": 105}} for run, rate in (("previous", 0.3), ("current", 0.2))}
    write_json(workspace.run.annotations / COMPARE_DIR / "last-week.json", {
        "previous": "last-week", "current": "test", "testee_before": "simulated:probe", "testee": "simulated:probe", "calls": 44,
        "arms": arms, "by_category": [], "sources": sources, "new_sources": new,
        "counts": {"sources_before": 105, "fixed": 2, "still_failing": 9, "not_reasked": 96, "new_sources": 9}})
    html = build_report(workspace.run, tmp_path / "audit.html").read_text(encoding="utf-8")
    header, *rows = _tables(html, "since-last-week")[-1]
    assert [row[header.index("title")] for row in rows] == ["fixed 0", "fixed 1", *(n["title"] for n in new)]
    assert {row[header.index("status")] for row in rows} == {"fixed", "new"}


class _Unisolated(HTMLParser):
    """The texts holding a right-to-left override, and those of them outside a <bdi> of their own."""

    def __init__(self):
        super().__init__()
        self.open, self.texts, self.unisolated = [], 0, []

    def handle_starttag(self, tag, attrs):
        if tag not in ("br", "img", "input", "meta"):
            self.open.append(tag)

    def handle_endtag(self, tag):
        self.open.pop()

    def handle_data(self, data):
        if RIGHT_TO_LEFT in data:
            self.texts += 1
            if self.open[-1] != "bdi":
                self.unisolated.append(data)


def overridden_texts(page: str) -> tuple[int, list[str]]:
    """How many texts of the page hold a right-to-left override, and those not isolated."""
    parser = _Unisolated()
    parser.feed(page)
    return parser.texts, parser.unisolated


def test_every_text_from_the_data_is_isolated_on_its_line():
    # an override left open reversed the figures, category and testee rendered after it on the line
    text = f"{RIGHT_TO_LEFT}Ζ" + "x" * 400
    question = {"question": text, "options": [{"text": text, "gold": True}, {"text": "B", "gold": False}], "right": False,
                "reply": text, "outcome": "wrong"}
    failed = {"kind": "failed", "testees": ["t"], "arms": ["sea"], "categories": ["c"],
              "paragraphs": [{"testee": text, "arms": "sea", "category": text, "rate": "0.50", "title": text, "section": text,
                              "questions": [question]}]}
    examples = {"kind": "examples", "clusters": [{"id": "c1", "summary": "cluster 1", "examples": [
        {"question": text, "gold": text, "answer": text}]}]}
    headline = [{"testee": text, "error_rate": None, "topics_by": "category",
                 "topics": [{"name": text, "href": "#failed", "category": "c", "detail": "3 wrong"}]}]
    page = _TEMPLATES.get_template("report.html.j2").render(
        run_id="r", subtitle="", headline=headline, sections=[{"id": "s", "heading": "S", "blocks": [examples, failed]}])
    assert overridden_texts(page) == (12, [])
    assert re.search(r"summary\{[^}]*overflow-wrap:anywhere", page)  # a 400-letter title wraps inside its line


def test_each_text_of_several_in_one_cell_or_line_is_isolated(tmp_path):
    """A cluster's central titles share a cell ("A; B"), as do its terms and the headline's titles: an override left
    open in the first title reversed the second, so each is a <bdi> of its own, not only the cell."""
    text = f"{RIGHT_TO_LEFT}Ζ"
    cluster = {"cluster": 0, "name": None, "terms": [text, "empire"], "titles": [text, "Rome"], "sources": 3, "questions": 6,
               "wrong": 4, "error_rate": 0.67, "categories": {"History": 3}, "examples": []}
    result = {"testees": [{"testee": "t", "sources": 3, "clustered": 3, "clusters": [cluster]}], "settings": {"min_cluster_size": 3}}
    topics_by, topics = _topics("t", {}, result)
    page = _TEMPLATES.get_template("report.html.j2").render(
        run_id="r", subtitle="", headline=[{"testee": "t", "error_rate": None, "topics_by": topics_by, "topics": topics}],
        sections=_findings(tmp_path, result, ("sea findings r", "sea report r"), "", {}, stale=False))
    assert overridden_texts(page) == (4, [])  # the terms and titles cells, the headline's name and its titles
    assert "<bdi>Rome</bdi>" in page and "4 wrong of 6 (0.67); <bdi>" in page


def test_control_characters_from_the_data_do_not_reach_the_page():
    # a bug hunt: a NUL and a terminal escape in a user's knowledge base were written into the HTML as they were
    from markupsafe import Markup

    text = "Nul\x00Title \x1b[31mred\x7f"
    failed = {"kind": "failed", "testees": ["t"], "arms": ["sea"], "categories": ["c"],
              "paragraphs": [{"testee": "t", "arms": "sea", "category": "c", "rate": "0.50", "title": text, "section": "s",
                              "questions": [{"question": text, "options": [{"text": "A", "gold": True}], "right": False,
                                             "reply": "A\nB", "outcome": "wrong"}]}]}
    examples = {"kind": "examples", "clusters": [{"id": "c1", "summary": Markup(f"cluster 1: <bdi>{text}</bdi>"), "examples": []}]}
    page = _TEMPLATES.get_template("report.html.j2").render(
        run_id="r", subtitle="", headline=[], sections=[{"id": "s", "heading": "S", "blocks": [examples, failed]}])
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", page)
    assert page.count("NulTitle [31mred") == 3 and "<bdi>NulTitle" in page  # the text around them stays, Markup unescaped


def test_every_hint_for_a_run_dvc_makes_writes_outside_it_where_the_report_reads(workspace, tmp_path, monkeypatch):
    """A docs hunt: for runs/default, `sea audit` ended with 'sea findings default; sea report default', the report's
    'Not computed yet' named `sea findings default` and its stale retest `sea retest RUN --testee T`: the first two
    refused (runs/default is the DVC stage audit's output; give --out), the third wrote where the report does not read."""
    import shlex

    import yaml

    from flows.cli import parser
    from sea.audit.rundir import analysis_commands
    from sea.findings.analysis import write_findings
    from sea.findings.retest import retest
    from sea.settings import FindingsSettings

    run = workspace.run
    monkeypatch.chdir(tmp_path)
    assert analysis_commands(run) == ("sea findings test", "sea report test")  # a run of one's own: its folder
    (tmp_path / "dvc.lock").write_text(yaml.safe_dump({"stages": {"audit": {"outs": [{"path": str(run.root)}]}}}))
    findings, report = analysis_commands(run)  # what `sea audit --run-id test` ends with
    assert (findings, report) == ("sea findings test --out reports/findings",
                                  "sea report test --findings reports/findings --out reports/audit.html")
    assert parser().parse_args(shlex.split(report)[1:]).findings == parser().parse_args(shlex.split(findings)[1:]).out

    sea = run.arm("simulated:probe", "sea")
    run_steps(sea, in_process(workspace), count=3)
    page = tmp_path / "my report.html"
    html = build_report(run, page).read_text(encoding="utf-8")
    assert (f"Not computed yet: <code>sea findings test --out reports/findings</code> groups each testee's failures into "
            f"named clusters; then <code>sea report test --findings reports/findings --out &#39;{page}&#39;</code>.") in html
    given = Path("reports/findings")
    write_findings(run, FindingsSettings(min_cluster_size=2), given)
    retest(run, "simulated:probe", 5, 0, given)
    run_steps(sea, in_process(workspace))  # the run went on after the findings were made
    html = build_report(run, page, given).read_text(encoding="utf-8")
    assert ("run <code>sea findings test --out reports/findings</code> again (and its retest and transfer), then "
            "<code>sea report test --findings reports/findings --out") in html
    write_findings(run, FindingsSettings(min_cluster_size=2), given)  # made again; the retest not
    html = build_report(run, page, given).read_text(encoding="utf-8")
    assert "<code>sea retest test --testee simulated:probe --out reports/findings</code> again" in html
