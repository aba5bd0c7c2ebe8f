import errno
import os
import subprocess
import sys
import threading

import pytest

from sea.files import _HOST, read_json, replacing, write_json, write_text


def test_a_failed_write_leaves_the_old_file_and_no_scratch(tmp_path):
    path = tmp_path / "table.json"
    path.write_text("old")
    with pytest.raises(RuntimeError), replacing(path) as partial:
        partial.write_text("half")
        raise RuntimeError("killed mid-write")
    assert path.read_text() == "old" and list(tmp_path.iterdir()) == [path]


def test_two_writers_of_one_path_at_once_both_complete(tmp_path):
    """Two audits deriving one store from a shared knowledge base: each writes its own scratch
    file, and the path ends as one whole version, never a mix or a missing scratch file."""
    path, both_writing, failures = tmp_path / "store.sqlite", threading.Barrier(2), []

    def write(text: str) -> None:
        try:
            with replacing(path) as partial:
                partial.write_text(text[:3])
                both_writing.wait(timeout=10)
                with partial.open("a") as rest:
                    rest.write(text[3:])
        except Exception as error:  # noqa: BLE001  (reported to the test below)
            failures.append(error)

    writers = [threading.Thread(target=write, args=(text,)) for text in ("first version", "second version")]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert not failures and path.read_text() in ("first version", "second version")
    assert list(tmp_path.iterdir()) == [path]


def test_scratch_a_killed_writer_left_is_removed_and_a_live_ones_kept(tmp_path):
    path = tmp_path / "state.json"
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    dead = tmp_path / f"state.json.{_HOST}-{gone.stdout.strip()}-1.partial"  # its process has exited
    live = tmp_path / f"state.json.{_HOST}-{os.getpid()}-1.partial"  # another thread of this process, still writing
    dead.write_text("half")
    live.write_text("half")
    with replacing(path) as partial:
        partial.write_text("whole")
    assert path.read_text() == "whole" and not dead.exists() and live.exists()


def test_scratch_of_any_file_a_killed_writer_left_goes_at_the_first_write_into_its_directory(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True)
    dead = tmp_path / f"other.json.{_HOST}-{gone.stdout.strip()}-7.partial"
    foreign = tmp_path / f"other.json.elsewhere_host-{gone.stdout.strip()}-7.partial"  # another host's writer: not ours to judge
    dead.write_text("half")
    foreign.write_text("half")
    write_text(tmp_path / "state.json", "whole")
    assert not dead.exists() and foreign.exists()


def test_a_directory_is_scanned_for_scratch_once_not_at_every_write(tmp_path, monkeypatch):
    """A question bank writes thousands of files into one directory: a scan at every write made that n^2."""
    scanned, scandir = [], os.scandir
    monkeypatch.setattr(os, "scandir", lambda path: scanned.append(path) or scandir(path))
    for i in range(20):
        write_text(tmp_path / f"{i}.json", "{}")
    assert scanned == [tmp_path] and len(list(tmp_path.iterdir())) == 20


def test_compact_json_reads_back_the_same(tmp_path):
    data = {"para_id": 7, "questions": [{"options": ["Nile", "Niger", "Congo", "Zambezi"], "gold": 0}], "note": "é"}
    write_json(tmp_path / "compact.json", data, indent=None)
    write_json(tmp_path / "indented.json", data)
    assert read_json(tmp_path / "compact.json") == read_json(tmp_path / "indented.json") == data
    assert "\n" not in (tmp_path / "compact.json").read_text() and "\n" in (tmp_path / "indented.json").read_text()


def test_a_full_disk_names_the_file_being_written(tmp_path):
    """A bug hunt: "No space left on device" came without a path (a write to an open file names none)."""
    target = tmp_path / "state.json"
    with pytest.raises(OSError) as error:
        with replacing(target):
            raise OSError(errno.ENOSPC, "No space left on device")
    assert error.value.filename == str(target) and not list(tmp_path.iterdir())


def test_a_folder_where_the_file_should_go_is_named_and_no_scratch_is_left(tmp_path):
    path = tmp_path / "audit.html"
    path.mkdir()
    with pytest.raises(IsADirectoryError) as error:
        write_text(path, "report")
    assert error.value.filename == str(path)  # the path asked for, not the scratch file beside it
    assert list(tmp_path.iterdir()) == [path]
