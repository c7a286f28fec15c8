"""The throttles' sliding window (matches/api/ratecount.py) on the local-memory cache; the same
arithmetic runs as a Redis script in tests/security/test_rate_limits.py (a real Redis)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from matches.api import ratecount

START = 6_000_000.0  # the start of a one-minute window (a multiple of 60)


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    cache.clear()


def hits(key: str, limit: int, at: float, n: int) -> list[bool]:
    return [ratecount.hit(key, limit, 60, at)[0] for _ in range(n)]


def test_a_window_allows_exactly_the_limit() -> None:
    assert hits("a", 5, START + 1, 7) == [True] * 5 + [False] * 2
    allowed, wait = ratecount.hit("a", 5, 60, START + 1)
    # the five are all in this window: the next one may come when enough of them slid out
    assert not allowed and 1 <= wait <= 60 + 12 + 1


def test_refused_requests_are_not_counted() -> None:
    assert hits("b", 3, START + 10, 10) == [True] * 3 + [False] * 7
    # next window, half way: 3 x 0.5 = 1.5 of the previous still count (the 7 refused do
    # not), so two more fit (1.5 + 1 < 3), not a third
    assert hits("b", 3, START + 90, 3) == [True, True, False]


def test_the_previous_window_counts_by_what_is_left_of_it() -> None:
    assert hits("c", 4, START + 59, 4) == [True] * 4
    # a quarter into the next window three quarters of the previous still count: 3
    assert hits("c", 4, START + 75, 3) == [True, False, False]
    # and the wait it gives is enough: once it has passed the next request goes through
    allowed, wait = ratecount.hit("c", 4, 60, START + 75)
    assert not allowed and wait >= 1
    assert ratecount.hit("c", 4, 60, START + 75 + wait)[0]


def test_keys_do_not_share_counts() -> None:
    assert hits("d", 1, START, 2) == [True, False]
    assert hits("e", 1, START, 1) == [True]


def test_wait_when_the_current_window_is_full() -> None:
    # 4 of 4 in this window, at its very end: the next window starts with 4 x 1.0 counted,
    # so it takes a quarter of the next window to fit one more
    assert hits("f", 4, START + 59.5, 5) == [True] * 4 + [False]
    allowed, wait = ratecount.hit("f", 4, 60, START + 59.5)
    assert not allowed
    assert ratecount.hit("f", 4, 60, START + 59.5 + wait)[0]
