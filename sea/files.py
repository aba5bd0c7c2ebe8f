"""Atomic writes: a file is either its previous version or the new one, never half of each."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sea.errors import SeaError


class DamagedFile(SeaError):
    """A file the run wrote and reads back is unreadable or inconsistent."""

    def __init__(self, path: Path, problem: str, fix: str = "restore it from a backup or delete it and run again"):
        super().__init__(f"{path} is damaged ({problem}); {fix}")
        self.path, self.problem = path, problem


def _partial(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.with_name(path.name + ".partial")


def write_json(path: Path, data: object) -> None:
    partial = _partial(path)
    partial.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(partial, path)


def read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DamagedFile(path, f"not valid JSON: {error}") from None


def read_table(path: Path) -> pa.Table:
    try:
        return pq.read_table(path)
    except (OSError, pa.ArrowException) as error:
        if isinstance(error, FileNotFoundError):
            raise
        raise DamagedFile(path, f"not readable Parquet: {error}") from None


def write_parquet(path: Path, table: pa.Table) -> None:
    partial = _partial(path)
    pq.write_table(table, partial)
    os.replace(partial, path)


def write_text(path: Path, text: str) -> None:
    partial = _partial(path)
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
