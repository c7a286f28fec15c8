"""Long nardy's hand-written level: an evaluation of the position after each legal play.

Nothing is ever hit in long nardy, so tavla's blot arithmetic means nothing here. What
matters is the race (pip counts), getting checkers off the head early (only one may leave it
a turn), holding many points, building blocks in front of the opponent's checkers (and not
being blocked by his), keeping checkers from piling up, and, once the game turns into a race,
bearing off without waste and saving the mars (2 points) by getting a first checker off.

The score of a position is, from the side of the player who has just moved there (the
opponent to roll), the pip difference plus his side's terms minus the same terms for the
opponent, computed on the position turned round. In pips; higher is better. numpy, on the
array form of all the legal results at once (tests/bots/test_nardy_levels.py checks it
against plain loops).
"""

from __future__ import annotations

import numpy as np

from games.rules import CHECKERS, Dice, Play, Position, board_array

from .base import Player
from .nardy_network import THEIR_PATH, turned

HEAD = 24
_POINTS = np.arange(1, 25)

# Weights, in pips.
HEAD_CHECKER = 2.0  # per checker still on the head
POINT_HELD = 1.0  # per point held outside the head
BLOCK = 1.2  # (run length - 1)^2 of a run of held points, times the share of opposing
#              checkers behind it on their way round
STACK = 0.7  # per checker beyond three on a point other than the head
OUTSIDE_HOME = 0.5  # per checker outside the home (1-6): it must still get home to bear off
ON_BOARD = 2.0  # per checker not yet borne off, once the game is a race (bear-off pace)
MARS_RISK = 12.0  # none borne off while the opponent is already bearing off


def evaluate(position: Position) -> float:
    """The score of `position` for the player who has just moved there. Higher is better."""
    return float(evaluate_arrays(np.array([board_array(position)], dtype=np.int64))[0])


def evaluate_arrays(a: np.ndarray) -> np.ndarray:
    """(n,) scores of positions in array form (n, 26) (`board_array`), all at once: a move
    scores every legal result in one batch."""
    other = turned(a)
    mine, theirs = _pips(a), _pips(other)
    race = np.asarray((a[:, 13:25] <= 0).all(axis=1) & (a[:, 1:13] >= 0).all(axis=1))
    return np.asarray((theirs - mine) + _side(a, race) - _side(other, race))


def _pips(a: np.ndarray) -> np.ndarray:
    return np.maximum(a[:, 1:25], 0) @ _POINTS


def _side(a: np.ndarray, race: np.ndarray) -> np.ndarray:
    """The terms of the player whose side the arrays are seen from (his checkers positive)."""
    board = a[:, 1:25]
    mine = np.maximum(board, 0)
    on_board = mine.sum(axis=1)
    score = -OUTSIDE_HOME * mine[:, 6:].sum(axis=1).astype(float)
    # The opponent bears off (all his checkers in his home, the mover's 13-18) and the
    # mover has borne off none.
    bearing_off = (board[:, :12] >= 0).all(axis=1) & (board[:, 18:] >= 0).all(axis=1)
    score -= MARS_RISK * ((on_board == CHECKERS) & bearing_off)
    rest = mine[:, : HEAD - 1]
    contact = (
        -HEAD_CHECKER * mine[:, HEAD - 1]
        + POINT_HELD * (rest > 0).sum(axis=1)
        - STACK * np.maximum(rest - 3, 0).sum(axis=1)
        + _blocks(a)
    )
    return np.asarray(score + np.where(race, -ON_BOARD * on_board, contact))


def _blocks(a: np.ndarray) -> np.ndarray:
    """Runs of held points along the opponent's way round, worth more the longer they are and
    the more of his checkers are still behind them: BLOCK * (length - 1)^2 * his checkers
    behind the run / 15 for each run.

    A run of length L holds L - m + 1 stretches of m points, so (L - 1)^2 is twice its
    stretches of 2 points or more less its stretches of 2; and every stretch of a run has
    the same opposing checkers behind it as the run (none stand on the run)."""
    along = a[:, THEIR_PATH]
    held = along > 0
    theirs = np.maximum(-along, 0)
    behind = np.cumsum(theirs, axis=1) - theirs  # his checkers before each point
    stretch = held[:, :-1] & held[:, 1:]  # stretch[:, j]: points j, j + 1 held
    total = (stretch * behind[:, :-1]).sum(axis=1)
    for m in range(3, len(THEIR_PATH) + 1):
        stretch = stretch[:, :-1] & held[:, m - 1 :]
        if not stretch.any():
            break
        total += 2 * (stretch * behind[:, : 1 - m]).sum(axis=1)
    return np.asarray(BLOCK * total / CHECKERS)


def best_play(plays: list[Play]) -> Play | None:
    """The play whose result scores highest (the first of equals, in legal_plays order)."""
    if not plays:
        return None
    if len(plays) == 1:
        return plays[0]
    scores = evaluate_arrays(np.array([board_array(p.result) for p in plays], dtype=np.int64))
    return plays[int(np.argmax(scores))]


class NardyHeuristicPlayer(Player):
    """Long nardy: plays the legal play whose result the hand-written evaluation scores
    highest."""

    level = "heuristic"

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        return best_play(self.legal(position, dice, first_turn))
