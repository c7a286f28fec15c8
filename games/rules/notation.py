"""Step notation: "24/18 13/10", "bar/22*", "6/off", "8/5(2)", "13/7*/5".

Points are the mover's own numbers; "bar" is 25 and "off" is 0 (both spellings are read).
A token may chain several dice for one checker ("24/13", "13/7*/5") and may repeat "(2)".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Protocol

from .errors import InvalidNotation
from .position import BAR, OFF


class _Step(Protocol):
    """What notation needs of a step (board.Step): below the values, notation knows none."""

    @property
    def frm(self) -> int: ...
    @property
    def to(self) -> int: ...
    @property
    def hit(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class CheckerMove:
    """One checker going from `frm` to `to`, by one die or several; `hit`: a blot hit at `to`."""

    frm: int
    to: int
    hit: bool = False


Move = CheckerMove  # the old name, for code not yet on the games.rules facade


_POINT = r"(?:bar|off|\d{1,2})"
_TOKEN = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$")


def parse_moves(text: str) -> list[CheckerMove]:
    """Read notation into moves, split at every written waypoint; raise InvalidNotation."""
    if not isinstance(text, str):
        raise InvalidNotation.because("play_as_text")
    moves: list[CheckerMove] = []
    for token in text.lower().replace(",", " ").split():
        match = _TOKEN.match(token)
        if not match:
            raise InvalidNotation.because("unreadable_move", token=repr(token))
        chain, times = match.group(1), int(match.group(2) or 1)
        if not 1 <= times <= 4:
            raise InvalidNotation.because("repeat_count", token=repr(token))
        points = [_point(p) for p in chain.split("/")]
        for _ in range(times):
            for (frm, _), (to, hit) in pairwise(points):
                if frm == OFF:
                    raise InvalidNotation.because("off_cannot_move", token=repr(token))
                if to == BAR:
                    raise InvalidNotation.because("no_move_to_bar", token=repr(token))
                if to >= frm:
                    raise InvalidNotation.because("move_downwards", token=repr(token))
                moves.append(CheckerMove(frm, to, hit))
    return moves


def moves_from_pairs(pairs: Iterable[object]) -> list[CheckerMove]:
    """Read steps given as [[from, to], ...] (JSON); 25 is the bar, 0 is off."""
    moves: list[CheckerMove] = []
    for pair in pairs:
        if (
            not isinstance(pair, (list, tuple))
            or len(pair) != 2
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in pair)
        ):
            raise InvalidNotation.because("step_pair")
        frm, to = pair
        if not (0 < frm <= BAR and 0 <= to < BAR and to < frm):
            raise InvalidNotation.because("not_a_step", **{"from": frm, "to": to})
        moves.append(CheckerMove(frm, to))
    return moves


def _point(text: str) -> tuple[int, bool]:
    hit = text.endswith("*")
    name = text.rstrip("*")
    if name == "bar":
        return BAR, hit
    if name == "off":
        return OFF, hit
    number = int(name)
    if not 0 <= number <= BAR:
        raise InvalidNotation.because("no_such_point", number=number)
    return number, hit


def point_name(point: int) -> str:
    """A point as notation writes it: "bar", "off" or its number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def format_play(steps: Iterable[_Step]) -> str:
    """gnubg-style notation of a play's steps: one checker's steps joined, repeats as (n).

    A checker's waypoints are written only where it hit ("13/7*/5"); otherwise "24/13".
    Remembered per steps: a roll's answer writes every legal play's notation, and the same
    plays come back in position after position.
    """
    return _format_play(tuple(steps))


@lru_cache(maxsize=1 << 15)
def _format_play(steps: tuple[_Step, ...]) -> str:
    # Like gnubg: steps in descending order, each joined to the first checker that ended on
    # its starting point, chains kept in that order.
    chains: list[list[tuple[int, bool]]] = []
    for step in sorted(steps, key=lambda s: (-s.frm, -s.to)):
        for chain in chains:
            if chain[-1][0] == step.frm and step.frm != OFF:
                chain.append((step.to, step.hit))
                break
        else:
            chains.append([(step.frm, False), (step.to, step.hit)])
    # Checkers on the same path are written once with a count, starred where any of them hit
    # (gnubg writes 13/10*/7(2)); waypoints are written only where a hit happened.
    groups: dict[tuple[int, ...], list[bool]] = {}
    counts: dict[tuple[int, ...], int] = {}
    for chain in chains:
        path = tuple(p for p, _ in chain)
        hits = groups.setdefault(path, [False] * len(chain))
        groups[path] = [a or b for a, (_, b) in zip(hits, chain, strict=True)]
        counts[path] = counts.get(path, 0) + 1
    out = []
    for path, hits in groups.items():
        shown = [i for i in range(len(path)) if i in (0, len(path) - 1) or hits[i]]
        text = "/".join(point_name(path[i]) + ("*" if hits[i] else "") for i in shown)
        out.append(text + (f"({counts[path]})" if counts[path] > 1 else ""))
    return " ".join(out)
