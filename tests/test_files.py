import os
import subprocess
import sys
import threading

import pytest

from sea.files import _HOST, replacing


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
