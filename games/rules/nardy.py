"""Long nardy: its position, its legal plays and its game (RULES-LONG-NARDY.md).

What long nardy shares with tavla comes from there: the dice, the array form of a position
and its step generator (`plays.die_steps` with "any opposing checker closes a point", which
holds the bear-off rules), the Step and Play values (board.py), notation, scoring. What is
its own is here, in one place (its `Game` is `LongNardy`, at the end):

- numbering: both players move the same way round. The opponent's point q (his numbering)
  is the mover's point ((q + 11) mod 24) + 1: his head (24) is the mover's 12, his home
  (1-6) the mover's 13-18, so in the mover's numbering he travels 12, 11, ..., 1, 24, ...,
  13 (`PATH`) and then off;
- no bar, no hitting: a point holding any opposing checker is closed;
- the head rule: at most one checker leaves the 24-point per turn; two on a player's first
  turn of the game with 6-6, 4-4 or 3-3;
- the wall rule: a play may not end with the mover's checkers on six consecutive points of
  the opponent's path unless an opposing checker is on his path past them. Judged on the
  position at the end of the play, before "most dice": a die only playable into a
  forbidden wall is unplayable.

The array form is tavla's: 26 counts from the mover's side, index i = point i (1..24),
positive his checkers, negative the opponent's; 0 and 25 (the bars) always 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .board import (
    STEP,
    Board,
    Found,
    Key,
    Play,
    Step,
    die_steps,
    plays_of,
)
from .dice import Dice
from .errors import IllegalPlay, InvalidPosition
from .position import CHECKERS, POINTS, Position, _ints
from .scoring import GameKind
from .variant import Game, Variant

HEAD = 24
"""The mover's head: where his 15 checkers start."""
CLOSED = -1
"""`die_steps` threshold: a step may not land on a point with -1 or fewer (any opposing
checker)."""
PATH: tuple[int, ...] = (*range(12, 0, -1), *range(24, 12, -1))
"""The opponent's way round, in the mover's numbering: 12, 11, ..., 1, 24, 23, ..., 13."""
PATH_INDEX: tuple[int, ...] = tuple(PATH.index(p) if p else -1 for p in range(25))
"""`PATH_INDEX[point]`: where a point of the mover lies on the opponent's path (0..23)."""
WALL = 6
"""Six points in a row make a wall."""
TWO_FROM_HEAD = frozenset({6, 4, 3})
"""Doubles that let two checkers leave the head on a player's first turn of a game."""


def their_point(point: int) -> int:
    """The opponent's own number for the mover's `point`."""
    return (point - 13) % POINTS + 1


def my_point(theirs: int) -> int:
    """The mover's number for the opponent's point `theirs`."""
    return (theirs + 11) % POINTS + 1


_FLIP = tuple(my_point(q) for q in range(1, 25))  # _FLIP[q - 1]: my point for his q


