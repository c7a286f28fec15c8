"""The values both games' move searches share: the array form, steps and plays.

Below every search and every game (tavla's `plays.py`, long nardy's `nardy.py`, the refusals
of `validate.py`), above only the position, the dice and notation, so the rules import one
another in one direction.

The array form is a mutable list of 26 counts, all from the mover's side: index 0 holds
minus the opponent's checkers on the bar, 1..24 the points (positive: mover, negative:
opponent) and 25 the mover's bar. Borne-off checkers are implied (15 minus the rest), so
`tuple(array)` identifies a resulting position exactly. Long nardy uses the same array with
both bars always 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from .notation import format_play, point_name
from .position import BAR, CHECKERS, OFF, P, Position, _new, _set_bar, _set_board, _set_off

Board = list[int]
Key = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die: from a point (25 = bar) to a point (0 = off)."""

    frm: int
    to: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{point_name(self.frm)}/{point_name(self.to)}{'*' if self.hit else ''}"


class Play:
    """The ordered steps of one turn and the position they lead to (still the mover's view).

    Immutable (`steps`, `result` and `notation` are read-only); equal when steps and result
    are equal. `plays_of` builds its plays lazily: a play keeps the search's resulting
    array and makes its `result` Position on first use, so listing the plays of a roll costs
    little more than the search itself.
    """

    __slots__ = ("_key", "_notation", "_origin", "_result", "_steps")

    _steps: tuple[Step, ...]
    _result: Position | None
    _notation: str | None
    _key: Key
    _origin: Position

    def __init__(self, steps: tuple[Step, ...], result: Position) -> None:
        self._steps = tuple(steps)
        self._result = result
        self._notation = None

    @property
    def steps(self) -> tuple[Step, ...]:
        return self._steps

    @property
    def result(self) -> Position:
        result = self._result
        if result is None:
            # make_position inlined: this runs once for every play a caller looks at.
            key = self._key
            off = self._origin.off
            result = self._result = _new(type(self._origin))
            _set_board(result, key[1:25])
            _set_bar(result, _BARS[key[25]][-key[0]])
            borne = [step.to for step in self._steps].count(OFF)
            _set_off(result, (off[0] + borne, off[1]) if borne else off)
        return result

    def result_array(self) -> Key:
        """The array form of `result` (still the mover's view), without building it when
        the search has it (`gnubgid.play_result_id` takes it)."""
        try:
            return self._key
        except AttributeError:  # made from a Position, not by a search
            return tuple(board_array(self.result))

    @property
    def notation(self) -> str:
        """Written once per play: a roll's answer shows every play's, and the play chosen
        is then found among them by it."""
        notation = self._notation
        if notation is None:
            notation = self._notation = format_play(self._steps)
        return notation

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self._steps == other._steps and self.result == other.result

    def __hash__(self) -> int:
        return hash((self._steps, self.result))

    def __repr__(self) -> str:
        return f"Play(steps={self._steps!r}, result={self.result!r})"


_new_play = object.__new__
_BARS = tuple(tuple((mine, theirs) for theirs in range(16)) for mine in range(16))


STEP: tuple[tuple[Step, ...], ...] = tuple(
    tuple(Step(frm, to) for to in range(26)) for frm in range(26)
)
"""`STEP[frm][to]`: every possible step without a hit, made once; plays share them."""
HIT: tuple[tuple[Step, ...], ...] = tuple(
    tuple(Step(frm, to, True) for to in range(26)) for frm in range(26)
)
"""`HIT[frm][to]`: the same steps hitting a blot."""
Found = dict[Key, tuple[Step, ...]]
"""A search's results: each resulting array with the steps of one play that reaches it."""


# -- the array form -------------------------------------------------------------------------
#
# Public (through the games' `successor_arrays` and friends), for callers that search many
# positions quickly (the computer players' training and lookahead): `board_array`. The
# engine's own helpers below (`to_array`, `from_array`, `flip_array`, `apply_step`) are
# internal: they may change with the search.


def board_array(position: Position) -> list[int]:
    """The array form of a position: 26 ints from the mover's side.

    Index 0 is minus the opponent's checkers on the bar, 1..24 the points (positive: the
    mover's checkers, negative: the opponent's), 25 the mover's checkers on the bar; borne-off
    checkers are what is missing from 15. A new list each call (the caller may change it).
    """
    return [-position.bar[1], *position.board, position.bar[0]]


