"""Checking a submitted play and saying, as a typed refusal, what is wrong with it.

For every game alike: the game is the position's (`games.game_of`), and what differs (the
points a checker may land on, the bar, the head and the wall) is asked of it. Each refusal is
an IllegalPlay with its reason and values (errors.REFUSALS).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import permutations

from .board import Board, Key, Play, Step, apply_step, can_finish, die_steps, to_array, undo_step
from .dice import Dice
from .errors import IllegalPlay
from .games import game_of
from .notation import CheckerMove, moves_from_pairs, parse_moves, point_name
from .position import BAR, OFF, Position
from .variant import Game


class _Marker(Enum):
    NO_ROUTE = "these dice do not carry the checker there"


_NO_ROUTE = _Marker.NO_ROUTE
"""A marker, not a refusal: this order of dice does not fit the move."""


def resolve_play(
    position: Position,
    dice: Dice,
    play: str | list[object],
    *,
    first_turn: bool = False,
    legal: Sequence[Play] | None = None,
) -> Play:
    """The legal play meant by notation ("24/18 13/10") or steps ([[24, 18], [13, 10]]).

    Moves may combine dice ("24/13") and may leave out hit marks; the play is found by the
    position it leads to. Raises InvalidNotation for unreadable input and IllegalPlay, with the
    reason, for a play the rules forbid. `first_turn`: the player's first turn of a long
    nardy game (two checkers may leave the head with 6-6, 4-4 or 3-3). `legal`: the legal
    plays of this position and roll when the caller has them already (they are not searched
    again).
    """
    moves = parse_moves(play) if isinstance(play, str) else moves_from_pairs(play)
    if legal is None:
        legal = game_of(position).legal_plays(position, dice, first_turn=first_turn)
    if not moves:
        if not legal:
            return Play((), position)
        raise IllegalPlay.because("must_move", high=dice.high, low=dice.low, play=_example(legal))
    if not legal:
        raise IllegalPlay.because("no_move_possible", high=dice.high, low=dice.low)
    target_mine, target_full = _target(position, moves)
    for p in legal:  # the usual case, and the cheapest test: the very position
        if p.result == target_full:
            return p
    # Hit marks left out: the play that puts the mover's checkers where the moves do.
    matches = [p for p in legal if _mine(p.result) == target_mine]
    if len(matches) == 1:
        return matches[0]
    if matches:
        options = " or ".join(p.notation for p in matches)
        raise IllegalPlay.because("which_blots", options=options)
    raise explain(position, dice, moves, legal, first_turn=first_turn)


def _mine(position: Position) -> tuple[int, ...]:
    return (*(max(n, 0) for n in position.board), position.bar[0])


def _target(position: Position, moves: list[CheckerMove]) -> tuple[tuple[int, ...], Position]:
    """The mover's checkers after the moves, and the whole position they lead to.

    Only blots on written points count as hit: "24/13" passes its waypoint without hitting,
    "24/18*/13" hits on 18.
    """
    b = to_array(position)
    mine = [max(n, 0) for n in b]
    theirs = [max(-n, 0) for n in b]  # theirs[0] is the opponent's bar
    for move in moves:
        if mine[move.frm] <= 0:
            raise _no_checker(move.frm)
        mine[move.frm] -= 1
        if move.to != OFF:
            mine[move.to] += 1
            if theirs[move.to] == 1:  # landing on a blot always hits it
                theirs[move.to] = 0
                theirs[0] += 1
    board = tuple(mine[i] - theirs[i] for i in range(1, 25))
    off = (15 - sum(mine[1:]), position.off[1])
    return tuple(mine[1:]), type(position)(board, (mine[BAR], theirs[0]), off)


def explain(
    position: Position,
    dice: Dice,
    moves: list[CheckerMove],
    legal: Sequence[Play],
    *,
    first_turn: bool = False,
) -> IllegalPlay:
    """Why a play that matches no legal play is illegal, as a refusal."""
    game = game_of(position)
    b = to_array(position)
    dice_left = list(dice.steps)
    used = from_head = 0
    head = game.heads[0] if game.heads else None
    for move in moves:
        route = _route(b, move, dice_left, game)
        if isinstance(route, IllegalPlay):
            return route
        for frm, to, die in route:
            apply_step(b, frm, to)
            dice_left.remove(die)
            used += 1
            from_head += frm == head
    refusal = game.refuse_play(b, from_head, dice, first_turn, legal)
    if refusal is not None:
        return refusal
    most = len(legal[0].steps)
    if used < most:
        if dice.is_double:
            return IllegalPlay.because(
                "must_play_most", die=dice.high, count=most, play=_example(legal)
            )
        return IllegalPlay.because("must_play_both", play=_example(legal))
    if not dice.is_double and most == 1:
        return IllegalPlay.because("larger_die", die=dice.high, play=_example(legal))
    return IllegalPlay.because("not_legal", high=dice.high, low=dice.low, play=_example(legal))


def _route(
    b: Board, move: CheckerMove, dice_left: list[int], game: Game
) -> list[tuple[int, int, int]] | IllegalPlay:
    """Single-die steps that carry one checker along `move`, or the refusal."""
    first_problem: IllegalPlay | None = None
    for count in range(1, len(dice_left) + 1):
        for order in dict.fromkeys(permutations(dice_left, count)):
            if not _covers(move, order):
                continue
            route: list[tuple[int, int, int]] = []
            at = move.frm
            problem: IllegalPlay | _Marker | None = None
            nb = list(b)
            for i, die in enumerate(order):
                last = i == len(order) - 1
                to = at - die
                if last and move.to == OFF and to < 0:
                    to = OFF
                if to < 0 or (to == 0 and move.to != OFF) or (last and to != move.to):
                    problem = _NO_ROUTE
                    break
                if not last and to == OFF:
                    problem = _NO_ROUTE
                    break
                problem = _step_problem(nb, at, to, die, game)
                if problem:
                    break
                apply_step(nb, at, to)
                route.append((at, to, die))
                at = to
            if problem is None:
                return route
            if problem is not _NO_ROUTE and first_problem is None:
                first_problem = problem
    if first_problem is not None:
        return first_problem
    where = {"from": point_name(move.frm), "to": point_name(move.to)}
    if not dice_left:
        return IllegalPlay.because("no_dice_left", **where)
    rolled = "-".join(str(d) for d in dice_left)
    return IllegalPlay.because("no_die_moves", dice=rolled, **where)


def _covers(move: CheckerMove, order: tuple[int, ...]) -> bool:
    """Whether these dice, in this order, carry a checker exactly along `move`."""
    distance = move.frm - move.to
    if move.to != OFF:
        return sum(order) == distance
    return sum(order[:-1]) < move.frm <= sum(order)


def _step_problem(b: Board, frm: int, to: int, die: int, game: Game) -> IllegalPlay | None:
    """The refusal of the rule a single step breaks, or None when it is allowed."""
    if frm == BAR and not game.has_bar:
        return game.no_bar()
    if frm == BAR:
        if not b[BAR]:
            return IllegalPlay.because("no_checker_on_bar")
    elif b[BAR]:
        return IllegalPlay.because("enter_first")
    if b[frm] <= 0:
        return _no_checker(frm)
    if to == OFF:
        top = max(p for p in range(1, 26) if b[p] > 0)
        if top > 6:
            return IllegalPlay.because("bear_off_home")
        if die > frm and top > frm:
            return IllegalPlay.because("bear_off_higher", die=die, point=frm, top=top)
        return None
    if b[to] <= -game.closing_count:
        return game.point_closed(to, -b[to])
    return None


def _no_checker(point: int) -> IllegalPlay:
    if point == BAR:
        return IllegalPlay.because("no_checker_on_bar")
    return IllegalPlay.because("no_checker_on_point", point=point)


def _example(legal: Sequence[Play]) -> str:
    return legal[0].notation


@dataclass
class Prefix:
    """Where a partial play stands: the legal results, dice a full play uses, board states."""

    legal: set[Key]
    used: int
    states: list[tuple[Board, list[int]]]
    closed: int


def walk_prefix(
    position: Position, dice: Dice, steps: list[Step], *, first_turn: bool = False
) -> Prefix:
    """Follow the steps a player has made so far; raise IllegalPlay if they lead nowhere legal."""
    game = game_of(position)
    plays = game.legal_plays(position, dice, first_turn=first_turn)
    closed = -game.closing_count
    legal = {tuple(to_array(p.result)) for p in plays}
    used = len(plays[0].steps) if plays else 0
    states: list[tuple[Board, list[int]]] = [(to_array(position), list(dice.steps))]
    for n, step in enumerate(steps):
        after: list[tuple[Board, list[int]]] = []
        problem: IllegalPlay | None = None
        for b, dice_left in states:
            for die in set(dice_left):
                if (step.frm, step.to) not in die_steps(b, die, closed):
                    problem = problem or _step_problem(b, step.frm, step.to, die, game)
                    continue
                nb = list(b)
                apply_step(nb, step.frm, step.to)
                rest = list(dice_left)
                rest.remove(die)
                if can_finish(list(nb), rest, used - n - 1, legal, closed):
                    after.append((nb, rest))
                else:
                    problem = problem or IllegalPlay.because(
                        "no_finish", step=str(step), play=_example(plays)
                    )
        if not after:
            raise problem or IllegalPlay.because("no_such_step", step=str(step))
        states = after
    return Prefix(legal, used, states, closed)


def next_steps(
    position: Position, dice: Dice, steps_so_far: list[Step], *, first_turn: bool = False
) -> list[Step]:
    """The steps a player may make next after a partial play (no touch-move: he may undo).

    A step is offered only if some legal whole play continues through it; an empty list
    after a non-empty prefix means the play is complete. Raises IllegalPlay when the prefix
    itself cannot start a legal play.
    """
    plan = walk_prefix(position, dice, steps_so_far, first_turn=first_turn)
    offered: dict[tuple[int, int], Step] = {}
    for b, dice_left in plan.states:
        need = plan.used - len(steps_so_far) - 1
        if need < 0:
            continue
        for die in set(dice_left):
            rest = list(dice_left)
            rest.remove(die)
            for frm, to in die_steps(b, die, plan.closed):
                if (frm, to) in offered:
                    continue
                hit = apply_step(b, frm, to)
                if can_finish(b, rest, need, plan.legal, plan.closed):
                    offered[(frm, to)] = Step(frm, to, hit)
                undo_step(b, frm, to, hit)
    return sorted(offered.values(), key=lambda s: (-s.frm, -s.to))
