"""`sea models check`: one tiny real call, to test a key, an endpoint or a local model."""

from __future__ import annotations

from pydantic import ValidationError

from sea.errors import ParamsError
from sea.llm.cache import ResponseCache
from sea.llm.client import PROBE, PROBE_MAX_TOKENS, CallFailed, ModelClient
from sea.llm.ledger import Ledger
from sea.llm.registry import make_provider, price_table
from sea.settings import ModelSettings, Params

SHOWN_CHARS = 200  # of the reply: enough to tell a letter from a chatty or broken endpoint


def check_model(params: Params, model: str, base_url: str | None = None, api_key_env: str | None = None) -> str:
    try:
        settings = ModelSettings(model=model, base_url=base_url, api_key_env=api_key_env, max_attempts=2,
                                 max_tokens=PROBE_MAX_TOKENS)
    except ValidationError as error:
        raise ParamsError(f"{model}: {error.errors()[0]['msg'].removeprefix('Value error, ')}") from None
    client = ModelClient("check", settings, make_provider(settings, params), cache=ResponseCache(None), ledger=Ledger(),
                         prices=price_table(params))
    try:
        reply = client.complete_sync(PROBE)
    except CallFailed as failed:
        raise ParamsError(f"{model}: the call failed after {failed.failure.attempts} attempts: {failed.failure.reason}") from None
    cost = f"${reply.cost_usd:.6f}" if reply.cost_usd is not None else "cost unknown (no price for this model; add it under `prices:`)"
    text = reply.text.strip()
    shown = repr(text) if len(text) <= SHOWN_CHARS else f"{text[:SHOWN_CHARS]!r}… ({len(text):,} characters)"
    return (f"{model}: replied {shown} in {reply.latency_s:.2f} s; "
            f"{reply.input_tokens} input + {reply.output_tokens} output tokens; {cost}")
