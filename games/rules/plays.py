"""Legal plays: every distinct way to play a roll, obeying the mandatory-play rules.

The search works on a mutable array of 26 counts, all from the mover's side:
index 0 holds minus the opponent's checkers on the bar, 1..24 the points (positive: mover,
negative: opponent) and 25 the mover's bar. Borne-off checkers are implied (15 minus the rest),
so `tuple(array)` identifies a resulting position exactly, and flipping the array
(`-a[25 - i]`) gives the opponent's view, bars included. Long nardy (nardy.py) uses the same
array with both bars always 0.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter

from .dice import Dice
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
        return f"{_point_name(self.frm)}/{_point_name(self.to)}{'*' if self.hit else ''}"


class Play:
    """The ordered steps of one turn and the position they lead to (still the mover's view).

    Immutable (`steps`, `result` and `notation` are read-only); equal when steps and result
    are equal. `legal_plays` builds its plays lazily: a play keeps the search's resulting
    array and makes its `result` Position on first use, so listing the plays of a roll costs
    little more than the search itself.
    """

    __slots__ = ("_key", "_origin", "_result", "_steps")

    _steps: tuple[Step, ...]
    _result: Position | None
    _key: Key
    _origin: Position

    def __init__(self, steps: tuple[Step, ...], result: Position) -> None:
        self._steps = tuple(steps)
        self._result = result

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

    @property
    def notation(self) -> str:
        from .notation import format_play

        return format_play(self._steps)

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


def lazy_play(key: Key, steps: tuple[Step, ...], origin: Position) -> Play:
    """A play found by the search: `key` its resulting array, reached from `origin`."""
    play: Play = _new_play(Play)
    play._steps = steps
    play._result = None
    play._key = key
    play._origin = origin
    return play


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
# Public, for callers that search many positions quickly (the computer players' training and
# lookahead): `board_array`, `position_from_array`, `flipped_array`, `successor_arrays`.
# The engine's own helpers below (`to_array`, `from_array`, `flip_array`, `apply_step`) are
# internal: they may change with the search.


def board_array(position: Position) -> list[int]:
    """The array form of a position: 26 ints from the mover's side.

    Index 0 is minus the opponent's checkers on the bar, 1..24 the points (positive: the
    mover's checkers, negative: the opponent's), 25 the mover's checkers on the bar; borne-off
    checkers are what is missing from 15. A new list each call (the caller may change it).
    """
    return [-position.bar[1], *position.board, position.bar[0]]


def position_from_array(array: Sequence[int]) -> Position:
    """The Position an array form describes (see `board_array`); not checked."""
    return from_array(list(array))


def flipped_array(array: Sequence[int]) -> list[int]:
    """The same position's array form from the other player's side (he is now to move)."""
    return [-n for n in reversed(array)]


def successor_arrays(array: Sequence[int], high: int, low: int) -> list[Key]:
    """Every distinct position a legal play of the roll high-low reaches, as array forms
    (tuples, still from the mover's side, not flipped), in no particular order.

    The same positions as `legal_plays` gives, without building Play values: the fast path for
    evaluating many positions. An empty list: the roll cannot be played (the turn passes).
    Dice may be given in either order.
    """
    if high < low:
        high, low = low, high
    return list(search(list(array), high, low))


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


def from_array(b: Board, cls: type[P] = Position) -> P:  # type: ignore[assignment]
    board = tuple(b[1:25])
    mine = b[25] + sum(n for n in board if n > 0)
    theirs = -b[0] - sum(n for n in board if n < 0)
    return cls(board, (b[25], -b[0]), (CHECKERS - mine, CHECKERS - theirs))


def flip_array(b: Board) -> Board:
    return [-n for n in reversed(b)]


def die_steps(b: Board, die: int, closed: int = -2) -> list[tuple[int, int]]:
    """The single steps (from, to) the mover can make with one die; to == 0 is off.

    A step may not land on a point holding `closed` or fewer (minus: opposing) checkers:
    -2 in tavla (a blot is hit), -1 in long nardy (any opposing checker closes a point).
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


def search(b: Board, high: int, low: int) -> Found:
    """Every legal resulting array with the steps of one play that reaches it.

    Applies the mandatory-play rules: the most dice possible, the larger die when only one of
    two can be played. An empty result means the roll cannot be played at all.
    (This is the hot path of everything: steps are applied and undone inline.)
    """
    if high == low:
        outside = -1 if b[25] else _outside(b)
        moves = die_steps(b, high)
        if not moves:
            return {}
        found: list[Found] = [{}, {}, {}, {}, {}]
        best = [0]
        _search_double(b, high, moves, outside, [STEP[0][0]] * 3, 0, found, best)
        return found[best[0]]
    both: Found = {}
    only_high: Found = {}
    only_low: Found = {}
    # While no checker of the mover is on the bar or bearing off, one step changes the other
    # die's steps only at its two ends, so they are patched instead of searched again.
    # With two or more checkers outside home and none on the bar, neither step can bear off,
    # so two different checkers give the same position in either order: the second order
    # (low die first) is then needed only for one checker moving on with the high die.
    if b[25]:
        outside = -1
        by_high = die_steps(b, high)
        by_low = die_steps(b, low)
    else:
        # One pass over the points for both dice and the checkers outside home.
        outside = 0
        by_high = []
        by_low = []
        for frm in range(24, 0, -1):
            n = b[frm]
            if n > 0:
                if frm <= 6:
                    break
                outside += n
                if frm > high and b[frm - high] > -2:
                    by_high.append((frm, frm - high))
                if frm > low and b[frm - low] > -2:
                    by_low.append((frm, frm - low))
        if outside < 2:  # bearing off now or after one step: the full rules
            outside = -1 if outside == 0 else 1
            by_high = die_steps(b, high)
            by_low = die_steps(b, low)
        else:
            for point in range(min(frm, 6), 0, -1):
                if b[point] > 0:
                    if point > high and b[point - high] > -2:
                        by_high.append((point, point - high))
                    if point > low and b[point - low] > -2:
                        by_low.append((point, point - low))
    for second, firsts, base, alone in (
        (low, by_high, by_low, only_high),
        (high, by_low, by_high if outside < 2 else [], only_low),
    ):
        for frm, to in firsts:
            b[frm] -= 1
            if to:
                if b[to] == -1:
                    b[to] = 1
                    b[0] -= 1
                    step = HIT[frm][to]
                else:
                    b[to] += 1
                    step = STEP[frm][to]
            else:
                step = STEP[frm][0]
            if outside > 1 or (outside == 1 and (frm <= 6 or to > 6)):
                seconds = base if b[frm] > 0 else [st for st in base if st[0] != frm]
                nxt = to - second
                if b[to] == 1 and nxt > 0 and b[nxt] >= -1:
                    seconds = [*seconds, (to, nxt)]
            else:
                seconds = die_steps(b, second)
            for frm2, to2 in seconds:
                b[frm2] -= 1
                if to2:
                    if b[to2] == -1:
                        b[to2] = 1
                        b[0] -= 1
                        key = tuple(b)
                        if key not in both:
                            both[key] = (step, HIT[frm2][to2])
                        b[to2] = -1
                        b[0] += 1
                    else:
                        b[to2] += 1
                        key = tuple(b)
                        if key not in both:
                            both[key] = (step, STEP[frm2][to2])
                        b[to2] -= 1
                else:
                    key = tuple(b)
                    if key not in both:
                        both[key] = (step, STEP[frm2][0])
                b[frm2] += 1
            if not seconds and not both:
                alone.setdefault(tuple(b), (step,))
            b[frm] += 1
            if to:
                if step.hit:
                    b[to] = -1
                    b[0] += 1
                else:
                    b[to] -= 1
    return both or only_high or only_low


def _outside(b: Board) -> int:
    """The mover's checkers outside his home board (points 7-24)."""
    return sum(n for n in b[7:25] if n > 0)


def _search_double(
    b: Board,
    die: int,
    moves: list[tuple[int, int]],
    outside: int,
    path: list[Step],
    depth: int,
    found: list[Found],
    best: list[int],
) -> None:
    """Make each of `moves` (this die's steps from here, not empty) as step `depth` + 1.

    Steps are made from the highest point down (each from <= the previous from): every set of
    steps has such an order, and it is the most permissive one for bearing off. `outside` is
    the mover's checkers outside home, -1 when the steps must be searched anew (bar, bear-off).
    The fourth step is made inline, without a call per leaf.
    """
    done = depth + 1
    for frm, to in moves:
        b[frm] -= 1
        if to:
            if b[to] == -1:
                b[to] = 1
                b[0] -= 1
                step = HIT[frm][to]
            else:
                b[to] += 1
                step = STEP[frm][to]
        else:
            step = STEP[frm][0]
        now_outside = outside - (frm > 6 >= to) if outside > 0 else -1
        if now_outside > 0:
            nxt = [st for st in moves if st[0] <= frm and (st[0] != frm or b[frm] > 0)]
            if b[to] == 1 and to - die > 0 and b[to - die] >= -1:
                nxt.append((to, to - die))
        else:
            nxt = [st for st in die_steps(b, die) if st[0] <= frm]
            if not b[25]:
                now_outside = _outside(b)
        if not nxt:
            if done >= best[0]:
                best[0] = done
                key = tuple(b)
                if key not in found[done]:
                    found[done][key] = (*path[:depth], step)
        elif done < 3:
            path[depth] = step
            _search_double(b, die, nxt, now_outside, path, done, found, best)
        else:
            best[0] = 4
            last = found[4]
            first = path[0], path[1], step
            for frm2, to2 in nxt:
                b[frm2] -= 1
                if to2:
                    if b[to2] == -1:
                        b[to2] = 1
                        b[0] -= 1
                        key = tuple(b)
                        if key not in last:
                            last[key] = (*first, HIT[frm2][to2])
                        b[to2] = -1
                        b[0] += 1
                    else:
                        b[to2] += 1
                        key = tuple(b)
                        if key not in last:
                            last[key] = (*first, STEP[frm2][to2])
                        b[to2] -= 1
                else:
                    key = tuple(b)
                    if key not in last:
                        last[key] = (*first, STEP[frm2][0])
                b[frm2] += 1
        b[frm] += 1
        if to:
            if step.hit:
                b[to] = -1
                b[0] += 1
            else:
                b[to] -= 1


# -- the public API --------------------------------------------------------------------------


def legal_plays(position: Position, dice: Dice) -> list[Play]:
    """Every distinct legal play, one per resulting position, sorted like gnubg's corpus.

    An empty list means the roll cannot be played: the turn passes.
    """
    return plays_of(search(to_array(position), dice.high, dice.low), position)


def plays_of(found: Found, origin: Position) -> list[Play]:
    """The plays of a search's results, sorted by board, then bar, then off (gnubg's order).

    In one search the opponent's bar (index 0) follows from the points, so the order is that
    of the keys without index 0; when no result hit a blot it is the keys' own order.
    """
    hits = len({key[0] for key in found}) > 1
    plays: list[Play] = []
    append = plays.append
    for key in sorted(found, key=_AFTER_BAR) if hits else sorted(found):
        # lazy_play, inlined: once per play of every call
        play: Play = _new_play(Play)
        play._steps = found[key]
        play._result = None
        play._key = key
        play._origin = origin
        append(play)
    return plays


_AFTER_BAR = itemgetter(slice(1, 26))


def count_plays(b: Board, high: int, low: int) -> int:
    """How many distinct legal plays a roll has (0 when it cannot be played)."""
    return len(search(b, high, low))


def dice_used(dice: Dice, plays: list[Play]) -> int:
    """How many dice a legal play of this roll uses (0 when it cannot be played)."""
    return len(plays[0].steps) if plays else 0


def legal_next_steps(position: Position, dice: Dice, steps_so_far: list[Step]) -> list[Step]:
    """The steps a player may make next after a partial play (see `validate.next_steps`)."""
    from .validate import next_steps

    return next_steps(position, dice, steps_so_far)


def can_finish(
    b: Board, dice_left: list[int], need: int, legal: set[Key], closed: int = -2
) -> bool:
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


def _point_name(point: int) -> str:
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)
