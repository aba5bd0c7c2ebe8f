"""Prices, the cost ledger (tokens and dollars per role and model) and the hard budget."""

from __future__ import annotations

import asyncio
import json
import math
import os
import uuid
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from sea.llm.types import BudgetExhausted
from sea.llm.usage import Usage
from sea.settings import listed_price

PricePerMillion = dict[str, float]  # {"input": ..., "output": ...}


class PriceTable:
    def __init__(self, prices: dict[str, PricePerMillion]):
        self._prices = prices

    def lookup(self, model: str) -> PricePerMillion | None:
        """The entry for the model string or its longest listed prefix; None when unknown."""
        return listed_price(self._prices, model)

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float | None:
        price = self.lookup(model)
        if price is None:
            return None
        return (input_tokens * price["input"] + output_tokens * price["output"]) / 1e6


def dollars_text(dollars: float) -> str:
    """Cents from a dollar up; below it, two significant digits at least: $0.0061 does not read as $0.01, nor a paid
    call as $0.00."""
    if dollars >= 1 or dollars == 0:
        return f"${dollars:,.2f}"
    return f"${dollars:.{max(2, 1 - math.floor(math.log10(dollars)))}f}"


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

    def __add__(self, other: Reservation) -> Reservation:
        return Reservation(self.calls + other.calls, self.tokens + other.tokens, self.dollars + other.dollars)


def over_limits(limits: dict[str, float | None], spent: Reservation) -> dict[str, float]:
    """The figures of `spent` above their limits (calls, tokens, dollars; None: not limited), float sums' rounding aside."""
    return {field: getattr(spent, field) for field, limit in limits.items()
            if limit is not None and getattr(spent, field) > limit + 1e-12}


class SentCalls:
    """A write-ahead record, on disk, of the attempts sent to a server that may bill them, by step.
    Each attempt is written before it is sent and closed once its reply is in the response cache (a
    resumed run is answered from there, and charged again) or it surely never reached the server.
    An attempt left open — timed out, answered with nothing usable, or cut by a signal or a lost
    process — may have been billed. A step's state, once committed, counts what its attempts cost;
    a step redone after an interruption starts from the committed state plus the worst case of
    the attempts its cut run left open, so the calls the server saw stay within the budget. Each
    entry is one appended line, whole after a killed process; a machine lost mid-write can cut
    the last one, which is then not counted."""

    def __init__(self, path: Path, step: int):
        self.path, self.step = path, step

    def _append(self, entry: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (json.dumps(entry) + "\n").encode())
        finally:
            os.close(fd)

    def opened(self, reservation: Reservation) -> str:
        ticket = uuid.uuid4().hex
        self._append({"sent": ticket, "step": self.step, **asdict(reservation)})
        return ticket

    def closed(self, ticket: str, tokens: int | None = None, dollars: float | None = None) -> None:
        """`tokens` and `dollars`: what the reply that closes it used (none: the attempt never left)."""
        self._append({"closed": ticket, **({"tokens": tokens, "dollars": dollars} if tokens is not None else {})})

    def _entries(self) -> tuple[dict[str, dict], dict[str, dict]]:
        """(the attempts sent, by ticket; the closing entries, by ticket)."""
        sent, closed = {}, {}
        if self.path.is_file():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue  # the line a lost machine cut
                if "closed" in entry:
                    closed[entry["closed"]] = entry
                else:
                    sent[entry["sent"]] = entry
        return sent, closed

    def left_open(self, from_step: int) -> Reservation:
        """The worst case of the attempts left open in steps from `from_step` on."""
        sent, closed = self._entries()
        return sum((Reservation(entry["calls"], entry["tokens"], entry["dollars"]) for ticket, entry in sent.items()
                    if ticket not in closed and entry["step"] >= from_step), Reservation(0, 0, 0.0))

    def paid(self) -> dict:
        """What the server saw, over every step and every process: the attempts it answered and what
        their replies used (cached replies cost nothing and are not here), and the attempts left
        open, which it may have billed, with their worst case. Dollars are None without a price."""
        sent, closed = self._entries()
        replies = [entry for entry in closed.values() if "tokens" in entry and entry["closed"] in sent]
        unsettled = [entry for ticket, entry in sent.items() if ticket not in closed]
        dollars = [entry["dollars"] for entry in replies]
        return {"paid_calls": len(replies), "paid_tokens": sum(entry["tokens"] for entry in replies),
                "paid_dollars": None if None in dollars else sum(dollars),
                "unsettled_calls": len(unsettled), "unsettled_dollars": sum(entry["dollars"] for entry in unsettled)}


