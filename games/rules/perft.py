"""Perft: count the leaves of the game tree, to check move generation against known numbers.

Each level branches over the 21 distinct rolls, then over the distinct legal plays of that
roll (one per resulting position); sides alternate. A roll that cannot be played is one leaf
(the pass); a play that ends the game is a leaf. Counts are memoised by position, which is
exact because a subtree depends only on the position it starts from (and, in long nardy,
on whether the turns in it are first turns).

Tavla from the start: 447 / 202,782 / 116,154,993. Long nardy from the start, where both
players' first turns are the first two levels: 22 / 484 / 35,387 / 2,411,418.
"""

from __future__ import annotations

from .dice import ALL_ROLLS
from .game import LONG_NARDY, TAVLA, Game, game_of
from .nardy import flip_array as nardy_flip
from .nardy import search as nardy_search
from .plays import Board, Key, flip_array, search, to_array
from .position import Position


def perft(depth: int, position: Position | None = None, *, game: Game | None = None) -> int:
    """Leaves at `depth` below `position` (the game's starting position by default).

    The game is the position's, or `game` (tavla by default). In long nardy the first two
    levels below the starting position are both players' first turns (the head exception).
    """
    game = game or (game_of(position) if position is not None else TAVLA)
    start = position if position is not None else game.starting()
    if game is LONG_NARDY:
        first_turns = 2 if start == game.starting() else 0
        return _count_nardy(to_array(start), depth, first_turns, {})
    return _count(to_array(start), depth, {})


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


def _count_nardy(
    b: Board, depth: int, first_turns: int, memo: dict[tuple[Key, int, int], int]
) -> int:
    """`first_turns`: how many of the next levels are a player's first turn (2, 1 or 0)."""
    if depth == 0:
        return 1
    key = (tuple(b), depth, first_turns)
    cached = memo.get(key)
    if cached is not None:
        return cached
    first = first_turns > 0
    later = max(first_turns - 1, 0)
    total = 0
    for dice in ALL_ROLLS:
        found = nardy_search(b, dice.high, dice.low, first)
        if depth == 1:
            total += len(found) or 1
            continue
        if not found:
            total += _count_nardy(nardy_flip(b), depth - 1, later, memo)
            continue
        for result in found:
            if any(n > 0 for n in result):
                total += _count_nardy(nardy_flip(result), depth - 1, later, memo)
            else:  # the mover bore off his last checker: the game is over
                total += 1
    memo[key] = total
    return total
