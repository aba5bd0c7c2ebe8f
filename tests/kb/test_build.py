import json

import pandas as pd
import pyarrow.parquet as pq
import pytest

from sea.categories import CATEGORIES
from sea.errors import ParamsError, SourceError
from sea.kb.build import build_knowledge_base, clip
from sea.kb.schema import (
    BUILD_REPORT_FILE,
    DOCUMENT_SCHEMA,
    DOCUMENTS_FILE,
    PARAGRAPH_SCHEMA,
    PARAGRAPHS_FILE,
    doc_id_for,
)
from tests.conftest import SAMPLE_ARTICLES, write_jsonl

LONG_SECTION = "The origins are disputed. " * 30


@pytest.fixture
def jsonl_input(tmp_path):
    records = [{"title": title, "text": f"{text}\n\n# History\n{LONG_SECTION}\n# Tiny\nshort"} for title, text in SAMPLE_ARTICLES]
    records.append({"title": "Photosynthesis", "text": "A duplicate title whose text is long enough to count as a paragraph of its own, so only the title rule drops it."})
    records.append({"title": "Empty", "text": "   "})
    return write_jsonl(tmp_path / "input.jsonl", records)


def test_build_writes_both_files_with_the_schema(make_params, jsonl_input):
    params = make_params(kb={"source": "jsonl", "input": jsonl_input, "chunk_documents": 4})
    report = build_knowledge_base(params, progress=False)
    documents = pq.read_table(params.paths.kb_dir / DOCUMENTS_FILE)
    paragraphs = pq.read_table(params.paths.kb_dir / PARAGRAPHS_FILE)
    assert documents.schema.equals(DOCUMENT_SCHEMA) and paragraphs.schema.equals(PARAGRAPH_SCHEMA)
    assert documents.num_rows == len(SAMPLE_ARTICLES) == report["documents"]
    assert paragraphs.num_rows == 2 * len(SAMPLE_ARTICLES) == report["paragraphs"]
    frame = documents.to_pandas()
    assert frame["doc_id"].is_unique and (frame["doc_id"] >= 0).all()
    assert paragraphs.to_pandas()["para_id"].is_unique
    assert set(frame["category"]) <= set(CATEGORIES)
    assert set(frame["source"]) == {"jsonl"}
    assert report["skipped"] == {"duplicate title": 1, "document without usable paragraphs": 1,
                                 "empty or short paragraph": len(SAMPLE_ARTICLES) + 1}
    sections = paragraphs.to_pandas()["section"]
    assert set(sections) == {"", "History"}


def test_a_rebuild_writes_the_same_bytes(make_params, jsonl_input, tmp_path):
    """Ids stable, and no timing in the build report: DVC's hash of the knowledge base, and the data
    version a run records, change only when the data does."""
    first = make_params(kb={"source": "jsonl", "input": jsonl_input})
    assert "seconds" in build_knowledge_base(first, progress=False)  # told to the caller, not written
    second = first.model_copy(update={"paths": first.paths.model_copy(update={"kb_dir": tmp_path / "again"})})
    build_knowledge_base(second, progress=False)
    for name in (DOCUMENTS_FILE, PARAGRAPHS_FILE):
        pd.testing.assert_frame_equal(pd.read_parquet(first.paths.kb_dir / name), pd.read_parquet(second.paths.kb_dir / name))
    for name in (DOCUMENTS_FILE, PARAGRAPHS_FILE, BUILD_REPORT_FILE):
        assert (first.paths.kb_dir / name).read_bytes() == (second.paths.kb_dir / name).read_bytes(), name
    assert "seconds" not in json.loads((first.paths.kb_dir / BUILD_REPORT_FILE).read_text(encoding="utf-8"))


def test_max_documents_stops_early(make_params, jsonl_input):
    params = make_params(kb={"source": "jsonl", "input": jsonl_input, "max_documents": 3, "chunk_documents": 2})
    assert build_knowledge_base(params, progress=False)["documents"] == 3


CAFE_TEXT = "A café is an establishment that serves coffee and light meals, and is often a place to meet and talk."


def test_titles_that_differ_only_in_unicode_normalisation_are_one_document(make_params, tmp_path):
    """"Café" with a composed é and "Cafe\u0301" with a combining accent are one article; the first keeps its
    id, which is that of its title as written, so a knowledge base without such a pair keeps every id."""
    decomposed = "Cafe\u0301"
    path = write_jsonl(tmp_path / "cafe.jsonl", [{"title": decomposed, "text": CAFE_TEXT}, {"title": "Café", "text": CAFE_TEXT}])
    params = make_params(kb={"source": "jsonl", "input": path})
    report = build_knowledge_base(params, progress=False)
    documents = pq.read_table(params.paths.kb_dir / DOCUMENTS_FILE).to_pylist()
    assert [(row["doc_id"], row["title"]) for row in documents] == [(doc_id_for(decomposed), decomposed)]
    assert report["skipped"] == {"duplicate title": 1}


def test_input_without_usable_documents_is_an_error(make_params, tmp_path):
    path = write_jsonl(tmp_path / "empty.jsonl", [{"name": "x"}, b"garbage"])
    params = make_params(kb={"source": "jsonl", "input": path})
    with pytest.raises(SourceError, match="no usable documents.*kb.source matches"):
        build_knowledge_base(params, progress=False)
    assert not params.paths.kb_dir.exists()


def test_clip_cuts_at_a_sentence_end():
    text = "First sentence. Second sentence is longer. Third."
    assert clip(text, 100) == text
    assert clip(text, 30) == "First sentence."
    assert clip("no sentence end in sight at all", 10) == "no"  # not "no sentenc": a word is not cut
    assert clip("no sentence end in sight at all", 11) == "no sentence"
    assert clip("word " * 10_000 + "wordy", 4_002) == ("word " * 800).strip()  # 50,000 characters, no sentence end
    assert clip("https://example.org/" + "x" * 100, 10) == "https://ex"  # one word longer than the limit: cut in it


def test_a_folder_holding_other_files_is_not_replaced_by_the_build(make_params, jsonl_input):
    params = make_params(kb={"source": "jsonl", "input": jsonl_input})
    build_knowledge_base(params, progress=False)
    build_knowledge_base(params, progress=False)  # a knowledge base of its own is replaced
    kb_dir = params.paths.kb_dir
    (kb_dir / "my-notes.txt").write_text("kept", encoding="utf-8")
    own_input = kb_dir / "source.jsonl"
    own_input.write_bytes(jsonl_input.read_bytes())
    with pytest.raises(ParamsError, match=r"paths\.kb_dir: .* holds my-notes\.txt, source\.jsonl, which building"):
        build_knowledge_base(params.model_copy(update={"kb": params.kb.model_copy(update={"input": own_input})}), progress=False)
    assert (kb_dir / "my-notes.txt").read_text(encoding="utf-8") == "kept" and own_input.is_file()
