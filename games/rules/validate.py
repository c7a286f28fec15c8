"""Checking a submitted play and saying, in a player's words, what is wrong with it.

For tavla and long nardy alike: the game is the position's (a NardyPosition is long nardy).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from .dice import Dice
from .errors import IllegalPlay
from .nardy import HEAD, NardyPosition, forbidden_wall, head_limit
from .nardy import legal_plays as nardy_plays
from .notation import CheckerMove, moves_from_pairs, parse_moves, point_name
from .plays import (
    Board,
    Key,
    Play,
    Step,
    apply_step,
    can_finish,
    die_steps,
    legal_plays,
    to_array,
    undo_step,
)
from .position import BAR, OFF, Position


def plays_for(position: Position, dice: Dice, first_turn: bool = False) -> list[Play]:
    """The legal plays in the position's game (`first_turn` matters in long nardy only)."""
    if isinstance(position, NardyPosition):
        return nardy_plays(position, dice, first_turn)
    return legal_plays(position, dice)


def _closed(position: Position) -> int:
    """The step generator's landing threshold of the position's game."""
    return -1 if isinstance(position, NardyPosition) else -2


def resolve_play(
    position: Position, dice: Dice, play: str | list[object], *, first_turn: bool = False
) -> Play:
    """The legal play meant by notation ("24/18 13/10") or steps ([[24, 18], [13, 10]]).

    Moves may combine dice ("24/13") and may leave out hit marks; the play is found by the
    position it leads to. Raises InvalidNotation for unreadable input and IllegalPlay, with the
    reason, for a play the rules forbid. `first_turn`: the player's first turn of a long
    nardy game (two checkers may leave the head with 6-6, 4-4 or 3-3).
    """
    moves = parse_moves(play) if isinstance(play, str) else moves_from_pairs(play)
    legal = plays_for(position, dice, first_turn)
    if not moves:
        if not legal:
            return Play((), position)
        raise IllegalPlay(
            f"you must move: {dice.high}-{dice.low} can be played, e.g. {_example(legal)}"
        )
    if not legal:
        raise IllegalPlay(f"no move is possible with {dice.high}-{dice.low}: the turn passes")
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
        raise IllegalPlay(f"say which blots you hit: {options}")
    raise IllegalPlay(explain(position, dice, moves, legal, first_turn=first_turn))


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
            raise IllegalPlay(_no_checker(move.frm))
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
    legal: list[Play],
    *,
    first_turn: bool = False,
) -> str:
    """Why a play that matches no legal play is illegal, as a sentence."""
    b = to_array(position)
    closed = _closed(position)
    dice_left = list(dice.steps)
    used = heads = 0
    for move in moves:
        route, problem = _route(b, move, dice_left, closed)
        if route is None:
            return problem
        for frm, to, die in route:
            apply_step(b, frm, to)
            dice_left.remove(die)
            used += 1
            heads += frm == HEAD
    if isinstance(position, NardyPosition):
        if heads > head_limit(dice.high, dice.low, first_turn):
            return (
                "only one checker may leave the head (24) in a turn; two only on your first"
                " turn of a game with 6-6, 4-4 or 3-3"
            )
        if forbidden_wall(b):
            return (
                "that play leaves six of your points in a row with none of your opponent's"
                " checkers past them" + (f"; {_example(legal)} is legal" if legal else "")
            )
    most = len(legal[0].steps)
    if used < most:
        need = f"as many {dice.high}s as possible ({most})" if dice.is_double else "both dice"
        return f"you must play {need}: {_example(legal)} is possible"
    if not dice.is_double and most == 1:
        return (
            f"only one die can be played, so you must play the larger one ({dice.high}):"
            f" {_example(legal)}"
        )
    return f"that play is not legal with {dice.high}-{dice.low}; {_example(legal)} is"


