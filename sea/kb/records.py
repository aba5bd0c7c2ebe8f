"""JSONL and Parquet knowledge bases: the paper's released format and plain title + text.

Paper format: {id, name, abstract, url, wikitext}, wikitext in markdown with `#` section titles.
Plain format: {title, text} with optional url, abstract and category."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sea.errors import SourceError
from sea.kb.schema import SkipCounts, SourceDocument, wikipedia_url
from sea.kb.sections import SectionTrail, is_prose

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
# Characters that str.splitlines ends a line at but Markdown does not (U+2028 LINE SEPARATOR, U+0085, form feed, ...):
# inside a paragraph they are spaces, and a "#" after one is text, not a heading.
_NOT_A_LINE_END = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def markdown_sections(markdown: str) -> list[tuple[str, str]]:
    """(section path, text) for the text before the first heading (path "") and each section."""
    trail = SectionTrail()
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in _NOT_A_LINE_END.sub(" ", markdown).splitlines():
        heading = _HEADING.match(line)
        if heading:
            sections.append((trail.enter(len(heading.group(1)), heading.group(2)), []))
        else:
            sections[-1][1].append(line)
    return [(path, "\n".join(lines).strip()) for path, lines in sections if is_prose(path)]


def record_to_document(record: dict, skips: SkipCounts) -> SourceDocument | None:
    if isinstance(record.get("wikitext"), str):  # the paper's format; a null one (a Parquet column of both) is not
        title, body = record.get("name"), record.get("wikitext")
    else:
        title, body = record.get("title"), record.get("text")
    if not isinstance(title, str) or not title.strip() or not isinstance(body, str):
        skips.add("missing title or text")
        return None
    title = title.strip()
    sections = markdown_sections(body)
    abstract = record.get("abstract")
    if not isinstance(abstract, str) or not abstract.strip():
        abstract = next((text for _, text in sections if text), "")
    url = record.get("url") if isinstance(record.get("url"), str) else wikipedia_url(title)
    label = record.get("category") if isinstance(record.get("category"), str) else None
    return SourceDocument(title=title, abstract=abstract.strip(), sections=sections, url=url, label=label)


def iter_jsonl(path: Path, skips: SkipCounts) -> Iterator[SourceDocument]:
    with open(path, "rb") as lines:
        for raw in lines:
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8-sig"))  # a BOM: Windows tools start UTF-8 text with one
            except UnicodeDecodeError:
                skips.add("invalid UTF-8")
                continue
            except json.JSONDecodeError:
                skips.add("invalid JSON")
                continue
            if not isinstance(record, dict):
                skips.add("invalid JSON")
                continue
            if (b"\\ud" in raw or b"\\uD" in raw) and not _encodable(record):
                skips.add("invalid UTF-8")
                continue
            document = record_to_document(record, skips)
            if document:
                yield document


def _encodable(record: dict) -> bool:
    """JSON takes an escape such as \\ud800 (half of a surrogate pair, alone) that no UTF-8 text can hold: the
    record would fail when its title is hashed or its text stored."""
    try:
        json.dumps(record, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def iter_parquet(path: Path, skips: SkipCounts) -> Iterator[SourceDocument]:
    try:
        batches = pq.ParquetFile(path).iter_batches(batch_size=1000)
        for batch in batches:
            for record in batch.to_pylist():
                document = record_to_document(record, skips)
                if document:
                    yield document
    except (pa.ArrowInvalid, OSError) as error:
        raise SourceError(f"{path}: not a readable Parquet file ({error}); re-export it") from None
