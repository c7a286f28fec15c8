"""Cube and resignation decisions from a position's win, gammon and backgammon chances.

The values compared are match winning chances (games/bots/met.py) in a match and points in
money play, always from the side of the player who would double (on roll, before his roll):

- no double (ND): the cubeless expectation at the current cube;
- double, take (DT): the same at twice the cube;
- double, pass (DP): the current cube won.

This "dead cube" comparison knows the score, gammons, backgammons, Jacoby and the Crawford
rule, but not what owning the cube is worth later. Two corrections from the money-game
theory of Rick Janowski ("Take-Points in Money Games", 1993; cube efficiency about 0.68)
stand in for it:

- the taker's take point is lowered by `RECUBE_VIG` of the distance to certain loss when his
  redouble is alive (it is dead when either side then wins the match by winning at twice the
  cube): 25 % -> 21.5 % in a gammonless money game, as Janowski's live-cube take point;
- a double is offered only within `WINDOW` of that take point (market losers), or, when the
  opponent's redouble is dead, as soon as doubling gains (the trailer's post-Crawford double);
  and never when playing on for a gammon is worth more than the cash (too good to double).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.rules import GameKind, MatchState, game_points

from .met import match_winning_chance

RECUBE_VIG = 0.14
WINDOW = 0.09
RESIGN_BELOW = 1e-4
"""A player resigns only when his chance to win a race is below this: the rest of the game
cannot change the result, and resigning saves both players the rolls."""


@dataclass(frozen=True, slots=True)
class Chances:
    """Chances of each result for one player: win or lose a single game, gammon, backgammon."""

    win: float
    win_gammon: float  # gammon or backgammon
    win_bg: float
    lose_gammon: float  # gammon or backgammon
    lose_bg: float

    @classmethod
    def from_outputs(cls, outputs: np.ndarray) -> Chances:
        """From the evaluator's five outputs (games/bots/network.py, same order), made
        consistent (a gammon is a win, a backgammon a gammon)."""
        win, wg, wbg, lg, lbg = (float(v) for v in np.clip(outputs, 0.0, 1.0))
        wg = min(wg, win)
        lg = min(lg, 1.0 - win)
        return cls(win, wg, min(wbg, wg), lg, min(lbg, lg))

    def turned(self) -> Chances:
        """The same chances from the opponent's side."""
        return Chances(1.0 - self.win, self.lose_gammon, self.lose_bg, self.win_gammon, self.win_bg)

    def wins(self) -> list[tuple[float, GameKind]]:
        """(probability, kind) of each way to win; they add up to `win`."""
        return [
            (self.win - self.win_gammon, GameKind.SINGLE),
            (self.win_gammon - self.win_bg, GameKind.GAMMON),
            (self.win_bg, GameKind.BACKGAMMON),
        ]

    def losses(self) -> list[tuple[float, GameKind]]:
        return self.turned().wins()


