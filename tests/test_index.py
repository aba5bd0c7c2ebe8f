import json

import faiss
import numpy as np
import pandas as pd
import pytest

from sea.embeddings import DocumentVectors, titled_text
from sea.errors import ParamsError
from sea.index import INDEX_SIDECAR, DocumentIndex, one_thread
from sea.kb.schema import DOCUMENTS_FILE
from sea.settings import IndexSettings


def _vectors(params):
    return np.load(params.paths.embeddings_dir / "documents.npy"), np.load(params.paths.embeddings_dir / "doc_ids.npy")


def test_a_documents_own_title_ranks_it_first(vital_sample, embedder):
    documents = pd.read_parquet(vital_sample.paths.kb_dir / DOCUMENTS_FILE).sample(25, random_state=1)
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    _, ids = index.search(embedder.encode([titled_text(t, a) for t, a in zip(documents["title"], documents["abstract"])]), 5)
    assert (ids[:, 0] == documents["doc_id"].to_numpy()).all()
    sidecar = json.loads((vital_sample.paths.index_dir / INDEX_SIDECAR).read_text())
    assert sidecar["documents"] == 500 and sidecar["dimension"] == 384


@pytest.mark.parametrize("factory", ["Flat", "HNSW32", "IVF8,Flat", "IVF8,PQ16"])
def test_visited_documents_never_come_back(vital_sample, factory):
    vectors, doc_ids = _vectors(vital_sample)
    index = DocumentIndex.build(vectors, doc_ids, IndexSettings(factory=factory, nprobe=8))
    queries = vectors[:40]
    _, unrestricted = index.search(queries, 50)
    visited = set(doc_ids[::2].tolist())
    _, restricted = index.search(queries, 50, exclude=visited)
    returned = set(restricted[restricted >= 0].tolist())
    assert returned and not returned & visited
    if factory == "Flat":  # exact search: exclusion filters the ranking without reordering it
        for before, after in zip(unrestricted, restricted):
            kept = [d for d in before if d not in visited]
            assert list(after[: len(kept)]) == kept


def test_excluding_everything_returns_no_ids(vital_sample):
    vectors, doc_ids = _vectors(vital_sample)
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    _, ids = index.search(vectors[:3], 10, exclude=doc_ids.tolist())
    assert (ids == -1).all()


def test_a_single_query_searches_on_one_thread_and_finds_what_a_batch_finds(vital_sample):
    vectors, doc_ids = _vectors(vital_sample)
    index = DocumentIndex.load(vital_sample.paths.index_dir, vital_sample.index)
    before = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(2)
    try:
        with one_thread(1):
            assert faiss.omp_get_max_threads() == 1
        with one_thread(5):
            assert faiss.omp_get_max_threads() == 2
        with pytest.raises(RuntimeError), one_thread(1):
            raise RuntimeError
        assert faiss.omp_get_max_threads() == 2  # restored, even after an error
        batch_scores, batch_ids = index.search(vectors[:5], 10, exclude=doc_ids[:5].tolist())
        for row in range(5):
            scores, ids = index.search(vectors[row], 10, exclude=doc_ids[:5].tolist())
            assert ids[0].tolist() == batch_ids[row].tolist()
            assert np.allclose(scores[0], batch_scores[row])
        assert faiss.omp_get_max_threads() == 2
    finally:
        faiss.omp_set_num_threads(before)


def test_factory_that_does_not_fit_the_data_is_explained(vital_sample):
    vectors, doc_ids = _vectors(vital_sample)
    with pytest.raises(ParamsError, match="needs at least 4096 vectors.*has 500"):
        DocumentIndex.build(vectors, doc_ids, IndexSettings(factory="IVF4096,Flat"))
    with pytest.raises(ParamsError, match="dimension 384"):
        DocumentIndex.build(vectors, doc_ids, IndexSettings(factory="PQ256"))
    with pytest.raises(ParamsError, match=r"'IVF4,PQ32' cannot be trained on 200 vectors \(.*256.*\); use 'Flat'"):
        DocumentIndex.build(vectors, doc_ids, IndexSettings(factory="IVF4,PQ32", train_sample=200))  # 256 centroids a code


def test_an_index_built_with_another_embedder_is_refused(vital_sample, tmp_path):
    from sea.index import load_index

    assert load_index(vital_sample).size == 500
    other = vital_sample.model_copy(update={"embedding": vital_sample.embedding.model_copy(update={"model": "BAAI/bge-small-en"})})
    with pytest.raises(ParamsError, match="built with 'all-MiniLM-L6-v2'.*dvc repro"):
        load_index(other)
    missing = vital_sample.model_copy(update={"paths": vital_sample.paths.model_copy(update={"index_dir": tmp_path})})
    with pytest.raises(ParamsError, match="no index in"):
        load_index(missing)


