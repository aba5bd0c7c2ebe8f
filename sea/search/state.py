"""Everything a search needs to continue exactly where it stopped, saved as JSON after each step."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sea.files import write_json
from sea.search.dag import RelationDAG


@dataclass
class SearchState:
    arm: str
    seed: int
    step: int = 0  # steps completed
    error_rates: dict[int, float] = field(default_factory=dict)  # evaluated paragraphs
    active_sources: set[int] = field(default_factory=set)
    pruned_sources: set[int] = field(default_factory=set)
    visited_docs: set[int] = field(default_factory=set)
    visited_paras: set[int] = field(default_factory=set)
    rng_state: dict | None = None
    dag: RelationDAG = field(default_factory=RelationDAG)
    spent: dict = field(default_factory=lambda: {"calls": 0, "tokens": 0, "dollars": 0.0})  # testee budget used
    finished: bool = False  # the budget (or the knowledge base) is spent

    def rng(self) -> np.random.Generator:
        """The search's random generator, continued from the saved state."""
        generator = np.random.default_rng(self.seed)
        if self.rng_state is not None:
            generator.bit_generator.state = self.rng_state
        return generator

    def keep_rng(self, generator: np.random.Generator) -> None:
        self.rng_state = generator.bit_generator.state

    @property
    def sources(self) -> set[int]:
        """Every paragraph ever promoted (active or pruned): none is searched from twice."""
        return self.active_sources | self.pruned_sources

    def to_json(self) -> dict:
        return {
            "arm": self.arm, "seed": self.seed, "step": self.step,
            "error_rates": {str(k): v for k, v in self.error_rates.items()},
            "active_sources": sorted(self.active_sources), "pruned_sources": sorted(self.pruned_sources),
            "visited_docs": sorted(self.visited_docs), "visited_paras": sorted(self.visited_paras),
            "rng_state": jsonable(self.rng_state), "dag": self.dag.to_json(), "spent": self.spent, "finished": self.finished,
        }

    @classmethod
    def from_json(cls, data: dict) -> SearchState:
        return cls(
            arm=data["arm"], seed=data["seed"], step=data["step"],
            error_rates={int(k): v for k, v in data["error_rates"].items()},
            active_sources=set(data["active_sources"]), pruned_sources=set(data["pruned_sources"]),
            visited_docs=set(data["visited_docs"]), visited_paras=set(data["visited_paras"]),
            rng_state=data["rng_state"], dag=RelationDAG.from_json(data["dag"]), spent=data["spent"], finished=data["finished"],
        )

    def save(self, path: Path) -> None:
        """Atomically: a crash mid-write leaves the previous state intact."""
        write_json(path, self.to_json(), indent=None)

    @classmethod
    def load(cls, path: Path) -> SearchState:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


def jsonable(value):
    """numpy's bit-generator state holds plain ints and strings, possibly nested; JSON keeps them exactly."""
    return json.loads(json.dumps(value, default=int)) if value is not None else None
