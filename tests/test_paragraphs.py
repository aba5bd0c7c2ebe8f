import numpy as np
import pytest
import yaml

from flows.cli import main
from sea.embeddings import Embedder, titled_text
from sea.errors import SourceError
from sea.kb.build import build_knowledge_base
from sea.paragraphs import ParagraphEmbeddings, ParagraphStore
from sea.settings import EmbeddingSettings
from tests.conftest import SAMPLE_ARTICLES, write_jsonl


def test_paragraph_embeddings_are_lazy_and_cached(make_params, tmp_path):
    records = [{"title": t, "text": f"{x}\n# Details\n{x} More detail follows here for the second section."} for t, x in SAMPLE_ARTICLES]
    params = make_params(kb={"source": "jsonl", "input": write_jsonl(tmp_path / "kb.jsonl", records)})
    build_knowledge_base(params, progress=False)
    store = ParagraphStore(params.paths.kb_dir)
    cache = tmp_path / "paragraph-vectors.sqlite"  # not the one the build filled, so every miss counts
    embedder = Embedder(EmbeddingSettings(), cache)
    before = embedder.computed
    paragraphs = ParagraphEmbeddings(store, embedder)

    doc_ids = store.rows(store.para_ids())["doc_id"].unique()[:2]
    rows, vectors = paragraphs.for_documents(doc_ids)
    assert set(rows["doc_id"]) == set(doc_ids) and len(rows) == 4
    assert vectors.shape == (4, embedder.dimension) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert embedder.computed - before == 4  # only the requested documents' paragraphs

    again_rows, again = paragraphs.for_documents(doc_ids[::-1])
    assert embedder.computed - before == 4  # served from the cache
    np.testing.assert_array_equal(again[again_rows["para_id"].argsort()], vectors[rows["para_id"].argsort()])

    # A new process (a resumed run) finds the vectors on disk.
    fresh = Embedder(EmbeddingSettings(), cache)
    ParagraphEmbeddings(store, fresh).for_documents(doc_ids)
    assert fresh.computed == 0

    expected = fresh._model.encode([titled_text(rows["title"][0], rows["text"][0])], normalize_embeddings=True)[0]
    np.testing.assert_allclose(vectors[0], expected, atol=1e-5)


def test_unknown_documents_give_no_paragraphs(make_params, tmp_path, embedder):
    params = make_params(kb={"source": "jsonl", "input": write_jsonl(tmp_path / "kb.jsonl", [
        {"title": t, "text": x} for t, x in SAMPLE_ARTICLES])})
    build_knowledge_base(params, progress=False)
    rows, vectors = ParagraphEmbeddings(ParagraphStore(params.paths.kb_dir), embedder).for_documents([-1, 12345])
    assert rows.empty and vectors.shape == (0, embedder.dimension)