class Budget:
    """A hard limit in calls, tokens and/or dollars. Every call reserves its worst case before it
    is sent and settles to its actual use afterwards, so concurrent calls cannot overshoot, unless a
    server counts more than was reserved (settle; the client then reserves more, ModelClient._note_excess).
    Reservations are granted in the order they are asked for; one that fits the limit only once
    the calls in flight have settled waits for them, and the first that cannot fit even then
    exhausts the budget for good. So the calls made, and what they use, are the same at any
    concurrency. Cached replies are charged like fresh ones: the budget measures the work an
    audit did, so a resumed run stops exactly where an uninterrupted one would."""

    def __init__(self, calls: int | None = None, tokens: int | None = None, dollars: float | None = None,
                 spent: Reservation | None = None, sent: SentCalls | None = None):
        self.limits = {"calls": calls, "tokens": tokens, "dollars": dollars}  # None: not limited
        self.spent = replace(spent) if spent else Reservation(0, 0, 0.0)  # a resumed audit continues from what it had spent
        self.sent = sent  # None: nothing is billed (a simulated or local model)
        self.reserved = Reservation(0, 0, 0.0)
        self.exhausted: str | None = None  # why, once a call could not be covered
        self._turn = asyncio.Lock()  # FIFO: the first in line is served first
        self._settled = asyncio.Event()

    def _over(self, committed: Reservation, wanted: Reservation) -> str | None:
        """The first limit that committed + wanted would exceed."""
        return next(iter(over_limits(self.limits, committed + wanted)), None)

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
        return self.spent + self.reserved

    @property
    def calls_left(self) -> int | None:
        """Calls that can still be reserved; None when calls are not limited."""
        if self.limits["calls"] is None:
            return None
        return self.limits["calls"] - self.spent.calls - self.reserved.calls

    def settle(self, reservation: Reservation, tokens: int, dollars: float | None) -> None:
        """Replace the reservation by the actual use, as the server counted it: above the reservation
        when it ignored max_tokens or added a prompt of its own (the client then reserves more,
        ModelClient._note_excess), so `spent` can end above a limit by the calls then in flight."""
        self._add(self.reserved, reservation, -1)
        self._add(self.spent, Reservation(1, tokens, dollars or 0.0), +1)
        self._settled.set()

    def settle_worst_case(self, reservation: Reservation) -> None:
        """A call that may have been processed and billed without a reply we could read."""
        self.settle(reservation, reservation.tokens, reservation.dollars)

    def sending(self, reservation: Reservation) -> str | None:
        """Record an attempt about to be sent; its ticket closes it (None when nothing is billed)."""
        return self.sent.opened(reservation) if self.sent else None

    def close(self, ticket: str | None, tokens: int | None = None, dollars: float | None = None) -> None:
        """The attempt's reply, which used `tokens` and `dollars`, is in the response cache; or, with
        neither, the attempt never reached the server."""
        if ticket is not None:
            self.sent.closed(ticket, tokens, dollars)

    def release(self, reservation: Reservation) -> None:
        """A call that never reached the server costs nothing."""
        self._add(self.reserved, reservation, -1)
        self._settled.set()

    @staticmethod
    def _add(target: Reservation, amount: Reservation, sign: int) -> None:
        target.calls += sign * amount.calls
        target.tokens += sign * amount.tokens
        target.dollars += sign * amount.dollars
