"""SQLite files derived from a knowledge base and kept beside it (`<kb_dir>.<name>.sqlite`): made
once, remade when the knowledge base's files change, read without holding them in memory."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from sea.errors import SourceError
from sea.files import replacing
from sea.kb.schema import DOCUMENTS_FILE, PARAGRAPHS_FILE


def derived_path(kb_dir: Path, name: str) -> Path:
    return kb_dir.with_name(f"{kb_dir.name}.{name}.sqlite")


def _source_key(kb_dir: Path, layout: int) -> str:
    files = [kb_dir / DOCUMENTS_FILE, kb_dir / PARAGRAPHS_FILE]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        raise SourceError(f"no knowledge base in {kb_dir.absolute()} ({' and '.join(missing)} missing); build it with "
                          f"`dvc repro` (or `sea kb build`), or set paths.kb_dir to where one is")
    return json.dumps([layout, *([str(f.resolve()), f.stat().st_size, f.stat().st_mtime_ns] for f in files)])


def _current(path: Path, key: str) -> bool:
    if not path.is_file():
        return False
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return db.execute("SELECT key FROM source").fetchone() == (key,)
    except sqlite3.Error:
        return False  # an older layout, or a damaged file: made again


def derived_store(kb_dir: Path, name: str, layout: int, fill: Callable[[sqlite3.Connection], None]) -> sqlite3.Connection:
    """A read-only connection to the knowledge base's `name` store, made by `fill` (in one
    transaction) when missing or out of date. Bump `layout` when `fill`'s tables change."""
    path, key = derived_path(kb_dir, name), _source_key(kb_dir, layout)
    if not _current(path, key):
        with replacing(path) as partial:
            db = sqlite3.connect(partial)
            with db:
                fill(db)
                db.execute("CREATE TABLE source (key TEXT)")
                db.execute("INSERT INTO source VALUES (?)", (key,))
            db.execute("VACUUM")
            db.close()
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
