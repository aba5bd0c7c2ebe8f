"""What the entity tagger found in each text, kept on disk (`<cache_dir>/entities.sqlite`) so that
no text is tagged twice: not by a later or resumed audit on the same knowledge base, nor by
another process. Tagging neighbours is most of what the offline generator spends.

Rows are keyed by the tagger, a name that changes with the spaCy model, its version and the code
that reads its entities, and by the text: a cache made by other code is never read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from sea.sqlite_store import KeyedTable, text_key


class TagCache:
    def __init__(self, path: Path | None, tagger: str):
        self.tagger = tagger
        self._table = KeyedTable(path, "tags", "tagger", "found")

    def get_many(self, texts: Sequence[str], mode: str) -> dict[str, list]:
        """text -> what was stored for it in this mode, for the texts tagged before."""
        by_key = {text_key(text): text for text in texts}
        found = {}
        for key, stored in self._table.get_many(f"{self.tagger}/{mode}", list(by_key)).items():
            try:
                found[by_key[key]] = json.loads(stored)
            except (TypeError, json.JSONDecodeError):
                continue  # a damaged row: tagged again
        return found

    def put_many(self, tagged: dict[str, list], mode: str) -> None:
        self._table.put_many(f"{self.tagger}/{mode}", ((text_key(text), json.dumps(found)) for text, found in tagged.items()))
