"""The knowledge-base schema: documents.parquet and paragraphs.parquet, with stable ids."""

from __future__ import annotations

import hashlib
import os
import shutil
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sea.errors import ParamsError

DOCUMENTS_FILE = "documents.parquet"
PARAGRAPHS_FILE = "paragraphs.parquet"
BUILD_REPORT_FILE = "build_report.json"

DOCUMENT_SCHEMA = pa.schema([
    ("doc_id", pa.int64()),
    ("title", pa.string()),
    ("abstract", pa.string()),
    ("category", pa.string()),
    ("category_source", pa.string()),
    ("source", pa.string()),
    ("url", pa.string()),
])
PARAGRAPH_SCHEMA = pa.schema([
    ("para_id", pa.int64()),
    ("doc_id", pa.int64()),
    ("section", pa.string()),  # section path, e.g. "History > Early years"; "" for the lead
    ("text", pa.string()),
])


@dataclass
class SourceDocument:
    """One article as a source yields it, before categories and ids are assigned."""

    title: str
    abstract: str
    sections: list[tuple[str, str]]  # (section path, plain text), lead first
    url: str = ""
    label: str | None = None  # the source's own topic label, if it has one


@dataclass
class SkipCounts:
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, reason: str, n: int = 1) -> None:
        self.counts[reason] = self.counts.get(reason, 0) + n


@dataclass
class SourceNotes:
    """What a source tells about itself while it is read (a dump's language and site), for build_report.json."""

    language: str | None = None
    site_base_url: str | None = None
    warnings: list[str] = field(default_factory=list)


def _hash_id(key: str) -> int:
    # 63 bits so the id is a non-negative int64 (FAISS ids are signed, -1 means "none").
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "big") >> 1


def doc_id_for(title: str) -> int:
    return _hash_id(f"doc\x1f{title}")


def title_key(title: str) -> int:
    """One key for the titles of one article: "Café" with a composed é and with e plus a combining accent are
    one title whose bytes, and so whose doc_ids, differ. Only this key is normalised (NFC), not the doc_id, so
    no id of a knowledge base without such a pair changes."""
    return doc_id_for(unicodedata.normalize("NFC", title))


def para_id_for(doc_id: int, ordinal: int) -> int:
    return _hash_id(f"para\x1f{doc_id}\x1f{ordinal}")


ENGLISH_WIKIPEDIA = "https://en.wikipedia.org/wiki/"


def wikipedia_url(title: str, base: str = ENGLISH_WIKIPEDIA) -> str:
    """The article's URL on the wiki whose article paths start with base."""
    return base + title.replace(" ", "_")


def require_replaceable(kb_dir: Path) -> None:
    """A build replaces kb_dir whole: refuse one that holds files of someone else's (the build's input, notes)."""
    owned = {DOCUMENTS_FILE, PARAGRAPHS_FILE, BUILD_REPORT_FILE}
    foreign = sorted(entry.name for entry in kb_dir.iterdir() if entry.name not in owned) if kb_dir.is_dir() else []
    if foreign:
        listed = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise ParamsError(f"paths.kb_dir: {kb_dir} holds {listed}, which building the knowledge base would delete (it replaces "
                          f"the folder whole); point paths.kb_dir at a folder of its own, or move them out")


class KnowledgeBaseWriter:
    """Writes both Parquet files in row-group chunks into a scratch directory that replaces
    the output directory only on `commit()`, so a failed build never leaves a half-written
    knowledge base that DVC could cache as good."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        self.scratch = out_dir.with_name(out_dir.name + ".partial")
        shutil.rmtree(self.scratch, ignore_errors=True)
        self.scratch.mkdir(parents=True)
        self._documents = pq.ParquetWriter(self.scratch / DOCUMENTS_FILE, DOCUMENT_SCHEMA)
        self._paragraphs = pq.ParquetWriter(self.scratch / PARAGRAPHS_FILE, PARAGRAPH_SCHEMA)
        self.documents_written = 0
        self.paragraphs_written = 0

    def write(self, documents: dict[str, list], paragraphs: dict[str, list]) -> None:
        self.write_tables(pa.table(documents, schema=DOCUMENT_SCHEMA), pa.table(paragraphs, schema=PARAGRAPH_SCHEMA))

    def write_tables(self, documents: pa.Table, paragraphs: pa.Table) -> None:
        """One row group of each table."""
        self._documents.write_table(documents)
        self._paragraphs.write_table(paragraphs)
        self.documents_written += len(documents)
        self.paragraphs_written += len(paragraphs)

    def add_file(self, name: str, text: str) -> None:
        (self.scratch / name).write_text(text, encoding="utf-8")

    def __enter__(self) -> KnowledgeBaseWriter:
        return self

    def __exit__(self, *exc_info) -> None:
        if self.scratch.exists():  # not committed (an error, or an early return): nothing half-written stays
            self.abort()

    def commit(self) -> None:
        self._close()
        shutil.rmtree(self.out_dir, ignore_errors=True)
        os.replace(self.scratch, self.out_dir)

    def abort(self) -> None:
        self._close()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def _close(self) -> None:
        self._documents.close()
        self._paragraphs.close()
