"""Legal plays: every distinct way to play a roll, obeying the mandatory-play rules.

The search works on a mutable array of 26 counts, all from the mover's side:
index 0 holds minus the opponent's checkers on the bar, 1..24 the points (positive: mover,
negative: opponent) and 25 the mover's bar. Borne-off checkers are implied (15 minus the rest),
so `tuple(array)` identifies a resulting position exactly, and flipping the array
(`-a[25 - i]`) gives the opponent's view, bars included.
"""

from __future__ import annotations

from dataclasses import dataclass

from .dice import Dice
from .position import BAR, CHECKERS, OFF, Position

Board = list[int]
Key = tuple[int, ...]
RawStep = tuple[int, int, bool]  # (from, to, hit); to == 0 is off


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die: from a point (25 = bar) to a point (0 = off)."""

    frm: int
    to: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{_point_name(self.frm)}/{_point_name(self.to)}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """The ordered steps of one turn and the position they lead to (still the mover's view)."""

    steps: tuple[Step, ...]
    result: Position

    @property
    def notation(self) -> str:
        from .notation import format_play

        return format_play(self.steps)


_STEPS: dict[RawStep, Step] = {
    (frm, to, hit): Step(frm, to, hit)
    for frm in range(26)
    for to in range(26)
    for hit in (False, True)
}
"""Every possible step, made once: plays reuse them instead of building new ones."""


# -- the array form -------------------------------------------------------------------------


def to_array(position: Position) -> Board:
    return [-position.bar[1], *position.board, position.bar[0]]


def from_array(b: Board) -> Position:
    board = tuple(b[1:25])
    mine = b[25] + sum(n for n in board if n > 0)
    theirs = -b[0] - sum(n for n in board if n < 0)
    return Position(board, (b[25], -b[0]), (CHECKERS - mine, CHECKERS - theirs))


def flip_array(b: Board) -> Board:
    return [-n for n in reversed(b)]


def die_steps(b: Board, die: int) -> list[tuple[int, int]]:
    """The single steps (from, to) the mover can make with one die; to == 0 is off."""
    if b[25]:
        to = 25 - die
        return [(BAR, to)] if b[to] >= -1 else []
    top = 24
    while top and b[top] <= 0:
        top -= 1
    out = []
    if top <= 6:  # all checkers home: bearing off is allowed
        for frm in range(top, 0, -1):
            if b[frm] > 0:
                to = frm - die
                if to > 0:
                    if b[to] >= -1:
                        out.append((frm, to))
                elif to == 0 or frm == top:
                    out.append((frm, OFF))
    else:
        for frm in range(top, die, -1):
            if b[frm] > 0 and b[frm - die] >= -1:
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


def search(b: Board, high: int, low: int) -> dict[Key, tuple[RawStep, ...]]:
    """Every legal resulting array with one step sequence that reaches it.

    Applies the mandatory-play rules: the most dice possible, the larger die when only one of
    two can be played. An empty result means the roll cannot be played at all.
    (This is the hot path of everything: steps are applied and undone inline.)
    """
    outside = -1 if b[25] else _outside(b)
    if high == low:
        found: list[dict[Key, tuple[RawStep, ...]]] = [{}, {}, {}, {}, {}]
        best = [0]
        path: list[RawStep] = [(0, 0, False)] * 4
        _search_double(b, high, die_steps(b, high), outside, path, 0, found, best)
        return found[best[0]] if best[0] else {}
    both: dict[Key, tuple[RawStep, ...]] = {}
    only_high: dict[Key, tuple[RawStep, ...]] = {}
    only_low: dict[Key, tuple[RawStep, ...]] = {}
    # While no checker of the mover is on the bar or bearing off, one step changes the other
    # die's steps only at its two ends, so they are patched instead of searched again.
    # With two or more checkers outside home and none on the bar, neither step can bear off,
    # so two different checkers give the same position in either order: the second order
    # (low die first) is then needed only for one checker moving on with the high die.
    by_die = {high: die_steps(b, high), low: die_steps(b, low)}
    for first, second, alone in ((high, low, only_high), (low, high, only_low)):
        base = by_die[second] if first == high or outside < 2 else []
        for frm, to in by_die[first]:
            b[frm] -= 1
            hit = False
            if to:
                if b[to] == -1:
                    b[to] = 1
                    b[0] -= 1
                    hit = True
                else:
                    b[to] += 1
            if outside > 1 or (outside == 1 and (frm <= 6 or to > 6)):
                seconds = [st for st in base if st[0] != frm or b[frm] > 0]
                nxt = to - second
                if b[to] == 1 and nxt > 0 and b[nxt] >= -1:
                    seconds.append((to, nxt))
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
                            both[key] = ((frm, to, hit), (frm2, to2, True))
                        b[to2] = -1
                        b[0] += 1
                    else:
                        b[to2] += 1
                        key = tuple(b)
                        if key not in both:
                            both[key] = ((frm, to, hit), (frm2, to2, False))
                        b[to2] -= 1
                else:
                    key = tuple(b)
                    if key not in both:
                        both[key] = ((frm, to, hit), (frm2, to2, False))
                b[frm2] += 1
            if not seconds and not both:
                alone.setdefault(tuple(b), ((frm, to, hit),))
            b[frm] += 1
            if to:
                if hit:
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
    path: list[RawStep],
    depth: int,
    found: list[dict[Key, tuple[RawStep, ...]]],
    best: list[int],
) -> None:
    # Steps are made from the highest point down (each from <= the previous from): every set
    # of steps has such an order, and it is the most permissive one for bearing off.
    # `moves` are this die's steps from here; `outside` is -1 when they must be searched anew.
    if not moves or depth == 4:
        if depth >= best[0]:
            best[0] = depth
            key = tuple(b)
            if key not in found[depth]:
                found[depth][key] = tuple(path[:depth])
        return
    for frm, to in moves:
        b[frm] -= 1
        hit = False
        if to:
            if b[to] == -1:
                b[to] = 1
                b[0] -= 1
                hit = True
            else:
                b[to] += 1
        path[depth] = (frm, to, hit)
        now_outside = outside - (frm > 6 >= to) if outside > 0 else -1
        if now_outside > 0:
            nxt = [st for st in moves if st[0] <= frm and (st[0] != frm or b[frm] > 0)]
            if b[to] == 1 and to - die > 0 and b[to - die] >= -1:
                nxt.append((to, to - die))
        else:
            nxt = [st for st in die_steps(b, die) if st[0] <= frm]
            if not b[25]:
                now_outside = _outside(b)
        _search_double(b, die, nxt, now_outside, path, depth + 1, found, best)
        b[frm] += 1
        if to:
            if hit:
                b[to] = -1
                b[0] += 1
            else:
                b[to] -= 1


