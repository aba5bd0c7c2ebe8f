"""Ground truth: the planted blind spots and what an arm's findings are measured against."""

import pandas as pd

from sea.audit.ground_truth import findings, planted_for
from sea.llm.simulated import SimulatedTestee


def test_planted_regions_are_the_simulated_testees_own(vital_sample, embedder):
    planted = planted_for(vital_sample, "simulated:paper-regime")
    testee = SimulatedTestee("paper-regime", vital_sample.simulated["paper-regime"], vital_sample, embedder)
    assert planted == testee.blind_spots and len(planted) == round(0.05 * 500)
    assert planted_for(vital_sample, "openai:gpt-4o-mini") is None  # no ground truth for a real model


def test_findings_on_a_hand_made_table():
    planted = {10: 0, 11: 0, 20: 1, 30: 2}  # three regions
    paragraphs = pd.DataFrame({
        "doc_id":    [10, 11, 20, 40, 41, 42],
        "questions": [5,  5,  5,  5,  5,  5],
        "source":    [True, True, False, True, False, False],
    })
    result = findings(paragraphs, planted)
    assert result["sources"] == 3 and result["sources_inside"] == 2 and result["precision"] == 2 / 3
    assert result["regions_found"] == 1 and result["recall"] == 1 / 3  # region 1 evaluated but not promoted; 2 never reached
    assert result["budget_inside"] == 15 / 30
