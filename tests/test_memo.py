"""The bounded memo: each value computed once, and the memo never holds more than its limit."""

from sea.memo import remembered


def test_a_value_is_computed_once_and_the_memo_starts_over_when_full():
    memo, calls = {}, []

    def square(n):
        return lambda: calls.append(n) or n * n

    assert [remembered(memo, n, 3, square(n)) for n in (1, 2, 1, 3, 2)] == [1, 4, 1, 9, 4]
    assert calls == [1, 2, 3] and len(memo) == 3
    assert remembered(memo, 4, 3, square(4)) == 16 and memo == {4: 16}  # full: started over
    assert remembered(memo, 1, 3, square(1)) == 1 and calls == [1, 2, 3, 4, 1]
