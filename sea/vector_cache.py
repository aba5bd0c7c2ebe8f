"""A persistent embedding cache keyed by model and text, so no text is embedded twice.

The knowledge-base build embeds documents whose category it must infer; the embedding stage
and the lazy paragraph embeddings then find those vectors here instead of recomputing them.
SQLite keeps memory bounded at any knowledge-base size and survives a killed process."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sea.sqlite_store import KeyedTable


class VectorCache:
    def __init__(self, path: Path | None, model: str):
        self.model = model
        self._table = KeyedTable(path, "vectors", "model", "vector")

    def get_many(self, keys: Sequence[bytes], dimension: int) -> dict[bytes, np.ndarray]:
        return {key: np.frombuffer(blob, dtype=np.float32) for key, blob in self._table.get_many(self.model, keys).items()
                if isinstance(blob, bytes) and len(blob) == 4 * dimension}  # else corrupt: recomputed

    def put_many(self, keys: Sequence[bytes], vectors: np.ndarray) -> None:
        self._table.put_many(self.model, ((key, np.ascontiguousarray(vector, dtype=np.float32).tobytes())
                                          for key, vector in zip(keys, vectors, strict=True)))
