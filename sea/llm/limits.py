"""Client-side concurrency and rate limits, enforced with asyncio inside the calling process."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence

from sea.settings import ModelSettings

# Pace 1% under the limit: network jitter can bring two requests closer together at the server
# than they left the client, and a server counting over a short window would see a burst.
_HEADROOM = 1.01


class _Pacer:
    """Spaces out a per-minute allowance evenly: each grant of `amount` units comes at least
    amount × 60 / per_minute seconds after the previous grant. Grants are made one at a time,
    at the moment the waiter actually runs, so a busy event loop cannot release a backlog of
    waiters all at once; a steady stream of requests saturates the limit."""

    def __init__(self, per_minute: float):
        self.interval = _HEADROOM * 60.0 / per_minute
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def take(self, amount: float = 1.0) -> None:
        async with self._lock:
            wait = self._next - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._next = time.monotonic() + amount * self.interval


class RateLimiter:
    def __init__(self, max_in_flight: int, requests_per_minute: float | None = None, tokens_per_minute: float | None = None):
        self._slots = asyncio.Semaphore(max_in_flight)
        self._requests = _Pacer(requests_per_minute) if requests_per_minute else None
        self._tokens = _Pacer(tokens_per_minute) if tokens_per_minute else None
        self._loop: asyncio.AbstractEventLoop | None = None

    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop of every client sharing this limiter: its semaphore and pacers bind to the
        first loop that waits on them, and would refuse any other."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop

    @classmethod
    def for_settings(cls, settings: Sequence[ModelSettings]) -> RateLimiter:
        """One limiter for roles that share an endpoint and account: the strictest of their limits."""

        def strictest(values):
            values = [v for v in values if v]
            return min(values) if values else None

        return cls(min(s.in_flight for s in settings), strictest(s.requests_per_minute for s in settings),
                   strictest(s.tokens_per_minute for s in settings))

    async def __aenter__(self) -> RateLimiter:
        await self._slots.acquire()
        return self

    async def __aexit__(self, *exc) -> None:
        self._slots.release()

    async def pace(self, tokens: int) -> None:
        """Wait until one more request of `tokens` tokens fits the per-minute limits."""
        if self._requests:
            await self._requests.take()
        if self._tokens:
            await self._tokens.take(tokens)


def backoff_seconds(attempt: int, retry_after: float | None, base: float, cap: float) -> float:
    """Exponential backoff with full jitter; a server's Retry-After is a floor, never shortened."""
    delay = random.uniform(0, min(cap, base * 2 ** attempt))
    return max(delay, retry_after or 0.0)
