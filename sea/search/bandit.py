"""sea_plus's concentration on regions already found (search.plus.bandit): each step's batch is
shared among the active sources by Thompson sampling on their yield posteriors (see
sea.search.pruning). Each slot goes to the source with the highest draw from its
Beta(1 + hits, 1 + misses), so sources whose retrievals keep failing get more of the batch while
a new source, with no evidence yet, still gets its chance."""

from __future__ import annotations

import numpy as np

from sea.search.retrieval import draw


def allocate(counts: dict[int, tuple[int, int]], slots: int, rng: np.random.Generator) -> dict[int, int]:
    """Slots per source from (hits, misses) per source; they sum to `slots` (no source: none)."""
    sources = sorted(counts)
    if not sources or slots <= 0:
        return {}
    hits = np.array([counts[s][0] for s in sources]) + 1
    misses = np.array([counts[s][1] for s in sources]) + 1
    winners = np.argmax(rng.beta(hits, misses, size=(slots, len(sources))), axis=1)
    return {s: int(n) for s, n in zip(sources, np.bincount(winners, minlength=len(sources)), strict=True) if n}


def bandit_draw(candidates: dict[int, dict[int, float]], counts: dict[int, tuple[int, int]], size: int,
                rng: np.random.Generator, weights: dict[int, float] | None = None) -> list[int]:
    """Up to `size` candidates (para_id -> {source: similarity}): each source's slots drawn from
    what it retrieved; slots a source cannot fill go to the rest of the pool."""
    retrieved_by: dict[int, list[int]] = {}
    for candidate, sources in sorted(candidates.items()):
        for source in sources:
            retrieved_by.setdefault(source, []).append(candidate)
    chosen: set[int] = set()
    for source, slots in sorted(allocate({s: counts[s] for s in retrieved_by}, size, rng).items()):
        chosen.update(draw([c for c in retrieved_by[source] if c not in chosen], slots, rng, weights))
    chosen.update(draw([c for c in candidates if c not in chosen], size - len(chosen), rng, weights))
    return sorted(chosen)
