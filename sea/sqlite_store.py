"""Opening the project's SQLite caches the same way everywhere, and the keyed table that the
embedding and tag caches share."""

from __future__ import annotations

import errno
import hashlib
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from sea.files import DamagedFile

_LOOKUP_BATCH = 900  # stays under SQLite's bound-parameter limit on old builds


def connect(path: Path | None) -> sqlite3.Connection:
    """A connection to the file at `path` (created with its folder), or to memory when None.
    Usable from worker threads; callers serialise access themselves."""
    if path is None:
        return sqlite3.connect(":memory:", check_same_thread=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")  # readers never block the writer; a killed process loses nothing committed
        db.execute("PRAGMA synchronous=NORMAL")  # safe with WAL; skips an fsync per write
    except sqlite3.DatabaseError as error:  # "file is not a database": another file, or one damaged on disk
        db.close()
        raise DamagedFile(path, f"not a usable SQLite database: {error}",
                          "it is a cache: delete it and run again (what it held is made again; a response cache's replies "
                          "are asked again, and paid for again from an API)") from None
    return db


@contextmanager
def writing(db: sqlite3.Connection, path: Path | None) -> Iterator[None]:
    """A transaction, in which a full disk is an OSError naming the file: the command then says what to
    free in one line, as for any other file (SQLite says only "database or disk is full")."""
    try:
        with db:
            yield
    except sqlite3.OperationalError as error:
        if "full" not in str(error):
            raise
        raise OSError(errno.ENOSPC, f"No space left on device ({error})", None if path is None else str(path)) from None


def text_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


class KeyedTable:
    """One table of (scope, key, value) rows, the scope naming what made the value (a model, a
    tagger): looked up and written in batches, safe to share between threads. The column names
    are the table's own, so cache files written before this class stay readable."""

    def __init__(self, path: Path | None, table: str, scope_column: str, value_column: str):
        self._select = f"SELECT key, {value_column} FROM {table} WHERE {scope_column} = ? AND key IN "
        self._insert = f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)"
        # Shared by the event loop's thread and micro-batching worker threads, one at a time.
        self._lock = threading.Lock()
        self._path, self._db = path, connect(path)
        self._db.execute(f"CREATE TABLE IF NOT EXISTS {table} ({scope_column} TEXT, key BLOB, {value_column} BLOB, "
                         f"PRIMARY KEY ({scope_column}, key)) WITHOUT ROWID")

    def get_many(self, scope: str, keys: Sequence[bytes]) -> dict[bytes, object]:
        """key -> the value stored under `scope`, for the keys that have one."""
        found = {}
        for start in range(0, len(keys), _LOOKUP_BATCH):
            batch = keys[start:start + _LOOKUP_BATCH]
            with self._lock:
                found.update(self._db.execute(f"{self._select}({','.join('?' * len(batch))})", (scope, *batch)).fetchall())
        return found

    def put_many(self, scope: str, values: Iterable[tuple[bytes, object]]) -> None:
        with self._lock, writing(self._db, self._path):
            self._db.executemany(self._insert, [(scope, key, value) for key, value in values])
