"""The FIBS rating formula (pure: no Django). docs/ratings.md explains it with examples.

The definition used is FIBS's own, as the server prints it for `help formula` (quoted in
rec.games.backgammon, http://www.bkgm.com/rgb/rgb.cgi?view+1093, and in the backgammon FAQ,
section "FIBS ratings"):

    D = abs(r1 - r2)                                 (rating difference)
    P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1)      (probability that the underdog wins)
    P = 1 - P_upset if the underdog wins, P_upset if the favourite wins
    K = max(1, -experience/100 + 5)                  (each player his own)
    winner: +4 * K * sqrt(n) * P;   loser: -4 * K * sqrt(n) * P

with n the match length, experience the sum of the lengths of the matches the player has
finished (rated ones: unlimited matches do not count on FIBS either), everyone starting at
1500 with experience 0. Written with the winner's own chance of winning,
P_win = 1 / (1 + 10^(-(r_winner - r_loser) * sqrt(n) / 2000)), P above is 1 - P_win.

K uses the experience before the match (the FIBS text; MacFIBS's glossary writes
max(1, 5 - (experience + n)/100), a variant this site does not use).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0
K_MIN = 1.0
K_START = 5.0
EXPERIENCE_PER_K = 100.0  # K falls by 1 per 100 points of experience, to 1 at 400


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating and experience in one game before a match."""

    rating: float = START_RATING
    experience: int = 0


@dataclass(frozen=True, slots=True)
class Change:
    """What one rated match does to both players: points gained by the winner (positive),
    points lost by the loser (negative)."""

    winner: float
    loser: float


def k_factor(experience: int) -> float:
    """FIBS's experience multiplier: 5 for a newcomer, down to 1 from 400 experience on."""
    return max(K_MIN, K_START - experience / EXPERIENCE_PER_K)


def win_probability(difference: float, length: int) -> float:
    """The chance FIBS gives a player rated `difference` points above his opponent (negative:
    below) of winning a `length`-point match."""
    return 1.0 / (1.0 + 10.0 ** (-difference * math.sqrt(length) / 2000.0))


def rate(winner: Standing, loser: Standing, length: int) -> Change:
    """The rating change of both players of a finished `length`-point match."""
    if length < 1:
        raise ValueError("only matches to a number of points are rated (FIBS: not unlimited)")
    surprise = 1.0 - win_probability(winner.rating - loser.rating, length)
    stake = 4.0 * math.sqrt(length) * surprise
    return Change(
        winner=k_factor(winner.experience) * stake, loser=-k_factor(loser.experience) * stake
    )
