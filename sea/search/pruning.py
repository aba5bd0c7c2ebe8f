"""sea_plus's pruning by evidence (search.plus.yield_pruning). The paper's rule compares a
source's descendants' mean error with gamma, and cuts true sources whose 50 nearest documents
reach past their blind spot. This one judges a source by its yield: of the paragraphs it
retrieved, how many became sources. With a Beta(1, 1) prior the yield's posterior is
Beta(1 + hits, 1 + misses); a source is pruned once the posterior probability that its yield
beats the arm's running yield (all sources' hits over all they retrieved) falls below
plus.prune_below. A source that retrieved nothing yet stays."""

from __future__ import annotations

from math import comb

from sea.search.dag import RelationDAG


def yield_counts(dag: RelationDAG, source: int, sources: set[int]) -> tuple[int, int]:
    """(hits, misses): the evaluated paragraphs `source` retrieved that did, and did not, become sources."""
    children = list(dag.graph.successors(source)) if source in dag.graph else []
    hits = sum(child in sources for child in children)
    return hits, len(children) - hits


def chance_to_beat(hits: int, misses: int, average: float) -> float:
    """P(Y > average) for Y ~ Beta(1 + hits, 1 + misses). For whole-number parameters it is the
    chance that at most `hits` of hits + misses + 1 uniform draws fall below `average`."""
    draws = hits + misses + 1
    return sum(comb(draws, k) * average ** k * (1 - average) ** (draws - k) for k in range(hits + 1))


def arm_yields(dag: RelationDAG, sources: set[int]) -> tuple[dict[int, tuple[int, int]], float | None]:
    """(hits, misses) of every source, and the arm's running yield: all hits over all that the
    sources retrieved (None before anything was retrieved)."""
    counts = {source: yield_counts(dag, source, sources) for source in sources}
    retrieved = sum(h + m for h, m in counts.values())
    return counts, (sum(h for h, _ in counts.values()) / retrieved if retrieved else None)


def prune_by_yield(dag: RelationDAG, active: set[int], sources: set[int], below: float) -> set[int]:
    """The active sources unlikely (posterior probability under `below`) to out-yield the arm."""
    counts, average = arm_yields(dag, sources)
    if average is None or average == 1:  # nothing to tell sources apart by
        return set()
    return {s for s in active if sum(counts[s]) and chance_to_beat(*counts[s], average) < below}
