import bz2

import pandas as pd
import pytest

from sea.errors import SourceError
from sea.kb.build import build_knowledge_base
from sea.kb.dump import iter_dump
from sea.kb.schema import DOCUMENTS_FILE, PARAGRAPHS_FILE, SkipCounts


@pytest.fixture(scope="module")
def sample_documents(enwiki_sample):
    skips = SkipCounts()
    return list(iter_dump(enwiki_sample, skips, progress=False)), skips


def test_excerpt_articles_redirects_and_disambiguation(sample_documents):
    documents, skips = sample_documents
    # The excerpt holds 206 pages: 106 articles in namespace 0, 99 redirects, 1 project page.
    # 8 of the 106 are disambiguation pages ("Alien", "Ada", "Austin (disambiguation)", ...).
    assert skips.counts == {"redirect": 99, "non-article namespace": 1, "disambiguation": 8}
    assert len(documents) == 98
    titles = {doc.title for doc in documents}
    assert "Anarchism" in titles and "Ada" not in titles and "Austin (disambiguation)" not in titles


def test_sections_have_paths_and_plain_text(sample_documents):
    documents, _ = sample_documents
    anarchism = next(doc for doc in documents if doc.title == "Anarchism")
    paths = [path for path, _ in anarchism.sections]
    assert paths[0] == ""  # the lead comes first
    assert "History > Origins" in paths
    assert not any(path.split(" > ")[0] in ("References", "External links", "See also") for path in paths)
    text = "\n".join(body for _, body in anarchism.sections)
    for markup in ("[[", "]]", "{{", "}}", "<ref", "'''", "thumb|"):
        assert markup not in text


def test_lead_section_is_the_abstract(sample_documents):
    documents, _ = sample_documents
    anarchism = next(doc for doc in documents if doc.title == "Anarchism")
    assert anarchism.abstract == anarchism.sections[0][1]
    assert anarchism.abstract.startswith("Anarchism is a political philosophy")


def test_parallel_workers_give_the_same_documents(sample_documents, enwiki_sample):
    documents, _ = sample_documents
    parallel = list(iter_dump(enwiki_sample, SkipCounts(), workers=2, batch_pages=16, progress=False))
    assert [(d.title, d.sections) for d in parallel] == [(d.title, d.sections) for d in documents]


def test_build_from_the_excerpt_writes_the_schema(make_params, enwiki_sample):
    params = make_params(kb={"source": "enwiki-sample", "input": enwiki_sample, "chunk_documents": 40})
    report = build_knowledge_base(params, progress=False)
    documents = pd.read_parquet(params.paths.kb_dir / DOCUMENTS_FILE)
    paragraphs = pd.read_parquet(params.paths.kb_dir / PARAGRAPHS_FILE)
    assert report["documents"] == len(documents) == 98
    assert set(paragraphs["doc_id"]) == set(documents["doc_id"])
    assert (documents["category_source"] == "embedding").all()
    assert paragraphs["text"].str.len().min() >= params.kb.min_paragraph_chars
    assert paragraphs["text"].str.len().max() <= params.kb.max_paragraph_chars


def _corrupt_copies(enwiki_sample, tmp_path):
    data = enwiki_sample.read_bytes()
    truncated = tmp_path / "truncated.xml.bz2"
    truncated.write_bytes(data[: len(data) // 2])
    garbled = tmp_path / "garbled.xml.bz2"
    garbled.write_bytes(data[:1000] + bytes(255 - b for b in data[1000:3000]) + data[3000:])
    return truncated, garbled


def test_truncated_or_corrupt_dump_fails_clearly_and_writes_nothing(make_params, enwiki_sample, tmp_path):
    for broken in _corrupt_copies(enwiki_sample, tmp_path):
        params = make_params(kb={"source": "wikipedia-dump", "input": broken})
        with pytest.raises(SourceError, match="truncated or corrupt.*download it again"):
            build_knowledge_base(params, progress=False)
        assert not params.paths.kb_dir.exists()
        assert not params.paths.kb_dir.with_name(params.paths.kb_dir.name + ".partial").exists()


def test_failed_rebuild_keeps_the_previous_knowledge_base(make_params, enwiki_sample, tmp_path):
    params = make_params(kb={"source": "enwiki-sample", "input": enwiki_sample, "max_documents": 5})
    build_knowledge_base(params, progress=False)
    before = (params.paths.kb_dir / DOCUMENTS_FILE).read_bytes()
    truncated, _ = _corrupt_copies(enwiki_sample, tmp_path)
    with pytest.raises(SourceError):
        build_knowledge_base(make_params(kb={"source": "wikipedia-dump", "input": truncated}), progress=False)
    assert (params.paths.kb_dir / DOCUMENTS_FILE).read_bytes() == before


def test_non_utf8_bytes_in_a_dump_are_reported(make_params, tmp_path):
    page = ("<mediawiki><siteinfo><sitename>x</sitename><namespaces><namespace key=\"0\" /></namespaces></siteinfo>"
            "<page><title>Bad</title><ns>0</ns><id>1</id><revision><id>1</id><text>caf\xe9</text></revision></page>"
            "</mediawiki>").encode("latin-1")
    dump = tmp_path / "latin1.xml.bz2"
    dump.write_bytes(bz2.compress(page))
    with pytest.raises(SourceError, match="truncated or corrupt"):
        build_knowledge_base(make_params(kb={"source": "wikipedia-dump", "input": dump}), progress=False)
