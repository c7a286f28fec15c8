"""Long nardy's hand-written level: an evaluation of the position after each legal play.

Nothing is ever hit in long nardy, so tavla's blot arithmetic means nothing here. What
matters is the race (pip counts), getting checkers off the head early (only one may leave it
a turn), holding many points, building blocks in front of the opponent's checkers (and not
being blocked by his), keeping checkers from piling up, and, once the game turns into a race,
bearing off without waste and saving the mars (2 points) by getting a first checker off.

The score of a position is, from the side of the player who has just moved there (the
opponent to roll), the pip difference plus his side's terms minus the same terms for the
opponent, computed on the position turned round. In pips; higher is better.
"""

from __future__ import annotations

from games.rules import CHECKERS, Dice, Play, Position

from .base import Player

THEIR_PATH: tuple[int, ...] = (*range(12, 0, -1), *range(24, 12, -1))
"""The opponent's way round in the mover's numbering: 12, 11, ..., 1, 24, 23, ..., 13."""
HEAD = 24

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
    mine, theirs = position.pips()
    race = position.is_race()
    turned = position.flipped()
    return float(theirs - mine) + _side(position, race) - _side(turned, race)


def _side(position: Position, race: bool) -> float:
    """The terms of the player whose side `position` is seen from (his checkers positive)."""
    board = position.board
    on_board = CHECKERS - position.off[0]
    outside = sum(n for n in board[6:] if n > 0)
    score = -OUTSIDE_HOME * outside
    if position.off[0] == 0 and _bearing_off(board):
        score -= MARS_RISK
    if race:
        return score - ON_BOARD * on_board
    head = board[HEAD - 1]
    score -= HEAD_CHECKER * max(head, 0)
    for n in board[: HEAD - 1]:
        if n > 0:
            score += POINT_HELD
            if n > 3:
                score -= STACK * (n - 3)
    return score + _blocks(board)


def _bearing_off(board: tuple[int, ...]) -> bool:
    """Whether the opponent (negative) has all his checkers in his home (the mover's 13-18)."""
    return all(n >= 0 for i, n in enumerate(board) if not 12 <= i < 18)


def _blocks(board: tuple[int, ...]) -> float:
    """Runs of held points along the opponent's way round, worth more the longer they are and
    the more of his checkers are still behind them."""
    behind = 0  # opposing checkers passed so far along his path
    run = 0
    score = 0.0
    for point in THEIR_PATH:
        n = board[point - 1]
        if n > 0:
            if run == 0:
                run_behind = behind
            run += 1
            continue
        if run >= 2:
            score += BLOCK * (run - 1) ** 2 * run_behind / CHECKERS
        run = 0
        if n < 0:
            behind -= n
    if run >= 2:
        score += BLOCK * (run - 1) ** 2 * run_behind / CHECKERS
    return score


def best_play(plays: list[Play]) -> Play | None:
    """The play whose result scores highest (the first of equals, in legal_plays order)."""
    if not plays:
        return None
    return max(plays, key=lambda p: evaluate(p.result))


class NardyHeuristicPlayer(Player):
    """Long nardy: plays the legal play whose result the hand-written evaluation scores
    highest."""

    level = "heuristic"

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        return best_play(self.legal(position, dice, first_turn))
