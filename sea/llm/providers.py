"""OpenAI, Anthropic and OpenAI-compatible endpoints through the official SDKs.

The SDKs' own retries are off (max_retries=0): the client's retry loop owns backoff, Retry-After
and the attempt count, so every attempt is visible to the ledger and the budget."""

from __future__ import annotations

import asyncio
import datetime
import email.utils
import logging
import math
from collections.abc import Awaitable, Callable

import anthropic
import httpx2 as httpx  # the transport the openai and anthropic SDKs use (its exceptions are theirs)
import openai

from sea.llm.keys import api_key, without_key
from sea.llm.types import REFUSED, Decoding, Message, ProviderError, ProviderReply, same_model, usable_token_count
from sea.settings import ModelSettings

log = logging.getLogger(__name__)


def _retry_after(headers: httpx.Headers | None) -> float | None:
    """The seconds a server asked to wait (RFC 9110: delta-seconds, or an HTTP date, counted from now
    and at least 0), or None, and so our own backoff, when it sent none or one that is neither a
    finite, non-negative number of seconds nor a date ("inf", "nan" and "1e400" would wait forever)."""
    value = headers.get("retry-after") if headers else None
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        if when.tzinfo is None:  # "-0000": UTC, by RFC 5322
            when = when.replace(tzinfo=datetime.timezone.utc)
        return max(0.0, (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds())
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


# Transport errors raised before the request left this machine: it cannot have been processed.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol, httpx.InvalidURL,
             httpx.LocalProtocolError, httpx.ProxyError)
# ... of which these say the endpoint itself is wrong: retrying cannot help.
_BAD_ENDPOINT = (httpx.UnsupportedProtocol, httpx.InvalidURL, httpx.LocalProtocolError)
# ... and these that nothing answers there (yet).
_UNREACHABLE = (httpx.ConnectError, httpx.ConnectTimeout, httpx.ProxyError)


def _status_error(sdk, error: Exception, model: str) -> ProviderError:
    """Map an SDK exception to a ProviderError: 429, 5xx, timeouts and lost connections are
    retryable; a request that may have reached the server is billable."""
    if isinstance(error, sdk.APIStatusError):
        status = error.status_code
        quota_used_up = getattr(error, "code", None) == "insufficient_quota"  # OpenAI's 429 that no wait ends
        retryable = (status in (408, 409, 429) or status >= 500) and not quota_used_up
        message = without_key(error.message, error.response.request.headers)
        what = "the account's quota is used up: add credit or use another key; " if quota_used_up else ""
        return ProviderError(f"{model}: HTTP {status} ({what}{message})", retryable=retryable,
                             retry_after=_retry_after(error.response.headers),
                             refused=status in (401, 403, 404) or quota_used_up)
    if isinstance(error, sdk.APIConnectionError):  # APITimeoutError included
        cause = error.__cause__ or error
        what = "request timed out" if isinstance(error, sdk.APITimeoutError) else "connection failed"
        detail = f"{type(cause).__name__}: {cause}" if str(cause) else type(cause).__name__
        return ProviderError(f"{model}: {what} ({detail})",
                             retryable=not isinstance(cause, _BAD_ENDPOINT), billable=not isinstance(cause, _NOT_SENT),
                             unreachable=isinstance(cause, _UNREACHABLE + _BAD_ENDPOINT))
    return malformed(model, error)


def _not_json(model: str, body: str) -> ProviderError:
    """A reply whose body is not JSON (the SDKs hand it back as text): a web page, or a server that only streams.
    Every call would get the same: the endpoint is not the API's, or not one SEA can read."""
    if body.lstrip().startswith(("data:", "event:")):
        what = "streamed server-sent events though none were asked for (a server that streams only)"
    else:
        what = f"a body that is not JSON ({body.strip()[:80]!r})"
    return ProviderError(f"{model}: the endpoint answered {what}; check base_url: it must be the API's root (…/v1 for "
                         f"an OpenAI-compatible server) on a server that answers whole replies", retryable=False,
                         billable=True, refused=True)


def malformed(model: str, error: Exception) -> ProviderError:
    """A reply that came back but cannot be read: the server did the work."""
    return ProviderError(f"{model}: malformed response ({type(error).__name__}: {error})", retryable=True, billable=True)


def _refused(why: str, text: str) -> str:
    """A refusal as the reply's text: kept, cached and charged like any reply (the server did the work), with why
    and what text came with it, where grading tells it from an answer."""
    return f"{REFUSED}{why}]" + (f" {text}" if text else "")


def _reported_usage(usage: object, input_name: str, output_name: str) -> tuple[int | None, int | None]:
    """The token counts a reply reported, or (None, None) when its usage is missing, null, not a pair of
    usable counts (usable_token_count) or says the prompt was 0 tokens (a prompt is never empty, its chat
    template alone is tokens: the server does not count): the client then charges the call its worst case."""
    counts = (getattr(usage, input_name, None), getattr(usage, output_name, None))
    return counts if all(usable_token_count(n) for n in counts) and counts[0] > 0 else (None, None)


