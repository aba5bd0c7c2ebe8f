"""Ground truth: the planted blind spots and what an arm's findings are measured against."""

import numpy as np
import pandas as pd

from sea.audit.ground_truth import findings, headroom, planted_for
from sea.embeddings import load_document_vectors
from sea.llm.simulated import SimulatedTestee


def test_planted_regions_are_regions_where_the_testee_answers_at_chance(vital_sample, embedder):
    planted = planted_for(vital_sample, "simulated:paper-regime")
    profile = vital_sample.simulated["paper-regime"]
    testee = SimulatedTestee("paper-regime", profile, vital_sample, embedder)
    assert len(planted) == round(0.05 * 500) and len(set(planted.values())) == profile.blind_spot_regions
    assert {d: testee.error_rate(d) for d in planted} == dict.fromkeys(planted, 0.75)  # chance on four options
    documents = pd.read_parquet(vital_sample.paths.kb_dir / "documents.parquet", columns=["doc_id"])["doc_id"]
    assert all(testee.error_rate(d) == profile.base_error for d in documents if d not in planted)
    # Each region is a neighbourhood in embedding space, not a random draw of documents.
    vectors, ids, _ = load_document_vectors(vital_sample.paths.embeddings_dir)
    row = {int(d): i for i, d in enumerate(ids)}
    vectors = np.asarray(vectors)
    overall = float((vectors @ vectors.T).mean())
    for region in set(planted.values()):
        members = np.asarray(vectors[[row[d] for d, r in planted.items() if r == region]])
        assert float((members @ members.T).mean()) > overall + 0.1
    assert planted_for(vital_sample, "openai:gpt-4o-mini") is None  # no ground truth for a real model


def test_findings_on_a_hand_made_table():
    planted = {10: 0, 11: 0, 20: 1, 30: 2}  # three regions
    paragraphs = pd.DataFrame({
        "para_id":   [1,  2,  3,  4,  5,  6],
        "doc_id":    [10, 11, 20, 40, 41, 42],
        "questions": [5,  5,  5,  5,  5,  5],  # what each holds: paragraphs 1-3 were asked all, 4-6 one each
        "source":    [True, True, False, True, False, False],
    })
    asked = pd.Series([1] * 5 + [2] * 5 + [3] * 5 + [4, 5, 6])
    result = findings(paragraphs, planted, asked)
    assert result["sources"] == 3 and result["sources_inside"] == 2 and result["precision"] == 2 / 3
    assert result["regions_found"] == 1 and result["recall"] == 1 / 3  # region 1 evaluated but not promoted; 2 never reached
    assert result["budget_inside"] == 15 / 18  # of the questions asked, not the 30 the paragraphs hold
    assert findings(paragraphs, planted, pd.Series([], dtype=int))["budget_inside"] is None


def test_headroom_takes_the_likeliest_errors_first_and_random_weighs_every_question_alike():
    expected = np.array([0.2, 0.75, 0.2, 0.5, 0.75])
    counts = np.array([4, 2, 0, 2, 1])  # a paragraph without a question adds nothing
    result = headroom(expected, counts, [2, 3, 5, 100])
    assert result["questions"] == 9
    assert abs(result["random"] - (4 * 0.2 + 3 * 0.75 + 2 * 0.5) / 9) < 1e-12
    assert result["best"][2] == 0.75 and result["best"][3] == 0.75  # the three blind-spot questions
    assert abs(result["best"][5] - (3 * 0.75 + 2 * 0.5) / 5) < 1e-12
    assert abs(result["best"][100] - result["random"]) < 1e-12  # a budget over the supply asks everything
    assert headroom(np.array([0.3]), np.array([0]), [10]) == {"questions": 0, "random": None, "best": {10: None}}


def test_a_profile_that_shares_regions_holds_them_beside_its_own(vital_sample):
    raw = vital_sample.model_dump(mode="json")
    raw["simulated"]["sharer"] = {"blind_spot_regions": 1, "blind_spot_share": 0.02, "shares_regions_of": "paper-regime",
                                  "shared_regions": 2, "seed": 9}
    params = type(vital_sample).model_validate(raw)
    theirs, mine = planted_for(params, "simulated:paper-regime"), planted_for(params, "simulated:sharer")
    own = {d for d, r in mine.items() if r == 0}
    assert len(own) == round(0.02 * 500)  # its own region, grown as any profile's
    for region in (0, 1):  # the shared ones, numbered after its own; a document in both keeps its own
        assert {d for d, r in mine.items() if r == 1 + region} == {d for d, r in theirs.items() if r == region} - own
    assert not {d for d, r in theirs.items() if r >= 2} - own & set(mine)  # the other regions stay theirs alone
