"""Tavla's move search: every distinct way to play a roll, obeying the mandatory-play rules.

Works on the array form of `board.py` (26 counts from the mover's side, both bars included).
Tavla's game (`tavla.py`) asks it; the shared values (Step, Play, the array helpers) are
board.py's and are named here too, for the callers that have always found them here.
"""

from __future__ import annotations

from collections.abc import Sequence

from .board import (
    HIT,
    STEP,
    Board,
    Found,
    Key,
    Play,
    Step,
    apply_step,
    die_steps,
    flip_array,
    plays_of,
    to_array,
)
from .dice import Dice
from .position import Position

__all__ = [
    "Board",
    "Key",
    "Play",
    "Step",
    "apply_step",
    "flip_array",
    "legal_plays",
    "search",
    "successor_arrays",
    "to_array",
]

CLOSED = -2
"""A point holding two opposing checkers is closed (`die_steps`' `closed`); a blot is hit."""


def search(b: Board, high: int, low: int) -> Found:
    """Every legal resulting array with the steps of one play that reaches it.

    Applies the mandatory-play rules: the most dice possible, the larger die when only one of
    two can be played. An empty result means the roll cannot be played at all.
    (This is the hot path of everything: steps are applied and undone inline.)
    """
    if high == low:
        outside = -1 if b[25] else _outside(b)
        moves = die_steps(b, high, CLOSED)
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
        by_high = die_steps(b, high, CLOSED)
        by_low = die_steps(b, low, CLOSED)
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
            by_high = die_steps(b, high, CLOSED)
            by_low = die_steps(b, low, CLOSED)
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
                seconds = die_steps(b, second, CLOSED)
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
            nxt = [st for st in die_steps(b, die, CLOSED) if st[0] <= frm]
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


def legal_plays(position: Position, dice: Dice) -> list[Play]:
    """Every distinct legal play, one per resulting position, sorted like gnubg's corpus.

    An empty list means the roll cannot be played: the turn passes.
    """
    return plays_of(search(to_array(position), dice.high, dice.low), position)


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