_AFTER_THE_SDK_S = 1.0


class _SdkProvider:
    """An official SDK client with its own retries off, pointed at the configured endpoint."""

    client_class: type
    remote = True

    def __init__(self, settings: ModelSettings):
        self.settings = settings
        self.endpoint = settings.base_url or settings.provider  # part of the response-cache key
        self._client = self.client_class(api_key=api_key(settings), base_url=settings.base_url, max_retries=0,
                                         timeout=settings.timeout_s)
        self._warned_served = False

    def _note_served(self, served: str | None) -> None:
        """Warn, once, when the endpoint says another model answered than the one asked for (a proxy routing
        elsewhere, a wrong alias): what the audit finds would be that model's. A dated version of the name
        asked for (gpt-4o-mini-2024-07-18 for gpt-4o-mini) is the same model. Each reply carries the name it gave
        (ProviderReply.served), cached with it."""
        if self._warned_served or not served or same_model(served, self.settings.model):
            return
        self._warned_served = True
        log.warning("%s at %s: the endpoint says %r answered; the audit's findings are that model's (an Azure "
                    "deployment or an alias can be named so: then all is well)", self.settings.model, self.endpoint, served)

    async def _create(self, sdk, create: Callable[..., Awaitable[object]], **request) -> object:
        """The SDK's `create(**request)`, a JSON reply (else the run stops: _not_json), within about timeout_s in all:
        the SDKs' timeout bounds each read, so a server trickling its body a byte at a time would hold the call, and
        its in-flight slot, open at will.
        A call cut so is a timeout: it may be billed, and is retried. The whole call's limit comes a moment after
        the SDK's own connect timeout (timeout_s too), so an endpoint never reached is still told apart: not
        billed, and not retried before it has ever answered."""
        try:
            async with asyncio.timeout(self.settings.timeout_s + _AFTER_THE_SDK_S):
                response = await create(**request)
        except TimeoutError:
            raise ProviderError(f"{self.settings.model}: request timed out (no whole reply within timeout_s + "
                                f"{_AFTER_THE_SDK_S:g} s, {self.settings.timeout_s + _AFTER_THE_SDK_S:g} s)", retryable=True,
                                billable=True) from None
        except (sdk.APIError, ValueError) as error:  # ValueError: a body that is not JSON
            raise _status_error(sdk, error, self.settings.model) from None
        if isinstance(response, str):  # the SDKs hand back a body that is not JSON as text
            raise _not_json(self.settings.model, response)
        self._note_served(served_name(response))
        return response


def served_name(response: object) -> str | None:
    """The model name a reply says answered, when it gives one."""
    name = getattr(response, "model", None)
    return name if isinstance(name, str) and name else None


class OpenAIChat(_SdkProvider):
    """`openai:<model>` and `openai-compatible:<model>` (vLLM, Ollama, llama.cpp, LiteLLM, Azure)."""

    client_class = openai.AsyncOpenAI

    async def complete(self, messages: list[Message], decoding: Decoding) -> ProviderReply:
        response = await self._create(
            openai, self._client.chat.completions.create, model=self.settings.name, messages=messages,
            temperature=decoding.temperature, top_p=decoding.top_p, max_tokens=decoding.max_tokens, seed=decoding.seed,
        )
        usage = _reported_usage(getattr(response, "usage", None), "prompt_tokens", "completion_tokens")
        try:
            if not response.choices:  # as Anthropic's empty content: the server answered with no text, counted as it says
                return ProviderReply("", *usage, served=served_name(response))
            choice = response.choices[0]
            text = choice.message.content or ""
            refusal = getattr(choice.message, "refusal", None)
            if refusal or choice.finish_reason == "content_filter":
                text = _refused(refusal or "content filter", text)
        except (AttributeError, IndexError, TypeError) as error:
            raise malformed(self.settings.model, error) from None
        return ProviderReply(text, *usage, cut=getattr(choice, "finish_reason", None) == "length", served=served_name(response))


class AnthropicMessages(_SdkProvider):
    """`anthropic:<model>` through the Messages API. No sampling parameters are sent: the
    Messages API of anthropic SDK 2.x no longer takes temperature or top_p."""

    client_class = anthropic.AsyncAnthropic

    async def complete(self, messages: list[Message], decoding: Decoding) -> ProviderReply:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        turns = [m for m in messages if m["role"] != "system"]
        response = await self._create(anthropic, self._client.messages.create, model=self.settings.name, messages=turns,
                                      max_tokens=decoding.max_tokens, **({"system": system} if system else {}))
        try:
            text = "".join(block.text for block in response.content if block.type == "text")
            if getattr(response, "stop_reason", None) == "refusal":  # a compatible server may send none
                text = _refused("stop_reason refusal", text)
        except (AttributeError, TypeError) as error:
            raise malformed(self.settings.model, error) from None
        return ProviderReply(text, *_reported_usage(getattr(response, "usage", None), "input_tokens", "output_tokens"),
                             cut=getattr(response, "stop_reason", None) == "max_tokens", served=served_name(response))
