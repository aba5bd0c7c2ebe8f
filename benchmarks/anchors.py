"""`make bench-anchors`: how the error clusters of the default audit recover the simulated testee's
planted blind spots as the anchors' neighbourhood grows (findings.anchor_neighbours), beside
average-linkage clustering of the sources among themselves (the method before anchors).

Writes reports/benchmarks/anchors.json and .md. Reads the finished default run and the index; no
model is called."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.cluster import AgglomerativeClustering

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from benchmarks.report import write_report  # noqa: E402
from sea.audit.ground_truth import planted_for  # noqa: E402
from sea.audit.rundir import open_run  # noqa: E402
from sea.embeddings import DocumentVectors  # noqa: E402
from sea.findings.analysis import anchor_clusters, evaluated  # noqa: E402
from sea.findings.clusters import UNCLUSTERED, recovery  # noqa: E402
from sea.settings import load_params  # noqa: E402

COMMAND = "make bench-anchors"
NEIGHBOURHOODS = (25, 50, 75, 100, 150, 200, 300)
LINKAGE_THRESHOLDS = (0.6, 0.7, 0.8, 0.9)


def linkage_labels(vectors: np.ndarray, threshold: float, min_size: int) -> np.ndarray:
    labels = AgglomerativeClustering(n_clusters=None, distance_threshold=threshold, metric="cosine",
                                     linkage="average").fit_predict(vectors)
    sizes = np.bincount(labels)
    return np.where(sizes[labels] >= min_size, labels, UNCLUSTERED)


def scored(method: str, setting: float, labels: np.ndarray, inside: np.ndarray, truth: np.ndarray) -> dict:
    return {"method": method, "setting": setting, "clusters": len(set(labels.tolist()) - {UNCLUSTERED}),
            "clustered": int((labels != UNCLUSTERED).sum()),
            **{key: value for key, value in recovery(labels[inside], truth).items() if key != "rows"}}


def measure(run_id: str) -> dict:
    params = load_params()
    run = open_run(params.audit.runs_dir, run_id, None)
    articles = DocumentVectors(run.params.paths.embeddings_dir)
    rows = []
    for testee in [t.model for t in run.params.testee_settings()]:
        planted = planted_for(run.params, testee)
        if planted is None:
            continue
        seen = evaluated(run, testee)
        sources = seen.paragraphs[seen.paragraphs["source"]].reset_index(drop=True)
        vectors = articles.of(sources["doc_id"])
        inside = sources["doc_id"].isin(list(planted)).to_numpy()
        truth = np.array([planted[d] for d in sources.loc[inside, "doc_id"]], dtype=np.int64)
        for k in NEIGHBOURHOODS:
            settings = params.findings.model_copy(update={"anchor_neighbours": k})
            labels, _ = anchor_clusters(run, sources["doc_id"].to_numpy(), vectors, articles, settings)
            rows.append({"testee": testee, "sources": len(sources), "inside": int(inside.sum()),
                         **scored("anchors", k, labels, inside, truth)})
        for threshold in LINKAGE_THRESHOLDS:
            rows.append({"testee": testee, "sources": len(sources), "inside": int(inside.sum()),
                         **scored("average linkage", threshold, linkage_labels(vectors, threshold, params.findings.min_cluster_size),
                                  inside, truth)})
    return {"command": COMMAND, "date": time.strftime("%Y-%m-%d"), "run": run_id,
            "default_anchor_neighbours": params.findings.anchor_neighbours, "rows": rows}


def markdown(report: dict) -> str:
    lines = [f"# Error clusters against the planted blind spots (`{report['command']}`, {report['date']})", "",
             f"Run `{report['run']}`: each simulated testee's sources clustered around anchor articles with neighbourhoods "
             f"of each size (the default is {report['default_anchor_neighbours']}), and by average linkage on the cosine "
             "distance cut at each threshold. Recovery over the sources inside planted regions; unclustered sources count "
             "as clusters of their own.", "",
             "| testee | method | setting | clusters | clustered | adjusted Rand | homogeneity | completeness |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for row in report["rows"]:
        lines.append(f"| {row['testee']} | {row['method']} | {row['setting']} | {row['clusters']} | "
                     f"{row['clustered']} of {row['sources']} | {row['adjusted_rand']:.3f} | {row['homogeneity']:.3f} | "
                     f"{row['completeness']:.3f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    started = time.perf_counter()
    report = measure("default")
    report["seconds"] = round(time.perf_counter() - started, 1)
    write_report("anchors", report, markdown(report))


if __name__ == "__main__":
    main()
