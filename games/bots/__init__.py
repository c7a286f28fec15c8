"""Computer players, pure Python with numpy: the service plays them through its commands.

Each game has its own levels: `levels(game)` lists them from weakest to strongest,
`player_for(level, game)` builds one, `default_level(game)` is the one a match gets when it
names none; `game` is "tavla" (the default: `LEVELS`, `DEFAULT_LEVEL`) or "long-nardy"
(`NARDY_LEVELS`). `decide(player, state, seat, roll)` is what a player does now in a match of
either game. The network levels share one evaluator per game, loaded from the committed
weights the first time it is needed; the Celery worker loads them at start-up (`preload`),
so no move waits.
"""

from __future__ import annotations

import os

# The networks' matrices are small (a batch of plays by 384 units): BLAS threads only spin
# beside the one doing the work. One thread per process, set before numpy loads its BLAS:
# a 7-point match's analysis took 16.4 s of CPU with the default threads, 6.3 s with one
# (benchmarks/analysis_bench.py, side by side). A deployment may still choose its own.
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

from collections.abc import Callable
from functools import cache
from pathlib import Path

from .base import Player
from .heuristic import HeuristicPlayer
from .matchplay import decide
from .nardy_heuristic import NardyHeuristicPlayer
from .nardy_network import NardyEvaluator, NardyNetworkPlayer
from .network import Evaluator
from .neural import LookaheadPlayer, NetworkPlayer
from .random_player import RandomPlayer

WEIGHTS = Path(__file__).with_name("weights.npz")
"""The trained evaluator: distilled from gnubg's 0-ply evaluations by
games/bots/distill_train.py (docs/computer-players.md: the data and the command)."""
NARDY_WEIGHTS = Path(__file__).with_name("nardy_weights.npz")
"""Long nardy's trained evaluator: games/bots/nardy_train.py, docs/computer-players.md."""

NOISE = 0.05
"""Standard deviation (points) of the error the noisy level adds to every play's equity."""


@cache
def evaluator() -> Evaluator:
    """The trained evaluator, loaded once per process."""
    return Evaluator.load(WEIGHTS)


@cache
def nardy_evaluator() -> NardyEvaluator:
    """Long nardy's trained evaluator, loaded once per process."""
    return NardyEvaluator.load(NARDY_WEIGHTS)


def _noisy() -> Player:
    player = NetworkPlayer(evaluator(), noise=NOISE)
    player.level = "network-noisy"
    return player


LEVELS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "network-noisy": _noisy,
    "network": lambda: NetworkPlayer(evaluator()),
    "network-1ply": lambda: LookaheadPlayer(evaluator()),
}
"""Level name -> a factory of its player, weakest first."""

DEFAULT_LEVEL = "network"

NARDY_LEVELS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "heuristic": NardyHeuristicPlayer,
    "network": lambda: NardyNetworkPlayer(nardy_evaluator()),
}
"""Long nardy's levels, weakest first (the random player plays either game)."""

GAME_LEVELS: dict[str, dict[str, Callable[[], Player]]] = {
    "tavla": LEVELS,
    "long-nardy": NARDY_LEVELS,
}
DEFAULT_LEVELS: dict[str, str] = {"tavla": DEFAULT_LEVEL, "long-nardy": "network"}


def _levels_of(game: str) -> dict[str, Callable[[], Player]]:
    try:
        return GAME_LEVELS[str(game)]
    except KeyError:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(GAME_LEVELS)}") from None


def levels(game: str = "tavla") -> list[str]:
    """The level names of `game` ("tavla" or "long-nardy"), weakest first; ValueError names
    the games for an unknown one."""
    return list(_levels_of(game))


def default_level(game: str = "tavla") -> str:
    """The level a match of `game` gets when it names none."""
    _levels_of(game)
    return DEFAULT_LEVELS[str(game)]


def player_for(level: str, game: str = "tavla") -> Player:
    """A player of `level` for `game`; KeyError names that game's levels."""
    found = _levels_of(game)
    try:
        factory = found[level]
    except KeyError:
        raise KeyError(
            f"unknown computer level {level!r} for {game}; levels: {', '.join(found)}"
        ) from None
    return factory()


def preload() -> None:
    """Load both games' evaluators now (a worker calls this at start-up)."""
    evaluator()
    nardy_evaluator()


__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_LEVELS",
    "GAME_LEVELS",
    "LEVELS",
    "NARDY_LEVELS",
    "NARDY_WEIGHTS",
    "WEIGHTS",
    "HeuristicPlayer",
    "LookaheadPlayer",
    "NardyEvaluator",
    "NardyHeuristicPlayer",
    "NardyNetworkPlayer",
    "NetworkPlayer",
    "Player",
    "RandomPlayer",
    "decide",
    "default_level",
    "evaluator",
    "levels",
    "nardy_evaluator",
    "player_for",
    "preload",
]
