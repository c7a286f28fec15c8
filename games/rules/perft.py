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

from .board import Board, Key, to_array
from .dice import ALL_ROLLS
from .games import TAVLA, game_of
from .position import Position
from .variant import Game


def perft(depth: int, position: Position | None = None, *, game: Game | None = None) -> int:
    """Leaves at `depth` below `position` (the game's starting position by default).

    The game is the position's, or `game` (tavla by default). In a game with the head rule
    (long nardy) the first two levels below the starting position are both players' first
    turns (the head exception).
    """
    game = game or (game_of(position) if position is not None else TAVLA)
    start = position if position is not None else game.starting()
    first_turns = 2 if game.head_rule and start == game.starting() else 0
    return _count(game, to_array(start), depth, first_turns, {})


def _count(
    game: Game, b: Board, depth: int, first_turns: int, memo: dict[tuple[Key, int, int], int]
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
    successors = game.successor_arrays
    flip = game.flipped_array
    total = 0
    for dice in ALL_ROLLS:
        found = successors(b, dice.high, dice.low, first_turn=first)
        if depth == 1:
            total += len(found) or 1
            continue
        if not found:
            total += _count(game, flip(b), depth - 1, later, memo)
            continue
        for result in found:
            if any(n > 0 for n in result):
                total += _count(game, flip(result), depth - 1, later, memo)
            else:  # the mover bore off his last checker: the game is over
                total += 1
    memo[key] = total
    return total
