import pytest

from sea.errors import ParamsError
from sea.llm.providers import AnthropicMessages, OpenAIChat
from sea.llm.registry import build_models, check_dollar_budget, price_table
from sea.settings import parse_params


def test_roles_share_cache_and_ledger(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-y")
    params = parse_params({"models": {"testee": {"model": "anthropic:claude-haiku-4-5"},
                                      "generator": {"model": "openai:gpt-4o", "max_tokens": 2048}},
                           "budget": {"testee_calls": 100, "dollars": 5.0}})
    models = build_models(params)
    assert set(models.clients) == {"testee", "generator"}  # no verifier configured
    assert isinstance(models.clients["testee"].provider, AnthropicMessages)
    assert isinstance(models.clients["generator"].provider, OpenAIChat)
    assert models.clients["generator"].cache is models.cache and models.clients["generator"].ledger is models.ledger
    assert models.clients["generator"].decoding().max_tokens == 2048


def test_price_overrides_extend_the_table():
    params = parse_params({"prices": {"openai-compatible:llama3": {"input": 0.2, "output": 0.4}}})
    table = price_table(params)
    assert table.cost("openai-compatible:llama3", 1_000_000, 1_000_000) == pytest.approx(0.6)
    assert table.cost("openai:gpt-4o-mini", 1_000_000, 0) == pytest.approx(0.15)


def test_a_dollar_budget_needs_a_priced_testee(monkeypatch):
    monkeypatch.setenv("LLAMA_KEY", "k")
    params = parse_params({"models": {"testee": {"model": "openai-compatible:llama3", "base_url": "http://127.0.0.1:9/v1",
                                                 "api_key_env": "LLAMA_KEY"}},
                           "budget": {"dollars": 1.0}})
    with pytest.raises(ParamsError, match="budget.dollars: openai-compatible:llama3 has no price"):
        build_models(params)


def test_a_dollar_budget_must_limit_something():
    with pytest.raises(ParamsError, match=r"budget\.dollars: simulated:paper-regime costs nothing, so a dollar budget alone limits nothing"):
        check_dollar_budget(parse_params({"budget": {"dollars": 1.0, "testee_calls": None}}))
    check_dollar_budget(parse_params({"budget": {"dollars": 1.0}}))  # with a calls limit beside it: that one binds


def test_missing_key_for_any_role_fails_before_work(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    params = parse_params({"models": {"testee": {"model": "anthropic:claude-haiku-4-5"}}})
    with pytest.raises(ParamsError, match="ANTHROPIC_API_KEY is not set"):
        build_models(params)


def test_roles_on_one_account_share_the_strictest_rate_limits(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    params = parse_params({"models": {
        "testee": {"model": "openai:gpt-4o-mini", "requests_per_minute": 500, "max_in_flight": 16},
        "generator": {"model": "openai:gpt-4o", "requests_per_minute": 300},
        "verifier": {"model": "openai-compatible:judge", "base_url": "http://127.0.0.1:9/v1"}}})
    clients = build_models(params).clients
    shared = clients["testee"].limiter
    assert clients["generator"].limiter is shared and clients["verifier"].limiter is not shared
    assert shared._requests.interval == pytest.approx(1.01 * 60 / 300)  # the stricter limit binds both roles