def apply_steps(position: Position, steps: Iterable[Step | Sequence[int]]) -> Position:
    """The position after moving the mover's checkers by `steps`, hitting blots landed on.

    Steps are Step values or (from, to) pairs in the mover's numbering (25 the bar, 0 off).
    No rule is checked (for showing recorded plays, not for judging them): use `legal_plays`
    or `resolve_play` for that.
    """
    b = to_array(position)
    for step in steps:
        frm, to = (step.frm, step.to) if isinstance(step, Step) else (step[0], step[1])
        apply_step(b, frm, to)
    return from_array(b, type(position))


def to_array(position: Position) -> Board:
    return [-position.bar[1], *position.board, position.bar[0]]


def from_array(b: Sequence[int], cls: type[P] = Position) -> P:  # type: ignore[assignment]
    board = tuple(b[1:25])
    mine = b[25] + sum(n for n in board if n > 0)
    theirs = -b[0] - sum(n for n in board if n < 0)
    return cls(board, (b[25], -b[0]), (CHECKERS - mine, CHECKERS - theirs))


def flip_array(b: Sequence[int]) -> Board:
    """Tavla's turn-around of the array form: the other player's side, bars included."""
    return [-n for n in reversed(b)]


def die_steps(b: Board, die: int, closed: int) -> list[tuple[int, int]]:
    """The single steps (from, to) the mover can make with one die; to == 0 is off.

    A step may not land on a point holding `closed` or fewer (minus: opposing) checkers:
    minus the game's `closing_count` (-2 in tavla, where a blot is hit; -1 in long nardy).
    Bearing off: only with every checker home; a die bears off from its own point, or from
    a lower point when no checker of the mover stands higher.
    """
    if b[25]:
        to = 25 - die
        return [(BAR, to)] if b[to] > closed else []
    top = 24
    while top and b[top] <= 0:
        top -= 1
    out = []
    if top <= 6:  # all checkers home: bearing off is allowed
        for frm in range(top, 0, -1):
            if b[frm] > 0:
                to = frm - die
                if to > 0:
                    if b[to] > closed:
                        out.append((frm, to))
                elif to == 0 or frm == top:
                    out.append((frm, OFF))
    else:
        for frm in range(top, die, -1):
            if b[frm] > 0 and b[frm - die] > closed:
                out.append((frm, frm - die))
    return out


def apply_step(b: Board, frm: int, to: int) -> bool:
    """Move one checker in place; return whether it hit a blot."""
    b[frm] -= 1
    if to:
        if b[to] == -1:
            b[to] = 1
            b[0] -= 1
            return True
        b[to] += 1
    return False


def undo_step(b: Board, frm: int, to: int, hit: bool) -> None:
    b[frm] += 1
    if to:
        if hit:
            b[to] = -1
            b[0] += 1
        else:
            b[to] -= 1


def can_finish(b: Board, dice_left: list[int], need: int, legal: set[Key], closed: int) -> bool:
    """Whether `need` more steps with these dice reach one of the legal resulting arrays."""
    if need == 0:
        return tuple(b) in legal
    for die in set(dice_left):
        rest = list(dice_left)
        rest.remove(die)
        for frm, to in die_steps(b, die, closed):
            hit = apply_step(b, frm, to)
            ok = can_finish(b, rest, need - 1, legal, closed)
            undo_step(b, frm, to, hit)
            if ok:
                return True
    return False


def plays_of(found: Found, origin: Position) -> list[Play]:
    """The plays of a search's results, sorted by board, then bar, then off (gnubg's order).

    In one search the opponent's bar (index 0) follows from the points, so the order is that
    of the keys without index 0; when no result hit a blot it is the keys' own order.
    """
    hits = len({key[0] for key in found}) > 1
    plays: list[Play] = []
    append = plays.append
    for key in sorted(found, key=_AFTER_BAR) if hits else sorted(found):
        # one lazy play, inlined: once per play of every call
        play: Play = _new_play(Play)
        play._steps = found[key]
        play._result = None
        play._notation = None
        play._key = key
        play._origin = origin
        append(play)
    return plays


_AFTER_BAR = itemgetter(slice(1, 26))
