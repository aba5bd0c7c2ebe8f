"""The FAISS document index: built from a factory string, searched with visited ids excluded."""

from __future__ import annotations

import functools
import hashlib
import json
import math
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

import faiss
import numpy as np

from sea.embeddings import IDS_FILE, DocumentVectors, document_vectors, load_document_vectors
from sea.errors import ParamsError
from sea.files import REBUILD, DamagedFile, replacing, write_text
from sea.settings import IndexSettings, Params

INDEX_FILE = "documents.faiss"
INDEX_SIDECAR = "index.json"


_PQ_SIZES = (8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256)
_OVERHEAD = 1.25  # index structures, ids and search buffers beyond the codes themselves
_PQ_TRAINING = 256  # a product quantiser learns 256 centroids per sub-vector (8-bit codes), from at least as many vectors


def choose_factory(count: int, dimension: int, memory_gb: float) -> str:
    """The most exact index whose vectors fit memory_gb (autofaiss's rule, simplified): all
    vectors as they are (exact Flat up to 1M vectors, else IVF) when they fit; otherwise IVF with
    the largest product-quantiser code that fits, each vector in (m + 8 id) bytes. IVF gets about
    4·√N lists, a power of two, with ≥ 39 training vectors a list."""
    budget = memory_gb * 1e9 / _OVERHEAD
    lists = max(1, min(1 << round(np.log2(4 * np.sqrt(count))), count // 39))
    if count * (4 * dimension + 8) <= budget:
        return "Flat" if count <= 1_000_000 else f"IVF{lists},Flat"
    if count < _PQ_TRAINING:
        raise ParamsError(f"index.memory_gb: {memory_gb:g} GB cannot hold {count:,} vectors of dimension {dimension} as they are, "
                          f"and a compressed (PQ) index needs {_PQ_TRAINING} to train; raise it to at least "
                          f"{_at_least(count * (4 * dimension + 8) * _OVERHEAD / 1e9)}, or set index.factory: Flat")
    fitting = [m for m in _PQ_SIZES if dimension % m == 0 and count * (m + 8) <= budget]
    if not fitting:
        smallest = min((m for m in _PQ_SIZES if dimension % m == 0), default=None)
        if smallest is None:
            raise ParamsError(f"index.memory_gb: {memory_gb:g} GB cannot hold {count:,} vectors of dimension {dimension} "
                              f"as they are, and no PQ code size divides {dimension}; give index.factory yourself")
        raise ParamsError(f"index.memory_gb: {memory_gb:g} GB cannot hold {count:,} vectors even as {smallest}-byte codes; "
                          f"raise it to at least {_at_least(count * (smallest + 8) * _OVERHEAD / 1e9)}, or give "
                          "index.factory yourself")
    return f"IVF{lists},PQ{max(fitting)}"


def _at_least(needed: float) -> str:
    """needed GB written with two significant digits, rounded up: a budget that, set, fits."""
    decimals = max(0, 1 - math.floor(math.log10(needed)))
    step = 10.0 ** -decimals
    advised = math.ceil(needed / step) * step
    while advised < needed:  # floating point
        advised += step
    return f"{advised:.{decimals}f}"


def resolved_factory(settings: IndexSettings, count: int, dimension: int) -> str:
    return choose_factory(count, dimension, settings.memory_gb) if settings.factory == "auto" else settings.factory


def _inner(index: faiss.Index) -> faiss.Index:
    return faiss.downcast_index(index.index) if isinstance(index, faiss.IndexIDMap) else index


def _skip_polysemous_training(index: faiss.Index) -> None:
    """FAISS orders PQ codes for Hamming-distance filtering by default, which search never uses
    (polysemous_ht stays 0): the same ids and scores without it, and an IVF8,PQ16 of 500 vectors
    trains in 0.06 s instead of 28 s."""
    for part in (index, faiss.try_extract_index_ivf(index)):
        part = faiss.downcast_index(part) if part is not None else None
        if hasattr(part, "do_polysemous_training"):
            part.do_polysemous_training = False


class ExactScores:
    """Exact inner products of queries with given documents, read from the memory-mapped
    embeddings."""

    def __init__(self, documents: DocumentVectors):
        self.documents = documents

    def __call__(self, query: np.ndarray, ids: np.ndarray) -> np.ndarray:
        rows = self.documents.rows(ids)
        order = np.argsort(rows)  # read the memory map in file order
        scores = np.empty(len(ids), dtype=np.float32)
        scores[order] = np.asarray(self.documents.vectors[rows[order]], dtype=np.float32) @ query
        return scores


class DocumentIndex:
    """Inner-product search over normalised document vectors, keyed by doc_id. With `exact`
    (index.rerank > 0), the index's top `rerank` candidates are re-scored exactly: a compressed
    index then finds its neighbours at the recall of an exact one."""

    def __init__(self, index: faiss.Index, settings: IndexSettings, exact: ExactScores | None = None):
        self.index = index
        self.settings = settings
        self.exact = exact if settings.rerank else None

    @classmethod
    def build(cls, vectors: np.ndarray, doc_ids: np.ndarray, settings: IndexSettings, seed: int = 0) -> DocumentIndex:
        dimension = vectors.shape[1]
        factory = resolved_factory(settings, len(vectors), dimension)
        try:
            index = faiss.index_factory(dimension, factory, faiss.METRIC_INNER_PRODUCT)
        except RuntimeError as error:
            raise ParamsError(
                f"index.factory: {factory!r} does not fit embeddings of dimension {dimension} "
                f"({str(error).strip().splitlines()[-1]}); choose a PQ size that divides {dimension}"
            ) from None
        if not isinstance(index, faiss.IndexIDMap):
            index = faiss.IndexIDMap2(index)
        inner = _inner(index)
        _skip_polysemous_training(inner)
        if not inner.is_trained:
            needed = getattr(faiss.try_extract_index_ivf(inner), "nlist", 1)
            if len(vectors) < needed:
                raise ParamsError(
                    f"index.factory: {factory!r} needs at least {needed} vectors to train, the knowledge base has "
                    f"{len(vectors)}; use 'Flat' or fewer IVF lists for a knowledge base this small"
                )
            sample = np.random.default_rng(seed).permutation(len(vectors))[: settings.train_sample]
            try:
                inner.train(np.ascontiguousarray(vectors[np.sort(sample)], dtype=np.float32))
            except RuntimeError as error:  # e.g. a PQ quantiser's 256 centroids each, from fewer vectors
                raise ParamsError(
                    f"index.factory: {factory!r} cannot be trained on {len(sample)} vectors "
                    f"({str(error).strip().splitlines()[-1].strip()}); use 'Flat' for a knowledge base this small, "
                    f"or raise index.train_sample"
                ) from None
        for start in range(0, len(vectors), 100_000):
            index.add_with_ids(np.ascontiguousarray(vectors[start:start + 100_000], dtype=np.float32),
                               np.ascontiguousarray(doc_ids[start:start + 100_000], dtype=np.int64))
        return cls(index, settings)

    @classmethod
    def load(cls, index_dir: Path, settings: IndexSettings, exact: ExactScores | None = None) -> DocumentIndex:
        try:
            return cls(faiss.read_index(str(index_dir / INDEX_FILE)), settings, exact)
        except RuntimeError as error:
            raise DamagedFile(index_dir / INDEX_FILE, str(error).strip().splitlines()[-1].strip(), REBUILD) from None

    def save(self, index_dir: Path) -> None:
        with replacing(index_dir / INDEX_FILE) as partial:
            faiss.write_index(self.index, str(partial))

    @property
    def size(self) -> int:
        return self.index.ntotal

    def _search_parameters(self, selector: faiss.IDSelector | None) -> faiss.SearchParameters | None:
        inner = _inner(self.index)
        if faiss.try_extract_index_ivf(inner) is not None:
            params = faiss.SearchParametersIVF()
            params.nprobe = self.settings.nprobe
        elif isinstance(inner, faiss.IndexHNSW):
            params = faiss.SearchParametersHNSW()
            params.efSearch = self.settings.ef_search
        elif selector is None:
            return None
        else:
            params = faiss.SearchParameters()
        if selector is not None:
            params.sel = selector
        return params

    def search(self, query_vectors: np.ndarray, k: int, exclude: Iterable[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(scores, doc_ids), each of shape (queries, k), best first. Documents in `exclude` are
        skipped by a FAISS id selector at search time; slots left empty hold id -1."""
        queries = np.ascontiguousarray(np.atleast_2d(query_vectors), dtype=np.float32)
        excluded = np.fromiter(exclude, dtype=np.int64) if exclude is not None else np.empty(0, dtype=np.int64)
        # Both selectors must stay referenced until the search returns: FAISS holds raw pointers.
        batch = faiss.IDSelectorBatch(excluded) if len(excluded) else None
        selector = faiss.IDSelectorNot(batch) if batch is not None else None
        wide = max(k, self.settings.rerank) if self.exact else k
        with one_thread(len(queries)):
            scores, ids = self.index.search(queries, wide, params=self._search_parameters(selector))
        return self._rerank(queries, scores, ids, k) if self.exact else (scores, ids)

    def _rerank(self, queries: np.ndarray, scores: np.ndarray, ids: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        best_scores = np.full((len(queries), k), -np.inf, dtype=np.float32)
        best_ids = np.full((len(queries), k), -1, dtype=np.int64)
        for row, (query, found) in enumerate(zip(queries, ids, strict=True)):
            found = found[found >= 0]
            exact = self.exact(query, found)
            top = np.argsort(-exact, kind="stable")[:k]
            best_scores[row, :len(top)], best_ids[row, :len(top)] = exact[top], found[top]
        return best_scores, best_ids


@contextmanager
def one_thread(queries: int) -> Iterator[None]:
    """FAISS's threads for a single query, on this thread only (OpenMP keeps the count per thread):
    they save nothing on an exact search of a small index and, busy-waiting, take a core from the
    rest of the process (the question generator's one neighbour search a paragraph ran at a fifth
    of its speed beside another busy process)."""
    if queries > 1:
        yield
        return
    threads = faiss.omp_get_max_threads()
    faiss.omp_set_num_threads(1)
    try:
        yield
    finally:
        faiss.omp_set_num_threads(threads)


def load_index(params: Params) -> DocumentIndex:
    """The built index, refused when it was built with another embedder or factory than configured.
    Read once per process (the retrieval, the question generator and the simulated testee share
    it; FAISS searches are read-only), and again only when the file changes."""
    check_index(params)
    stat = (params.paths.index_dir / INDEX_FILE).stat()
    return _read_index(params.paths.index_dir.resolve(), stat.st_mtime_ns, stat.st_size, params.index,
                       params.paths.embeddings_dir.resolve())


@functools.lru_cache(maxsize=4)
def _read_index(index_dir: Path, mtime_ns: int, size: int, settings: IndexSettings, embeddings_dir: Path) -> DocumentIndex:
    exact = ExactScores(document_vectors(embeddings_dir)) if settings.rerank else None
    return DocumentIndex.load(index_dir, settings, exact)


def ids_digest(doc_ids: np.ndarray) -> str:
    """What an index was built over: a hash of the embeddings' doc ids (as a set: the index maps ids, not rows)."""
    return hashlib.blake2b(np.sort(np.asarray(doc_ids, dtype=np.int64)).tobytes(), digest_size=16).hexdigest()


@functools.lru_cache(maxsize=4)
def _embedded_ids(path: Path, mtime_ns: int, size: int) -> tuple[int, str]:
    ids = np.load(path)
    return len(ids), ids_digest(ids)


def _check_built_over(params: Params, sidecar: dict) -> None:
    """The index holds the documents the embeddings hold: one built before the knowledge base and the
    embeddings were rebuilt over other documents answered with ids they no longer have (a KeyError deep
    in a query). An index from before the sidecar recorded its ids is checked by its count alone."""
    ids = params.paths.embeddings_dir / IDS_FILE
    if not ids.is_file():
        return  # no embeddings: whatever reads them says so
    stat = ids.stat()
    count, digest = _embedded_ids(ids.resolve(), stat.st_mtime_ns, stat.st_size)
    recorded = sidecar.get("doc_ids")
    if sidecar["documents"] != count or (recorded is not None and recorded != digest):
        other = f"{count:,} other documents" if sidecar["documents"] == count else f"{count:,} documents"
        raise ParamsError(f"the index in {params.paths.index_dir} was built over {sidecar['documents']:,} documents, but "
                          f"the embeddings in {params.paths.embeddings_dir} hold {other}: it is older than them; rebuild "
                          "it with `dvc repro` (or `sea index build`)")


def check_index(params: Params) -> None:
    """The index on disk must come from the configured embedder and factory, over the embeddings' documents."""
    sidecar_path = params.paths.index_dir / INDEX_SIDECAR
    if not sidecar_path.is_file():
        raise ParamsError(f"no index in {params.paths.index_dir}; build it with `dvc repro` (or `sea index build`)")
    sidecar = json.loads(sidecar_path.read_text(encoding="utf-8"))
    if sidecar["embedding_model"] != params.embedding.model:
        raise ParamsError(f"embedding.model is {params.embedding.model!r} but the index in {params.paths.index_dir} was "
                          f"built with {sidecar['embedding_model']!r}; rebuild the pipeline with `dvc repro` or set "
                          f"embedding.model back")
    if sidecar["factory"] != params.index.factory:
        built = sidecar["factory"] + (f" (as {sidecar['built_as']!r})" if sidecar["factory"] == "auto" else "")
        raise ParamsError(f"index.factory is {params.index.factory!r} but the index in {params.paths.index_dir} was built "
                          f"with {built}; rebuild it with `dvc repro` (or `sea index build`) or set index.factory back")
    _check_built_over(params, sidecar)
    if params.index.factory == "auto":
        chosen = resolved_factory(params.index, sidecar["documents"], sidecar["dimension"])
        if chosen != sidecar.get("built_as", chosen):
            raise ParamsError(f"index.factory 'auto' with index.memory_gb {params.index.memory_gb:g} chooses {chosen!r}, but "
                              f"the index in {params.paths.index_dir} was built as {sidecar['built_as']!r}; rebuild it "
                              "with `dvc repro` (or `sea index build`) or set index.memory_gb back")


def build_index(params: Params) -> dict:
    vectors, doc_ids, embedding_sidecar = load_document_vectors(params.paths.embeddings_dir)
    started = time.perf_counter()
    index = DocumentIndex.build(vectors, doc_ids, params.index)
    seconds = time.perf_counter() - started
    index.save(params.paths.index_dir)
    sidecar = {
        "factory": params.index.factory,
        "built_as": resolved_factory(params.index, len(vectors), int(vectors.shape[1])),  # what `auto` chose
        "metric": "inner_product",
        "documents": index.size,
        "dimension": int(vectors.shape[1]),
        "embedding_model": embedding_sidecar["model"],
        "doc_ids": ids_digest(doc_ids),  # what it was built over: checked against the embeddings before use
    }
    write_text(params.paths.index_dir / INDEX_SIDECAR, json.dumps(sidecar, indent=2) + "\n")  # no timing: the same index, the same bytes
    return {**sidecar, "build_seconds": round(seconds, 3)}
