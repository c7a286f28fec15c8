"""The weakest level: a uniformly random legal play, and the simplest cube behaviour."""

from __future__ import annotations

import random

from games.rules import Dice, Play, Position

from .base import Player


class RandomPlayer(Player):
    """Plays a legal play chosen uniformly at random; never doubles, always takes, accepts
    every resignation. `seed` makes its choices repeatable (tests, benchmarks)."""

    level = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._random = random.Random(seed)

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        plays = self.legal(position, dice, first_turn)
        return self._random.choice(plays) if plays else None
