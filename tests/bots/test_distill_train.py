"""games/bots/distill_train.py: the supervised fit learns a teacher's outputs, and the labels
are read the right way round."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from games.bots.distill_train import fit, load
from games.bots.features import encode_arrays, to_arrays
from games.bots.network import Network, equity, flip
from games.rules import Dice, Position, legal_plays


def positions() -> np.ndarray:
    start = Position.starting()
    found = [
        p.result
        for d in ((3, 1), (6, 5), (4, 2), (5, 3), (6, 1))
        for p in legal_plays(start, Dice.of(*d))
    ]
    return to_arrays(found)


def test_fit_brings_a_network_close_to_its_teacher() -> None:
    a = positions()
    x = encode_arrays(a)
    teacher = Network(8, seed=3)
    teacher.w1 *= 4.0  # outputs spread well away from 0.5
    y = teacher.forward(x)
    student = Network(16, seed=4)
    before = np.abs(equity(student.forward(x)) - equity(y)).mean()
    fit(student, x, y, x, y, epochs=200, rng=np.random.default_rng(0), lr=0.01, batch=16)
    after = np.abs(equity(student.forward(x)) - equity(y)).mean()
    assert after < before / 3


def test_labels_are_turned_to_the_side_that_has_moved(tmp_path: Path) -> None:
    a = positions()[:3]
    np.savez_compressed(tmp_path / "p.npz", boards=a.astype(np.int8))
    on_roll = np.array([[0.7, 0.2, 0.01, 0.1, 0.005]] * 3, dtype=np.float32)
    on_roll.tofile(tmp_path / "l.bin")
    boards, targets = load(tmp_path / "p.npz", tmp_path / "l.bin")
    assert (boards == a).all()
    assert np.allclose(targets, flip(on_roll.astype(float)))
    assert np.allclose(targets[0], [0.3, 0.1, 0.005, 0.2, 0.01])
