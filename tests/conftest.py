"""Shared fixtures: the real packaged sources, the real embedder and per-test params."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from sea.embeddings import Embedder  # noqa: E402
from sea.kb.fetch import PACKAGED_SOURCES, fetch  # noqa: E402
from sea.settings import EmbeddingSettings, Params, parse_params  # noqa: E402
from tests.finished_audit import finished_audit  # noqa: E402, F401  (a session fixture for every test directory)


# The files that take minutes (subprocess audits, the DVC pipeline, a Dask cluster). pytest-xdist
# hands out whole files in collection order: these go first, so that the two processes finish
# together on short files instead of one waiting while the other runs a long one at the end.
LONGEST_FILES = ("flows/test_reliability.py", "kb/test_multistream.py", "flows/test_audit.py", "test_pipeline.py",
                 "flows/test_deploy.py", "audit/test_steps.py")


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        path = item.path.as_posix()
        return next((i for i, name in enumerate(LONGEST_FILES) if path.endswith(f"/tests/{name}")), len(LONGEST_FILES))

    items.sort(key=rank)  # stable: each file's tests, and the other files, keep their order


@pytest.fixture(scope="session")
def packaged_dir(tmp_path_factory) -> Path:
    """vital10k.json and enwiki-sample.xml.bz2, downloaded from the registry packages once per session."""
    out = tmp_path_factory.mktemp("packaged")
    for source in PACKAGED_SOURCES.values():
        fetch(source, out)
    return out


@pytest.fixture(scope="session")
def enwiki_sample(packaged_dir) -> Path:
    return packaged_dir / "enwiki-sample.xml.bz2"


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return Embedder(EmbeddingSettings())


@pytest.fixture(scope="session")
def vital_sample(packaged_dir, tmp_path_factory) -> Params:
    """Every 20th vital10k article (500, all topics), built, embedded and indexed through the real stages."""
    from sea.embeddings import embed_documents
    from sea.index import build_index
    from sea.kb.build import build_knowledge_base

    root = tmp_path_factory.mktemp("vital")
    entries = json.loads((packaged_dir / "vital10k.json").read_text(encoding="utf-8"))
    subset = root / "vital-every-20th.json"
    subset.write_text(json.dumps(dict(list(entries.items())[::20])), encoding="utf-8")
    params = parse_params({
        "paths": {name: str(root / name) for name in ("packaged_dir", "kb_dir", "embeddings_dir", "index_dir", "cache_dir")},
        "kb": {"source": "vital10k", "input": str(subset), "max_documents": 500},
    })
    build_knowledge_base(params, progress=False)
    embed_documents(params, progress=False)
    build_index(params)
    return params


@pytest.fixture(scope="session")
def prefect_server():
    """The Prefect API URL of a throwaway server, shared by the session (and its subprocesses)."""
    from prefect.settings import get_current_settings
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield get_current_settings().api.url


@pytest.fixture
def make_params(tmp_path):
    """Params with every output under tmp_path; sections given as keyword dicts override the rest."""

    def build(**sections) -> Params:
        raw = {"paths": {name: str(tmp_path / name) for name in
                         ("packaged_dir", "kb_dir", "embeddings_dir", "index_dir", "cache_dir")}}
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
