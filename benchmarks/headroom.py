"""`make bench-headroom`: an estimate of how much any search could find in the default knowledge base
with the offline questions, per simulated profile — random's expected error rate and the best
possible at each budget (every question taken where the planted ground truth puts errors likeliest).
It tells how far `sea` and `sea_plus` could get (issue 15's targets are ratios to random at these budgets).

Writes reports/benchmarks/headroom.json and .md. Every paragraph of the knowledge base gets its
questions from the generator (the audit's own, with its caches: after `make audit` most are tagged),
its duplicate filter run over the whole knowledge base rather than over what one audit asks, so the
supply is if anything undercounted. The error rates are the simulated testee's ground truth per
document; the testee itself finds a document by the question's text, so its measured rates can sit
a little above these (an estimate, not a bound)."""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from benchmarks.discovery import PROFILES, SETTINGS  # noqa: E402
from benchmarks.report import write_report  # noqa: E402
from sea.audit.ground_truth import headroom, planted_for  # noqa: E402
from sea.embeddings import Embedder, embedding_cache_path  # noqa: E402
from sea.kb.schema import DOCUMENTS_FILE  # noqa: E402
from sea.llm.simulated import expected_error  # noqa: E402
from sea.questions.generate import QuestionGenerator  # noqa: E402
from sea.questions.model import KEPT  # noqa: E402
from sea.settings import load_params  # noqa: E402

COMMAND = "make bench-headroom"
BATCH = 40  # paragraphs tagged together, as an audit step does


def question_counts(params) -> pd.DataFrame:
    """para_id, doc_id, base questions and phrasings kept, for every paragraph of the knowledge base."""
    generator = QuestionGenerator(params, Embedder(params.embedding, embedding_cache_path(params)))
    para_ids = generator.store.para_ids().tolist()
    base, phrasings = Counter(), Counter()
    for start in tqdm(range(0, len(para_ids), BATCH), desc="questions", unit="batch"):
        batch = para_ids[start:start + BATCH]
        generator.prepare(batch)
        kept = [q for q in generator.for_paragraphs(batch) if q.verdict == KEPT]
        base.update(q.para_id for q in kept if q.variant == 0)
        phrasings.update(q.para_id for q in kept)
    counts = generator.store.rows(para_ids)[["para_id", "doc_id"]].reset_index(drop=True)
    return counts.assign(base=[base[p] for p in para_ids], phrasings=[phrasings[p] for p in para_ids])


def phrasing_counts(params, counts: pd.DataFrame) -> dict[int, pd.Series]:
    """Questions per paragraph at each number of phrasings a discovery setting asks (or the audit's): 1 is the
    base questions; any other than the audit's own is generated again with that many."""
    found = {1: counts["base"], params.questions.variants: counts["phrasings"]}
    for variants in sorted({overrides.get("questions.variants", params.questions.variants) for overrides, _ in SETTINGS.values()}):
        if variants not in found:
            found[variants] = question_counts(load_params(overrides={"questions.variants": variants}))["phrasings"]
    return dict(sorted(found.items()))


def measure(params, counts: pd.DataFrame, phrasings_of: dict[int, pd.Series], budgets: list[int]) -> list[dict]:
    categories = pd.read_parquet(params.paths.kb_dir / DOCUMENTS_FILE, columns=["doc_id", "category"])
    category_of = dict(zip(categories["doc_id"], categories["category"], strict=True))
    results = []
    for name in PROFILES:
        profile, planted = params.simulated[name], planted_for(params, f"simulated:{name}")
        expected = np.array([expected_error(profile, planted, category_of[d], d) for d in counts["doc_id"]])
        inside = counts["doc_id"].isin(list(planted)).to_numpy()
        for phrasings, supply in phrasings_of.items():
            result = headroom(expected, supply.to_numpy(), budgets)
            results.append({"profile": name, "phrasings": phrasings, "questions": result["questions"],
                            "inside_blind_spots": int(supply[inside].sum()), "random": result["random"],
                            "best": {str(budget): rate for budget, rate in result["best"].items()}})
    return results


def markdown(report: dict) -> str:
    budgets = report["budgets"]
    lines = ["# Headroom: what any search could find, estimated", "",
             f"Command: `{report['command']}` ({report['seconds']:.0f} s, {report['date']}). The knowledge base's "
             f"{report['paragraphs']:,} paragraphs, {report['with_questions']:,} of them with a question; every question "
             "is answered wrongly with the simulated testee's expected error rate (0.75 inside a planted blind spot, the "
             "profile's rate elsewhere). *Random* is the error rate of asking every question alike; *best* takes the "
             "budget's questions where errors are likeliest, as a search that knew the blind spots would. An estimate: the "
             "testee itself finds a document by the question's text, so its measured error rates can sit a little higher.", "",
             "| profile | phrasings a question | questions | in blind spots | random | "
             + " | ".join(f"best at {b:,} (× random)" for b in budgets) + " |",
             "| --- | --- | --- | --- | --- | " + " | ".join("---" for _ in budgets) + " |"]
    for row in report["rows"]:
        random = f"{row['random']:.3f}" if row["random"] else "-"  # no question at all: nothing to compare
        best = " | ".join(f"{row['best'][str(b)]:.3f} ({row['best'][str(b)] / row['random']:.2f}×)" if row["random"] else "-"
                          for b in budgets)
        lines.append(f"| {row['profile']} | {row['phrasings']} | {row['questions']:,} | {row['inside_blind_spots']:,} | "
                     f"{random} | {best} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    params = load_params()
    started = time.perf_counter()
    counts = question_counts(params)
    budgets = sorted({params.budget.testee_calls, *(b for _, setting_budgets in SETTINGS.values() for b in setting_budgets)} - {None})
    report = {"command": COMMAND, "date": time.strftime("%Y-%m-%d"), "budgets": budgets,
              "paragraphs": len(counts), "with_questions": int((counts["base"] > 0).sum()),
              "rows": measure(params, counts, phrasing_counts(params, counts), budgets),
              "seconds": round(time.perf_counter() - started, 1)}
    write_report("headroom", report, markdown(report))


if __name__ == "__main__":
    main()
