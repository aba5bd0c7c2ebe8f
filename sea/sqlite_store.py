"""Opening the project's SQLite caches the same way everywhere."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def connect(path: Path | None) -> sqlite3.Connection:
    """A connection to the file at `path` (created with its folder), or to memory when None.
    Usable from worker threads; callers serialise access themselves."""
    if path is None:
        return sqlite3.connect(":memory:", check_same_thread=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")  # readers never block the writer; a killed process loses nothing committed
    db.execute("PRAGMA synchronous=NORMAL")  # safe with WAL; skips an fsync per write
    return db
