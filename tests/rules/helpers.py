"""Small builders so rules tests read like the game.

Everything uses the numbering of the player on roll (the mover): he moves from 24 toward 1 and
bears off below 1. `theirs` is also given in the MOVER's numbering: `theirs={1: 2}` puts two
opposing checkers on the mover's 1-point (the opponent's own 24-point).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from games.rules.dice import Dice
from games.rules.plays import Play, legal_plays
from games.rules.position import CHECKERS, Position


def pos(
    mine: Mapping[int, int] | None = None,
    theirs: Mapping[int, int] | None = None,
    bar: tuple[int, int] = (0, 0),
    off: tuple[int, int] | None = None,
) -> Position:
    """A checked position; `off` defaults to whatever makes 15 checkers a side."""
    mine = dict(mine or {})
    theirs = dict(theirs or {})
    board = [0] * 24
    for point, n in mine.items():
        assert 1 <= point <= 24 and n > 0, (point, n)
        board[point - 1] = n
    for point, n in theirs.items():
        assert 1 <= point <= 24 and n > 0, (point, n)
        assert board[point - 1] == 0, f"both sides on point {point}"
        board[point - 1] = -n
    if off is None:
        off = (
            CHECKERS - sum(mine.values()) - bar[0],
            CHECKERS - sum(theirs.values()) - bar[1],
        )
    position = Position(tuple(board), bar, off)
    position.check()
    return position


def dice(a: int, b: int) -> Dice:
    return Dice.of(a, b)


def plays(position: Position, a: int, b: int) -> list[Play]:
    return legal_plays(position, Dice.of(a, b))


def results(position: Position, a: int, b: int) -> set[Position]:
    """The set of positions the legal plays of roll a-b reach."""
    return {p.result for p in plays(position, a, b)}


def steps_text(play: Play) -> str:
    """The play's steps, in order, as plain "from/to" text (no hit marks), e.g. "24/18 18/13"."""
    return " ".join(f"{_name(s.frm)}/{_name(s.to)}" for s in play.steps)


def step_sets(position: Position, a: int, b: int) -> set[frozenset[tuple[int, int]]]:
    """Each legal play as the multiset-free set of (from, to) pairs; handy for non-doubles."""
    return {frozenset((s.frm, s.to) for s in p.steps) for p in plays(position, a, b)}


def after(position: Position, *moves: tuple[int, int]) -> Position:
    """The position after moving checkers (from, to) by hand, hitting blots; 25 bar, 0 off.

    No legality check: this is how a test states the expected result independently of the
    engine.
    """
    board = list(position.board)
    my_bar, their_bar = position.bar
    my_off, their_off = position.off
    for frm, to in moves:
        if frm == 25:
            assert my_bar > 0
            my_bar -= 1
        else:
            assert board[frm - 1] > 0, (frm, to)
            board[frm - 1] -= 1
        if to == 0:
            my_off += 1
        elif board[to - 1] == -1:
            board[to - 1] = 1
            their_bar += 1
        else:
            assert board[to - 1] >= 0, (frm, to)
            board[to - 1] += 1
    result = Position(tuple(board), (my_bar, their_bar), (my_off, their_off))
    result.check()
    return result


def each_after(position: Position, *plays_: Iterable[tuple[int, int]]) -> set[Position]:
    """The set of positions after each hand-written play."""
    return {after(position, *moves) for moves in plays_}


def _name(point: int) -> str:
    return {25: "bar", 0: "off"}.get(point, str(point))
