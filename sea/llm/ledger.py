"""Prices, the cost ledger (tokens and dollars per role and model) and the hard budget."""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass
from importlib import resources

import yaml

from sea.llm.types import BudgetExhausted
from sea.llm.usage import Usage

PricePerMillion = dict[str, float]  # {"input": ..., "output": ...}


def default_prices() -> dict[str, PricePerMillion]:
    return yaml.safe_load(resources.files("sea.llm").joinpath("prices.yaml").read_text(encoding="utf-8"))


class PriceTable:
    def __init__(self, prices: dict[str, PricePerMillion]):
        self._prices = prices

    def lookup(self, model: str) -> PricePerMillion | None:
        """The entry for the model string or its longest listed prefix; None when unknown."""
        matches = [key for key in self._prices if model == key or model.startswith(key)]
        return self._prices[max(matches, key=len)] if matches else None

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float | None:
        price = self.lookup(model)
        if price is None:
            return None
        return (input_tokens * price["input"] + output_tokens * price["output"]) / 1e6


class Ledger:
    """What was actually spent, per (role, model). Cached replies count as calls but cost nothing."""

    def __init__(self) -> None:
        self.usage: dict[tuple[str, str], Usage] = {}

    def _entry(self, role: str, model: str) -> Usage:
        return self.usage.setdefault((role, model), Usage())

    def record(self, role: str, model: str, input_tokens: int, output_tokens: int, cost_usd: float | None, cached: bool) -> None:
        paid = Usage(calls=1, input_tokens=input_tokens, output_tokens=output_tokens, cost_usd=cost_usd)
        self._entry(role, model).add(Usage(calls=1, cached_calls=1) if cached else paid)

    def record_failure(self, role: str, model: str) -> None:
        self._entry(role, model).add(Usage(failed_calls=1))

    def summary(self) -> list[dict]:
        return [{"role": role, "model": model, **asdict(usage)} for (role, model), usage in sorted(self.usage.items())]


@dataclass
class Reservation:
    calls: int
    tokens: int
    dollars: float


class Budget:
    """A hard limit in calls, tokens and/or dollars. Every call reserves its worst case before it
    is sent and settles to its actual use afterwards, so concurrent calls can never overshoot.
    Reservations are granted in the order they are asked for; one that fits the limit only once
    the calls in flight have settled waits for them, and the first that cannot fit even then
    exhausts the budget for good. So the calls made, and what they use, are the same at any
    concurrency. Cached replies are charged like fresh ones: the budget measures the work an
    audit did, so a resumed run stops exactly where an uninterrupted one would."""

    def __init__(self, calls: int | None = None, tokens: int | None = None, dollars: float | None = None,
                 spent: Reservation | None = None):
        self.limits = {"calls": calls, "tokens": tokens, "dollars": dollars}  # None: not limited
        self.spent = spent or Reservation(0, 0, 0.0)  # a resumed audit continues from what it had spent
        self.reserved = Reservation(0, 0, 0.0)
        self.exhausted: str | None = None  # why, once a call could not be covered
        self._turn = asyncio.Lock()  # FIFO: the first in line is served first
        self._settled = asyncio.Event()

    def _over(self, committed: Reservation, wanted: Reservation) -> str | None:
        """The first limit that committed + wanted would exceed."""
        for field, limit in self.limits.items():
            if limit is not None and getattr(committed, field) + getattr(wanted, field) > limit + 1e-12:
                return field
        return None

    async def reserve(self, tokens: int, dollars: float | None) -> Reservation:
        wanted = Reservation(1, tokens, dollars or 0.0)
        async with self._turn:
            while not self.exhausted:
                field = self._over(self.spent, wanted)
                if field:
                    self.exhausted = (f"budget exhausted: {field} limit {self.limits[field]}, {getattr(self.spent, field)} "
                                      f"spent and the next call needs up to {getattr(wanted, field)}")
                elif self._over(self._committed(), wanted):
                    self._settled.clear()
                    await self._settled.wait()  # a call in flight will settle and leave room, or not
                else:
                    self._add(self.reserved, wanted, +1)
                    return wanted
        raise BudgetExhausted(self.exhausted)

    def _committed(self) -> Reservation:
        return Reservation(self.spent.calls + self.reserved.calls, self.spent.tokens + self.reserved.tokens,
                           self.spent.dollars + self.reserved.dollars)

    @property
    def calls_left(self) -> int | None:
        """Calls that can still be reserved; None when calls are not limited."""
        if self.limits["calls"] is None:
            return None
        return self.limits["calls"] - self.spent.calls - self.reserved.calls

    def settle(self, reservation: Reservation, tokens: int, dollars: float | None) -> None:
        """Replace the reservation by the actual use (at most the reservation: max_tokens caps
        the output and the input estimate is an upper bound)."""
        self._add(self.reserved, reservation, -1)
        self._add(self.spent, Reservation(1, tokens, dollars or 0.0), +1)
        self._settled.set()

    def settle_worst_case(self, reservation: Reservation) -> None:
        """A call that may have been processed and billed without a reply we could read."""
        self.settle(reservation, reservation.tokens, reservation.dollars)

    def release(self, reservation: Reservation) -> None:
        """A call that never reached the server costs nothing."""
        self._add(self.reserved, reservation, -1)
        self._settled.set()

    @staticmethod
    def _add(target: Reservation, amount: Reservation, sign: int) -> None:
        target.calls += sign * amount.calls
        target.tokens += sign * amount.tokens
        target.dollars += sign * amount.dollars
