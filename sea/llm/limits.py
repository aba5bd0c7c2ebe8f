"""Client-side concurrency and rate limits, enforced with asyncio inside the calling process."""

from __future__ import annotations

import asyncio
import random
import time


class _Pacer:
    """Spaces out consumption of a per-minute allowance evenly: a request for `amount` units
    starts no earlier than the previous one plus amount × 60 / per_minute seconds, so no
    sliding 60-second window ever holds more than the limit, and a steady stream saturates it."""

    def __init__(self, per_minute: float):
        self.interval = 60.0 / per_minute
        self._next = 0.0
        self._lock = asyncio.Lock()

    async def take(self, amount: float = 1.0) -> None:
        async with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + amount * self.interval
        if start > now:
            await asyncio.sleep(start - now)


class RateLimiter:
    def __init__(self, max_in_flight: int, requests_per_minute: float | None = None, tokens_per_minute: float | None = None):
        self._slots = asyncio.Semaphore(max_in_flight)
        self._requests = _Pacer(requests_per_minute) if requests_per_minute else None
        self._tokens = _Pacer(tokens_per_minute) if tokens_per_minute else None

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
