"""Transfer across testees: the figures of one testee on another's error subset, on a hand-made
subset, and on a small audit of two simulated testees whose overlap is known from their planted
blind spots."""

import math
import shutil

import pandas as pd
import pytest

from sea.audit.ground_truth import planted_for
from sea.audit.report import build_report
from sea.audit.rundir import RunDir, open_run, slug
from sea.errors import ParamsError
from sea.files import read_json
from sea.findings.analysis import evaluated, write_findings
from sea.findings.transfer import error_subset, on_error_subset, transfer, transfer_metrics
from sea.settings import FindingsSettings
from tests.finished_audit import PROBE, SHARED_REGIONS, SHARER


def test_figures_on_a_hand_made_error_subset():
    # Three paragraphs of testee B's error subset, four questions each; B got 3, 4 and 3 of them wrong.
    subset = pd.DataFrame({"question_id": [f"q{i}" for i in range(12)], "para_id": [1] * 4 + [2] * 4 + [3] * 4,
                           "outcome": ["wrong"] * 3 + ["correct"] + ["wrong"] * 4 + ["correct"] + ["wrong"] * 3,
                           "doc_id": [10] * 4 + [20] * 4 + [30] * 4, "category": ["History"] * 12})
    # A answers 11 of them (q11 never answered): wrong on 4 of para 1, 2 of para 2, 0 of para 3.
    outcomes = pd.Series({**{f"q{i}": "wrong" for i in range(4)}, "q4": "wrong", "q5": "unparseable", "q6": "correct",
                          "q7": "correct", "q8": "correct", "q9": "correct", "q10": "correct"})
    pair = on_error_subset("A", "B", subset, outcomes, truth=None)
    assert (pair["sources"], pair["paragraphs"], pair["questions"]) == (3, 3, 11)
    assert pair["accuracy"] == pytest.approx(5 / 11)  # an unparseable reply counts as wrong
    b_rates, a_rates = [3 / 4, 4 / 4, 2 / 3], [4 / 4, 2 / 4, 0 / 3]  # per paragraph, over the questions A answered
    assert pair["correlation"] == pytest.approx(pd.Series(b_rates).corr(pd.Series(a_rates)))
    assert pair["expected_accuracy"] is None and pair["inside_blind_spots"] is None  # no ground truth for A
    # Ground truth: A's planted blind spot holds article 10 only; elsewhere it errs 10% of the time.
    from sea.settings import SimulatedProfile

    truth = (SimulatedProfile(base_error=0.1), {10: 0})
    pair = on_error_subset("A", "B", subset, outcomes, truth)
    assert pair["expected_accuracy"] == pytest.approx((4 * 0.25 + 7 * 0.9) / 11)
    assert pair["inside_blind_spots"] == pytest.approx(1 / 3)
    assert on_error_subset("B", "B", subset, subset.set_index("question_id")["outcome"], truth)["expected_accuracy"] is None
    # Too few paragraphs for a correlation: none rather than a number from one point.
    assert on_error_subset("A", "B", subset[subset["para_id"] == 1], outcomes, None)["correlation"] is None


