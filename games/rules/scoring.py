"""What a finished game is worth: single, gammon ("mars") or backgammon, times the cube."""

from __future__ import annotations

from enum import IntEnum

from .position import CHECKERS, Position


class GameKind(IntEnum):
    """How completely a game was won; the value is the base number of points."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    @property
    def label(self) -> str:
        return self.name.lower()


def kind_of_win(winner_view: Position) -> GameKind:
    """Judge a game the player on roll in `winner_view` has just won by bearing off.

    Single if the loser has borne off a checker; gammon if not; backgammon if not and the
    loser still has a checker on the bar or in the winner's home board (points 1-6).
    """
    if winner_view.off[1] > 0:
        return GameKind.SINGLE
    if winner_view.bar[1] > 0 or any(n < 0 for n in winner_view.board[:6]):
        return GameKind.BACKGAMMON
    return GameKind.GAMMON


def has_won(winner_view: Position) -> bool:
    return winner_view.off[0] == CHECKERS


def game_points(
    kind: GameKind,
    cube: int,
    *,
    backgammon_value: int = 3,
    jacoby: bool = False,
) -> int:
    """Points for a game of this kind: the base value (backgammon 3, or 2 where clubs count it
    as a plain mars) times the cube; under Jacoby (money play, cube never turned) gammons and
    backgammons count as single games."""
    if jacoby and cube == 1:
        return 1
    base = {GameKind.SINGLE: 1, GameKind.GAMMON: 2, GameKind.BACKGAMMON: backgammon_value}[kind]
    return base * cube
