from sea.categories import CATEGORIES, candidates_for_label
from sea.kb.schema import SkipCounts
from sea.kb.vital import iter_vital


def test_vital10k_has_ten_thousand_labelled_summaries(packaged_dir):
    skips = SkipCounts()
    documents = list(iter_vital(packaged_dir / "vital10k.json", skips))
    assert len(documents) + sum(skips.counts.values()) == 10_033
    assert len(documents) >= 9_900
    assert all(len(doc.sections) == 1 and doc.sections[0][1] == doc.abstract for doc in documents)
    for doc in documents:
        assert set(candidates_for_label(doc.label)) <= set(CATEGORIES)
    labelled = sum(len(candidates_for_label(doc.label)) == 1 for doc in documents)
    assert labelled / len(documents) > 0.6  # most topics map to exactly one category
