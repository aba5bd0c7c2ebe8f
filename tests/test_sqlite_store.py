"""The project's SQLite caches (sea.sqlite_store): a damaged file and a full disk are named."""

import errno
import sqlite3

import pytest

from sea.files import DamagedFile
from sea.sqlite_store import KeyedTable, connect


def test_a_file_that_is_not_a_database_is_named_with_the_fix(tmp_path):
    """A bug hunt: a damaged cache gave sqlite3's "file is not a database", naming no file."""
    damaged = tmp_path / "entities.sqlite"
    damaged.write_bytes(b"not a database, but long enough to have a header " * 100)
    with pytest.raises(DamagedFile, match=r"entities\.sqlite is damaged \(not a usable SQLite database: file is not a "
                                          r"database\); it is a cache: delete it and run again"):
        connect(damaged)


def test_a_full_disk_under_a_cache_is_an_os_error_naming_the_file(tmp_path):
    """A bug hunt: "database or disk is full" came as 24 tracebacks and no one-line error."""
    path = tmp_path / "embeddings.sqlite"
    table = KeyedTable(path, "vectors", "model", "vector")
    with sqlite3.connect(path) as db:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
    table._db.execute(f"PRAGMA max_page_count = {pages + 1}")  # the disk fills at the next page or so
    with pytest.raises(OSError) as error:
        table.put_many("m", [(bytes([i]) * 16, b"x" * 4000) for i in range(50)])
    assert error.value.errno == errno.ENOSPC and error.value.filename == str(path)
    assert "database or disk is full" in error.value.strerror