def test_transfer_follows_the_planted_overlap(finished_audit, tmp_path, capsys):
    run = finished_audit
    clusters = read_json(write_findings(run, FindingsSettings(min_cluster_size=2), tmp_path)[0])
    result = transfer(run, FindingsSettings(), tmp_path, clusters)
    cells = {(p["testee"], p["subset_of"]): p for p in result["pairs"]}
    assert set(cells) == {(i, j) for i in (PROBE, SHARER) for j in (PROBE, SHARER)}
    for testee in (PROBE, SHARER):
        own = cells[testee, testee]  # a testee's own sources: wrong above tau by construction
        assert own["questions"] == len(error_subset(evaluated(run, testee))) > 20 and own["accuracy"] < 0.5
    for i, j in ((SHARER, PROBE), (PROBE, SHARER)):
        pair = cells[i, j]
        assert pair["questions"] == cells[j, j]["questions"]  # every question of j's sources answered by i
        margin = 2.5 * math.sqrt(pair["expected_accuracy"] * (1 - pair["expected_accuracy"]) / pair["questions"]) + 0.05
        assert abs(pair["accuracy"] - pair["expected_accuracy"]) <= margin  # the ground truth's prediction
    # The known overlap: the sharer's blind spots hold the probe's regions 0-1, not 2-4.
    probe_regions, sharer = planted_for(run.params, PROBE), planted_for(run.params, SHARER)
    assert {d for d, r in probe_regions.items() if r < SHARED_REGIONS} <= set(sharer)
    sources = evaluated(run, PROBE).paragraphs.query("source")
    assert cells[SHARER, PROBE]["inside_blind_spots"] == pytest.approx(sources["doc_id"].isin(list(sharer)).mean())
    assert 0 < cells[SHARER, PROBE]["inside_blind_spots"] < 1
    # The sharer errs on the probe's sources far more often than its 10% elsewhere: it shares blind spots.
    assert 1 - cells[SHARER, PROBE]["accuracy"] > 0.3
    # Answers the audit already holds are reused (here all: both searches covered the small sample).
    assert result["calls"][SHARER] == {"reused": cells[PROBE, PROBE]["questions"], "asked": 0, "failed": 0, "not_asked": 0}
    assert transfer(run, FindingsSettings(), tmp_path / "again", clusters) == result
    # Without the sharer's audit, it is asked the probe's source questions, and answers as it did in the audit.
    shutil.copytree(run.root, tmp_path / "copy")
    shutil.rmtree(tmp_path / "copy" / slug(SHARER))
    alone = RunDir(tmp_path / "copy")
    asked = transfer(alone, FindingsSettings(), tmp_path / "asked", None, progress=False)
    assert "transfer · " not in capsys.readouterr().err  # --quiet: no progress bar
    assert transfer(alone, FindingsSettings(), tmp_path / "asked", None) == asked  # from the cache, with its bar
    assert f"transfer · {SHARER}" in capsys.readouterr().err
    assert asked["calls"][SHARER] == {"reused": 0, "asked": cells[PROBE, PROBE]["questions"], "failed": 0, "not_asked": 0}
    assert next(p for p in asked["pairs"] if p["testee"] == SHARER and p["subset_of"] == PROBE) == cells[SHARER, PROBE]
    # A budget of no new calls: nothing asked, all of it counted as not asked.
    starved = transfer(alone, FindingsSettings(transfer_calls=0), tmp_path / "starved", None)
    assert starved["calls"][SHARER] == {"reused": 0, "asked": 0, "failed": 0, "not_asked": cells[PROBE, PROBE]["questions"]}
    # Clusters: the probe's clusters that the sharer fails too are "shared" with it.
    assert {c["testee"] for c in result["clusters"]} <= {PROBE, SHARER} and result["clusters"]
    for cluster in result["clusters"]:
        other = SHARER if cluster["testee"] == PROBE else PROBE
        assert (other in cluster["shared_with"]) == (cluster["others"][other] is not None and cluster["others"][other] > 0.5)
    metrics = transfer_metrics(result)
    assert metrics["transfer.simulated-sharer.on.simulated-probe.accuracy"] == cells[SHARER, PROBE]["accuracy"]
    # Written and shown: the heat map in the report beside the findings.
    assert (tmp_path / "transfer.png").stat().st_size > 0 and "| answered by |" in (tmp_path / "transfer.md").read_text()
    page = build_report(run, tmp_path / "audit.html", tmp_path).read_text(encoding="utf-8")
    section = page.split("<h2>Transfer across testees</h2>")[1].split("<h2>")[0]
    assert 'alt="accuracy of each testee on the others&#39; error subsets"' in section and "expected" in section


def test_transfer_needs_two_testees(finished_audit, tmp_path):
    params = finished_audit.params.model_copy(update={"audit": finished_audit.params.audit.model_copy(update={"testees": []})})
    run = open_run(tmp_path / "runs", "alone", params)
    with pytest.raises(ParamsError, match="audited one testee .* audit.testees"):
        transfer(run, FindingsSettings(), tmp_path, None)
