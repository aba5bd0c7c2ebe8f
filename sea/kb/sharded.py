"""The knowledge base built shard by shard from a multistream dump: each shard converted on its
own (by any worker) into part files, then merged in dump order into the same tables the
streaming build writes. Ids and rows do not depend on how many workers converted the shards.

Part files live under the cache directory, keyed by the dump, its index, the settings that shape
rows and the code that converts them, so a re-run (a killed build, a new `dvc repro`) converts
only the shards not finished before, and a changed input or conversion converts them all again."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path

import fsspec
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from tqdm import tqdm

from sea.errors import SourceError
from sea.files import read_json, write_json, write_parquet
from sea.kb.build import Categorizer, commit_with_report, require_input, rows_of, usable_documents
from sea.kb.multistream import Shard, index_path_for, plan_shards, read_header, shard_documents
from sea.kb.schema import DOCUMENT_SCHEMA, PARAGRAPH_SCHEMA, KnowledgeBaseWriter, SkipCounts, SourceNotes, title_key
from sea.settings import EmbeddingSettings, Params

log = logging.getLogger(__name__)

MULTISTREAM_SUFFIX = "-multistream.xml.bz2"


def is_multistream(params: Params) -> bool:
    kb = params.kb
    return kb.source == "wikipedia-dump" and (kb.multistream_index is not None or str(kb.input).endswith(MULTISTREAM_SUFFIX))


def index_of(params: Params) -> str:
    return params.kb.multistream_index or index_path_for(str(params.kb.input))


def require_index(params: Params) -> None:
    """The dump and its index exist, or an error that names them and the fix."""
    require_input(params)
    index = index_of(params)
    fs, path = fsspec.core.url_to_fs(index)
    if not fs.exists(path):
        raise SourceError(f"{index}: no such file: a multistream dump is built by shards through its index; download the "
                          "-multistream-index.txt.bz2 published beside the dump, or set kb.multistream_index")


def _identity(url: str) -> list:
    fs, path = fsspec.core.url_to_fs(url)
    info = fs.info(path)
    return [url, info.get("size"), str(info.get("mtime", ""))]


# What turns a shard into rows: sea/kb, the categories, and the embedder that assigns them by similarity
# (sea/embeddings.py: the text embedded, the model's loading; its cache and key), as dvc.yaml's kb stage
# lists them. Left out: sea/settings.py (the row-shaping settings are in the key by value) and
# sea/errors.py, sea/files.py (messages, file writing), whose edits should not convert a whole dump again.
_SEA = Path(__file__).parents[1]
_CONVERSION_CODE = (*sorted(Path(__file__).parent.glob("*.py")),
                    *(_SEA / name for name in ("categories.py", "embeddings.py", "vector_cache.py", "sqlite_store.py")))


def parts_dir(params: Params) -> Path:
    """Where this dump's shards go: one folder per dump, index, row-shaping settings and conversion code."""
    kb = params.kb
    code = hashlib.blake2b(b"".join(path.read_bytes() for path in _CONVERSION_CODE), digest_size=8).hexdigest()
    key = json.dumps([_identity(str(kb.input)), _identity(index_of(params)), kb.min_paragraph_chars,
                      kb.max_paragraph_chars, kb.streams_per_shard, params.embedding.model, code], sort_keys=True)
    return params.paths.cache_dir / "kb-shards" / hashlib.blake2b(key.encode(), digest_size=8).hexdigest()


def plan(params: Params) -> tuple[bytes, list[Shard]]:
    """The dump's header and its shards, checked against the index before any work is given out."""
    header_end, shards = plan_shards(str(params.kb.input), index_of(params), params.kb.streams_per_shard)
    return read_header(str(params.kb.input), header_end, index_of(params)), shards


def _part(folder: Path, shard: Shard) -> tuple[Path, Path, Path]:
    stem = folder / f"shard-{shard.number:06d}"
    return stem.with_suffix(".documents.parquet"), stem.with_suffix(".paragraphs.parquet"), stem.with_suffix(".json")


@lru_cache(maxsize=1)
def _categorizer(settings: EmbeddingSettings) -> Categorizer:
    """One per worker process: the embedding model is loaded once, not once per shard."""
    return Categorizer(Params(embedding=settings), cache=False)


