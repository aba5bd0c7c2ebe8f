"""A memo that cannot grow without bound: on the full dump a generator meets millions of names."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


def remembered(memo: dict, key: Hashable, limit: int, compute: Callable[[], T]) -> T:
    """memo[key], computed on first use; a memo holding `limit` entries starts over first."""
    if key in memo:
        return memo[key]
    if len(memo) >= limit:
        memo.clear()
    value = memo[key] = compute()
    return value
