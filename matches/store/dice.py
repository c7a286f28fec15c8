"""Where dice come from: the server's secure random source, or a script (imports, tests)."""

from __future__ import annotations

import secrets
from collections import deque
from collections.abc import Iterable
from typing import Protocol

from games.rules import Dice


class DiceSource(Protocol):
    def opening(self) -> tuple[int, int]:
        """One die for each player (player 0's first)."""
        ...

    def roll(self) -> Dice: ...


class SecretDice:
    """Dice from `secrets`: no client ever chooses or predicts them."""

    def opening(self) -> tuple[int, int]:
        return _die(), _die()

    def roll(self) -> Dice:
        return Dice.of(_die(), _die())


def _die() -> int:
    return secrets.randbelow(6) + 1


class ScriptedDice:
    """Dice known in advance, in the order they are used (an imported match's rolls)."""

    def __init__(self, pairs: Iterable[tuple[int, int]]) -> None:
        self._pairs = deque(pairs)

    def _next(self) -> tuple[int, int]:
        if not self._pairs:
            raise LookupError("the scripted dice ran out")
        return self._pairs.popleft()

    def opening(self) -> tuple[int, int]:
        return self._next()

    def roll(self) -> Dice:
        return Dice.of(*self._next())

    @property
    def left(self) -> int:
        return len(self._pairs)


SECRET_DICE = SecretDice()