def _route(
    b: Board, move: CheckerMove, dice_left: list[int], closed: int = -2
) -> tuple[list[tuple[int, int, int]] | None, str]:
    """Single-die steps that carry one checker along `move`, or None and the reason."""
    first_problem = ""
    for count in range(1, len(dice_left) + 1):
        for order in dict.fromkeys(permutations(dice_left, count)):
            if not _covers(move, order):
                continue
            route: list[tuple[int, int, int]] = []
            at = move.frm
            problem = ""
            nb = list(b)
            for i, die in enumerate(order):
                last = i == len(order) - 1
                to = at - die
                if last and move.to == OFF and to < 0:
                    to = OFF
                if to < 0 or (to == 0 and move.to != OFF) or (last and to != move.to):
                    problem = "x"
                    break
                if not last and to == OFF:
                    problem = "x"
                    break
                problem = _step_problem(nb, at, to, die, closed)
                if problem:
                    break
                apply_step(nb, at, to)
                route.append((at, to, die))
                at = to
            if not problem:
                return route, ""
            if problem != "x" and not first_problem:
                first_problem = problem
    if first_problem:
        return None, first_problem
    rolled = "-".join(str(d) for d in dice_left) or "nothing"
    return None, (
        f"no die you have left ({rolled}) moves a checker from {point_name(move.frm)}"
        f" to {point_name(move.to)}"
    )


def _covers(move: CheckerMove, order: tuple[int, ...]) -> bool:
    """Whether these dice, in this order, carry a checker exactly along `move`."""
    distance = move.frm - move.to
    if move.to != OFF:
        return sum(order) == distance
    return sum(order[:-1]) < move.frm <= sum(order)


def _step_problem(b: Board, frm: int, to: int, die: int, closed: int = -2) -> str:
    """The rule a single step breaks, or "" when it is allowed."""
    if closed == -1 and frm == BAR:
        return "long nardy has no bar"
    if frm == BAR:
        if not b[BAR]:
            return "you have no checker on the bar"
    elif b[BAR]:
        return "you have a checker on the bar: it must enter before any other checker moves"
    if b[frm] <= 0:
        return _no_checker(frm)
    if to == OFF:
        top = max(p for p in range(1, 26) if b[p] > 0)
        if top > 6:
            return "you can bear off only when all your checkers are in your home board"
        if die > frm and top > frm:
            return (
                f"a {die} bears off from point {frm} only when no checker of yours is on a"
                f" higher point (you have one on {top})"
            )
        return ""
    if b[to] <= closed:
        if closed == -1:
            return f"point {to} is held by your opponent: in long nardy one checker closes it"
        return f"point {to} is closed by {-b[to]} of your opponent's checkers"
    return ""


def _no_checker(point: int) -> str:
    if point == BAR:
        return "you have no checker on the bar"
    return f"you have no checker on point {point}"


def _example(legal: list[Play]) -> str:
    return legal[0].notation


@dataclass
class Prefix:
    """Where a partial play stands: the legal results, dice a full play uses, board states."""

    legal: set[Key]
    used: int
    states: list[tuple[Board, list[int]]]
    closed: int = -2


def walk_prefix(
    position: Position, dice: Dice, steps: list[Step], *, first_turn: bool = False
) -> Prefix:
    """Follow the steps a player has made so far; raise IllegalPlay if they lead nowhere legal."""
    plays = plays_for(position, dice, first_turn)
    closed = _closed(position)
    legal = {tuple(to_array(p.result)) for p in plays}
    used = len(plays[0].steps) if plays else 0
    states: list[tuple[Board, list[int]]] = [(to_array(position), list(dice.steps))]
    for n, step in enumerate(steps):
        after: list[tuple[Board, list[int]]] = []
        problem = ""
        for b, dice_left in states:
            for die in set(dice_left):
                if (step.frm, step.to) not in die_steps(b, die, closed):
                    problem = problem or _step_problem(b, step.frm, step.to, die, closed)
                    continue
                nb = list(b)
                apply_step(nb, step.frm, step.to)
                rest = list(dice_left)
                rest.remove(die)
                if can_finish(list(nb), rest, used - n - 1, legal, closed):
                    after.append((nb, rest))
                else:
                    problem = problem or (
                        f"{step} leaves no way to finish a legal play: e.g. {_example(plays)}"
                    )
        if not after:
            raise IllegalPlay(problem or f"{step} is not a step any die you have left can make")
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
