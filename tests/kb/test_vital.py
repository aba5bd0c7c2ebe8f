import pytest

from sea.categories import CATEGORIES, candidates_for_label
from sea.errors import SourceError
from sea.kb.schema import SkipCounts
from sea.kb.vital import iter_vital


def test_vital10k_has_ten_thousand_labelled_summaries(packaged_dir):
    skips = SkipCounts()
    documents = list(iter_vital(packaged_dir / "vital10k.json", skips, packaged_dir / "vital10k.json"))
    assert len(documents) + sum(skips.counts.values()) == 10_033
    assert len(documents) >= 9_900
    assert all(len(doc.sections) == 1 and doc.sections[0][1] == doc.abstract for doc in documents)
    for doc in documents:
        assert set(candidates_for_label(doc.label)) <= set(CATEGORIES)
    labelled = sum(len(candidates_for_label(doc.label)) == 1 for doc in documents)
    assert labelled / len(documents) > 0.6  # most topics map to exactly one category


def test_only_the_fetched_file_is_to_be_deleted_when_it_is_not_summaries(tmp_path):
    own, fetched = tmp_path / "mine.jsonl", tmp_path / "packaged" / "vital10k.json"
    own.write_text('{"title": "A", "text": "B"}\n{"title": "C", "text": "D"}\n')
    with pytest.raises(SourceError, match=r"mine\.jsonl: not the vital10k summaries file \(Extra data.*\); set kb\.source to its "
                                          r"format \(jsonl, parquet or wikipedia-dump\), or point kb\.input at .*vital10k\.json") as error:
        list(iter_vital(own, SkipCounts(), fetched))
    assert "delete" not in str(error.value)
    fetched.parent.mkdir()
    fetched.write_text("[]")
    with pytest.raises(SourceError, match=r"\(not a JSON object keyed by title\); delete it and run `sea kb fetch` again"):
        list(iter_vital(fetched, SkipCounts(), fetched))
