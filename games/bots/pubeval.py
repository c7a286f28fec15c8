"""Tesauro's pubeval: the public linear evaluator, the standard benchmark opponent.

Gerald Tesauro (IBM Research) published pubeval.c in 1993 as a benchmark for backgammon
programs: a position after a play is scored as `W . x`, with `x` a raw encoding of the
checkers on each point and two weight vectors, one for contact positions and one for races
(chosen by the position *before* the play). The weights below are his published values (the
pubeval.c distributed with gnubg and with BSD games); the encoding follows his description:

- for each point, seen from the player who just moved, in the order 24, 23, ..., 1, five
  inputs: opponent blot (-1), own blot (1), own 2+ (made point), own exactly 3, and
  (n - 3) / 2 for own 4+;
- input 120: the opponent's checkers on the bar / 2 (positive);
- input 121: own checkers borne off / 15.

Pubeval makes many obvious mistakes but is a well-known, repeatable yardstick: strength is
reported as points per game against it.
"""

from __future__ import annotations

from games.rules import CHECKERS, Dice, Play, Position

from .base import Player

# fmt: off
CONTACT_WEIGHTS: tuple[float, ...] = (
    0.25696, -0.66937, -1.66135, -2.02487, -2.53398, -0.16092, -1.11725, -1.06654,
    -0.92830, -1.99558, -1.10388, -0.80802, 0.09856, -0.62086, -1.27999, -0.59220,
    -0.73667, 0.89032, -0.38933, -1.59847, -1.50197, -0.60966, 1.56166, -0.47389,
    -1.80390, -0.83425, -0.97741, -1.41371, 0.24500, 0.10970, -1.36476, -1.05572,
    1.15420, 0.11069, -0.38319, -0.74816, -0.59244, 0.81116, -0.39511, 0.11424,
    -0.73169, -0.56074, 1.09792, 0.15977, 0.13786, -1.18435, -0.43363, 1.06169,
    -0.21329, 0.04798, -0.94373, -0.22982, 1.22737, -0.13099, -0.06295, -0.75882,
    -0.13658, 1.78389, 0.30416, 0.36797, -0.69851, 0.13003, 1.23070, 0.40868,
    -0.21081, -0.64073, 0.31061, 1.59554, 0.65718, 0.25429, -0.80789, 0.08240,
    1.78964, 0.54304, 0.41174, -1.06161, 0.07851, 2.01451, 0.49786, 0.91936,
    -0.90750, 0.05941, 1.83120, 0.58722, 1.28777, -0.83711, -0.33248, 2.64983,
    0.52698, 0.82132, -0.58897, -1.18223, 3.35809, 0.62017, 0.57353, -0.07276,
    -0.36214, 4.37655, 0.45481, 0.21746, 0.10504, -0.61977, 3.54001, 0.04612,
    -0.18108, 0.63211, -0.87046, 2.47673, -0.48016, -1.27157, 0.86505, -1.11342,
    1.24612, -0.82385, -2.77082, 1.23606, -1.59529, 0.10438, -1.30206, -4.11520,
    5.62596, -2.75800,
)
RACE_WEIGHTS: tuple[float, ...] = (
    0.00000, -0.17160, 0.27010, 0.29906, -0.08471, 0.00000, -1.40375, -1.05121,
    0.07217, -0.01351, 0.00000, -1.29506, -2.16183, 0.13246, -1.03508, 0.00000,
    -2.29847, -2.34631, 0.17253, 0.08302, 0.00000, -1.27266, -2.87401, -0.07456,
    -0.34240, 0.00000, -1.34640, -2.46556, -0.13022, -0.01591, 0.00000, 0.27448,
    0.60015, 0.48302, 0.25236, 0.00000, 0.39521, 0.68178, 0.05281, 0.09266,
    0.00000, 0.24855, -0.06844, -0.37646, 0.05685, 0.00000, 0.17405, 0.00430,
    0.74427, 0.00576, 0.00000, 0.12392, 0.31202, -0.91035, -0.16270, 0.00000,
    0.01418, -0.10839, -0.02781, -0.88035, 0.00000, 1.07274, 2.00366, 1.16242,
    0.22520, 0.00000, 0.85631, 1.06349, 1.49549, 0.18966, 0.00000, 0.37183,
    -0.50352, -0.14818, 0.12039, 0.00000, 0.13681, 0.13978, 1.11245, -0.12707,
    0.00000, -0.22082, 0.20178, -0.06285, -0.52728, 0.00000, -0.13597, -0.19412,
    -0.09308, -1.26062, 0.00000, 3.05454, 5.16874, 1.50680, 5.35000, 0.00000,
    2.19605, 3.85390, 0.88296, 2.30052, 0.00000, 0.92321, 1.08744, -0.11696,
    -0.78560, 0.00000, -0.09795, -0.83050, -1.09167, -4.94251, 0.00000, -1.00316,
    -3.66465, -2.56906, -9.67677, 0.00000, -2.77982, -7.26713, -3.40177, -12.32252,
    0.00000, 3.42040,
)
# fmt: on

