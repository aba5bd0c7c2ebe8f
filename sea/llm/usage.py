"""What model calls used — calls, tokens, dollars — and the one rule for prices we do not know:
a sum with an unknown part is unknown (None), never a smaller figure that looks complete."""

from __future__ import annotations

from dataclasses import dataclass


def add_costs(*costs: float | None) -> float | None:
    """The sum in dollars, or None when any part is unknown (None, or NaN: a null read back from Parquet)."""
    total = 0.0
    for cost in costs:
        if cost is None or cost != cost:
            return None
        total += cost
    return total


@dataclass
class Usage:
    calls: int = 0
    cached_calls: int = 0
    failed_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = 0.0

    def add(self, other: Usage) -> None:
        self.calls += other.calls
        self.cached_calls += other.cached_calls
        self.failed_calls += other.failed_calls
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cost_usd = add_costs(self.cost_usd, other.cost_usd)
