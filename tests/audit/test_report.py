"""The HTML report: self-contained, rebuilt from the run directory alone."""

import re

import pandas as pd

from sea.audit.outputs import write_summary
from sea.audit.report import TOP_PARAGRAPHS, build_report
from sea.audit.steps import in_process, run_steps


def test_the_report_is_one_offline_page_with_every_section(workspace, tmp_path):
    for arm in workspace.run.arms():
        run_steps(arm, in_process(workspace))
    page = build_report(workspace.run, tmp_path / "audit.html").read_text(encoding="utf-8")
    for heading in ("Results", "Cumulative error rate per arm", "Planted blind spots and what each arm found",
                    "Errors by category", "Relation DAGs", f"The {TOP_PARAGRAPHS} most-failed paragraphs", "Error clusters"):
        assert f">{heading}<" in page, heading
    assert "Not computed yet: <code>sea findings test</code>" in page  # the clusters come from `sea findings`
    assert not re.search(r"(src|href)=\"https?://", page)  # nothing loaded from the network
    assert page.count("data:image/png;base64,") == 1 + 1 + 2  # curves, categories, the DAGs of sea and no_pruning
    assert page.count("<details>") == TOP_PARAGRAPHS
    listed = [float(rate) for rate in re.findall(r"· error rate (\d\.\d\d) ·", page)]
    evaluated = pd.concat([pd.read_parquet(arm.root / "paragraphs.parquet") for arm in workspace.run.arms()])
    highest = evaluated.dropna(subset=["error_rate"]).drop_duplicates("para_id")["error_rate"].nlargest(TOP_PARAGRAPHS)
    assert listed == [round(rate, 2) for rate in highest]  # the most failed, in order
    metrics, curves = write_summary(workspace.run, tmp_path)
    assert "cumulative_error_rate" in metrics.read_text() and curves.read_text().count("\n") > 3
