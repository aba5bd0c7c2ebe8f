"""`sea findings RUN_ID`: what each testee of a run fails, in words — its source paragraphs
grouped into clusters, each named by its most distinctive terms and most central titles, with
its size, questions, error rate, categories and example wrong answers; for a simulated testee,
how well the clusters recover the planted blind spots. Built from the run directory alone."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sea.audit.ground_truth import planted_for
from sea.audit.outputs import arm_tables, asked_once
from sea.audit.rundir import PARAGRAPH_SCHEMA, PARAGRAPHS, RunDir, slug
from sea.choices import LETTERS
from sea.embeddings import DocumentVectors, document_vectors
from sea.files import replacing, write_json, write_text
from sea.findings.clusters import UNCLUSTERED, central_rows, cluster_by_anchors, nearest_centroid, recovery
from sea.findings.figures import map_figure, panel
from sea.findings.naming import distinctive_terms, written_names
from sea.index import load_index
from sea.llm.client import ModelClient
from sea.paragraphs import ParagraphStore
from sea.questions.model import Outcome
from sea.settings import FindingsSettings


_CENTROID_CHUNK = 50_000


@dataclass(frozen=True)
class Evaluated:
    """What a run asked one testee, over all its arms: one row per paragraph evaluated (a
    paragraph asked in several arms got the same questions and, from the cache, the same
    answers), and every question with the testee's answer."""
    paragraphs: pd.DataFrame  # para_id, doc_id, title, section, category, error_rate, questions, source
    asked: pd.DataFrame  # questions.parquet joined with answers.parquet


def evaluated(run: RunDir, testee: str) -> Evaluated:
    tables = [t for arm in run.arms() if arm.testee == testee and (t := arm_tables(arm))]
    if not tables:  # no step yet: paragraphs.parquet's columns, with a boolean `source` that selects rows
        return Evaluated(PARAGRAPH_SCHEMA.empty_table().to_pandas(), pd.DataFrame())
    paragraphs = pd.concat([t[PARAGRAPHS] for t in tables]).dropna(subset=["error_rate"])
    paragraphs = (paragraphs.assign(source=paragraphs.groupby("para_id")["source"].transform("any"))
                  .sort_values(["para_id", "questions"], ascending=[True, False]).drop_duplicates("para_id").reset_index(drop=True))
    return Evaluated(paragraphs, asked_once(tables))


@dataclass(frozen=True)
class TesteeFindings:
    summary: dict  # JSON-ready: the clusters, their names and figures, and the ground truth when known
    articles: pd.DataFrame  # one row per evaluated article: doc_id, cluster, source, error_rate, region (for the map)


def testee_findings(run: RunDir, testee: str, settings: FindingsSettings, articles: DocumentVectors,
                    store: ParagraphStore) -> TesteeFindings:
    """One testee's clusters (see the module docstring)."""
    seen = evaluated(run, testee)
    sources = seen.paragraphs[seen.paragraphs["source"]].reset_index(drop=True)
    vectors = articles.of(sources["doc_id"])
    labels, anchors = anchor_clusters(run, sources["doc_id"].to_numpy(), vectors, articles, settings)
    texts = store.rows(seen.paragraphs["para_id"]) if len(seen.paragraphs) else pd.DataFrame(columns=["title", "text"])
    text_of = dict(zip(texts["para_id"], texts["title"] + ". " + texts["text"], strict=True)) if len(texts) else {}
    clusters = sorted(set(labels) - {UNCLUSTERED})
    background = " ".join(text_of[p] for p in seen.paragraphs.loc[~seen.paragraphs["source"], "para_id"])
    terms = distinctive_terms([" ".join(text_of[p] for p in sources.loc[labels == c, "para_id"]) for c in clusters],
                              background, settings.terms)
    described = [{**_describe(c, terms[i], sources, vectors, labels, seen.asked, settings), "anchor_doc_id": anchors[c]}
                 for i, c in enumerate(clusters)]
    result = {"testee": testee, "paragraphs": len(seen.paragraphs), "sources": len(sources),
              "clustered": int((labels != UNCLUSTERED).sum()), "clusters": described,
              "assignments": {str(p): int(c) for p, c in zip(sources["para_id"], labels, strict=True)}}
    planted = planted_for(run.params, testee)
    cluster_of = dict(zip(sources["doc_id"], labels, strict=False))  # an article with several source paragraphs: the first's
    points = (seen.paragraphs.groupby("doc_id", sort=True)
              .agg(source=("source", "any"), error_rate=("error_rate", "mean")).reset_index())
    points["cluster"] = [int(cluster_of.get(d, UNCLUSTERED)) for d in points["doc_id"]]
    points["region"] = [planted.get(d, UNCLUSTERED) for d in points["doc_id"]] if planted is not None else None
    if planted is not None:
        inside = sources["doc_id"].isin(list(planted)).to_numpy()
        truth = np.array([planted[d] for d in sources.loc[inside, "doc_id"]], dtype=np.int64)
        result["ground_truth"] = {**recovery(labels[inside], truth), "sources_inside": int(inside.sum()),
                                  "regions": len(set(planted.values())), "regions_with_sources": len(set(truth.tolist())),
                                  "clusters_inside": _clusters_inside(labels, inside, truth),
                                  "nearest_region_centroid": _by_region_centroid(vectors[inside], truth, planted, articles)}
    return TesteeFindings(result, points)