@dataclass(frozen=True, slots=True)
class NardyPosition(Position):
    """A long nardy position from the side of the player on roll: 24 points and off
    (mover, opponent); `bar` is always (0, 0). JSON: `{"board": [24 ints], "off": [2]}`."""

    variant: ClassVar[str] = "long-nardy"

    @classmethod
    def starting(cls) -> NardyPosition:
        """Each player's 15 checkers on his head: the mover's 24, the opponent's (my) 12."""
        board = [0] * POINTS
        board[HEAD - 1] = CHECKERS
        board[my_point(HEAD) - 1] = -CHECKERS
        return cls(tuple(board))

    def flipped(self) -> NardyPosition:
        """The same position seen from the other player (who is now to move)."""
        board = self.board
        return NardyPosition(
            tuple(-board[_FLIP[q] - 1] for q in range(POINTS)),
            (0, 0),
            (self.off[1], self.off[0]),
        )

    def pips(self) -> tuple[int, int]:
        """Pip counts (mover, opponent): what each side still has to travel to bear off."""
        mine = theirs = 0
        for i, n in enumerate(self.board):
            if n > 0:
                mine += (i + 1) * n
            elif n < 0:
                theirs -= their_point(i + 1) * n
        return mine, theirs

    def is_race(self) -> bool:
        """True when the two sides can no longer meet: the mover's checkers all on his 1-12
        and the opponent's all on his own 1-12 (the mover's 13-24)."""
        board = self.board
        return all(n <= 0 for n in board[12:]) and all(n >= 0 for n in board[:12])

    def sort_key(self) -> tuple[int, ...]:
        """The oracle's order: board, then off."""
        return self.board + self.off

    def to_json(self) -> dict[str, list[int]]:
        return {"board": list(self.board), "off": list(self.off)}

    @classmethod
    def from_json(cls, data: Any) -> NardyPosition:
        """Build and check a position from `{"board": [24], "off": [2]}` (no bar)."""
        if not isinstance(data, dict):
            raise InvalidPosition.because("nardy_position_object")
        if "bar" in data and data["bar"] not in ([0, 0], (0, 0)):
            raise InvalidPosition.because("nardy_no_bar")
        try:
            board = tuple(_ints(data["board"], 24, "board"))
            off = tuple(_ints(data.get("off", [0, 0]), 2, "off"))
        except KeyError as exc:
            raise InvalidPosition.because("position_field", field=exc.args[0]) from None
        position = cls(board, (0, 0), (off[0], off[1]))
        position.check()
        return position

    def check(self) -> None:
        """Raise InvalidPosition unless each side has exactly 15 checkers and no bar."""
        if self.bar != (0, 0):
            raise InvalidPosition.because("nardy_no_bar")
        Position.check(self)


# -- the wall ---------------------------------------------------------------------------------


def _far(b: Key | Board) -> int:
    """How far along his path the opponent's most advanced checker is (-1: none on the
    board)."""
    for j in range(POINTS - 1, -1, -1):
        if b[PATH[j]] < 0:
            return j
    return -1


def forbidden_wall(b: Key | Board, far: int | None = None) -> bool:
    """Whether the mover holds six points in a row of the opponent's path with no opposing
    checker past them (`far`: `_far(b)`, given when known)."""
    if far is None:
        far = _far(b)
    run = 0
    for j in range(far + 1, POINTS):
        if b[PATH[j]] > 0:
            run += 1
            if run == WALL:
                return True
        else:
            run = 0
    return False


def _wall_through(b: Key, point: int, far: int) -> bool:
    """Whether the mover's run of points through `point` (past `far` on the opponent's
    path) is six long or more."""
    j = PATH_INDEX[point]
    if j <= far or b[point] <= 0:  # before the opponent's front, or passed through
        return False
    run = 1
    k = j - 1
    while k > far and b[PATH[k]] > 0:
        run += 1
        k -= 1
    k = j + 1
    while k < POINTS and b[PATH[k]] > 0:
        run += 1
        k += 1
    return run >= WALL


def _legal(found: Found, far: int, whole: bool) -> Found:
    """The results of `found` that leave no forbidden wall. A new wall must run through a
    point the play landed on, so only those are looked at (`whole`: look at everything,
    for a position that held a forbidden wall before the play)."""
    if whole:
        return {key: steps for key, steps in found.items() if not forbidden_wall(key, far)}
    legal: Found = {}
    for key, steps in found.items():
        for step in steps:
            if step.to and _wall_through(key, step.to, far):
                break
        else:
            legal[key] = steps
    return legal


# -- legal plays --------------------------------------------------------------------------------


def head_limit(high: int, low: int, first_turn: bool) -> int:
    """How many checkers may leave the head this turn."""
    return 2 if first_turn and high == low and high in TWO_FROM_HEAD else 1


