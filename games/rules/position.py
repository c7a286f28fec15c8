"""The board, seen from the player on roll.

Points are numbered from the mover's side: he moves from 24 toward 1 and bears off below 1.
`board[i]` is point i+1: positive counts are the mover's checkers, negative the opponent's.
`bar` and `off` are (mover, opponent). This is the convention of gnubg's oracle corpus, so
positions travel to and from JSON unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast

from .errors import InvalidPosition

CHECKERS = 15
POINTS = 24
BAR = 25  # the bar in step notation (from the mover's side)
OFF = 0  # borne off, in step notation

_START = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers on points, bar and off, from the side of the player on roll."""

    variant: ClassVar[str] = "tavla"
    """The game the position is of (games.find_game finds it): each game's own class."""

    board: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)

    @classmethod
    def starting(cls) -> Position:
        return cls(_START)

    def flipped(self) -> Position:
        """The same position seen from the other player."""
        return Position(
            tuple(-n for n in reversed(self.board)),
            (self.bar[1], self.bar[0]),
            (self.off[1], self.off[0]),
        )

    def pips(self) -> tuple[int, int]:
        """Pip counts (mover, opponent): the distance each side still has to travel."""
        mine = 25 * self.bar[0]
        theirs = 25 * self.bar[1]
        for i, n in enumerate(self.board):
            if n > 0:
                mine += (i + 1) * n
            elif n < 0:
                theirs -= (24 - i) * n
        return mine, theirs

    def checkers(self, point: int) -> int:
        """Signed count on `point` (1..24) in the mover's numbering; 25 is his bar."""
        if point == BAR:
            return self.bar[0]
        return self.board[point - 1]

    def is_race(self) -> bool:
        """True when no contact is left: every mover checker is past every opponent checker."""
        if self.bar[0] or self.bar[1]:
            return False
        highest_mine = max((i for i, n in enumerate(self.board) if n > 0), default=-1)
        lowest_theirs = min((i for i, n in enumerate(self.board) if n < 0), default=24)
        return highest_mine < lowest_theirs

    def sort_key(self) -> tuple[int, ...]:
        """The ordering the gnubg corpus uses: board, then bar, then off."""
        return self.board + self.bar + self.off

    def to_json(self) -> dict[str, list[int]]:
        return {"board": list(self.board), "bar": list(self.bar), "off": list(self.off)}

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Build and check a position from `{"board": [24], "bar": [2], "off": [2]}`."""
        if not isinstance(data, dict):
            raise InvalidPosition.because("position_object")
        try:
            board = tuple(_ints(data["board"], 24, "board"))
            bar = tuple(_ints(data.get("bar", [0, 0]), 2, "bar"))
            off = tuple(_ints(data.get("off", [0, 0]), 2, "off"))
        except KeyError as exc:
            raise InvalidPosition.because("position_field", field=exc.args[0]) from None
        position = cls(board, (bar[0], bar[1]), (off[0], off[1]))
        position.check()
        return position

    def check(self) -> None:
        """Raise InvalidPosition unless each side has exactly 15 checkers and counts are sane."""
        if len(self.board) != POINTS:
            raise InvalidPosition.because("board_points", count=len(self.board))
        if min(self.bar) < 0 or min(self.off) < 0:
            raise InvalidPosition.because("negative_counts")
        mine = sum(n for n in self.board if n > 0) + self.bar[0] + self.off[0]
        theirs = -sum(n for n in self.board if n < 0) + self.bar[1] + self.off[1]
        for reason, count in (("checkers_on_roll", mine), ("checkers_opponent", theirs)):
            if count != CHECKERS:
                raise InvalidPosition.because(reason, count=count)


P = TypeVar("P", bound=Position)

_new = object.__new__
_set_board = cast(Any, Position.__dict__["board"]).__set__
_set_bar = cast(Any, Position.__dict__["bar"]).__set__
_set_off = cast(Any, Position.__dict__["off"]).__set__


def make_position(
    cls: type[P], board: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int]
) -> P:
    """A position of class `cls` built without the dataclass constructor (no checks).

    The hot path of legal-play generation: the fields are set through their slot descriptors,
    which is about twice as fast as the frozen dataclass `__init__`. Only for values the
    engine itself computed.
    """
    position = _new(cls)
    _set_board(position, board)
    _set_bar(position, bar)
    _set_off(position, off)
    return position


def _ints(value: Any, length: int, name: str) -> list[int]:
    if not isinstance(value, list) or len(value) != length:
        raise InvalidPosition.because("position_list", field=name, length=length)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in value):
        raise InvalidPosition.because("position_integers", field=name)
    return value