def test_the_data_sidecars_hold_no_timing(vital_sample, tmp_path):
    """A rebuilt index, like re-embedded vectors, is described by the same bytes: the data versions
    a run records (sea.audit.rundir.data_versions) change only when the data does."""
    import shutil

    from sea.embeddings import SIDECAR_FILE
    from sea.index import build_index

    copy = tmp_path / "index"
    shutil.copytree(vital_sample.paths.index_dir, copy)
    params = vital_sample.model_copy(update={"paths": vital_sample.paths.model_copy(update={"index_dir": copy})})
    assert "build_seconds" in build_index(params)  # told to the caller, not written
    assert (copy / INDEX_SIDECAR).read_bytes() == (vital_sample.paths.index_dir / INDEX_SIDECAR).read_bytes()
    assert "build_seconds" not in json.loads((copy / INDEX_SIDECAR).read_text(encoding="utf-8"))
    embedded = json.loads((vital_sample.paths.embeddings_dir / SIDECAR_FILE).read_text(encoding="utf-8"))
    assert not {"seconds", "documents_per_second", "from_cache"} & set(embedded)


def test_the_index_is_read_once_per_process_and_again_when_rebuilt(vital_sample, tmp_path):
    import shutil

    from sea.index import INDEX_FILE, build_index, load_index

    copy = tmp_path / "index"
    shutil.copytree(vital_sample.paths.index_dir, copy)
    params = vital_sample.model_copy(update={"paths": vital_sample.paths.model_copy(update={"index_dir": copy})})
    first = load_index(params)
    assert load_index(params) is first  # retrieval, question generator and simulated testee share one
    mtime = (copy / INDEX_FILE).stat().st_mtime_ns
    build_index(params)
    assert (copy / INDEX_FILE).stat().st_mtime_ns != mtime and load_index(params) is not first


def test_a_compressed_index_re_scored_exactly_finds_what_exact_search_finds(vital_sample):
    from sea.index import ExactScores

    vectors, doc_ids = _vectors(vital_sample)
    exact = DocumentIndex.build(vectors, doc_ids, IndexSettings(factory="Flat"))
    compressed = DocumentIndex.build(vectors, doc_ids, IndexSettings(factory="IVF8,PQ8", nprobe=8))
    reranked = DocumentIndex(compressed.index, IndexSettings(factory="IVF8,PQ8", nprobe=8, rerank=100),
                             ExactScores(DocumentVectors(vital_sample.paths.embeddings_dir)))
    queries, visited = vectors[:40], set(doc_ids[::3].tolist())
    truth_scores, truth = exact.search(queries, 10, exclude=visited)
    _, approximate = compressed.search(queries, 10, exclude=visited)
    scores, found = reranked.search(queries, 10, exclude=visited)
    overlap = lambda a, b: np.mean([len(set(x) & set(y)) / 10 for x, y in zip(a, b)])  # noqa: E731
    assert overlap(approximate, truth) < 0.95 and overlap(found, truth) >= 0.99
    np.testing.assert_allclose(scores[found == truth], truth_scores[found == truth], atol=1e-5)
    assert not set(found.ravel().tolist()) & visited


def test_auto_picks_the_most_exact_index_that_fits_the_memory_budget(vital_sample):
    from sea.index import choose_factory

    assert choose_factory(500, 384, 1.0) == "Flat"
    assert choose_factory(2_000_000, 384, 8.0) == "IVF4096,Flat"  # 3 GB of vectors fit
    assert choose_factory(7_100_000, 384, 1.0) == "IVF8192,PQ96"  # the full dump in 1 GB: (96 + 8) B a vector
    assert choose_factory(7_100_000, 384, 0.5) == "IVF8192,PQ48"
    with pytest.raises(ParamsError, match="index.memory_gb"):
        choose_factory(7_100_000, 384, 0.1)
    vectors, doc_ids = _vectors(vital_sample)
    assert choose_factory(500, 384, 0.0005) == "IVF12,PQ192"  # 0.5 MB: too small for the 0.77 MB of Flat
    assert choose_factory(500, 384, 0.00001) == "IVF12,PQ8"  # 10 kB: the smallest code
    index = DocumentIndex.build(vectors, doc_ids, IndexSettings(factory="auto", memory_gb=0.00001))  # quick to train
    assert index.size == 500 and index.search(vectors[:1], 5)[1][0, 0] == doc_ids[0]


@pytest.mark.parametrize(("count", "memory_gb"), [(7_100_000, 0.1), (7_100_000, 0.14), (98, 0.0000001), (123_457, 0.001)])
def test_the_least_budget_auto_advises_is_enough(count, memory_gb):
    """The advice was rounded down to one decimal: "at least 0.1" for a need of 0.142 GB, "0.0" on a small KB."""
    import re

    from sea.index import choose_factory

    with pytest.raises(ParamsError, match="raise it to at least") as refused:
        choose_factory(count, 384, memory_gb)
    advised = float(re.search(r"at least ([0-9.]+),", str(refused.value)).group(1))
    # the smallest code in the advised budget; fewer vectors than a PQ index trains on: Flat
    assert choose_factory(count, 384, advised).endswith(",PQ8" if count >= 256 else "Flat")


