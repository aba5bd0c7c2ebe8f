"""A persistent embedding cache keyed by model and text, so no text is embedded twice.

The knowledge-base build embeds documents whose category it must infer; the embedding stage
and the lazy paragraph embeddings then find those vectors here instead of recomputing them.
SQLite keeps memory bounded at any knowledge-base size and survives a killed process."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sea.sqlite_store import connect

_LOOKUP_BATCH = 900  # stays under SQLite's bound-parameter limit on old builds


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class VectorCache:
    def __init__(self, path: Path | None, model: str):
        self.model = model
        # Shared by the event loop's thread and micro-batching worker threads, one at a time.
        self._lock = threading.Lock()
        self._db = connect(path)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT, key BLOB, vector BLOB, PRIMARY KEY (model, key)) WITHOUT ROWID"
        )

    def get_many(self, keys: Sequence[bytes], dimension: int) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        for start in range(0, len(keys), _LOOKUP_BATCH):
            batch = keys[start:start + _LOOKUP_BATCH]
            with self._lock:
                rows = self._db.execute(
                    f"SELECT key, vector FROM vectors WHERE model = ? AND key IN ({','.join('?' * len(batch))})",
                    (self.model, *batch),
                ).fetchall()
            for key, blob in rows:
                if isinstance(blob, bytes) and len(blob) == 4 * dimension:  # else corrupt: recompute it
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, keys: Sequence[bytes], vectors: np.ndarray) -> None:
        with self._lock, self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                [(self.model, key, np.ascontiguousarray(vector, dtype=np.float32).tobytes()) for key, vector in zip(keys, vectors, strict=True)],
            )
