"""Long nardy's network level: inputs, evaluator and player (numpy).

The evaluator scores the position after a play from the side of the player who has just moved
(the opponent on roll, as for tavla, games/bots/network.py): who is on roll is implicit. One
multilayer perceptron, one sigmoid hidden layer and three sigmoid outputs:

    0 win, 1 win a mars (2 points), 2 lose a mars

(cumulative: output 1 <= output 0). Equity in points: 2 win - 1 + win mars - lose mars.
Training is games/bots/nardy_train.py; the committed weights games/bots/nardy_weights.npz.

Inputs, for each side in its own numbering (a player's point 1 is his last, 24 his head):
per point a truncated unary code (at least 1, 2, 3 checkers, and (n - 3) / 12 beyond three);
then for both sides borne off / 15, pips / 360, checkers on the head / 15, in the home / 15,
all at home (may bear off), none borne off yet (a mars is possible), the longest run of held
points in front of the opponent's rearmost checker / 6 (a block he must get past) and a
measure of those runs growing with the square of their lengths, the points held off the
head / 12, the checkers beyond three on a point off the head / 15 (the hand-written level's
terms, given so that the network need not discover them); and whether the game is a race
(the two sides have passed each other).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from games.rules import CHECKERS, Dice, MatchState, Play, Position, board_array

from .base import Player
from .network import Network

OUTPUTS = 3
WIN, WIN_MARS, LOSE_MARS = range(OUTPUTS)

POINT_INPUTS = 4
SIDE_INPUTS = 24 * POINT_INPUTS
SIDE_EXTRAS = 10
FEATURES = 2 * SIDE_INPUTS + 2 * SIDE_EXTRAS + 1  # 213

THEIRS = np.array([(q + 11) % 24 + 1 for q in range(1, 25)])
"""`a[:, THEIRS[q - 1]]`: the array form's entry of the opponent's own point q."""
THEIR_PATH = np.array([*range(12, 0, -1), *range(24, 12, -1)])
"""The opponent's way round in the mover's numbering (array indices = points)."""
_DISTANCE = np.arange(1, 25, dtype=np.float32)
_BITS = np.left_shift(1, np.arange(24, dtype=np.int64))
_SHIFTS = np.arange(24, dtype=np.int64)


def flip(outputs: np.ndarray) -> np.ndarray:
    """Probabilities (..., 3) for one player -> the same for his opponent."""
    return np.stack(
        [1.0 - outputs[..., WIN], outputs[..., LOSE_MARS], outputs[..., WIN_MARS]], axis=-1
    )


def equity(outputs: np.ndarray) -> np.ndarray:
    """Points per game of (..., 3) probabilities: oyn 1, mars 2."""
    return 2.0 * outputs[..., WIN] - 1.0 + outputs[..., WIN_MARS] - outputs[..., LOSE_MARS]


def turned(a: np.ndarray) -> np.ndarray:
    """(n, 26) array forms -> the same positions from the other side."""
    out = np.zeros_like(a)
    out[:, 1:25] = -a[:, THEIRS]
    return out


def _points(counts: np.ndarray) -> np.ndarray:
    code = np.empty((len(counts), 24, POINT_INPUTS), dtype=np.float32)
    code[:, :, 0] = counts >= 1
    code[:, :, 1] = counts >= 2
    code[:, :, 2] = counts >= 3
    code[:, :, 3] = np.maximum(counts - 3, 0) / np.float32(12.0)
    return code.reshape(len(counts), SIDE_INPUTS)


def _blocks(board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The side's (positive) held points on the opponent's way round in front of his
    rearmost checker, `board` (n, 26) in that side's numbering: (n,) the longest run of them
    (up to 6), and (n,) a block measure growing with the square of each run's length (the sum
    over k = 2..6 of the runs' k-long stretches: 1, 3, 6, 10, 15 for a run of 2..6).

    On bit masks (bit j: the point j along his path), a handful of operations per batch."""
    along = board[:, THEIR_PATH]
    held = (along > 0).astype(np.int64) @ _BITS
    theirs = (along < 0).astype(np.int64) @ _BITS
    rearmost = theirs & -theirs  # his rearmost checker's bit (0: none on the board)
    made = held & ~((rearmost << 1) - 1)  # only the points in front of it
    runs = np.empty((len(board), 6), dtype=np.int64)  # runs[:, k]: starts of (k+1)-long runs
    runs[:, 0] = made
    for k in range(1, 6):
        runs[:, k] = runs[:, k - 1] & (made >> k)
    longest = (runs != 0).sum(axis=1)
    stretches = ((runs[:, 1:, None] >> _SHIFTS) & 1).sum(axis=(1, 2))
    return longest, stretches