def test_auto_on_a_knowledge_base_too_small_to_train_a_compressed_index_says_so_before_building(vital_sample):
    """50 vectors in a budget too small for Flat: auto chose 'IVF1,PQ192', whose training then failed on FAISS's
    "Number of training points (50) should be at least as large as number of clusters (256)" and advised raising
    index.train_sample, which cannot give more vectors than the knowledge base has."""
    vectors, doc_ids = _vectors(vital_sample)
    with pytest.raises(ParamsError, match=r"^index\.memory_gb: 5e-05 GB cannot hold 50 vectors of dimension 384 as they are, and a "
                                          r"compressed \(PQ\) index needs 256 to train; raise it to at least 0\.000097, or set "
                                          r"index\.factory: Flat$"):
        DocumentIndex.build(vectors[:50], doc_ids[:50], IndexSettings(factory="auto", memory_gb=0.00005))


def test_an_index_over_other_documents_than_the_embeddings_is_refused(vital_sample, tmp_path):
    """An index built over 98 documents, then the knowledge base and embeddings rebuilt with 30, was used
    unchecked: `sea index query` crashed with a KeyError. An index from before the sidecar recorded its
    doc ids is checked by its count."""
    import shutil

    from sea.index import build_index, check_index

    embeddings, index = tmp_path / "embeddings", tmp_path / "index"
    shutil.copytree(vital_sample.paths.embeddings_dir, embeddings)
    params = vital_sample.model_copy(update={"paths": vital_sample.paths.model_copy(
        update={"embeddings_dir": embeddings, "index_dir": index})})
    build_index(params)
    check_index(params)
    ids = np.load(embeddings / "doc_ids.npy")
    stale = "the index in .* was built over 500 documents, but the embeddings in .* hold {}: .*rebuild it with `dvc repro` \\(or `sea index build`\\)"
    np.save(embeddings / "doc_ids.npy", ids[:30])
    with pytest.raises(ParamsError, match=stale.format("30 documents")):
        check_index(params)
    np.save(embeddings / "doc_ids.npy", ids[::-1])
    check_index(params)  # the same documents in another order: the index maps ids
    np.save(embeddings / "doc_ids.npy", np.concatenate([ids[:-1], [ids.max() + 1]]))
    with pytest.raises(ParamsError, match=stale.format("500 other documents")):
        check_index(params)
    old = {k: v for k, v in json.loads((index / INDEX_SIDECAR).read_text()).items() if k != "doc_ids"}
    (index / INDEX_SIDECAR).write_text(json.dumps(old))
    check_index(params)  # built before the ids were recorded: the same count is all that can be told
    np.save(embeddings / "doc_ids.npy", ids[:30])
    with pytest.raises(ParamsError, match=stale.format("30 documents")):
        check_index(params)


def test_an_auto_index_built_for_another_memory_budget_is_refused(vital_sample, tmp_path):
    """`auto` resolves by index.memory_gb: an index built as IVF…,PQ8 in 10 kB was used unchecked after the
    budget was raised to one that chooses Flat, and a factory mismatch said it was built 'as auto'."""
    import shutil

    from sea.index import build_index, check_index

    index = tmp_path / "index"
    params = vital_sample.model_copy(update={"paths": vital_sample.paths.model_copy(update={"index_dir": index}),
                                             "index": IndexSettings(factory="auto", memory_gb=0.00001)})
    shutil.copytree(vital_sample.paths.index_dir, index)
    build_index(params)
    check_index(params)
    roomier = params.model_copy(update={"index": IndexSettings(factory="auto", memory_gb=1.0)})
    with pytest.raises(ParamsError, match="memory_gb 1 chooses 'Flat', but the index in .* was built as 'IVF12,PQ8'; .*memory_gb back"):
        check_index(roomier)
    exact = params.model_copy(update={"index": IndexSettings(factory="Flat")})
    with pytest.raises(ParamsError, match="index.factory is 'Flat' but the index in .* was built with auto \\(as 'IVF12,PQ8'\\)"):
        check_index(exact)


def test_a_damaged_index_is_named_with_the_fix(vital_sample, tmp_path):
    import shutil

    from sea.files import DamagedFile

    copy = tmp_path / "index"
    shutil.copytree(vital_sample.paths.index_dir, copy)
    index_file = next(path for path in copy.iterdir() if path.suffix == ".faiss")
    index_file.write_bytes(index_file.read_bytes()[:1000])
    with pytest.raises(DamagedFile, match=rf"{index_file.name} is damaged \(.+\); rebuild it with `dvc repro`"):
        DocumentIndex.load(copy, vital_sample.index)
