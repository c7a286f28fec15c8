"""Perft: count the leaves of the game tree, to check move generation against known numbers.

Each level branches over the 21 distinct rolls, then over the distinct legal plays of that
roll (one per resulting position); sides alternate. A roll that cannot be played is one leaf
(the pass). Counts are memoised by position, which is exact because a subtree depends only on
the position it starts from.
"""

from __future__ import annotations

from .dice import ALL_ROLLS
from .plays import Board, Key, flip_array, search, to_array
from .position import Position


def perft(depth: int, position: Position | None = None) -> int:
    """Leaves at `depth` below `position` (the starting position by default)."""
    start = to_array(position or Position.starting())
    memo: dict[tuple[Key, int], int] = {}
    return _count(start, depth, memo)


def _count(b: Board, depth: int, memo: dict[tuple[Key, int], int]) -> int:
    if depth == 0:
        return 1
    key = (tuple(b), depth)
    cached = memo.get(key)
    if cached is not None:
        return cached
    total = 0
    for dice in ALL_ROLLS:
        found = search(b, dice.high, dice.low)
        if depth == 1:
            total += len(found) or 1
            continue
        if not found:
            total += _count(flip_array(b), depth - 1, memo)
            continue
        for result in found:
            total += _count(flip_array(list(result)), depth - 1, memo)
    memo[key] = total
    return total
