"""Whole cubeless games between two players: for benchmarks, tests and training.

Dice come from a seeded `random.Random`, so a game is repeatable, and two games with the same
seed see the same dice in the same order whoever sits where: playing each seed twice with
the players swapped ("duplicate" play) cancels most of the luck of the dice.

Either game (`game=`, tavla by default). In long nardy the opening roll only decides who
starts: he then rolls both dice for his first turn, and each player's first turn of the game
may take two checkers off the head with 6-6, 4-4 or 3-3.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.rules import TAVLA, Dice, Game, GameKind, has_won, kind_of_win

from .base import Player

MAX_TURNS = 2000
"""A guard: a game between sane players ends in far fewer turns (a stuck game is a bug)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: int  # the seat that bore off first (0 or 1)
    kind: GameKind
    turns: int

    @property
    def points(self) -> int:
        """Cubeless points: single 1, gammon 2, backgammon 3."""
        return int(self.kind)

    def points_for(self, seat: int) -> int:
        """Points won (+) or lost (-) by `seat`."""
        return self.points if seat == self.winner else -self.points


def opening_roll(rng: random.Random) -> tuple[int, Dice]:
    """Each seat rolls one die until they differ: (the seat that moves first, its roll)."""
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            return (0 if a > b else 1), Dice.of(a, b)


def play_game(players: tuple[Player, Player], seed: int, game: Game = TAVLA) -> GameResult:
    """One cubeless game from the starting position; `players[s]` sits in seat `s`."""
    rng = random.Random(seed)
    mover, dice = opening_roll(rng)
    if not game.plays_opening_dice:
        dice = Dice.of(rng.randint(1, 6), rng.randint(1, 6))
    position = game.starting()
    for turn in range(1, MAX_TURNS + 1):
        play = players[mover].choose_play(position, dice, first_turn=turn <= 2)
        if play is not None:
            position = play.result
            if has_won(position):
                return GameResult(mover, kind_of_win(position), turn)
        position = position.flipped()
        mover = 1 - mover
        dice = Dice.of(rng.randint(1, 6), rng.randint(1, 6))
    raise RuntimeError(f"game with seed {seed} did not end in {MAX_TURNS} turns")


def play_duplicate(
    first: Player, second: Player, seed: int, game: Game = TAVLA
) -> tuple[GameResult, GameResult]:
    """Two games on the same dice, `first` in seat 0 and then in seat 1."""
    return play_game((first, second), seed, game), play_game((second, first), seed, game)