class Scorer:
    """What a game won or lost is worth to `seat` at the score of `state`: MWC or points."""

    def __init__(self, state: MatchState, seat: int) -> None:
        self.state = state
        self.seat = seat
        settings = state.settings
        self.money = settings.is_money
        if not self.money:
            self.mine = settings.length - state.score[seat]
            self.theirs = settings.length - state.score[1 - seat]
            # Once one side needs 1, any later game at such a score is post-Crawford.
            self.post = not settings.crawford or min(self.mine, self.theirs) == 1

    def points(self, kind: GameKind, cube: int) -> int:
        s = self.state.settings  # Jacoby: gammons count only once the cube has turned
        return game_points(kind, cube, backgammon_value=s.backgammon_value, jacoby=s.jacoby)

    def won(self, points: int) -> float:
        if self.money:
            return float(points)
        return match_winning_chance(self.mine - points, self.theirs, post_crawford=self.post)

    def lost(self, points: int) -> float:
        if self.money:
            return -float(points)
        return match_winning_chance(self.mine, self.theirs - points, post_crawford=self.post)

    def if_won(self, chances: Chances, cube: int) -> float:
        """Expected value given a win at this cube (0 when winning is impossible)."""
        if chances.win <= 0.0:
            return 0.0
        total = sum(p * self.won(self.points(kind, cube)) for p, kind in chances.wins())
        return total / chances.win

    def if_lost(self, chances: Chances, cube: int) -> float:
        lose = 1.0 - chances.win
        if lose <= 0.0:
            return 0.0
        return sum(p * self.lost(self.points(kind, cube)) for p, kind in chances.losses()) / lose

    def expected(self, chances: Chances, cube: int) -> float:
        return chances.win * self.if_won(chances, cube) + (1.0 - chances.win) * self.if_lost(
            chances, cube
        )

    def cube_dead_after(self, cube: int) -> bool:
        """Whether a cube at `cube` leaves no use in redoubling: either side then wins the
        match by winning one game. Never in money play."""
        return not self.money and min(self.mine, self.theirs) <= cube


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """The three values of a cube decision for the doubler, and where the taker should pass."""

    no_double: float
    double_take: float
    double_pass: float
    win: float  # the doubler's chance to win the game
    take_point: float  # the doubler's win chance above which the taker should pass
    recube_dead: bool

    @property
    def should_take(self) -> bool:
        return self.win <= self.take_point

    @property
    def should_double(self) -> bool:
        doubled = min(self.double_take, self.double_pass)
        if doubled <= self.no_double:
            return False  # doubling loses (or changes nothing): not yet, or too good
        return self.recube_dead or self.win >= self.take_point - WINDOW


def cube_decision(state: MatchState, doubler: int, chances: Chances) -> CubeDecision:
    """The decision on doubling the cube of `state` for `doubler`, who is on roll with these
    chances (his side)."""
    scorer = Scorer(state, doubler)
    cube, doubled = state.cube, 2 * state.cube
    won, lost = scorer.if_won(chances, doubled), scorer.if_lost(chances, doubled)
    double_pass = scorer.won(scorer.points(GameKind.SINGLE, cube))
    # Where the taker is indifferent (DT == DP), the gammon shares kept as they are. When the
    # doubled game is not won better than it is lost there is nothing to take for.
    take_point = (double_pass - lost) / (won - lost) if won > lost else 0.0
    take_point = min(max(take_point, 0.0), 1.0)
    recube_dead = scorer.cube_dead_after(doubled)
    if not recube_dead:
        take_point += RECUBE_VIG * (1.0 - take_point)
    return CubeDecision(
        no_double=scorer.expected(chances, cube),
        double_take=scorer.expected(chances, doubled),
        double_pass=double_pass,
        win=chances.win,
        take_point=take_point,
        recube_dead=recube_dead,
    )


def resign_value(chances: Chances, race: bool) -> int:
    """0, or the resignation (1 single, 2 gammon, 3 backgammon) a player with these chances
    should offer: only in a race he cannot win, for the result he is sure to lose at least."""
    if not race or chances.win >= RESIGN_BELOW:
        return 0
    if chances.lose_gammon < RESIGN_BELOW:
        return 1
    if chances.lose_bg < RESIGN_BELOW:
        return 2
    return 3


def accept_resignation(state: MatchState, seat: int, chances: Chances) -> bool:
    """Whether `seat`, with these chances (his side), gains by accepting the resignation on
    offer rather than playing on at the current cube."""
    scorer = Scorer(state, seat)
    offered = scorer.won(state.points_for(GameKind(state.resign_value)))
    # The slack of the resigner's own certainty (RESIGN_BELOW), so that a player accepts what
    # he would offer himself with the same chances.
    slack = 3 * RESIGN_BELOW * (state.cube if scorer.money else 1)
    return offered >= scorer.expected(chances, state.cube) - slack
