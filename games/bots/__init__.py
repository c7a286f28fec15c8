"""Computer players, pure Python: the service plays them through its ordinary commands.

`LEVELS` lists the levels from weakest to strongest; `player_for(level)` builds one.
Stronger levels register here as they are added (each in its own module).
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Player
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer

LEVELS: dict[str, Callable[[], Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
}
"""Level name -> a factory of its player, weakest first."""

DEFAULT_LEVEL = "random"


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


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "levels",
    "player_for",
]
