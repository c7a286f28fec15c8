"""The network evaluator's pieces: features, outputs, gradients, save/load, and one TD step."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from games.bots.features import FEATURES, encode, encode_many
from games.bots.network import Evaluator, Network, NetworkPlayer, equity, flip
from games.bots.td_train import Trainer
from games.rules.dice import Dice
from games.rules.plays import legal_plays
from games.rules.position import Position

START = Position.starting()


def test_features_are_the_same_for_either_side() -> None:
    x = encode(START)
    assert x.shape == (FEATURES,)
    # The start is symmetric: the mover's half equals the opponent's half.
    assert np.array_equal(x[:96], x[96:192])
    plays = legal_plays(START, Dice.of(6, 5))
    many = encode_many([p.result for p in plays])
    assert many.shape == (len(plays), FEATURES)
    turned = encode(plays[0].result.flipped())
    assert np.array_equal(many[0][:96], turned[96:192])
    assert np.array_equal(many[0][96:192], turned[:96])


def test_flip_and_equity() -> None:
    v = np.array([0.6, 0.2, 0.05, 0.1, 0.01])
    assert np.allclose(flip(flip(v)), v)
    assert np.isclose(equity(v), 2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.01)
    assert np.isclose(equity(flip(v)), -equity(v))


def test_gradients_match_finite_differences() -> None:
    net = Network(hidden=8, inputs=12, seed=3)
    x = np.random.default_rng(0).random(12)
    _, grads = net.gradients(x)
    eps = 1e-6
    for param, grad in zip(net.params, grads, strict=True):
        index = tuple(s // 2 for s in param.shape)
        old = param[index]
        param[index] = old + eps
        up = net.forward(x)
        param[index] = old - eps
        down = net.forward(x)
        param[index] = old
        assert np.allclose((up - down) / (2 * eps), grad[(slice(None), *index)], atol=1e-7)


def test_save_and_load(tmp_path: Path) -> None:
    evaluator = Evaluator.fresh(hidden=8, seed=2)
    path = tmp_path / "w.npz"
    evaluator.save(path)
    loaded = Evaluator.load(path)
    positions = [p.result for p in legal_plays(START, Dice.of(4, 1))]
    assert np.allclose(evaluator.evaluate_many(positions), loaded.evaluate_many(positions))


def test_network_player_plays_legal_plays() -> None:
    player = NetworkPlayer(Evaluator.fresh(hidden=8, seed=1), noise=0.1, seed=4)
    play = player.choose_play(START, Dice.of(3, 1))
    assert play is not None and play in legal_plays(START, Dice.of(3, 1))


def test_one_training_game_updates_the_weights() -> None:
    evaluator = Evaluator.fresh(hidden=8, seed=5)
    before = [p.copy() for p in evaluator.contact.params]
    turns = Trainer(evaluator, alpha=0.1, lam=0.7).train_game(seed=1, max_turns=20)
    assert 1 <= turns <= 20
    after = evaluator.contact.params
    assert any(not np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert all(np.isfinite(p).all() for p in after)
