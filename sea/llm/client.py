"""One interface for every role and provider: cache, budget, rate limits, retries, ledger."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Sequence
from typing import Protocol, TypeVar

from sea.llm import meter
from sea.llm.cache import ResponseCache, cache_key
from sea.llm.ledger import Budget, Ledger, PriceTable
from sea.llm.limits import RateLimiter, backoff_seconds
from sea.llm.types import BudgetExhausted, CallFailure, Completion, Decoding, Message, ProviderError, ProviderReply
from sea.settings import ModelSettings

log = logging.getLogger(__name__)
T = TypeVar("T")

# Chat templates add a few tokens per message; a token never covers less than one character
# of text, so characters + overhead bounds the input tokens from above.
_TEMPLATE_TOKENS_PER_MESSAGE = 8
_TEMPLATE_TOKENS_PER_CALL = 16


class Provider(Protocol):
    endpoint: str

    async def complete(self, messages: list[Message], decoding: Decoding) -> ProviderReply: ...


class CallFailed(Exception):
    def __init__(self, failure: CallFailure):
        super().__init__(failure.reason)
        self.failure = failure


def input_token_bound(messages: Sequence[Message]) -> int:
    return sum(len(m["content"]) + _TEMPLATE_TOKENS_PER_MESSAGE for m in messages) + _TEMPLATE_TOKENS_PER_CALL


class ModelClient:
    """Calls one model in one role. Inside an in-flight slot, the call's worst case is reserved
    against the budget (if this role has one) before anything is sent; then the cache is asked;
    only a miss reaches the provider, paced by the rate limits and retried with backoff."""

    def __init__(self, role: str, settings: ModelSettings, provider: Provider, *, cache: ResponseCache,
                 ledger: Ledger, prices: PriceTable, budget: Budget | None = None, limiter: RateLimiter | None = None):
        self.role = role
        self.settings = settings
        self.provider = provider
        self.cache = cache
        self.ledger = ledger
        self.prices = prices
        self.budget = budget
        self.limiter = limiter or RateLimiter.for_settings([settings])
        self._loop: asyncio.AbstractEventLoop | None = None

    def decoding(self, **overrides) -> Decoding:
        """The role's decoding parameters from params.yaml, with per-call overrides."""
        base = {"temperature": self.settings.temperature, "top_p": self.settings.top_p, "max_tokens": self.settings.max_tokens}
        return Decoding(**{**base, **overrides})

    def _cost(self, input_tokens: int, output_tokens: int) -> float | None:
        return self.prices.cost(self.settings.model, input_tokens, output_tokens)

    async def complete(self, messages: list[Message], decoding: Decoding | None = None) -> Completion:
        """The model's reply. Raises BudgetExhausted before anything is sent when the budget
        cannot cover the call, and CallFailed (with the reason) when every attempt failed."""
        decoding = decoding or self.decoding()
        input_bound = input_token_bound(messages)
        key = cache_key(self.settings.model, self.provider.endpoint, messages, decoding)
        async with self.limiter:
            reservation = None
            if self.budget:
                reservation = self.budget.reserve(input_bound + decoding.max_tokens, self._cost(input_bound, decoding.max_tokens))
            started = time.perf_counter()
            reply = self.cache.get(key)
            cached = reply is not None
            if reply is None:
                try:
                    reply = await self._call_with_retries(messages, decoding, input_bound + decoding.max_tokens)
                except CallFailed:
                    if reservation:
                        self.budget.release(reservation)
                    self.ledger.record_failure(self.role, self.settings.model)
                    raise
                self.cache.put(key, self.settings.model, reply)
            cost = self._cost(reply.input_tokens, reply.output_tokens)
            if reservation:
                self.budget.settle(reservation, reply.input_tokens + reply.output_tokens, cost)
        self.ledger.record(self.role, self.settings.model, reply.input_tokens, reply.output_tokens, cost, cached)
        meter.record(self.role, reply.input_tokens, reply.output_tokens, cost)
        return Completion(reply.text, reply.input_tokens, reply.output_tokens, cost, time.perf_counter() - started,
                          cached, self.settings.model)

    async def _call_with_retries(self, messages: list[Message], decoding: Decoding, token_bound: int) -> ProviderReply:
        """Runs inside an in-flight slot; backing off keeps the slot, easing load on a struggling server."""
        settings = self.settings
        for attempt in range(1, settings.max_attempts + 1):
            await self.limiter.pace(token_bound)
            try:
                return await self.provider.complete(messages, decoding)
            except ProviderError as error:
                if not error.retryable or attempt == settings.max_attempts:
                    raise CallFailed(CallFailure(error.reason, attempt, settings.model)) from None
                delay = backoff_seconds(attempt - 1, error.retry_after, settings.backoff_base_s, settings.backoff_cap_s)
                log.warning("%s attempt %d failed (%s); retrying in %.2f s", settings.model, attempt, error.reason, delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def complete_many(self, requests: Sequence[list[Message]], decoding: Decoding | None = None
                            ) -> tuple[list[Completion | CallFailure | None], bool]:
        """Answer many prompts concurrently (bounded by max_in_flight). Returns one entry per
        request — a Completion, a CallFailure, or None for a request never sent because the
        budget ran out — and whether the budget ran out."""
        exhausted = False

        async def one(messages: list[Message]) -> Completion | CallFailure | None:
            nonlocal exhausted
            try:
                return await self.complete(messages, decoding)
            except BudgetExhausted:
                exhausted = True
                return None
            except CallFailed as failed:
                return failed.failure

        results = await asyncio.gather(*(one(messages) for messages in requests))
        return list(results), exhausted

    def run(self, awaitable: Awaitable[T]) -> T:
        """Run a coroutine of this client from synchronous code, always on the client's own event
        loop: the SDKs' connection pools and the limiter belong to the loop they were first used on."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(awaitable)

    def complete_sync(self, messages: list[Message], decoding: Decoding | None = None) -> Completion:
        return self.run(self.complete(messages, decoding))