def search(b: Board, high: int, low: int, first_turn: bool = False) -> Found:
    """Every legal resulting array of the roll high-low with the steps of one play reaching
    it: landing rule, head rule, wall rule (judged first), then the most dice and the larger
    die. An empty result: nothing can be played. `b` is left as it was."""
    if high < low:
        high, low = low, high
    far = _far(b)
    whole = forbidden_wall(b, far)
    # A new wall needs six points past the opponent's front: each step adds at most one.
    held = sum(1 for j in range(far + 1, POINTS) if b[PATH[j]] > 0)
    walls = whole or held + (4 if high == low else 2) >= WALL
    outside = sum(n for n in b[7:25] if n > 0)
    if high == low:
        moves = die_steps(b, high, CLOSED)
        if not moves:
            return {}
        limit = head_limit(high, low, first_turn)
        found: list[Found] = [{}, {}, {}, {}, {}]
        best = _double(b, high, moves, outside, limit, [], found, False)
        legal = _legal(found[best], far, whole) if walls else found[best]
        if legal or best == 1:
            return legal
        # Every play with the most dice leaves a forbidden wall: all shorter plays count.
        found = [{}, {}, {}, {}, {}]
        _double(b, high, moves, outside, limit, [], found, True)
        for depth in range(best - 1, 0, -1):
            legal = _legal(found[depth], far, whole)
            if legal:
                return legal
        return {}
    both = _two_dice(b, high, low, outside)
    if both:
        legal = _legal(both, far, whole) if walls else both
        if legal:
            return legal
    for die in (high, low):
        alone: Found = {}
        for frm, to in die_steps(b, die, CLOSED):
            b[frm] -= 1
            b[to] += to > 0
            alone.setdefault(tuple(b), (STEP[frm][to],))
            b[to] -= to > 0
            b[frm] += 1
        legal = _legal(alone, far, whole) if walls else alone
        if legal:
            return legal
    return {}


def _two_dice(b: Board, high: int, low: int, outside: int) -> Found:
    """Every position two steps (one of each die, either order) lead to. Only one checker
    may leave the head (two only on a first turn with some doubles)."""
    found: Found = {}
    by_die = {high: die_steps(b, high, CLOSED), low: die_steps(b, low, CLOSED)}
    for first, second in ((high, low), (low, high)):
        base = by_die[second]
        for frm, to in by_die[first]:
            b[frm] -= 1
            b[to] += 1  # b[0] takes a checker borne off: it is put back below
            step = STEP[frm][to]
            if outside - (to <= 6 < frm) > 0:
                # No bearing off yet: this die's steps change only at the step's two ends.
                seconds = base if b[frm] else [st for st in base if st[0] != frm]
                nxt = to - second
                if b[to] == 1 and nxt > 0 and b[nxt] >= 0:
                    seconds = [*seconds, (to, nxt)]
            else:
                seconds = die_steps(b, second, CLOSED)
            for frm2, to2 in seconds:
                if frm2 == HEAD == frm:
                    continue
                b[frm2] -= 1
                b[to2] += 1
                key = tuple(b)
                if key not in found:
                    found[key] = (step, STEP[frm2][to2])
                b[to2] -= 1
                b[frm2] += 1
            b[to] -= 1
            b[frm] += 1
    if any(key[0] for key in found):
        return {(0, *key[1:]): steps for key, steps in found.items()}
    return found


