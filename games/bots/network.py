"""A small neural-network evaluator (numpy): the basis of the strong levels.

`Network` is a multilayer perceptron, one sigmoid hidden layer and five sigmoid outputs, the
probabilities for the player who has just moved (the opponent on roll):

    0 win, 1 win a gammon or better, 2 win a backgammon, 3 lose a gammon or worse, 4 lose a bg

(the cumulative gnubg convention: output 1 <= output 0, and so on). `Evaluator` holds one
network for contact positions and one for races and picks by the position. Weights are saved
as a small .npz file; training is games/bots/distill_train.py (on gnubg's 0-ply evaluations;
games/bots/td_train.py for TD self-play), the players games/bots/neural.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from games.rules import Position, position_from_array

from .features import FEATURES, encode_arrays, races, to_arrays

OUTPUTS = 5
WIN, WIN_GAMMON, WIN_BG, LOSE_GAMMON, LOSE_BG = range(OUTPUTS)

FLIP_ORDER = np.array([WIN, LOSE_GAMMON, LOSE_BG, WIN_GAMMON, WIN_BG])
FLIP_SIGN = np.array([-1.0, 1.0, 1.0, 1.0, 1.0])
FLIP_SHIFT = np.array([1.0, 0.0, 0.0, 0.0, 0.0])
"""`flip(v) = FLIP_SHIFT + FLIP_SIGN * v[FLIP_ORDER]`: the same probabilities for the other
player (his win is our loss, his gammons are ours lost); flip(flip(v)) == v."""


def flip(outputs: np.ndarray) -> np.ndarray:
    """Probabilities (..., 5) for one player -> the same for his opponent."""
    return FLIP_SHIFT + FLIP_SIGN * outputs[..., FLIP_ORDER]


def equity(outputs: np.ndarray) -> np.ndarray:
    """Cubeless equity (points per game) of (..., 5) probabilities."""
    o = outputs
    return (
        2.0 * o[..., WIN]
        - 1.0
        + o[..., WIN_GAMMON]
        - o[..., LOSE_GAMMON]
        + o[..., WIN_BG]
        - o[..., LOSE_BG]
    )


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


def _sigmoid_in_place(z: np.ndarray) -> np.ndarray:
    """`_sigmoid(z)` computed in z's own memory (a float array), returned."""
    np.clip(z, -40.0, 40.0, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    z += 1.0
    return np.reciprocal(z, out=z)


class Network:
    """inputs -> sigmoid hidden layer -> sigmoid outputs (5 for tavla; long nardy's
    evaluator, games/bots/nardy_network.py, has 3)."""

    def __init__(
        self, hidden: int = 64, inputs: int = FEATURES, seed: int = 0, outputs: int = OUTPUTS
    ) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = rng.normal(0.0, 1.0 / np.sqrt(inputs), (hidden, inputs))
        self.b1 = np.zeros(hidden)
        self.w2 = rng.normal(0.0, 1.0 / np.sqrt(hidden), (outputs, hidden))
        self.b2 = np.zeros(outputs)

    @property
    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def forward(self, x: np.ndarray) -> np.ndarray:
        """(n, inputs) -> (n, outputs) (or (inputs,) -> (outputs,)). `_sigmoid`'s steps in
        place: the same numbers, a third less time (the analysis spends most of its time
        here). Computed in the weights' type: float32 as loaded for play and analysis (half
        the time of float64, ~1e-7 apart), float64 for training."""
        hidden = x.astype(self.w1.dtype, copy=False) @ self.w1.T
        hidden += self.b1
        out = _sigmoid_in_place(hidden) @ self.w2.T
        out += self.b2
        return _sigmoid_in_place(out)

    def backprop(self, x: np.ndarray, error: np.ndarray) -> list[np.ndarray]:
        """For inputs (n, inputs) and output errors (n, outputs): for each parameter array, the
        gradient of sum(error * outputs) by it, i.e. sum over rows and outputs of
        error * d output / d param (the TD update direction, times the error)."""
        hidden = _sigmoid(x @ self.w1.T + self.b1)  # (n, H)
        out = _sigmoid(hidden @ self.w2.T + self.b2)  # (n, outputs)
        d_out = error * out * (1.0 - out)  # (n, outputs)
        d_hidden = (d_out @ self.w2) * hidden * (1.0 - hidden)  # (n, H)
        return [d_hidden.T @ x, d_hidden.sum(axis=0), d_out.T @ hidden, d_out.sum(axis=0)]

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The parameters by name, as float32 (half the file; the loss is far below what
        training changes)."""
        return {
            f"{prefix}{name}": p.astype(np.float32)
            for name, p in zip(("w1", "b1", "w2", "b2"), self.params, strict=True)
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], prefix: str) -> Network:
        """The stored float32 parameters as they are (inference runs in float32)."""
        net = cls.__new__(cls)
        net.w1, net.b1 = arrays[f"{prefix}w1"], arrays[f"{prefix}b1"]
        net.w2, net.b2 = arrays[f"{prefix}w2"], arrays[f"{prefix}b2"]
        return net


class Evaluator:
    """A contact network and a race network; evaluates positions after a play."""

    def __init__(self, contact: Network, race: Network) -> None:
        self.contact = contact
        self.race = race

    @classmethod
    def fresh(cls, hidden: int = 64, seed: int = 0) -> Evaluator:
        return cls(Network(hidden, seed=seed), Network(hidden, seed=seed + 1))

    def evaluate_many(self, positions: list[Position]) -> np.ndarray:
        """(n, 5) probabilities for the player who has just moved into each position."""
        return self.evaluate_arrays(to_arrays(positions))

    def evaluate_arrays(self, a: np.ndarray) -> np.ndarray:
        """`evaluate_many` for positions in array form (n, 26).

        Finished games get their exact value rather than the networks' estimate."""
        return self.evaluate_encoded(a, encode_arrays(a), races(a))

    def evaluate_encoded(self, a: np.ndarray, x: np.ndarray, race: np.ndarray) -> np.ndarray:
        """`evaluate_arrays` with the inputs `x` and race flags already computed."""
        out = np.empty((len(a), OUTPUTS))
        if race.any():
            out[race] = self.race.forward(x[race])
        if not race.all():
            out[~race] = self.contact.forward(x[~race])
        won = (a[:, 1:] > 0).sum(axis=1) == 0  # no checker of the mover left on the board
        for i in np.flatnonzero(won):
            out[i] = terminal_outputs(position_from_array(list(a[i])))
        return out

    def save(self, path: str | Path) -> None:
        arrays = {**self.contact.to_arrays("contact_"), **self.race.to_arrays("race_")}
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]  # numpy's stubs: any names

    @classmethod
    def load(cls, path: str | Path) -> Evaluator:
        with np.load(path) as data:
            arrays = dict(data)
        return cls(Network.from_arrays(arrays, "contact_"), Network.from_arrays(arrays, "race_"))


def terminal_outputs(won: Position) -> np.ndarray:
    """The exact outputs of a game the player who just moved has won (all his checkers off)."""
    from games.rules import kind_of_win

    kind = int(kind_of_win(won))
    return np.array([1.0, float(kind >= 2), float(kind >= 3), 0.0, 0.0])
