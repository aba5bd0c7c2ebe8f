"""Counts that tell whether a knowledge base looks right."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from sea.categories import CATEGORIES
from sea.kb.schema import DOCUMENTS_FILE, PARAGRAPHS_FILE


def kb_stats(kb_dir: Path) -> dict:
    documents = pq.read_table(kb_dir / DOCUMENTS_FILE, columns=["category", "category_source", "source"]).to_pandas()
    paragraphs = pq.ParquetFile(kb_dir / PARAGRAPHS_FILE).metadata.num_rows
    per_category = documents["category"].value_counts()
    return {
        "sources": sorted(documents["source"].unique().tolist()),
        "documents": len(documents),
        "paragraphs": paragraphs,
        "categories": {name: int(per_category.get(name, 0)) for name in CATEGORIES},
        "uncategorised": int((~documents["category"].isin(CATEGORIES)).sum()),
        "category_source": {k: int(v) for k, v in documents["category_source"].value_counts().sort_index().items()},
    }


def format_stats(stats: dict) -> str:
    lines = [
        f"source(s): {', '.join(stats['sources'])}",
        f"documents: {stats['documents']:,}    paragraphs: {stats['paragraphs']:,}",
        "",
        f"{'category':34} {'documents':>9}  share",
    ]
    for name, count in sorted(stats["categories"].items(), key=lambda item: -item[1]):
        share = count / stats["documents"] if stats["documents"] else 0.0
        lines.append(f"{name:34} {count:9,}  {share:5.1%}  {'#' * round(share * 40)}")
    lines.append("")
    lines.append("category assigned by: " + ", ".join(f"{k} {v:,}" for k, v in stats["category_source"].items()))
    return "\n".join(lines)
