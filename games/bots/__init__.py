"""Computer players, pure Python with numpy: the service plays them through its commands.

`LEVELS` lists the levels from weakest to strongest; `player_for(level)` builds one. The
network levels share one evaluator, loaded from the committed weights (WEIGHTS) the first
time it is needed; the Celery worker loads it at start-up (`preload`), so no move waits.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from .base import Player
from .heuristic import HeuristicPlayer
from .matchplay import decide
from .network import Evaluator
from .neural import LookaheadPlayer, NetworkPlayer
from .random_player import RandomPlayer

WEIGHTS = Path(__file__).with_name("weights.npz")
"""The trained evaluator: how it was made is in games/bots/td_train.py."""

NOISE = 0.05
"""Standard deviation (points) of the error the noisy level adds to every play's equity."""


@cache
def evaluator() -> Evaluator:
    """The trained evaluator, loaded once per process."""
    return Evaluator.load(WEIGHTS)


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


def levels() -> list[str]:
    """The level names, weakest first."""
    return list(LEVELS)


def player_for(level: str) -> Player:
    """A player of `level`; KeyError names the levels there are."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise KeyError(f"unknown computer level {level!r}; levels: {', '.join(LEVELS)}") from None
    return factory()


def preload() -> None:
    """Load the evaluator now (a worker calls this at start-up)."""
    evaluator()


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "WEIGHTS",
    "HeuristicPlayer",
    "LookaheadPlayer",
    "NetworkPlayer",
    "Player",
    "RandomPlayer",
    "decide",
    "evaluator",
    "levels",
    "player_for",
    "preload",
]
