import asyncio

import pytest

from sea.llm.ledger import Budget, Ledger, PriceTable, Reservation, SentCalls
from sea.settings import default_prices
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


def test_a_reservation_that_fits_once_calls_in_flight_settle_waits_for_them():
    async def scenario():
        budget = Budget(calls=3, tokens=100)
        first = await budget.reserve(60, None)
        second = asyncio.create_task(budget.reserve(50, None))  # 60 reserved + 50 > 100, but 50 alone fits
        await asyncio.sleep(0.01)
        assert not second.done()  # waits rather than failing early
        budget.settle(first, 30, None)
        budget.settle(await second, 50, None)  # 30 spent + 50 fits
        with pytest.raises(BudgetExhausted, match="tokens limit 100, 80 spent"):
            await budget.reserve(30, None)  # cannot fit even with nothing in flight
        with pytest.raises(BudgetExhausted):
            await budget.reserve(1, None)  # exhausted for good: later calls never jump the queue
        return budget

    budget = asyncio.run(scenario())
    assert budget.spent.calls == 2 and budget.spent.tokens == 80 and budget.reserved.tokens == 0


def test_reservations_are_granted_in_the_order_they_were_asked():
    async def scenario():
        budget = Budget(tokens=100)
        blocker = await budget.reserve(90, None)
        big = asyncio.create_task(budget.reserve(60, None))
        small = asyncio.create_task(budget.reserve(5, None))  # fits now, but must not pass the one ahead of it
        await asyncio.sleep(0.01)
        assert not small.done()
        budget.settle(blocker, 20, None)
        await big
        await small
        return budget

    assert asyncio.run(scenario()).reserved.tokens == 65


def test_a_budget_resumed_with_what_was_spent_allows_only_the_rest():
    async def scenario():
        budget = Budget(calls=3, spent=Reservation(2, 100, 0.0))
        budget.settle(await budget.reserve(10, None), 10, None)
        with pytest.raises(BudgetExhausted):
            await budget.reserve(10, None)
        return budget

    budget = asyncio.run(scenario())
    assert budget.spent.calls == 3 and budget.calls_left == 0


def test_sent_calls_left_open_are_those_neither_cached_nor_unsent_from_the_step_on(tmp_path):
    steps = {3: SentCalls(tmp_path / "sea.sent-calls.jsonl", 3), 4: SentCalls(tmp_path / "sea.sent-calls.jsonl", 4)}
    tickets = [steps[3].opened(Reservation(1, 100, 0.5)), steps[4].opened(Reservation(1, 40, 0.25)),
               steps[4].opened(Reservation(1, 60, 0.125)), steps[4].opened(Reservation(1, 7, 0.0))]
    steps[4].closed(tickets[3])
    assert steps[4].left_open(from_step=4) == Reservation(2, 100, 0.375)  # step 3's attempt is in its committed state
    assert steps[4].left_open(from_step=0) == Reservation(3, 200, 0.875)  # the arm redone from the start
    with (tmp_path / "sea.sent-calls.jsonl").open("a") as record:
        record.write('{"closed": "' + tickets[1][:5])  # a line a lost machine cut: not counted
    assert steps[4].left_open(from_step=4) == Reservation(2, 100, 0.375)
    assert SentCalls(tmp_path / "none.jsonl", 0).left_open(from_step=0) == Reservation(0, 0, 0.0)


def test_what_was_paid_counts_the_replies_and_the_attempts_left_open_over_every_step(tmp_path):
    record = tmp_path / "sea.sent-calls.jsonl"
    first, redo = SentCalls(record, 0), SentCalls(record, 1)
    answered = first.opened(Reservation(1, 100, 0.5))
    first.closed(answered, tokens=30, dollars=0.125)  # answered: what the reply used, not its worst case
    never_left = first.opened(Reservation(1, 100, 0.5))
    first.closed(never_left)
    first.opened(Reservation(1, 80, 0.25))  # cut in flight: may be billed
    redo.closed(redo.opened(Reservation(1, 100, 0.5)), tokens=20, dollars=0.0625)
    assert redo.paid() == {"paid_calls": 2, "paid_tokens": 50, "paid_dollars": 0.1875, "unsettled_calls": 1, "unsettled_dollars": 0.25}
    unpriced = SentCalls(tmp_path / "x.sent-calls.jsonl", 0)
    unpriced.closed(unpriced.opened(Reservation(1, 10, 0.0)), tokens=5, dollars=None)
    assert unpriced.paid()["paid_dollars"] is None  # unknown, never 0
