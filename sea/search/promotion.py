"""Which evaluated paragraphs become sources. The paper's rule promotes a paragraph whose error
rate exceeds tau, so one wrong answer out of one makes a source; the offline generator gives many
paragraphs one or two questions, and those sources are mostly noise. sea_plus with
search.plus.evidence_sources promotes on evidence instead: the posterior probability that the
paragraph's error rate exceeds tau, under a uniform prior (Beta(1 + wrong, 1 + right)), must reach
plus.source_confidence. At 0.8 and tau 0.5, 2 of 2 or 4 of 5 wrong answers promote; 1 of 1, 2 of
3 or 3 of 5 do not."""

from __future__ import annotations

from sea.search.pruning import chance_to_beat


def above_tau(error_rates: dict[int, float], tau: float) -> set[int]:
    """The paper's rule."""
    return {p for p, rate in error_rates.items() if rate > tau}


def convincing(counts: dict[int, tuple[int, int]], tau: float, confidence: float) -> set[int]:
    """counts: para_id -> (answered, wrong). The paragraphs whose error rate exceeds tau, as the paper's
    rule asks, with posterior probability at least `confidence` (at a small tau the posterior alone
    would promote a paragraph with no wrong answer: P(rate > 0) is 1 whatever the answers)."""
    return {p for p, (answered, wrong) in counts.items()
            if answered and wrong / answered > tau and chance_to_beat(wrong, answered - wrong, tau) >= confidence}
