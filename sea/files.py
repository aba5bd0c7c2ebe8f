"""Atomic writes: a file is either its previous version or the new one, never half of each."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from sea.errors import SeaError


REBUILD = "rebuild it with `dvc repro` (or restore DVC's copy with `dvc checkout`)"  # a damaged built artifact


class DamagedFile(SeaError):
    """A file the run wrote and reads back is unreadable or inconsistent."""

    def __init__(self, path: Path, problem: str, fix: str = "restore it from a backup or delete it and run again"):
        super().__init__(f"{path} is damaged ({problem}); {fix}")
        self.path, self.problem = path, problem


FILE_IN_THE_WAY = "a file stands where a folder should be: move it or give another path"


def make_folder(folder: Path) -> None:
    """mkdir -p, with a file standing where the folder should be said in one line: mkdir's FileExistsError names no
    fix, and the CLI cannot tell it from an EEXIST raised anywhere else."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise SeaError(f"{folder}: {FILE_IN_THE_WAY}, then run again") from None


_HOST = socket.gethostname().replace(".", "_").replace("-", "_")  # writers on other hosts of a shared disk are left alone


_SWEPT: set[Path] = set()  # directories this process has cleared of dead scratch files
_SWEPT_LOCK = threading.Lock()


def _remove_dead_scratch(directory: Path) -> None:
    """Scratch files in `directory` that a killed process of this host left behind (a live writer's
    stay), once per directory and process: a process killed while this one runs leaves its scratch
    for the next run. (A scan at every write made writing a directory of n files, a question bank,
    cost n^2.)"""
    with _SWEPT_LOCK:
        if directory in _SWEPT:
            return
        _SWEPT.add(directory)
    marker = f".{_HOST}-"
    with os.scandir(directory) as entries:
        names = [entry.name for entry in entries if entry.name.endswith(".partial") and marker in entry.name]
    for name in names:
        pid = name.rpartition(marker)[2].split("-")[0]
        if pid.isdigit() and not _alive(int(pid)):
            (directory / name).unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@contextmanager
def replacing(path: Path) -> Iterator[Path]:
    """A scratch file beside `path` to write (this process's and thread's own: two writing one path
    at once never share it); it replaces `path` only when the block completes, and is removed if the
    block fails."""
    make_folder(path.parent)
    _remove_dead_scratch(path.parent)
    partial = path.with_name(f"{path.name}.{_HOST}-{os.getpid()}-{threading.get_ident()}.partial")
    try:
        yield partial
    except BaseException as error:
        partial.unlink(missing_ok=True)
        if isinstance(error, OSError) and error.filename is None:  # a write to an open file names none: name it
            error.filename = str(path)
        raise
    try:
        os.replace(partial, path)
    except OSError as error:  # a folder where the file should go: named by the path asked for, not the scratch file
        partial.unlink(missing_ok=True)
        raise type(error)(error.errno, error.strerror, str(path)) from None


def write_json(path: Path, data: object, indent: int | None = 1) -> None:
    """Indented for a person to read; `indent=None` for the large files only the program reads (a
    question-bank entry, the search state): compact JSON is written by json's C encoder, an indented
    one by its pure-Python encoder, four times slower or more."""
    write_text(path, json.dumps(data, indent=indent, ensure_ascii=False))


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
    with replacing(path) as partial:
        pq.write_table(table, partial)


def write_text(path: Path, text: str) -> None:
    with replacing(path) as partial:
        partial.write_text(text, encoding="utf-8")
