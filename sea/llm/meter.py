"""What a piece of work would cost if no reply were cached: a per-role tally of model calls.

The ledger records what was actually spent, so a cached reply costs nothing there. Reports need
the other figure too — the cost of the work itself — and it must not change when a resumed run
finds replies in the cache. A meter opened around a piece of work collects every completion made
inside it, including those in tasks it spawns (context variables are inherited)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field

from sea.llm.usage import Usage


@dataclass
class Meter:
    by_role: dict[str, Usage] = field(default_factory=dict)

    def add(self, role: str, usage: Usage) -> None:
        self.by_role.setdefault(role, Usage()).add(usage)

    def to_json(self) -> dict:
        return {role: asdict(usage) for role, usage in sorted(self.by_role.items())}

    @classmethod
    def from_json(cls, data: dict) -> Meter:
        return cls({role: Usage(**usage) for role, usage in data.items()})


_current: ContextVar[Meter | None] = ContextVar("sea_meter", default=None)


@contextmanager
def metered() -> Iterator[Meter]:
    meter = Meter()
    token = _current.set(meter)
    try:
        yield meter
    finally:
        _current.reset(token)


def record(role: str, input_tokens: int, output_tokens: int, cost_usd: float | None) -> None:
    meter = _current.get()
    if meter is not None:
        meter.add(role, Usage(calls=1, input_tokens=input_tokens, output_tokens=output_tokens, cost_usd=cost_usd))
