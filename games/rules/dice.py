"""A roll of two dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidDice


@dataclass(frozen=True, slots=True)
class Dice:
    """Two dice, larger first. Doubles give four steps of their number."""

    high: int
    low: int

    def __post_init__(self) -> None:
        if not (
            type(self.high) is int and type(self.low) is int and 1 <= self.low <= self.high <= 6
        ):
            raise InvalidDice.because("dice_range", high=repr(self.high), low=repr(self.low))

    @classmethod
    def of(cls, a: int, b: int) -> Dice:
        for die in (a, b):
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise InvalidDice.because("die_range", die=repr(die))
        return cls(max(a, b), min(a, b))

    @classmethod
    def parse(cls, value: Any) -> Dice:
        """Accept "31", "3-1", "3 1" or a pair [3, 1]."""
        if isinstance(value, (list, tuple)):
            if len(value) != 2:
                raise InvalidDice.because("two_dice")
            return cls.of(value[0], value[1])
        if isinstance(value, str):
            digits = [c for c in value if not c.isspace() and c not in "-,"]
            if len(digits) == 2 and all(c in "123456" for c in digits):
                return cls.of(int(digits[0]), int(digits[1]))
        raise InvalidDice.because("unreadable_dice", value=repr(value))

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def steps(self) -> tuple[int, ...]:
        """The die numbers this roll lets the player move: four for doubles."""
        if self.high == self.low:
            return (self.high,) * 4
        return (self.high, self.low)

    def __str__(self) -> str:
        return f"{self.high}{self.low}"

    def to_json(self) -> list[int]:
        return [self.high, self.low]


ALL_ROLLS: tuple[Dice, ...] = tuple(Dice(h, lo) for h in range(1, 7) for lo in range(1, h + 1))
"""The 21 distinct rolls."""