INPUTS = 122
WON = 99999999.0
"""The score of a play that bears off the last checker (pubeval.c's value)."""


def inputs(position: Position) -> list[float]:
    """Pubeval's 122 inputs for `position`, seen from the player who has just moved."""
    x = [0.0] * INPUTS
    for i, n in enumerate(position.board):
        base = 5 * (23 - i)  # point i + 1; the blocks run from point 24 down to point 1
        if n == -1:
            x[base] = 1.0
        elif n == 1:
            x[base + 1] = 1.0
        elif n >= 2:
            x[base + 2] = 1.0
            if n == 3:
                x[base + 3] = 1.0
            elif n >= 4:
                x[base + 4] = (n - 3) / 2.0
    x[120] = position.bar[1] / 2.0
    x[121] = position.off[0] / CHECKERS
    return x


def _tables(weights: tuple[float, ...]) -> list[list[float]]:
    """table[i][n + 15]: the score of n checkers (signed) on point i + 1."""
    tables = []
    for i in range(24):
        base = 5 * (23 - i)
        row = []
        for n in range(-15, 16):
            score = 0.0
            if n == -1:
                score = weights[base]
            elif n == 1:
                score = weights[base + 1]
            elif n >= 2:
                score = weights[base + 2]
                if n == 3:
                    score += weights[base + 3]
                elif n >= 4:
                    score += weights[base + 4] * (n - 3) / 2.0
            row.append(score)
        tables.append(row)
    return tables


_CONTACT_TABLES = _tables(CONTACT_WEIGHTS)
_RACE_TABLES = _tables(RACE_WEIGHTS)


def evaluate(position: Position, race: bool) -> float:
    """Pubeval's score of `position` (after a play, from the side of the player who made it);
    `race` is whether the position before the play was a race. Higher is better."""
    if position.off[0] == CHECKERS:
        return WON
    weights, tables = (RACE_WEIGHTS, _RACE_TABLES) if race else (CONTACT_WEIGHTS, _CONTACT_TABLES)
    score = weights[120] * position.bar[1] / 2.0 + weights[121] * position.off[0] / CHECKERS
    for row, n in zip(tables, position.board, strict=True):
        score += row[n + 15]
    return score


def best_play(position: Position, plays: list[Play]) -> Play | None:
    """The play pubeval scores highest (the first of equals, in legal_plays order)."""
    if not plays:
        return None
    race = position.is_race()
    best, best_score = plays[0], evaluate(plays[0].result, race)
    for play in plays[1:]:
        score = evaluate(play.result, race)
        if score > best_score:
            best, best_score = play, score
    return best


class PubevalPlayer(Player):
    """Plays the legal play with the highest pubeval score; the benchmark opponent."""

    level = "pubeval"

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        return best_play(position, self.legal(position, dice, first_turn))
