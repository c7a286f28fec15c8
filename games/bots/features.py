"""The inputs of the neural-network evaluator: a position as a vector of numbers (numpy).

The position is seen from the side of the player who has just moved (the opponent is on
roll), as the evaluator scores the result of each legal play. Per side, a Tesauro-style
truncated unary code for each of the 24 points (at least 1, 2, 3 checkers, and (n - 3) / 2
beyond three), each side's points counted from its own home (so both halves of the vector
mean the same thing for either side); then, for both sides, checkers on the bar / 2, borne
off / 15 and the pip count / 100. Race and contact positions get the same inputs: the
evaluator uses a separate network for each.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from games.rules.position import Position

POINT_INPUTS = 4
SIDE_INPUTS = 24 * POINT_INPUTS
FEATURES = 2 * SIDE_INPUTS + 6  # 198
_DISTANCE = np.arange(1, 25, dtype=np.float32)


def _points(counts: np.ndarray) -> np.ndarray:
    """(n, 24) non-negative counts -> (n, 96) unary code."""
    c = counts.astype(np.float32)
    code = np.stack([c >= 1, c >= 2, c >= 3, np.maximum(c - 3.0, 0.0) / 2.0], axis=2)
    return code.astype(np.float32).reshape(len(counts), SIDE_INPUTS)


def encode_arrays(boards: np.ndarray, bars: np.ndarray, offs: np.ndarray) -> np.ndarray:
    """Inputs for `n` positions given as (n, 24) boards and (n, 2) bar and off counts."""
    mine = np.maximum(boards, 0)
    theirs = np.maximum(-boards, 0)[:, ::-1]  # the opponent's own numbering: his 1-point first
    pips = np.stack(
        [mine @ _DISTANCE + 25 * bars[:, 0], theirs @ _DISTANCE + 25 * bars[:, 1]], axis=1
    )
    return np.concatenate(
        [
            _points(mine),
            _points(theirs),
            bars.astype(np.float32) / 2.0,
            offs.astype(np.float32) / 15.0,
            pips.astype(np.float32) / 100.0,
        ],
        axis=1,
    )


def encode_many(positions: Sequence[Position]) -> np.ndarray:
    """(len(positions), FEATURES) inputs, one row per position."""
    boards = np.array([p.board for p in positions], dtype=np.int64).reshape(-1, 24)
    bars = np.array([p.bar for p in positions], dtype=np.int64).reshape(-1, 2)
    offs = np.array([p.off for p in positions], dtype=np.int64).reshape(-1, 2)
    return encode_arrays(boards, bars, offs)


def encode(position: Position) -> np.ndarray:
    """(FEATURES,) inputs of one position."""
    return encode_many([position])[0]
