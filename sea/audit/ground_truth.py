"""How an arm's findings compare with a simulated testee's planted blind spots."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sea.llm.simulated import plant_blind_spots
from sea.settings import Params


def planted_for(params: Params, testee: str) -> dict[int, int] | None:
    """doc_id -> region for a simulated testee; None for any other model (no ground truth)."""
    provider, _, name = testee.partition(":")
    if provider != "simulated":
        return None
    return plant_blind_spots(params.simulated[name], params)


def findings(paragraphs: pd.DataFrame, planted: dict[int, int], asked: pd.Series) -> dict:
    """paragraphs: an arm's paragraphs table (para_id, doc_id, source); asked: the paragraph of each
    question asked (its questions table's para_id). Returns the sources found and their precision
    (share inside planted blind spots), recall (share of planted regions holding at least one
    source) and the share of the questions asked that were asked inside blind spots (counted from
    the questions asked, not the paragraphs' `questions`, which is how many each holds: sea_plus
    stops asking most paragraphs early)."""
    sources = paragraphs[paragraphs["source"]]
    regions_found = {planted[d] for d in sources["doc_id"] if d in planted}
    regions = len(set(planted.values()))
    asked_inside = asked.map(dict(zip(paragraphs["para_id"], paragraphs["doc_id"], strict=True))).isin(list(planted))
    return {
        "sources": len(sources),
        "sources_inside": int(sources["doc_id"].isin(list(planted)).sum()),
        "precision": float(sources["doc_id"].isin(list(planted)).mean()) if len(sources) else None,
        "regions": regions,
        "regions_found": len(regions_found),
        "recall": len(regions_found) / regions if regions else None,
        "budget_inside": float(asked_inside.mean()) if len(asked) else None,
    }


def headroom(expected: np.ndarray, counts: np.ndarray, budgets: list[int]) -> dict:
    """What any search could find in a knowledge base whose paragraphs carry `counts` questions each,
    answered wrongly with `expected` probability: random's expected error rate (every question alike)
    and, per budget, the best possible — the budget's questions all taken where errors are likeliest,
    as a search that knew the ground truth would (the whole supply when it is smaller)."""
    per_question = np.repeat(np.asarray(expected, dtype=float), np.asarray(counts, dtype=int))
    best = np.sort(per_question)[::-1]
    random = float(best.mean()) if len(best) else None
    return {"questions": int(len(best)), "random": random,
            "best": {budget: float(best[:budget].mean()) if len(best) else None for budget in budgets}}
