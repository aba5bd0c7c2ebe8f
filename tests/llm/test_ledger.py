import pytest

from sea.llm.ledger import Budget, Ledger, PriceTable, Reservation, default_prices
from sea.llm.types import BudgetExhausted


def test_prices_come_from_data_with_prefix_match_and_unknowns():
    prices = PriceTable(default_prices())
    assert prices.cost("openai:gpt-4o-mini", 1_000_000, 0) == pytest.approx(0.15)
    assert prices.cost("openai:gpt-4o-2024-08-06", 0, 1_000_000) == pytest.approx(10.0)  # longest prefix: gpt-4o
    assert prices.cost("openai-compatible:llama-3-70b", 1000, 1000) is None
    assert prices.cost("simulated:paper-regime", 1000, 10) == 0.0


def test_unknown_price_is_unknown_not_zero():
    ledger = Ledger()
    ledger.record("testee", "openai-compatible:x", 10, 2, None, cached=False)
    ledger.record("testee", "openai-compatible:x", 10, 2, None, cached=False)
    [usage] = ledger.summary()
    assert usage["cost_usd"] is None and usage["input_tokens"] == 20 and usage["calls"] == 2


def test_reservations_count_against_the_limit_until_settled():
    budget = Budget(calls=2, tokens=100)
    first = budget.reserve(60, None)
    with pytest.raises(BudgetExhausted, match="tokens limit 100"):
        budget.reserve(50, None)  # 60 reserved + 50 > 100, though nothing is spent yet
    budget.settle(first, 30, None)
    second = budget.reserve(50, None)  # 30 spent + 50 fits
    budget.release(second)
    assert budget.spent.calls == 1 and budget.spent.tokens == 30 and budget.reserved.tokens == 0


def test_a_budget_resumed_with_what_was_spent_allows_only_the_rest():
    budget = Budget(calls=3, spent=Reservation(2, 100, 0.0))
    budget.settle(budget.reserve(10, None), 10, None)
    with pytest.raises(BudgetExhausted):
        budget.reserve(10, None)
    assert budget.spent.calls == 3 and budget.calls_left == 0