def test_the_store_on_disk_returns_what_the_knowledge_base_holds(make_params, tmp_path, capsys):
    import pandas as pd

    from sea.kb.schema import DOCUMENTS_FILE, PARAGRAPHS_FILE
    from sea.kb.derived import derived_path

    records = [{"title": t, "text": f"{x}\n# Details\n{x} More detail follows here for the second section."} for t, x in SAMPLE_ARTICLES]
    params = make_params(kb={"source": "jsonl", "input": write_jsonl(tmp_path / "kb.jsonl", records)})
    build_knowledge_base(params, progress=False)
    kb = params.paths.kb_dir
    expected = (pd.read_parquet(kb / PARAGRAPHS_FILE).merge(pd.read_parquet(kb / DOCUMENTS_FILE, columns=["doc_id", "title"]),
                                                            on="doc_id").sort_values("doc_id", kind="stable").reset_index(drop=True))
    capsys.readouterr()
    store = ParagraphStore(kb, progress=True)
    assert "paragraph store (made once)" in capsys.readouterr().err  # minutes at the full dump: shown
    assert len(store) == len(expected) == 2 * len(SAMPLE_ARTICLES)
    ParagraphStore(kb, progress=True)
    assert "paragraph store" not in capsys.readouterr().err  # made once, then read
    assert store.para_ids().tolist() == expected["para_id"].tolist()  # by document, then in the dump's order
    two = expected["doc_id"].unique()[[3, 1]]
    got = store.of_documents(two)
    pd.testing.assert_frame_equal(got, expected[expected["doc_id"].isin(two)].reset_index(drop=True)[got.columns.tolist()])
    asked = [int(two[0]), -1, 12345, int(two[1]), int(two[0])]  # in the order asked, unknown ones skipped, repeats repeated
    pairs = store.texts_of_documents(asked)
    assert pairs == [(int(r.para_id), r.text) for d in [*two, two[0]] for r in expected[expected["doc_id"] == d].itertuples()]
    para_id = int(expected["para_id"].iloc[5])
    assert store.row(para_id)["text"] == expected["text"].iloc[5] and para_id in store and 12345 not in store
    assert store.record(para_id) == tuple(expected.iloc[5][["para_id", "doc_id", "section", "text", "title"]])
    with pytest.raises(KeyError, match=f"no paragraph with para_id {2**63} in the knowledge base"):
        store.record(2**63)  # sea questions preview --para-id beyond SQLite's integers
    assert list(store.texts([0, 5])) == [expected["text"].iloc[0], expected["text"].iloc[5]]
    by_id = sorted(expected["para_id"].tolist())  # places in para_id order, found both ways
    assert store.ids_at([3, 0, len(by_id) - 1]) == [by_id[3], by_id[0], by_id[-1]]
    assert sorted(store.id_places([by_id[7], 12345, by_id[2]]).tolist()) == [2, 7]  # an id the store lacks has no place

    records[0]["title"] = "Renamed"  # a rebuilt knowledge base: the store is made again, not read stale
    params = make_params(kb={"source": "jsonl", "input": write_jsonl(tmp_path / "kb.jsonl", records)})
    build_knowledge_base(params, progress=False)
    assert "Renamed" in set(ParagraphStore(kb).of_documents(pd.read_parquet(kb / DOCUMENTS_FILE)["doc_id"])["title"])
    assert "paragraph store" not in capsys.readouterr().err  # made again, quietly unless asked
    assert derived_path(kb, "paragraphs").is_file()


def test_an_audit_makes_the_stores_it_reads_first_under_progress_bars(make_params, tmp_path, capsys):
    from sea.kb.derived import derived_path
    from sea.questions.generate import make_stores

    params = make_params(kb={"source": "jsonl", "input": write_jsonl(tmp_path / "kb.jsonl", [
        {"title": t, "text": x} for t, x in SAMPLE_ARTICLES])})
    build_knowledge_base(params, progress=False)
    capsys.readouterr()
    with_a_generator = params.model_copy(update={"models": params.models.model_copy(
        update={"generator": params.models.testee})})
    make_stores(with_a_generator, progress=False)  # a model writes the questions: no definitions needed; quietly
    assert derived_path(params.paths.kb_dir, "paragraphs").is_file() and not derived_path(params.paths.kb_dir, "definitions").exists()
    assert "made once" not in capsys.readouterr().err
    make_stores(params, progress=True)  # the offline generator's definitions, shown; the paragraphs are made already
    shown = capsys.readouterr().err
    assert derived_path(params.paths.kb_dir, "definitions").is_file() and "definitions (made once)" in shown
    assert "paragraph store" not in shown


def test_no_knowledge_base_is_one_line_that_says_how_to_build_it(make_params, tmp_path, capsys):
    params = make_params()
    with pytest.raises(SourceError, match=r"no knowledge base in .*kb_dir \(documents.parquet and paragraphs.parquet missing\); "
                                          r"build it with `dvc repro`"):
        ParagraphStore(params.paths.kb_dir)
    paths = {name: str(value) for name, value in params.paths.model_dump().items()}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump({"paths": paths}))
    assert main(["--params", str(tmp_path / "params.yaml"), "questions", "preview", "--para-id", "1"]) == 2  # was a traceback
    assert "sea: error: no knowledge base in" in capsys.readouterr().err
