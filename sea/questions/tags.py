"""What the entity tagger found in each text, kept on disk (`<cache_dir>/entities.sqlite`) so that
no text is tagged twice: not by a later or resumed audit on the same knowledge base, nor by
another process. Tagging neighbours is most of what the offline generator spends.

Rows are keyed by the tagger, a name that changes with the spaCy model, its version and the code
that reads its entities, and by the text: a cache made by other code is never read."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

from sea.sqlite_store import connect
from sea.vector_cache import text_key

_LOOKUP_BATCH = 900  # stays under SQLite's bound-parameter limit on old builds


class TagCache:
    def __init__(self, path: Path | None, tagger: str):
        self.tagger = tagger
        self._lock = threading.Lock()
        self._db = connect(path)
        self._db.execute("CREATE TABLE IF NOT EXISTS tags (tagger TEXT, key BLOB, found TEXT, PRIMARY KEY (tagger, key)) WITHOUT ROWID")

    def get_many(self, texts: Sequence[str], mode: str) -> dict[str, list]:
        """text -> what was stored for it in this mode, for the texts tagged before."""
        by_key = {text_key(text): text for text in texts}
        keys, found = list(by_key), {}
        for start in range(0, len(keys), _LOOKUP_BATCH):
            batch = keys[start:start + _LOOKUP_BATCH]
            with self._lock:
                rows = self._db.execute(f"SELECT key, found FROM tags WHERE tagger = ? AND key IN ({','.join('?' * len(batch))})",
                                        (f"{self.tagger}/{mode}", *batch)).fetchall()
            for key, stored in rows:
                try:
                    found[by_key[key]] = json.loads(stored)
                except (TypeError, json.JSONDecodeError):
                    continue  # a damaged row: tagged again
        return found

    def put_many(self, tagged: dict[str, list], mode: str) -> None:
        with self._lock, self._db:
            self._db.executemany("INSERT OR REPLACE INTO tags VALUES (?, ?, ?)",
                                 [(f"{self.tagger}/{mode}", text_key(text), json.dumps(found)) for text, found in tagged.items()])
