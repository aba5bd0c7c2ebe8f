"""Where benchmarks put their figures: reports/benchmarks/<name>.json and <name>.md."""

from __future__ import annotations

import json
from pathlib import Path

from sea.files import write_text

OUT = Path("reports/benchmarks")


def write_report(name: str, report: dict, markdown: str) -> None:
    write_text(OUT / f"{name}.json", json.dumps(report, indent=2) + "\n")
    write_text(OUT / f"{name}.md", markdown)
    print(markdown)
