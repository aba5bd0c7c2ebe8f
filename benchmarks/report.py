"""Where benchmarks put their figures: reports/benchmarks/<name>.json and <name>.md."""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path("reports/benchmarks")


def write_report(name: str, report: dict, markdown: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (OUT / f"{name}.md").write_text(markdown, encoding="utf-8")
    print(markdown)
