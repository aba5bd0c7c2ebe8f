"""Document embeddings computed part by part (a part: one row group of documents.parquet), each
on whichever worker takes it, then assembled in document order into the same files the
single-process stage writes.

Each worker loads the model once and keeps no shared cache file: a part is its own `.npz`, kept
under the cache directory (keyed by the documents file and the model), so a part lost with a
killed worker is redone alone and finished parts are not recomputed on the next run."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from sea.embeddings import Embedder, titled_text, write_document_vectors, write_sidecar
from sea.files import replacing
from sea.kb.schema import DOCUMENTS_FILE
from sea.settings import EmbeddingSettings, Params


def parts_folder(params: Params) -> tuple[Path, int]:
    """Where this knowledge base's parts go for this model, and how many parts there are."""
    documents = params.paths.kb_dir / DOCUMENTS_FILE
    stat = documents.stat()
    key = json.dumps([str(documents.resolve()), stat.st_size, stat.st_mtime_ns, params.embedding.model_dump(mode="json")])
    folder = params.paths.cache_dir / "embedding-parts" / hashlib.blake2b(key.encode(), digest_size=8).hexdigest()
    return folder, pq.ParquetFile(documents).metadata.num_row_groups


def part_path(folder: Path, number: int) -> Path:
    return folder / f"part-{number:06d}.npz"


@lru_cache(maxsize=1)
def _embedder(settings: EmbeddingSettings) -> Embedder:
    """One per worker process: the model is loaded once, not once per part."""
    return Embedder(settings)


def embed_part(params: Params, number: int, folder: Path) -> int:
    """Embed row group `number` of documents.parquet into its part file unless done; returns how many documents
    it embedded (0 for a part already done)."""
    path = part_path(folder, number)
    if path.is_file():
        return 0
    group = pq.ParquetFile(params.paths.kb_dir / DOCUMENTS_FILE).read_row_group(number, columns=["doc_id", "title", "abstract"])
    columns = group.to_pydict()
    vectors = _embedder(params.embedding).encode([titled_text(t, a) for t, a in
                                                  zip(columns["title"], columns["abstract"], strict=True)])
    folder.mkdir(parents=True, exist_ok=True)
    with replacing(path) as partial, open(partial, "wb") as out:
        np.savez(out, doc_ids=np.asarray(columns["doc_id"], dtype=np.int64), vectors=vectors)
    return len(columns["doc_id"])


def assemble_parts(params: Params, folder: Path, parts: int, computed: int, seconds: float, progress: bool = True) -> dict:
    """The parts, in document order, into the embedding stage's files; returns its sidecar (`computed`: the
    documents embedded by this run, the rest came from parts done before)."""
    first = np.load(part_path(folder, 0))
    dimension = first["vectors"].shape[1]
    total = pq.ParquetFile(params.paths.kb_dir / DOCUMENTS_FILE).metadata.num_rows

    def batches():
        for number in range(parts):
            part = np.load(part_path(folder, number))
            yield part["doc_ids"], part["vectors"]

    write_document_vectors(params, total, dimension, batches(), progress)
    return write_sidecar(params, dimension, total, computed, seconds)