def _double(
    b: Board,
    die: int,
    moves: list[tuple[int, int]],
    outside: int,
    heads_left: int,
    path: list[Step],
    found: list[Found],
    every: bool,
) -> int:
    """Every set of up to four steps of `die`, made from the highest point down (each from
    <= the previous one: every set of steps has such an order, and it is the most permissive
    for bearing off). `moves`: the steps allowed next (none from the head once it has given
    its checkers for this turn). Records the positions where no further step is possible
    (or after four steps) under their number of steps, or every position when `every`;
    returns the most steps made. The fourth step is made inline."""
    depth = len(path) + 1
    best = depth
    for frm, to in moves:
        heads = heads_left - (frm == HEAD)
        b[frm] -= 1
        if to:
            b[to] += 1
        step = STEP[frm][to]
        if depth < 4:
            now_outside = outside - (to <= 6 < frm)
            if now_outside > 0:
                nxt = [st for st in moves if st[0] <= frm and (st[0] != frm or b[frm] > 0)]
                if b[to] == 1 and to > die and b[to - die] >= 0:
                    nxt.append((to, to - die))
            else:
                nxt = [st for st in die_steps(b, die, CLOSED) if st[0] <= frm]
            if not heads and nxt and nxt[0][0] == HEAD:
                nxt = nxt[1:]  # the head is done for this turn (its step comes first)
        else:
            nxt = []
        if every or not nxt:
            key = tuple(b)
            if key not in found[depth]:
                found[depth][key] = (*path, step)
        if nxt and depth < 3:
            path.append(step)
            best = max(best, _double(b, die, nxt, now_outside, heads, path, found, every))
            path.pop()
        elif nxt:  # the fourth step
            best = 4
            last = found[4]
            first = (*path, step)
            for frm2, to2 in nxt:
                b[frm2] -= 1
                if to2:
                    b[to2] += 1
                key = tuple(b)
                if key not in last:
                    last[key] = (*first, STEP[frm2][to2])
                if to2:
                    b[to2] -= 1
                b[frm2] += 1
        if to:
            b[to] -= 1
        b[frm] += 1
    return best


def flip_array(b: Sequence[int]) -> list[int]:
    """The array form from the other player's side."""
    return [0, *(-b[point] for point in _FLIP), 0]


# -- the game ----------------------------------------------------------------------------------


class LongNardy(Game):
    """Long nardy's rules (the instance: games.LONG_NARDY)."""

    variant = Variant.LONG_NARDY
    title = "long nardy"
    position_class = NardyPosition
    has_bar = False
    heads = (HEAD, my_point(HEAD))
    direction = "same"
    closing_count = -CLOSED
    head_rule = True
    wall = WALL
    has_cube = False
    has_backgammons = False
    has_gnubg_ids = False
    plays_opening_dice = False
    winner_starts_next_game = True
    resign_values = (1, 2)
    results = ("oyn", "mars")
    resign_reason = "nardy_resign_value"
    no_cube_reason = "nardy_no_cube"

    def legal_plays(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> list[Play]:
        if position.variant != self.variant:  # a plain Position's board: played as long nardy
            position = NardyPosition(position.board, position.bar, position.off)
        return plays_of(search([0, *position.board, 0], dice.high, dice.low, first_turn), position)

    def successor_arrays(
        self, array: Sequence[int], high: int, low: int, *, first_turn: bool = False
    ) -> list[Key]:
        return list(search(list(array), high, low, first_turn))

    def flipped_array(self, array: Sequence[int]) -> list[int]:
        return flip_array(array)

    def kind_of_win(self, winner_view: Position) -> GameKind:
        """Oyn (1 point), or mars (2) when the loser has borne off none."""
        return GameKind.SINGLE if winner_view.off[1] > 0 else GameKind.GAMMON

    def their_point(self, point: int) -> int:
        return their_point(point)

    def my_point(self, theirs: int) -> int:
        return my_point(theirs)

    def point_closed(self, point: int, count: int) -> IllegalPlay:
        return IllegalPlay.because("nardy_point_held", to=point)

    def no_bar(self) -> IllegalPlay:
        return IllegalPlay.because("nardy_no_bar")

    def refuse_play(
        self,
        after: Board,
        from_head: int,
        dice: Dice,
        first_turn: bool,
        legal: Sequence[Play],
    ) -> IllegalPlay | None:
        if from_head > head_limit(dice.high, dice.low, first_turn):
            return IllegalPlay.because("nardy_head")
        if forbidden_wall(after):
            if legal:
                return IllegalPlay.because("nardy_wall_example", play=legal[0].notation)
            return IllegalPlay.because("nardy_wall")
        return None