# -- the public API --------------------------------------------------------------------------


def legal_plays(position: Position, dice: Dice) -> list[Play]:
    """Every distinct legal play, one per resulting position, sorted like gnubg's corpus.

    An empty list means the roll cannot be played: the turn passes.
    """
    found = search(to_array(position), dice.high, dice.low)
    mine_off, their_off = position.off
    plays = []
    # Sorted by board, then the mover's bar, then the opponent's: gnubg's corpus order.
    for key in sorted(found, key=lambda k: (k[1:], -k[0])):
        steps = found[key]
        borne = mine_off + sum(1 for step in steps if step[1] == OFF)
        result = Position(key[1:25], (key[25], -key[0]), (borne, their_off))
        plays.append(Play(tuple(map(_STEPS.__getitem__, steps)), result))
    return plays


def count_plays(b: Board, high: int, low: int) -> int:
    """How many distinct legal plays a roll has (0 when it cannot be played)."""
    return len(search(b, high, low))


def dice_used(dice: Dice, plays: list[Play]) -> int:
    """How many dice a legal play of this roll uses (0 when it cannot be played)."""
    return len(plays[0].steps) if plays else 0


def legal_next_steps(position: Position, dice: Dice, steps_so_far: list[Step]) -> list[Step]:
    """The steps a player may make next after a partial play (no touch-move: he may undo).

    A step is offered only if some legal whole play continues through it; an empty list
    after a non-empty prefix means the play is complete. Raises IllegalPlay when the prefix
    itself cannot start a legal play.
    """
    from .validate import walk_prefix

    plan = walk_prefix(position, dice, steps_so_far)
    offered: dict[tuple[int, int], Step] = {}
    for b, dice_left in plan.states:
        need = plan.used - len(steps_so_far) - 1
        if need < 0:
            continue
        for die in set(dice_left):
            rest = list(dice_left)
            rest.remove(die)
            for frm, to in die_steps(b, die):
                if (frm, to) in offered:
                    continue
                hit = apply_step(b, frm, to)
                if can_finish(b, rest, need, plan.legal):
                    offered[(frm, to)] = Step(frm, to, hit)
                undo_step(b, frm, to, hit)
    return sorted(offered.values(), key=lambda s: (-s.frm, -s.to))


def can_finish(b: Board, dice_left: list[int], need: int, legal: set[Key]) -> bool:
    """Whether `need` more steps with these dice reach one of the legal resulting arrays."""
    if need == 0:
        return tuple(b) in legal
    for die in set(dice_left):
        rest = list(dice_left)
        rest.remove(die)
        for frm, to in die_steps(b, die):
            hit = apply_step(b, frm, to)
            ok = can_finish(b, rest, need - 1, legal)
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
