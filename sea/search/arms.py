"""The arms an audit runs side by side, each a small strategy in this one place: how it chooses a
batch, how it evaluates, whether it prunes. Adding an arm means adding it here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Arm:
    name: str
    retrieves: bool  # batch policy: draw around the active sources (else explore uniformly)
    prunes: bool  # pruning policy: deactivate sources whose descendants stopped failing
    plus: bool = False  # sea_plus's switches apply (search.plus)
    colour: str = "#7f8c8d"  # in every figure

    def weighted_draw(self, plus) -> bool:
        return self.plus and plus.weighted_draw

    def adaptive(self, plus) -> bool:
        return self.plus and plus.adaptive

    def evidence_sources(self, plus) -> bool:
        return self.plus and plus.evidence_sources

    def yield_pruning(self, plus) -> bool:
        return self.plus and plus.yield_pruning

    def ranked_draw(self, plus) -> bool:
        return self.plus and plus.weighted_draw and plus.ranked_draw

    def bandit(self, plus) -> bool:
        return self.plus and plus.bandit

    def region_retrieval(self, plus) -> bool:
        return self.plus and plus.region_retrieval

    def failure_prior(self, plus) -> bool:
        return self.plus and plus.failure_prior

    def guided_exploration(self, plus) -> bool:
        return self.plus and plus.guided_exploration

    def ranked_exploration(self, plus) -> bool:
        return self.guided_exploration(plus) and plus.ranked_exploration

    def fill_by_exploration(self, plus) -> bool:
        return self.plus and plus.fill_by_exploration


ARMS = {arm.name: arm for arm in (
    Arm("sea", retrieves=True, prunes=True, colour="#c0392b"),
    Arm("no_pruning", retrieves=True, prunes=False, colour="#e67e22"),
    Arm("random", retrieves=False, prunes=False),
    Arm("sea_plus", retrieves=True, prunes=True, plus=True, colour="#8e44ad"),
)}
BASELINE = "random"  # "× random" in every table: the arm that searches nothing