def _extras(board: np.ndarray, mine: np.ndarray) -> np.ndarray:
    """(n, SIDE_EXTRAS): the extras of the side whose view `board` is; `mine` its counts
    (n, 24)."""
    out = np.empty((len(board), SIDE_EXTRAS), dtype=np.float32)
    on = mine.sum(axis=1)
    home = mine[:, :6].sum(axis=1)
    head = mine[:, 23]
    longest, stretches = _blocks(board)
    out[:, 0] = (CHECKERS - on) / 15.0
    out[:, 1] = mine @ _DISTANCE / 360.0
    out[:, 2] = head / 15.0
    out[:, 3] = home / 15.0
    out[:, 4] = home == on
    out[:, 5] = on == CHECKERS
    out[:, 6] = longest / 6.0
    out[:, 7] = stretches / 15.0
    out[:, 8] = ((mine > 0).sum(axis=1) - (head > 0)) / 12.0
    out[:, 9] = (np.maximum(mine - 3, 0).sum(axis=1) - np.maximum(head - 3, 0)) / 15.0
    return out


def races(a: np.ndarray) -> np.ndarray:
    """(n,) bool: the mover's checkers all on his 1-12, the opponent's all on his own 1-12."""
    return np.asarray((a[:, 13:25] <= 0).all(axis=1) & (a[:, 1:13] >= 0).all(axis=1))


def encode_arrays(a: np.ndarray) -> np.ndarray:
    """(n, FEATURES) inputs for positions in array form (n, 26), the mover's side.

    Both sides are encoded in one batch (the positions, then the same turned round): half
    the numpy calls, which is what a move costs at these sizes."""
    n = len(a)
    both = np.concatenate([a, turned(a)])
    counts = np.maximum(both[:, 1:25], 0)
    x = np.empty((n, FEATURES), dtype=np.float32)
    side = 2 * SIDE_INPUTS
    x[:, :side] = _points(counts).reshape(2, n, SIDE_INPUTS).transpose(1, 0, 2).reshape(n, side)
    x[:, side:-1] = (
        _extras(both, counts).reshape(2, n, SIDE_EXTRAS).transpose(1, 0, 2).reshape(n, -1)
    )
    x[:, -1] = races(a)
    return x


def terminal(a: np.ndarray) -> np.ndarray:
    """(n,) bool: the mover has borne off his last checker (he has won)."""
    return np.asarray((a[:, 1:25] <= 0).all(axis=1))


class NardyEvaluator:
    """The long nardy network: probabilities for the player who has just moved."""

    def __init__(self, net: Network) -> None:
        # float32 throughout: half the time of float64 for these small products, and
        # training's steps are far larger than its rounding.
        for name in ("w1", "b1", "w2", "b2"):
            setattr(net, name, getattr(net, name).astype(np.float32))
        self.net = net

    @classmethod
    def fresh(cls, hidden: int = 64, seed: int = 0) -> NardyEvaluator:
        return cls(Network(hidden, FEATURES, seed, OUTPUTS))

    def evaluate_arrays(self, a: np.ndarray) -> np.ndarray:
        """(n, 3) for positions in array form; a won game gets its exact value."""
        return self.evaluate_encoded(a, encode_arrays(a))

    def evaluate_encoded(self, a: np.ndarray, x: np.ndarray) -> np.ndarray:
        out = self.net.forward(x)
        won = terminal(a)
        if won.any():
            mars = np.minimum(a[won, 1:25], 0).sum(axis=1) == -CHECKERS  # loser: none off
            out[won] = np.stack([np.ones(len(mars)), mars, np.zeros(len(mars))], axis=1)
        return out

    def evaluate_many(self, positions: Sequence[Position]) -> np.ndarray:
        a = np.array([board_array(p) for p in positions], dtype=np.int64).reshape(-1, 26)
        return self.evaluate_arrays(a)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(path, **self.net.to_arrays("nardy_"))  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> NardyEvaluator:
        with np.load(path) as data:
            return cls(Network.from_arrays(dict(data), "nardy_"))


class NardyNetworkPlayer(Player):
    """Long nardy: plays the legal play whose result has the highest equity by the network;
    never resigns, accepts a resignation worth at least its equity."""

    level = "network"

    def __init__(self, evaluator: NardyEvaluator) -> None:
        self.evaluator = evaluator

    def choose_play(
        self, position: Position, dice: Dice, *, first_turn: bool = False
    ) -> Play | None:
        plays = self.legal(position, dice, first_turn)
        if len(plays) <= 1:
            return plays[0] if plays else None
        scores = equity(self.evaluator.evaluate_many([p.result for p in plays]))
        return plays[int(np.argmax(scores))]

    def accept_resignation(self, state: MatchState, seat: int) -> bool:
        # The opponent resigns on his turn: our side, him on roll, is the evaluator's view.
        value = equity(self.evaluator.evaluate_many([state.position_for(seat)]))[0]
        return state.resign_value >= value
