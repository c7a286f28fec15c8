"""The inputs of the neural-network evaluator: a position as a vector of numbers (numpy).

The position is seen from the side of the player who has just moved (the opponent is on
roll), as the evaluator scores the result of each legal play. Positions come in the rules
engine's array form (`games.rules.board_array`: 26 counts, index 0 minus the opponent's bar,
1..24 the points, 25 the mover's bar), many at once, because a move is chosen by scoring
every legal result in one batch.

Per side, a Tesauro-style truncated unary code for each of the 24 points (at least 1, 2, 3
checkers, and (n - 3) / 2 beyond three), each side's points counted from its own home (so
both halves of the vector mean the same thing for either side); then, for both sides,
checkers on the bar / 2, borne off / 15 and the pip count / 100; then a few hand-made inputs
that a small network would otherwise need many games to discover (TD-Gammon 1.0 added such
inputs for the same reason), each for both sides:

- direct exposure: for every blot, the number of enemy sources (points or the bar) 1-6 pips
  behind it, summed / 6 (the shots the other side may have);
- indirect exposure: the same 7-12 pips behind, / 6;
- the longest run of made points (the prime) / 6.

Race and contact positions get the same inputs: the evaluator uses a separate network for each.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from games.rules import CHECKERS, Position, board_array

POINT_INPUTS = 4
SIDE_INPUTS = 24 * POINT_INPUTS
EXTRA_INPUTS = 6
FEATURES = 2 * SIDE_INPUTS + 6 + EXTRA_INPUTS  # 204
_DISTANCE = np.arange(1, 25, dtype=np.float32)
_LOW6 = np.maximum(np.arange(1, 25) - 6, 0)  # for a blot on point i: the index i - 6 (>= 0)
_LOW12 = np.maximum(np.arange(1, 25) - 12, 0)
_HIGH = np.arange(1, 25)


def _points(counts: np.ndarray) -> np.ndarray:
    """(n, 24) non-negative counts -> (n, 96) unary code."""
    c = counts.astype(np.float32)
    code = np.stack([c >= 1, c >= 2, c >= 3, np.maximum(c - 3.0, 0.0) / 2.0], axis=2)
    return code.astype(np.float32).reshape(len(counts), SIDE_INPUTS)


def _exposure(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(direct, indirect) shot sources at the blots of the side whose view `a` is.

    The enemy moves up from 0 (his bar enters at 1..6): a checker of his on point j hits a
    blot on point i > j with a distance of i - j."""
    sources = np.empty((len(a), 25), dtype=np.int32)
    sources[:, 0] = a[:, 0] < 0
    sources[:, 1:] = a[:, 1:25] < 0
    before = np.zeros((len(a), 26), dtype=np.int32)  # before[:, k]: sources on 0..k-1
    np.cumsum(sources, axis=1, out=before[:, 1:])
    blots = a[:, 1:25] == 1
    direct = ((before[:, _HIGH] - before[:, _LOW6]) * blots).sum(axis=1)
    indirect = ((before[:, _LOW6] - before[:, _LOW12]) * blots).sum(axis=1)
    return direct, indirect


def _prime(made: np.ndarray) -> np.ndarray:
    """Longest run of True along axis 1 of an (n, 24) array, counted up to 6 (a full prime)."""
    best = made.any(axis=1).astype(np.int32)
    run = made  # run[:, i]: points i .. i + k - 1 all made
    for k in range(1, 6):
        run = run[:, :-1] & made[:, k:]
        longer = run.any(axis=1)
        if not longer.any():
            break
        best += longer
    return np.asarray(best)


def encode_arrays(a: np.ndarray) -> np.ndarray:
    """(n, FEATURES) inputs for `n` positions in array form, shaped (n, 26)."""
    board = a[:, 1:25]
    mine = np.maximum(board, 0)
    theirs = np.maximum(-board, 0)[:, ::-1]  # the opponent's own numbering: his 1-point first
    bars = np.stack([a[:, 25], -a[:, 0]], axis=1)
    offs = CHECKERS - bars - np.stack([mine.sum(axis=1), theirs.sum(axis=1)], axis=1)
    pips = np.stack(
        [mine @ _DISTANCE + 25 * bars[:, 0], theirs @ _DISTANCE + 25 * bars[:, 1]], axis=1
    )
    n = len(a)
    direct, indirect = _exposure(np.concatenate([a, -a[:, ::-1]]))  # mine, then theirs
    prime = _prime(np.concatenate([board >= 2, board <= -2]))
    extra = np.stack(
        [direct[:n], indirect[:n], prime[:n], direct[n:], indirect[n:], prime[n:]], axis=1
    ) / np.float32(6.0)
    return np.concatenate(
        [
            _points(mine),
            _points(theirs),
            bars / 2.0,
            offs / 15.0,
            pips / 100.0,
            extra,
        ],
        axis=1,
        dtype=np.float32,
    )


def races(a: np.ndarray) -> np.ndarray:
    """(n,) bool: which positions (array form) are races, with no contact left."""
    board = a[:, 1:25]
    mine, theirs = board > 0, board < 0
    # Highest mover point (0 if none) below the lowest opponent point (25 if none).
    highest_mine = np.where(mine.any(axis=1), 24 - np.argmax(mine[:, ::-1], axis=1), 0)
    lowest_theirs = np.where(theirs.any(axis=1), 1 + np.argmax(theirs, axis=1), 25)
    return (a[:, 0] == 0) & (a[:, 25] == 0) & (highest_mine < lowest_theirs)


def to_arrays(positions: Sequence[Position]) -> np.ndarray:
    """(n, 26) array form of positions."""
    return np.array([board_array(p) for p in positions], dtype=np.int64).reshape(-1, 26)


def encode_many(positions: Sequence[Position]) -> np.ndarray:
    """(len(positions), FEATURES) inputs, one row per position."""
    return encode_arrays(to_arrays(positions))


def encode(position: Position) -> np.ndarray:
    """(FEATURES,) inputs of one position."""
    return encode_many([position])[0]
