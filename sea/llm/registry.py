"""From params.yaml to ready clients: providers by model string, keys checked before any work."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sea.embeddings import Embedder, knowledge_base_embedder
from sea.errors import ParamsError
from sea.llm.cache import ResponseCache
from sea.llm.client import ModelClient, Provider
from sea.llm.ledger import Ledger, PriceTable
from sea.llm.limits import RateLimiter
from sea.settings import ModelSettings, Params, default_prices

ROLES = ("testee", "generator", "verifier")


def price_table(params: Params) -> PriceTable:
    return PriceTable({**default_prices(), **{model: price.model_dump() for model, price in params.prices.items()}})


def make_provider(settings: ModelSettings, params: Params, embedder: Callable[[], Embedder] | None = None) -> Provider:
    """The provider for a model string. `embedder` gives the process's embedder to a simulated
    testee, which otherwise loads its own."""
    if settings.provider in ("openai", "openai-compatible", "anthropic"):
        from sea.llm.providers import AnthropicMessages, OpenAIChat  # the SDKs take seconds to import: only for API models

        return AnthropicMessages(settings) if settings.provider == "anthropic" else OpenAIChat(settings)
    if settings.provider == "local":
        from sea.llm.local import LocalModel

        return LocalModel(settings.name, params.paths.cache_dir / "models", mode=settings.local_mode)
    from sea.llm.simulated import SimulatedTestee

    shared = embedder() if embedder else knowledge_base_embedder(params)
    return SimulatedTestee(settings.name, params.simulated[settings.name], params, shared)


@dataclass
class Models:
    """The configured roles sharing one response cache and one ledger (each audit step passes the testee its budget).
    `testees` holds a client for models.testee and for each of audit.testees."""

    clients: dict[str, ModelClient]
    ledger: Ledger
    cache: ResponseCache
    testees: dict[str, ModelClient]


def check_dollar_budget(params: Params) -> None:
    """A dollar budget needs every testee's price and must limit something (that it pays for one of an audit's batches
    is checked with the audit, sea/audit/validate.py)."""
    prices, budget = price_table(params), params.budget
    if budget.dollars is None:
        return
    only_dollars = budget.testee_calls is None and budget.tokens is None
    for testee in params.testee_settings():
        price = prices.lookup(testee.model)
        if price is None:
            raise ParamsError(f"budget.dollars: {testee.model} has no price, so a dollar budget cannot be enforced; "
                              f"add it under `prices:` in params.yaml or budget in calls or tokens")
        if only_dollars and not price["input"] and not price["output"]:
            raise ParamsError(f"budget.dollars: {testee.model} costs nothing, so a dollar budget alone limits nothing; "
                              f"set budget.testee_calls or budget.tokens")


def build_models(params: Params, roles: tuple[str, ...] = ROLES, embedder: Callable[[], Embedder] | None = None) -> Models:
    """Clients for every configured role. Fails before any call when a key is missing or a
    dollar budget cannot be enforced."""
    prices = price_table(params)
    testees = params.testee_settings() if "testee" in roles else []
    if testees:
        check_dollar_budget(params)
    ledger, cache = Ledger(), ResponseCache(params.paths.responses_cache)
    configured = [(role, getattr(params.models, role)) for role in roles if role != "testee" and getattr(params.models, role)]
    configured += [("testee", settings) for settings in testees]
    shared_limiters: dict[tuple, RateLimiter] = {}
    made = []
    for role, settings in configured:
        # Rate limits belong to an account: roles calling the same endpoint with the same key share them.
        account = [s for _, s in configured if _account(s) == _account(settings)]
        limiter = shared_limiters.setdefault(_account(settings), RateLimiter.for_settings(account))
        made.append((role, ModelClient(role, settings, make_provider(settings, params, embedder), cache=cache, ledger=ledger,
                                       prices=prices, limiter=limiter)))
    testee_clients = {client.settings.model: client for role, client in made if role == "testee"}
    clients = {role: client for role, client in made if role != "testee"}
    if testee_clients:
        clients["testee"] = next(iter(testee_clients.values()))
    return Models(clients, ledger, cache, testee_clients)


def _account(settings: ModelSettings) -> tuple:
    return settings.provider, settings.base_url, settings.key_variable
