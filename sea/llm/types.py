"""Values shared by every provider and the client that wraps them."""

from __future__ import annotations

from dataclasses import dataclass

from sea.errors import SeaError

Message = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": "..."}


@dataclass(frozen=True)
class Decoding:
    """Decoding parameters; the paper's defaults. `sample` tells repeated samples apart in the
    response cache when temperature > 0."""

    temperature: float = 0.1
    top_p: float = 0.9
    max_tokens: int = 16
    seed: int | None = 0
    sample: int = 0


# A token count is a plain int in [0, MAX_TOKEN_COUNT): no call uses ten million tokens.
MAX_TOKEN_COUNT = 10_000_000


def usable_token_count(n: object) -> bool:
    """Whether a token count, as a server reported it or the response cache read it back, can be
    trusted: the one rule of the client (which charges a reply without one its worst case) and the
    cache (which refuses a row without one)."""
    return type(n) is int and 0 <= n < MAX_TOKEN_COUNT


REFUSED = "[refused: "  # begins the text of a reply the model or the provider's filter refused (see answer_record)


@dataclass(frozen=True)
class ProviderReply:
    """What a provider returns for one call: text and the token counts the backend reported (None:
    it reported none that passes usable_token_count; the client charges the call its worst case),
    whether the backend said it cut the reply at max_tokens, and the model name it said answered (remote
    endpoints only)."""

    text: str
    input_tokens: int | None
    output_tokens: int | None
    cut: bool = False
    served: str | None = None


@dataclass(frozen=True)
class Completion:
    """One answered call as the caller sees it."""

    text: str
    input_tokens: int
    output_tokens: int
    cost_usd: float | None  # None: the model has no price in the price table
    latency_s: float
    cached: bool
    model: str = ""
    cut: bool = False  # the reply was cut at max_tokens


@dataclass(frozen=True)
class CallFailure:
    """A call that finally failed after its retries: recorded and surfaced, never a wrong answer."""

    reason: str
    attempts: int
    model: str = ""
    endpoint_side: bool = True  # the endpoint failed (5xx, timeouts, no connection), not the request it refused


class ProviderError(Exception):
    """A provider call failed. `retryable` errors (429, 5xx, timeouts, lost connections,
    malformed bodies) are retried with backoff; `retry_after` is the server's hint in seconds.
    `billable`: the request may have reached the server and been processed (a timeout, a
    connection lost after sending, a reply that could not be read), so it may be billed.
    `unreachable`: the endpoint was never reached (connection refused, unknown host). `refused`: the
    endpoint refuses the key (401), its rights (403) or the model (404), and so every call."""

    def __init__(self, reason: str, *, retryable: bool, retry_after: float | None = None, billable: bool = False,
                 unreachable: bool = False, refused: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable
        self.retry_after = retry_after
        self.billable = billable
        self.unreachable = unreachable
        self.refused = refused


class BudgetExhausted(Exception):
    """The budget cannot cover the next call; everything done so far is kept."""


class EndpointFailing(SeaError):
    """Every one of the last calls to a model failed after its retries: stop rather than spin."""


def same_model(served: str, asked: str) -> bool:
    """Whether the model name a reply gave is the model string asked for (provider:name): a dated version of the
    name (gpt-4o-mini-2024-07-18 for openai:gpt-4o-mini) is the same model."""
    return served.startswith(asked.partition(":")[2])
