"""Looking one roll ahead with the network evaluator.

The evaluator scores positions after a play. A position *before* a roll is worth the average,
over the 21 distinct rolls (doubles 1/36, the others 2/36), of the best play of each roll:
`on_roll` computes that for the player on roll, in one batch for many positions. It gives the
cube decisions their chances, and the lookahead level (games/bots/neural.py) its choice: each
of its best candidate plays scored by the opponent's best replies to every roll (1 ply).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from games.rules import Position, board_array, successor_arrays

from .network import Evaluator, equity

ROLLS: tuple[tuple[int, int], ...] = tuple((h, lo) for h in range(1, 7) for lo in range(1, h + 1))
WEIGHTS = np.array([1.0 if h == lo else 2.0 for h, lo in ROLLS]) / 36.0


def on_roll(evaluator: Evaluator, boards: Sequence[Sequence[int]]) -> np.ndarray:
    """(len(boards), 5) probabilities for the player on roll in each array-form position
    (his side), before his roll: the weighted average of his best play's result per roll."""
    keys: list[tuple[int, ...]] = []
    starts: list[int] = []  # where each (board, roll) group of results begins in `keys`
    for b in boards:
        board = list(b)
        for high, low in ROLLS:
            starts.append(len(keys))
            found = successor_arrays(board, high, low)
            keys.extend(found if found else (tuple(board),))  # no play: the turn passes
    outputs = evaluator.evaluate_arrays(np.array(keys, dtype=np.int64))
    scores = equity(outputs)
    ends = [*starts[1:], len(keys)]
    groups = zip(starts, ends, strict=True)
    best = [start + int(np.argmax(scores[start:end])) for start, end in groups]
    per_roll = outputs[best].reshape(len(boards), len(ROLLS), outputs.shape[1])
    return np.einsum("r,nrk->nk", WEIGHTS, per_roll)


def chances_on_roll(evaluator: Evaluator, position: Position) -> np.ndarray:
    """(5,) probabilities for the player on roll in `position` (his side), before his roll."""
    return on_roll(evaluator, [board_array(position)])[0]
