"""sea_plus's retrieval that follows a region (search.plus.region_retrieval): a source's query is
the centroid of its own vector and those of the sources it led to (its source-descendants in the
DAG), so retrieval moves with a blind spot as it is mapped instead of circling one paragraph; and
its number of documents widens with its yield (up to twice k_documents) and narrows without it
(down to half), judged by the posterior mean of its yield against the arm's (see
sea.search.pruning)."""

from __future__ import annotations

import networkx as nx

from sea.search.dag import RelationDAG
from sea.search.pruning import arm_yields

K_RANGE = (0.5, 2.0)  # the widest narrowing and widening of k_documents


def source_regions(dag: RelationDAG, active: set[int], sources: set[int]) -> dict[int, list[int]]:
    """active source -> the other sources it led to (none yet: an empty list)."""
    return {s: sorted(nx.descendants(dag.graph, s) & sources) if s in dag.graph else [] for s in sorted(active)}


def documents_per_source(dag: RelationDAG, active: set[int], sources: set[int], k_documents: int) -> dict[int, int]:
    """active source -> documents to retrieve: k_documents times its posterior mean yield over the
    arm's yield, within K_RANGE; k_documents for a source that retrieved nothing yet, and for all
    while no retrieval has yielded a source."""
    counts, average = arm_yields(dag, sources)
    if not average:
        return {s: k_documents for s in sorted(active)}
    low, high = K_RANGE
    return {s: max(1, round(k_documents * min(high, max(low, (1 + counts[s][0]) / (2 + sum(counts[s])) / average))))
            if sum(counts[s]) else k_documents for s in sorted(active)}
