"""Findings of a finished small audit on the simulated testee: every source accounted for, names
and examples from the run's own files, and clusters that follow the planted blind spots."""

import json

import numpy as np

from sea.audit.ground_truth import planted_for
from sea.audit.report import build_report
from sea.audit.rundir import open_run
from sea.audit.steps import in_process, run_steps
from sea.audit.workspace import Workspace
from sea.findings.analysis import evaluated, findings_markdown, write_findings
from sea.findings.clusters import recovery
from sea.settings import FindingsSettings
from tests.audit.conftest import small_audit


def test_findings_of_a_small_simulated_audit(finished_audit, tmp_path):
    run = finished_audit
    # Neighbourhoods above the probe's planted regions of 21-28 of the sample's 500 articles, as the default's 150 is above
    # the default's ~100: a smaller one splits a region (0.40 adjusted Rand at 15 here, 0.75 at 30).
    settings = FindingsSettings(min_cluster_size=2, anchor_neighbours=30)
    written = write_findings(run, settings, tmp_path / "findings")
    assert [p.name for p in written] == ["findings.json", "findings.md", "map.png"]
    testees = json.loads(written[0].read_text(encoding="utf-8"))["testees"]
    assert [t["testee"] for t in testees] == ["simulated:probe", "simulated:sharer"]
    found = testees[0]
    seen = evaluated(run, "simulated:probe")
    sources = seen.paragraphs[seen.paragraphs["source"]]
    assert found["sources"] == len(sources) > 0 and set(found["assignments"]) == {str(p) for p in sources["para_id"]}
    assert sum(c["sources"] for c in found["clusters"]) == found["clustered"] > 0
    for cluster in found["clusters"]:
        assert cluster["terms"] and cluster["titles"] and 0 <= cluster["wrong"] <= cluster["questions"]
        for example in cluster["examples"]:  # wrong answers, the testee's own
            assert example["answer"] != example["gold"]
            asked = seen.asked.set_index("question_id").loc[example["question_id"]]
            assert asked["outcome"] != "correct" and found["assignments"][str(asked["para_id"])] == cluster["cluster"]
    # The ground truth: the clusters follow the planted regions better than the same clusters shuffled.
    planted = planted_for(run.params, "simulated:probe")
    inside = [(label, planted[doc]) for (para, label), doc in zip(found["assignments"].items(), sources.set_index("para_id")
                                                                   .loc[[int(p) for p in found["assignments"]], "doc_id"])
              if doc in planted]
    labels, truth = np.array([label for label, _ in inside]), np.array([region for _, region in inside])
    assert found["ground_truth"]["sources_inside"] == len(inside)
    assert found["ground_truth"]["homogeneity"] == recovery(labels, truth)["homogeneity"]
    # The clusters agree with the planted regions far better than with regions of the same sizes drawn at random.
    shuffled = [recovery(labels, np.random.default_rng(seed).permutation(truth))["adjusted_rand"] for seed in range(50)]
    assert found["ground_truth"]["regions_with_sources"] >= 2
    assert found["ground_truth"]["adjusted_rand"] > np.mean(shuffled) + 0.2
    # How far the vectors separate the regions at all: sources put with the nearest region centroid.
    by_centroid = found["ground_truth"]["nearest_region_centroid"]
    assert set(by_centroid) == {"adjusted_rand", "homogeneity", "completeness"}
    assert by_centroid["adjusted_rand"] > np.mean(shuffled) + 0.2
    assert f"adjusted Rand {by_centroid['adjusted_rand']:.2f}: a reference for how far" in written[1].read_text(encoding="utf-8")
    # The report shows them: the table, the recovery figures, the map.
    page = build_report(run, tmp_path / "audit.html", tmp_path / "findings").read_text(encoding="utf-8")
    section = page.split("<h2>Error clusters</h2>")[1].split("<h2>")[0]
    assert "distinctive terms" in section and f"mean vector would score adjusted Rand {by_centroid['adjusted_rand']:.2f}" in section and 'alt="map of the evaluated articles' in section
    # Too few sources for a cluster: said in words, not an error.
    written = write_findings(run, FindingsSettings(min_cluster_size=10_000), tmp_path / "none")
    assert "Too few sources to cluster" in written[1].read_text(encoding="utf-8")
    page = build_report(run, tmp_path / "audit.html", tmp_path / "none").read_text(encoding="utf-8")
    assert "Too few sources to cluster" in page


def test_the_findings_table_has_a_name_column_only_when_a_cluster_is_named():
    cluster = {"cluster": 0, "name": None, "terms": ["river", "delta"], "titles": ["Nile", "Niger"], "sources": 3,
               "questions": 9, "error_rate": 0.67, "categories": {"Geography": 3}, "examples": []}
    result = {"run_id": "r", "settings": {"min_cluster_size": 2},
              "testees": [{"testee": "t", "sources": 4, "paragraphs": 20, "clustered": 3, "clusters": [cluster]}]}
    rows = [line for line in findings_markdown(result).splitlines() if line.startswith("|")]
    assert rows[0] == "| cluster | distinctive terms | central titles | sources | questions | error rate | categories |"
    assert rows[2] == "| 0 | river, delta | Nile; Niger | 3 | 9 | 0.67 | Geography 3 |" and rows[1].count("---") == 7
    cluster["name"] = "African rivers | deltas"
    rows = [line for line in findings_markdown(result).splitlines() if line.startswith("|")]
    assert rows[0].startswith("| cluster | name | distinctive terms |") and rows[1].count("---") == 8
    assert rows[2].startswith("| 0 | African rivers \\| deltas | river, delta |")


def test_a_run_that_asked_no_question_has_empty_findings(vital_sample, tmp_path):
    params = small_audit(vital_sample, tmp_path / "runs", budget__testee_calls=1, search__arms=["random"])  # too few for a paragraph
    workspace = Workspace.of(open_run(params.audit.runs_dir, "none", params).root)
    for ran in (False, True):  # before its first step, then after a step that asked nothing
        if ran:
            run_steps(workspace.run.arm("simulated:probe", "random"), in_process(workspace))
        written = write_findings(workspace.run, FindingsSettings(), tmp_path / f"findings-{ran}")
        assert [p.name for p in written] == ["findings.json", "findings.md"]
        found = json.loads(written[0].read_text(encoding="utf-8"))["testees"][0]
        assert found["paragraphs"] == found["sources"] == 0 and found["clusters"] == []