def anchor_clusters(run: RunDir, doc_ids: np.ndarray, vectors: np.ndarray, articles: DocumentVectors,
                     settings: FindingsSettings) -> tuple[np.ndarray, list[int]]:
    """cluster_by_anchors with the candidate anchors the sources' own neighbourhoods hold."""
    if len(doc_ids) < settings.min_cluster_size:
        return np.full(len(doc_ids), UNCLUSTERED, dtype=np.int64), []
    index = load_index(run.params)
    candidates = np.unique(index.search(vectors, settings.anchor_neighbours)[1])
    candidates = candidates[candidates >= 0]
    neighbourhoods = index.search(articles.of(candidates), settings.anchor_neighbours)[1]
    return cluster_by_anchors(doc_ids, candidates, neighbourhoods, settings.min_cluster_size)


def _by_region_centroid(vectors: np.ndarray, truth: np.ndarray, planted: dict[int, int], articles: DocumentVectors) -> dict:
    """The recovery of a partition that knows the planted regions: each source put with the
    region whose documents' mean vector is nearest. A reference for how far these vectors tell the
    regions apart through their centres; the anchors, which follow neighbourhoods, can do better."""
    regions = sorted(set(planted.values()))
    doc_ids, region_of = np.array(list(planted), dtype=np.int64), np.array(list(planted.values()))
    sums = np.zeros((len(regions), vectors.shape[1]))
    for start in range(0, len(doc_ids), _CENTROID_CHUNK):  # a simulated testee on the full dump plants ~10^5 documents
        chunk = slice(start, start + _CENTROID_CHUNK)
        np.add.at(sums, np.searchsorted(regions, region_of[chunk]), articles.of(doc_ids[chunk]))
    assigned = np.array(regions)[nearest_centroid(vectors, sums)] if len(vectors) else np.zeros(0, dtype=np.int64)
    return {key: value for key, value in recovery(assigned, truth).items() if key != "rows"}


def _describe(cluster: int, terms: list[str], sources: pd.DataFrame, vectors: np.ndarray, labels: np.ndarray,
              asked: pd.DataFrame, settings: FindingsSettings) -> dict:
    central = sources.iloc[central_rows(vectors, labels, cluster)]
    questions = asked[asked["para_id"].isin(central["para_id"])]
    answered = questions[questions["outcome"] != Outcome.FAILED]
    wrong = answered[answered["outcome"] != Outcome.CORRECT]
    order = {p: i for i, p in enumerate(central["para_id"])}
    examples = wrong.assign(rank=wrong["para_id"].map(order)).sort_values(["rank", "question_id"]).drop_duplicates("para_id")
    return {"cluster": int(cluster), "name": None, "terms": terms, "titles": list(dict.fromkeys(central["title"]))[:settings.titles],
            "sources": len(central), "questions": len(answered), "wrong": len(wrong),
            "error_rate": len(wrong) / len(answered) if len(answered) else None,
            "categories": dict(Counter(central["category"]).most_common()),
            "examples": [_example(q) for q in examples.head(settings.examples).itertuples()]}


def _example(question) -> dict:
    options = list(question.options)
    chosen = LETTERS.index(question.parsed_letter) if question.parsed_letter in list(LETTERS[:len(options)]) else None
    return {"question_id": question.question_id, "question": question.question,
            "gold": options[LETTERS.index(question.gold_letter)],
            "answer": options[chosen] if chosen is not None else f"(no option: {question.raw_reply})"}


def _clusters_inside(labels: np.ndarray, inside: np.ndarray, truth: np.ndarray) -> list[dict]:
    """Per cluster holding sources inside planted regions: its region counts, so a reader sees
    which region each cluster recovers."""
    rows = []
    for cluster in sorted(set(labels[inside]) - {UNCLUSTERED}):
        regions = Counter(truth[labels[inside] == cluster].tolist())
        rows.append({"cluster": int(cluster), "regions": {str(r): n for r, n in sorted(regions.items())},
                     "outside": int(((labels == cluster) & ~inside).sum())})
    return rows


