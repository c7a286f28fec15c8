"""Tavla: backgammon as RULES.md reads it. Its board is `position.Position` (a bar, the two
players moving opposite ways round), its search `plays.py`, what a win is worth `scoring.py`."""

from __future__ import annotations

from collections.abc import Sequence

from . import plays
from .board import Key, Play, flip_array
from .dice import Dice
from .errors import IllegalPlay
from .position import Position
from .scoring import GameKind, kind_of_win
from .variant import Game, Variant


class Tavla(Game):
    """Tavla's rules (the instance: games.TAVLA)."""

    variant = Variant.TAVLA
    title = "tavla"
    position_class = Position
    has_bar = True
    heads = None
    direction = "opposite"
    closing_count = -plays.CLOSED
    head_rule = False
    wall = None
    has_cube = True
    has_backgammons = True
    has_gnubg_ids = True
    plays_opening_dice = True
    winner_starts_next_game = False
    resign_values = (1, 2, 3)
    results = ("single", "gammon", "backgammon")
    resign_reason = "resign_value"
    no_cube_reason = "no_cube"

    def legal_plays(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> list[Play]:
        return plays.legal_plays(position, dice)

    def successor_arrays(
        self, array: Sequence[int], high: int, low: int, *, first_turn: bool = False
    ) -> list[Key]:
        return plays.successor_arrays(array, high, low)

    def flipped_array(self, array: Sequence[int]) -> list[int]:
        return flip_array(array)

    def kind_of_win(self, winner_view: Position) -> GameKind:
        return kind_of_win(winner_view)

    def their_point(self, point: int) -> int:
        return 25 - point

    def my_point(self, theirs: int) -> int:
        return 25 - theirs

    def point_closed(self, point: int, count: int) -> IllegalPlay:
        return IllegalPlay.because("point_closed", point=point, count=count)
