"""OpenAI, Anthropic and OpenAI-compatible endpoints through the official SDKs.

The SDKs' own retries are off (max_retries=0): the client's retry loop owns backoff, Retry-After
and the attempt count, so every attempt is visible to the ledger and the budget."""

from __future__ import annotations

import os

import anthropic
import httpx
import openai

from sea.errors import ParamsError
from sea.llm.types import Decoding, Message, ProviderError, ProviderReply
from sea.settings import ModelSettings


def api_key(settings: ModelSettings) -> str:
    """The key from the environment, or a ParamsError naming the variable. Keyless local
    servers (e.g. Ollama) are used with api_key_env unset: the SDK then gets a placeholder."""
    variable = settings.key_variable
    if variable is None:
        return "no-key"
    key = os.environ.get(variable, "")
    if not key:
        raise ParamsError(f"{settings.model}: environment variable {variable} is not set; export it with your API key "
                          f"(keys are read from the environment only)")
    return key


def _retry_after(headers: httpx.Headers | None) -> float | None:
    try:
        return float(headers["retry-after"]) if headers and "retry-after" in headers else None
    except ValueError:
        return None  # an HTTP date: fall back to our own backoff


def _status_error(sdk, error: Exception, model: str) -> ProviderError:
    """Map an SDK exception to a ProviderError; 429, 5xx, timeouts and lost connections are retryable."""
    if isinstance(error, sdk.APIStatusError):
        status = error.status_code
        retryable = status in (408, 409, 429) or status >= 500
        return ProviderError(f"{model}: HTTP {status} ({error.message})", retryable=retryable,
                             retry_after=_retry_after(error.response.headers))
    if isinstance(error, sdk.APITimeoutError):
        return ProviderError(f"{model}: request timed out", retryable=True)
    if isinstance(error, sdk.APIConnectionError):
        return ProviderError(f"{model}: connection failed ({type(error.__cause__ or error).__name__})", retryable=True)
    return malformed(model, error)


def malformed(model: str, error: Exception) -> ProviderError:
    return ProviderError(f"{model}: malformed response ({type(error).__name__}: {error})", retryable=True)


class _SdkProvider:
    """An official SDK client with its own retries off, pointed at the configured endpoint."""

    client_class: type

    def __init__(self, settings: ModelSettings):
        self.settings = settings
        self.endpoint = settings.base_url or settings.provider  # part of the response-cache key
        self._client = self.client_class(api_key=api_key(settings), base_url=settings.base_url, max_retries=0,
                                         timeout=settings.timeout_s)


class OpenAIChat(_SdkProvider):
    """`openai:<model>` and `openai-compatible:<model>` (vLLM, Ollama, llama.cpp, LiteLLM, Azure)."""

    client_class = openai.AsyncOpenAI

    async def complete(self, messages: list[Message], decoding: Decoding) -> ProviderReply:
        try:
            response = await self._client.chat.completions.create(
                model=self.settings.name, messages=messages, temperature=decoding.temperature, top_p=decoding.top_p,
                max_tokens=decoding.max_tokens, seed=decoding.seed,
            )
        except (openai.APIError, ValueError) as error:  # ValueError: a body that is not JSON
            raise _status_error(openai, error, self.settings.model) from None
        try:
            return ProviderReply(response.choices[0].message.content or "", response.usage.prompt_tokens,
                                 response.usage.completion_tokens)
        except (AttributeError, IndexError, TypeError) as error:
            raise malformed(self.settings.model, error) from None


class AnthropicMessages(_SdkProvider):
    """`anthropic:<model>` through the Messages API. No sampling parameters are sent: the
    Messages API of anthropic SDK 2.x no longer takes temperature or top_p."""

    client_class = anthropic.AsyncAnthropic

    async def complete(self, messages: list[Message], decoding: Decoding) -> ProviderReply:
        system = "\n\n".join(m["content"] for m in messages if m["role"] == "system")
        turns = [m for m in messages if m["role"] != "system"]
        try:
            response = await self._client.messages.create(
                model=self.settings.name, messages=turns, max_tokens=decoding.max_tokens,
                **({"system": system} if system else {}),
            )
        except (anthropic.APIError, ValueError) as error:
            raise _status_error(anthropic, error, self.settings.model) from None
        try:
            text = "".join(block.text for block in response.content if block.type == "text")
            return ProviderReply(text, response.usage.input_tokens, response.usage.output_tokens)
        except (AttributeError, TypeError) as error:
            raise malformed(self.settings.model, error) from None
