"""The beginner level above random: a hand-written evaluation of the position after a play.

It scores the result of each legal play (from the mover's side, the opponent to roll next) in
pip-like units and plays the best one. In contact it weighs the race (pip counts), the risk
of leaving blots (direct and indirect shots, by what a hit would cost), made points (home
board and bar point most), the longest prime when opponent checkers are behind it, anchors in
the opponent's home board, and a small penalty for tall stacks. In a race it plays for pips
and for getting checkers home and off without wastage. It knows nothing of gammons and
never doubles: a sensible, readable opponent that beats random play almost always.
"""

from __future__ import annotations

from games.rules import Dice, Play, Position

from .base import Player

SHOTS = {
    1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3,
    15: 1, 16: 1, 18: 1, 20: 1, 24: 1,
}  # fmt: skip
"""Rolls out of 36 that hit a blot this many pips away (the usual table, ignoring blocks)."""

# Weights, in pips.
MADE_HOME = 4.0  # a made point in the home board (1-6)
MADE_BAR = 3.0  # the bar point (7)
MADE_OTHER = 1.0  # any other made point outside the opponent's home board
ANCHOR = 2.5  # a made point in the opponent's home board (19-24)
PRIME = 2.0  # per point of the longest prime squared / 2, with opponent checkers behind it
STACK = 0.6  # per checker beyond three on a point
BLOT_RISK = 1.0  # times the hit probability times the pips a hit would cost
CLOSED_BOARD = 3.0  # per home point made, per opponent checker on the bar
RACE_OUTSIDE = 1.5  # in a race, per checker still outside the home board
RACE_WASTE = 0.5  # in a race, per checker beyond two on the lowest points


def evaluate(position: Position) -> float:
    """The score of `position` for the player who has just moved there. Higher is better."""
    mine, theirs = position.pips()
    score = float(theirs - mine)
    if position.is_race():
        return score - _race_penalty(position)
    board = position.board
    made = [n >= 2 for n in board]  # made[i]: the mover holds point i + 1
    for i, is_made in enumerate(made):
        if not is_made:
            continue
        point = i + 1
        if point <= 6:
            score += MADE_HOME
        elif point == 7:
            score += MADE_BAR
        elif point >= 19:
            score += ANCHOR
        else:
            score += MADE_OTHER
        if board[i] > 3:
            score -= STACK * (board[i] - 3)
    score += _prime_bonus(board, made, position.bar[1])
    score += CLOSED_BOARD * sum(made[:6]) * position.bar[1]
    score -= BLOT_RISK * _blot_risk(position)
    return score


def _race_penalty(position: Position) -> float:
    board = position.board
    outside = sum(n for n in board[6:] if n > 0)
    low = sum(max(0, n - 2) for n in board[:2] if n > 0)
    return RACE_OUTSIDE * outside + RACE_WASTE * low


def _prime_bonus(board: tuple[int, ...], made: list[bool], their_bar: int) -> float:
    """The longest run of made points, worth more the longer it is, if it blocks anything."""
    best_len, best_low, run = 0, 0, 0
    for i, is_made in enumerate(made):
        run = run + 1 if is_made else 0
        if run > best_len:
            best_len, best_low = run, i - run + 1
    if best_len < 2:
        return 0.0
    # Opponent checkers move up the mover's numbering: those below the prime are blocked.
    behind = their_bar or any(n < 0 for n in board[:best_low])
    return PRIME * best_len * best_len / 2.0 if behind else 0.0


def _blot_risk(position: Position) -> float:
    """The expected pips lost to the opponent's next roll hitting one of the mover's blots."""
    board = position.board
    # Opponent checkers (the bar counts as point 0: they enter on the mover's points 1-6).
    shooters = [0] if position.bar[1] else []
    shooters += [i + 1 for i, n in enumerate(board) if n < 0]
    if not shooters:
        return 0.0
    risk = 0.0
    for i, n in enumerate(board):
        if n != 1:
            continue
        point = i + 1
        hits = 0
        for q in shooters:
            if q < point:
                hits += SHOTS.get(point - q, 0)
        if hits:
            # A hit sends the checker back to the bar: it loses the 25 - point pips it travelled
            # and the mover loses tempo entering; blots deep in his own home cost the most.
            risk += min(hits, 36) / 36.0 * (25 - point + 4)
    return risk


def best_play(plays: list[Play]) -> Play | None:
    """The play whose result scores highest (the first of equals, in legal_plays order)."""
    if not plays:
        return None
    return max(plays, key=lambda p: evaluate(p.result))


class HeuristicPlayer(Player):
    """Plays the legal play whose result the hand-written evaluation scores highest."""

    level = "heuristic"

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        return best_play(self.legal(position, dice, first_turn))