def write_findings(run: RunDir, settings: FindingsSettings, out: Path, namer: ModelClient | None = None) -> list[Path]:
    """findings.json, findings.md and map.png for every testee of the run, into `out`; with a
    `namer` (the generator model), each cluster also gets the one-line name it writes."""
    articles, store = document_vectors(run.params.paths.embeddings_dir), ParagraphStore(run.params.paths.kb_dir)
    found = [testee_findings(run, t.model, settings, articles, store) for t in run.params.testee_settings()]
    for clusters in (f.summary["clusters"] for f in found if namer is not None and f.summary["clusters"]):
        for cluster, name in zip(clusters, namer.run(written_names(namer, clusters)), strict=True):
            cluster["name"] = name
    result = {"run_id": run.run_id, "run_steps": run.progress(), "settings": settings.model_dump(mode="json"),
              "testees": [f.summary for f in found]}
    written = [out / "findings.json", out / "findings.md"]
    write_json(written[0], result)
    write_text(written[1], findings_markdown(result))
    panels = [panel(f.summary["testee"], articles.of(f.articles["doc_id"]), f.articles, settings.seed) for f in found]
    if any(panels):
        written.append(out / "map.png")
        with replacing(written[-1]) as partial:
            partial.write_bytes(map_figure([p for p in panels if p]))
    return written


def findings_metrics(result: dict) -> dict[str, float | None]:
    """Per testee: clusters, the share of sources clustered and, against planted blind spots, the recovery."""
    metrics = {}
    for testee in result["testees"]:
        prefix = f"findings.{slug(testee['testee'])}"
        truth = testee.get("ground_truth", {})
        metrics.update({f"{prefix}.clusters": len(testee["clusters"]),
                        f"{prefix}.clustered_share": testee["clustered"] / testee["sources"] if testee["sources"] else None,
                        **{f"{prefix}.{key}": truth.get(key) for key in ("adjusted_rand", "homogeneity", "completeness")},
                        f"{prefix}.region_centroid_adjusted_rand": truth.get("nearest_region_centroid", {}).get("adjusted_rand")})
    return metrics


def separability_sentence(truth: dict) -> str:
    """What the nearest-region-centroid partition scores, in words ("" for findings written before it was measured)."""
    bound = truth.get("nearest_region_centroid")
    if bound is None:
        return ""
    return (f"A partition that knew the regions, each source put with the nearest region's mean vector, would score "
            f"adjusted Rand {bound['adjusted_rand']:.2f}: a reference for how far these vectors tell the regions apart.")


def findings_markdown(result: dict) -> str:
    lines = [f"# What the audit `{result['run_id']}` found", ""]
    for testee in result["testees"]:
        lines += [f"## {testee['testee']}", "",
                  f"{testee['sources']} source paragraphs (of {testee['paragraphs']} evaluated, all the run's arms), {testee['clustered']} "
                  f"of them in {len(testee['clusters'])} clusters; the rest are unclustered.", ""]
        if not testee["clusters"]:
            lines += [f"Too few sources to cluster (a cluster needs {result['settings']['min_cluster_size']}).", ""]
        else:
            named = any(c["name"] for c in testee["clusters"])  # offline none is: the terms and titles are the names
            header = ["cluster", *(["name"] if named else []), "distinctive terms", "central titles", "sources", "questions",
                      "error rate", "categories"]
            lines += ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
            for c in testee["clusters"]:
                rate = f"{c['error_rate']:.2f}" if c["error_rate"] is not None else "-"
                categories = ", ".join(f"{name} {n}" for name, n in c["categories"].items())
                name = [(c["name"] or "").replace("|", "\\|")] if named else []
                cells = [c["cluster"], *name, ", ".join(c["terms"]), "; ".join(c["titles"]), c["sources"], c["questions"], rate, categories]
                lines.append("| " + " | ".join(map(str, cells)) + " |")
            lines.append("")
        truth = testee.get("ground_truth")
        if truth and truth["rows"]:
            lines += [f"Planted blind spots: {truth['sources_inside']} sources lie in {truth['regions_with_sources']} of the "
                      f"{truth['regions']} planted regions. Against those regions the clusters score adjusted Rand "
                      f"{truth['adjusted_rand']:.2f}, homogeneity {truth['homogeneity']:.2f} (each cluster holds one region), "
                      f"completeness {truth['completeness']:.2f} (each region lies in one cluster). {separability_sentence(truth)}", ""]
        for c in testee["clusters"][:10]:
            for example in c["examples"]:
                lines.append(f"- cluster {c['cluster']}, `{example['question_id']}`: {example['question']} — "
                             f"gold *{example['gold']}*, answered *{example['answer']}*")
        lines.append("")
    return "\n".join(lines)