def build_shard(params: Params, shard: Shard, header: bytes, folder: Path) -> dict:
    """Convert one shard into its part files (the .json last: it marks the shard done); a shard
    already done is not converted again. Returns what the .json holds."""
    documents_part, paragraphs_part, done = _part(folder, shard)
    if done.is_file() and (record := read_json(done))["shard"] == asdict(shard):
        return record
    skips, notes = SkipCounts(), SourceNotes()
    documents = list(usable_documents(shard_documents(str(params.kb.input), shard, header, skips, notes), params, skips))
    rows = rows_of(documents, _categorizer(params.embedding).assign(documents), params.kb.source)
    folder.mkdir(parents=True, exist_ok=True)
    write_parquet(documents_part, pa.table(rows.documents, schema=DOCUMENT_SCHEMA))
    write_parquet(paragraphs_part, pa.table(rows.paragraphs, schema=PARAGRAPH_SCHEMA))
    record = {"shard": asdict(shard), "documents": len(documents), "skipped": skips.counts, "notes": asdict(notes)}
    write_json(done, record)
    return record


class _RowGroups:
    """Rows arriving in batches of any size, written in row groups of `size` documents (with
    their paragraphs), as the streaming build writes them."""

    def __init__(self, writer: KnowledgeBaseWriter, size: int):
        self.writer, self.size = writer, size
        self.documents = pa.table({n: [] for n in DOCUMENT_SCHEMA.names}, schema=DOCUMENT_SCHEMA)
        self.paragraphs = pa.table({n: [] for n in PARAGRAPH_SCHEMA.names}, schema=PARAGRAPH_SCHEMA)

    def add(self, documents: pa.Table, paragraphs: pa.Table) -> None:
        self.documents = pa.concat_tables([self.documents, documents])
        self.paragraphs = pa.concat_tables([self.paragraphs, paragraphs])
        while len(self.documents) >= self.size:
            self._write(self.size)

    def close(self) -> None:
        if len(self.documents):
            self._write(len(self.documents))

    def _write(self, n: int) -> None:
        head = self.documents.slice(0, n)
        # paragraphs come in their documents' order, so the head's paragraphs lead
        count = pc.sum(pc.is_in(self.paragraphs.column("doc_id"), value_set=head.column("doc_id"))).as_py() or 0
        self.writer.write_tables(head.combine_chunks(), self.paragraphs.slice(0, count).combine_chunks())
        self.documents, self.paragraphs = self.documents.slice(n), self.paragraphs.slice(count)


def documents_in(folder: Path, shards: list[Shard]) -> int:
    """How many distinct documents the shards' parts hold (a title in two shards is one document)."""
    return len({title_key(title) for shard in shards for title in pq.read_table(_part(folder, shard)[0], columns=["title"])
                .column("title").to_pylist()})


def merge_shards(params: Params, shards: list[Shard], folder: Path, started: float, progress: bool = True) -> dict:
    """The parts, in dump order, into documents.parquet and paragraphs.parquet: a title already
    seen in an earlier shard is skipped (as the streaming build skips it), and the build stops at
    kb.max_documents. Returns the build report."""
    kb = params.kb
    skips, seen = SkipCounts(), set()
    notes = SourceNotes(**read_json(_part(folder, shards[0])[2])["notes"])
    for warning in notes.warnings:  # the dump's, which every shard found and none said
        log.warning(warning)
    with KnowledgeBaseWriter(params.paths.kb_dir) as writer:
        groups = _RowGroups(writer, kb.chunk_documents)
        for shard in tqdm(shards, unit="shard", desc="merging shards", disable=not progress):
            taken = writer.documents_written + len(groups.documents)
            if kb.max_documents is not None and taken >= kb.max_documents:
                break
            documents_part, paragraphs_part, done = _part(folder, shard)
            for reason, n in read_json(done)["skipped"].items():
                skips.add(reason, n)
            documents = pq.read_table(documents_part)
            keys = map(title_key, documents.column("title").to_pylist())
            first = [key not in seen and not seen.add(key) for key in keys]
            if not all(first):
                skips.add("duplicate title", first.count(False))
            documents = documents.filter(pa.array(first, pa.bool_()))
            if kb.max_documents is not None:
                documents = documents.slice(0, kb.max_documents - taken)
            paragraphs = pq.read_table(paragraphs_part)
            groups.add(documents, paragraphs.filter(pc.is_in(paragraphs.column("doc_id"), value_set=documents.column("doc_id"))))
        groups.close()
        return commit_with_report(writer, kb, skips, notes, started)
