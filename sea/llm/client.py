"""One interface for every role and provider: cache, budget, rate limits, retries, ledger."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Protocol, TypeVar
from uuid import uuid4

from sea.llm import meter
from sea.llm.cache import ResponseCache, cache_key
from sea.llm.ledger import Budget, Ledger, PriceTable, Reservation
from sea.llm.limits import RateLimiter, backoff_seconds
from sea.llm.types import (BudgetExhausted, CallFailure, Completion, Decoding, EndpointFailing, Message, ProviderError,
                           ProviderReply)
from sea.settings import ModelSettings

log = logging.getLogger(__name__)
T = TypeVar("T")

# Chat templates add a few tokens per message; a byte-level BPE token never covers less than one
# byte of UTF-8 (a Devanagari or Thai character is 3 bytes, and may be 3 tokens), so bytes + overhead
# bounds the input tokens from above.
_TEMPLATE_TOKENS_PER_MESSAGE = 8
_TEMPLATE_TOKENS_PER_CALL = 16

# A tiny question any endpoint that answers at all answers (`sea models check`, ModelClient.check_answering).
PROBE = [{"role": "user", "content": "Which letter comes first in the alphabet?\nA) A\nB) B\nC) C\nD) D\nReply with the letter only."}]
PROBE_MAX_TOKENS = 5


class Provider(Protocol):
    endpoint: str
    remote: bool  # a server that may process, and bill, a request whose reply never came back

    async def complete(self, messages: list[Message], decoding: Decoding) -> ProviderReply: ...


class CallFailed(Exception):
    def __init__(self, failure: CallFailure, refused: bool = False):
        super().__init__(failure.reason)
        self.failure = failure
        self.endpoint_side = failure.endpoint_side
        self.refused = refused  # the endpoint refuses every call: the key, its rights or the model (ProviderError.refused)


def input_token_bound(messages: Sequence[Message]) -> int:
    return sum(len(m["content"].encode()) + _TEMPLATE_TOKENS_PER_MESSAGE for m in messages) + _TEMPLATE_TOKENS_PER_CALL


class ModelClient:
    """Calls one model in one role. Inside an in-flight slot, the call's worst case is reserved
    against the budget before anything is sent; then the cache is asked; only a miss reaches the
    provider, paced by the rate limits and retried with backoff. An attempt that may have been
    processed without a readable reply (a timeout, a connection lost after sending) is paid for at
    its worst case, and its retry reserves anew. A reply the server counted above its reservation (a
    server ignoring max_tokens, or adding a system prompt of its own) is charged what it counted, and
    from then on every call reserves the most a reply went over, input and output apart. After
    `stop_after_failures` calls in a row failed for good, every further call raises EndpointFailing."""

    def __init__(self, role: str, settings: ModelSettings, provider: Provider, *, cache: ResponseCache,
                 ledger: Ledger, prices: PriceTable, limiter: RateLimiter | None = None):
        self.role = role
        self.settings = settings
        self.provider = provider
        self.cache = cache
        self.ledger = ledger
        self.prices = prices
        self.limiter = limiter or RateLimiter.for_settings([settings])
        self._unlimited = Budget()
        self._reached = False  # the endpoint has answered at least once
        self._failures_in_a_row = 0
        self._failed_on_endpoint: list[str] = []  # calls failed on the endpoint's side since check_answering
        self.failing: EndpointFailing | None = None
        self.cache_scope = ""  # replies cached under another scope are not reused (see cache_key)
        self._warned_usage = False  # the warning about replies without usable token counts was logged
        self._excess = (0, 0)  # the most input and output tokens a reply was counted above its reservation
        self.served: set[str] = set()  # the model names the replies, cached ones too, said answered (ProviderReply.served)

    def decoding(self, **overrides) -> Decoding:
        """The role's decoding parameters from params.yaml, with per-call overrides."""
        base = {"temperature": self.settings.temperature, "top_p": self.settings.top_p, "max_tokens": self.settings.max_tokens}
        return Decoding(**{**base, **overrides})

    def _cost(self, input_tokens: int, output_tokens: int) -> float | None:
        return self.prices.cost(self.settings.model, input_tokens, output_tokens)

    def _bounds(self, messages: list[Message], decoding: Decoding) -> tuple[int, int]:
        """The most input and output tokens the call may be counted: what is reserved for it."""
        return input_token_bound(messages) + self._excess[0], decoding.max_tokens + self._excess[1]

    def _note_excess(self, reply: ProviderReply, bounds: tuple[int, int]) -> None:
        """Warn of a reply counted above the bounds it was reserved at, and reserve that much more from now on:
        what the server counted is charged (Budget.settle), so only the calls already in flight can overshoot."""
        over = (reply.input_tokens - bounds[0], reply.output_tokens - bounds[1])
        excess = (max(self._excess[0], over[0]), max(self._excess[1], over[1]))
        if excess == self._excess:
            return
        self._excess = excess
        log.warning("%s at %s counted %d input and %d output tokens for a call reserved at %d and %d; "
                    "charged as counted, and every call reserves %d input and %d output tokens more from now on",
                    self.settings.model, self.provider.endpoint, reply.input_tokens, reply.output_tokens, *bounds, *excess)

    async def complete(self, messages: list[Message], decoding: Decoding | None = None,
                       budget: Budget | None = None, cache_scope: str | None = None) -> Completion:
        """The model's reply, charged to `budget` (None: not limited), looked up in the response
        cache under `cache_scope` (None: the client's own). Raises BudgetExhausted
        before anything is sent when the budget cannot cover the call, CallFailed (with the
        reason) when every attempt failed, and EndpointFailing once too many calls in a row failed."""
        decoding = decoding or self.decoding()
        key = self._cache_key(messages, decoding, cache_scope)
        budget = budget or self._unlimited
        async with self.limiter:
            if self.failing:
                raise self.failing
            started = time.perf_counter()
            bounds = self._bounds(messages, decoding)  # in the slot: with the excesses of every call settled so far
            worst = (sum(bounds), self._cost(*bounds))
            reservation = await budget.reserve(*worst)
            reply = self.cache.get(key)
            cached = reply is not None
            if cached:
                budget.settle(reservation, reply.input_tokens + reply.output_tokens,
                              self._cost(reply.input_tokens, reply.output_tokens))
            else:
                try:
                    reply = await self._call_with_retries(messages, bounds, decoding, budget, reservation, worst, key)
                except CallFailed as failed:
                    self.ledger.record_failure(self.role, self.settings.model)
                    if failed.refused and not self.failing:  # every call would be: stop before the batch is kept
                        self.failing = self._endpoint_failing(f"it refused a call ({failed.failure.reason})")
                    self._count_failure(failed.failure.reason)
                    if failed.endpoint_side:
                        self._failed_on_endpoint.append(failed.failure.reason)
                    raise
                self._failures_in_a_row = 0
            self._note_excess(reply, bounds)  # before another call reserves: nothing awaited since it was settled
        if reply.served:
            self.served.add(reply.served)
        cost = self._cost(reply.input_tokens, reply.output_tokens)
        self.ledger.record(self.role, self.settings.model, reply.input_tokens, reply.output_tokens, cost, cached)
        meter.record(self.role, reply.input_tokens, reply.output_tokens, cost)
        return Completion(reply.text, reply.input_tokens, reply.output_tokens, cost, time.perf_counter() - started,
                          cached, self.settings.model, reply.cut)

    def _cache_key(self, messages: list[Message], decoding: Decoding, cache_scope: str | None) -> str:
        scope = self.cache_scope if cache_scope is None else cache_scope
        return cache_key(self.settings.model, self.provider.endpoint, messages, decoding, scope)

    def _count_failure(self, reason: str) -> None:
        self._failures_in_a_row += 1
        if self._failures_in_a_row >= self.settings.stop_after_failures and not self.failing:
            self.failing = self._endpoint_failing(f"the last {self._failures_in_a_row} calls all failed (last: {reason})")

    def _endpoint_failing(self, what: str) -> EndpointFailing:
        return EndpointFailing(f"{self.settings.model} at {self.provider.endpoint}: {what}; check the endpoint with `sea "
                               f"models check {self.settings.model}`: once it is up and takes the key, resume the run; "
                               f"a wrong base_url or model name needs a new run (replies are cached by endpoint)")

    def check_answering(self, budget: Budget | None = None) -> None:
        """After a batch: raises EndpointFailing when calls of it failed on the endpoint's side after their retries
        and the endpoint does not answer one probe now (PROBE, never from the cache, paid from `budget` like any
        call). Such a batch may have met the start of an outage, so its failed calls must not be kept as its outcome
        (a resumed run would never ask them again); an answered probe shows the failures were those calls' own (one
        that always fails would otherwise stop every resume). Whether a probe is sent depends only on which calls
        failed, not on the order they ended in, so a batch redone on resume spends what it spent the first time. A
        budget that cannot pay for the probe keeps the batch, rather than a resume that could never finish it."""
        failed, self._failed_on_endpoint = self._failed_on_endpoint, []
        if not failed:
            return
        probe = self.complete(PROBE, self.decoding(max_tokens=PROBE_MAX_TOKENS), budget, cache_scope=f"probe {uuid4().hex}")
        try:
            self.run(probe)
        except BudgetExhausted:
            log.warning("%s at %s: %d calls failed after their retries (last: %s); no budget is left for a probe of the "
                        "endpoint, so they are kept as failed calls", self.settings.model, self.provider.endpoint,
                        len(failed), failed[-1])
        except CallFailed as probe_failed:
            if probe_failed.endpoint_side:
                raise self.failing or self._endpoint_failing(
                    f"{len(failed)} calls failed after their retries (last: {failed[-1]}) and a probe after them failed "
                    "too, so this step is not kept") from None

    async def _call_with_retries(self, messages: list[Message], bounds: tuple[int, int], decoding: Decoding, budget: Budget,
                                 reservation: Reservation | None, worst: tuple[int, float | None], key: str) -> ProviderReply:
        """Runs inside an in-flight slot; backing off keeps the slot, easing load on a struggling
        server. A connection refused before the endpoint has ever answered is not retried: the
        endpoint is down or misconfigured, and the run should say so at once. A reply is cached
        before its attempt is closed in the budget's record of sent calls (Budget.sending)."""
        settings = self.settings
        in_flight = False  # the request of the current attempt may be at the server
        try:
            for attempt in range(1, settings.max_attempts + 1):
                if reservation is None:
                    reservation = await budget.reserve(*worst)  # the retry of an attempt that was paid for
                await self.limiter.pace(worst[0])
                ticket = budget.sending(reservation)
                in_flight = True
                try:
                    reply = await self.provider.complete(messages, decoding)
                except ProviderError as error:
                    in_flight = False
                    if error.billable:
                        budget.settle_worst_case(reservation)
                        reservation = None
                    else:
                        budget.close(ticket)
                    if not error.unreachable:
                        self._reached = True
                    too_long = error.retryable and (error.retry_after or 0.0) > settings.max_retry_after_s
                    if too_long and not self.failing:  # waited out, a day's Retry-After would hang the run without a word
                        self.failing = EndpointFailing(
                            f"{settings.model} at {self.provider.endpoint} asked to wait {error.retry_after:,.0f} s before "
                            f"another call (Retry-After), above models.{self.role}.max_retry_after_s={settings.max_retry_after_s:g}; "
                            f"nothing more was paid: try again once that time has passed, or raise it to wait it out: "
                            f"a run keeps its own, set by `sea audit --resume RUN_ID --set models.{self.role}.max_retry_after_s="
                            f"SECONDS` and read by sea findings, retest, transfer and compare too; sea questions preview "
                            f"reads it from params.yaml (or --params FILE)")
                    if (not error.retryable or attempt == settings.max_attempts or too_long
                            or (error.unreachable and not self._reached)):
                        raise CallFailed(CallFailure(error.reason, attempt, settings.model, endpoint_side=error.retryable),
                                         error.refused) from None
                    delay = backoff_seconds(attempt - 1, error.retry_after, settings.backoff_base_s, settings.backoff_cap_s)
                    log.warning("%s attempt %d failed (%s); retrying in %.2f s", settings.model, attempt, error.reason, delay)
                    await asyncio.sleep(delay)
                else:
                    reply = self._with_usable_usage(reply, bounds)
                    self.cache.put(key, settings.model, reply)
                    used = (reply.input_tokens + reply.output_tokens, self._cost(reply.input_tokens, reply.output_tokens))
                    budget.close(ticket, *used)
                    budget.settle(reservation, *used)
                    return reply
        except BaseException:  # failed for good, out of budget, or cancelled (SIGTERM, a failing endpoint)
            if reservation is not None:
                (budget.settle_worst_case if in_flight else budget.release)(reservation)
            raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _with_usable_usage(self, reply: ProviderReply, bounds: tuple[int, int]) -> ProviderReply:
        """The reply, or, when the provider found no token counts it could trust (usable_token_count:
        a negative count would give budget back, a fractional one would be refused by the cache on
        resume), its text charged the call's worst case, the reservation made for it: the budget
        holds, and the ledger, the record of sent calls and the response cache get valid counts."""
        if reply.input_tokens is not None and reply.output_tokens is not None:
            return reply
        if not self._warned_usage:
            self._warned_usage = True
            log.warning("%s at %s reported no usable token usage; charging each such call its worst case",
                        self.settings.model, self.provider.endpoint)
        return replace(reply, input_tokens=bounds[0], output_tokens=bounds[1])

    async def complete_many(self, requests: Sequence[list[Message]], decoding: Decoding | None = None,
                            budget: Budget | None = None, cache_scope: str | None = None,
                            done: Callable[[], object] | None = None) -> tuple[list[Completion | CallFailure | None], bool]:
        """Answer many prompts concurrently (bounded by max_in_flight). Returns one entry per
        request — a Completion, a CallFailure, or None for a request never sent because the
        budget ran out — and whether the budget ran out; `done` is called as each one ends (a
        progress bar). Raises EndpointFailing (after cancelling the calls still waiting) when the
        endpoint keeps failing."""
        exhausted = False

        async def one(messages: list[Message]) -> Completion | CallFailure | None:
            nonlocal exhausted
            try:
                return await self.complete(messages, decoding, budget, cache_scope)
            except BudgetExhausted:
                exhausted = True
                return None
            except CallFailed as failed:
                return failed.failure
            finally:
                if done is not None:
                    done()

        # Cached replies are charged first (tasks take their in-flight slots, and so their reservations,
        # in the order they are made): a step redone after a cut run is charged what the server
        # answered then before anything is sent again, so what it may bill stays within the budget.
        decoding = decoding or self.decoding()
        keys = [self._cache_key(messages, decoding, cache_scope) for messages in requests]
        order = sorted(range(len(requests)), key=lambda i: not self.cache.has(keys[i]))
        try:
            async with asyncio.TaskGroup() as group:
                tasks = {i: group.create_task(one(requests[i])) for i in order}
        except* EndpointFailing as failing:
            raise failing.exceptions[0] from None
        if self.failing:
            raise self.failing
        return [tasks[i].result() for i in range(len(requests))], exhausted

    def run(self, awaitable: Awaitable[T]) -> T:
        """Run a coroutine of this client from synchronous code, always on its limiter's event loop:
        the SDKs' connection pools and the limiter belong to the loop they were first used on, and
        clients of one account share the limiter."""
        return self.limiter.loop().run_until_complete(awaitable)

    def complete_sync(self, messages: list[Message], decoding: Decoding | None = None,
                      budget: Budget | None = None) -> Completion:
        return self.run(self.complete(messages, decoding, budget))
