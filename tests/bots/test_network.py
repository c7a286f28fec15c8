"""The network evaluator's pieces: outputs, gradients, save/load, the players, one TD game."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from games.bots.lookahead import ROLLS, WEIGHTS, chances_on_roll
from games.bots.network import Evaluator, Network, equity, flip
from games.bots.neural import LookaheadPlayer, NetworkPlayer
from games.bots.td_train import Trainer
from games.rules.dice import Dice
from games.rules.plays import legal_plays
from games.rules.position import Position

START = Position.starting()


def test_flip_and_equity() -> None:
    v = np.array([0.6, 0.2, 0.05, 0.1, 0.01])
    assert np.allclose(flip(flip(v)), v)
    assert np.isclose(equity(v), 2 * 0.6 - 1 + 0.2 - 0.1 + 0.05 - 0.01)
    assert np.isclose(equity(flip(v)), -equity(v))


def test_backprop_matches_finite_differences() -> None:
    net = Network(hidden=8, inputs=12, seed=3)
    rng = np.random.default_rng(0)
    x, error = rng.random((4, 12)), rng.normal(size=(4, 5))
    grads = net.backprop(x, error)
    eps = 1e-6
    for param, grad in zip(net.params, grads, strict=True):
        index = tuple(s // 2 for s in param.shape)
        old = param[index]
        param[index] = old + eps
        up = (error * net.forward(x)).sum()
        param[index] = old - eps
        down = (error * net.forward(x)).sum()
        param[index] = old
        assert np.isclose((up - down) / (2 * eps), grad[index], atol=1e-7)


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


def test_one_training_game_moves_the_start_towards_its_targets() -> None:
    evaluator = Evaluator.fresh(hidden=8, seed=5)
    before = [p.copy() for p in evaluator.contact.params]
    turns = Trainer(evaluator, alpha=0.1, lam=0.7).train_game(seed=1, max_turns=20)
    assert turns == 20  # an untrained network does not finish a game in 20 turns
    after = evaluator.contact.params
    assert any(not np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert all(np.isfinite(p).all() for p in after)


def test_training_learns_to_bear_off() -> None:
    """A few hundred games teach a fresh network that a won race is won: the estimate of a
    position one roll from victory rises, and of its mirror image falls."""
    evaluator = Evaluator.fresh(hidden=16, seed=2)
    near = Position((1,) + (0,) * 16 + (-5, -5, -5, 0, 0, 0, 0), off=(14, 0))
    trainer = Trainer(evaluator, alpha=0.1, lam=0.7)
    for seed in range(150):
        trainer.train_game(seed)
    win, lose = equity(evaluator.evaluate_many([near, near.flipped()]))
    assert win > 0.5 and lose < -0.5


def test_on_roll_is_the_average_of_the_best_play_per_roll() -> None:
    evaluator = Evaluator.fresh(hidden=8, seed=6)
    position = legal_plays(START, Dice.of(3, 1))[0].result.flipped()  # the opponent on roll
    expected = np.zeros(5)
    for (high, low), weight in zip(ROLLS, WEIGHTS, strict=True):
        results = [p.result for p in legal_plays(position, Dice.of(high, low))]
        outputs = evaluator.evaluate_many(results)
        expected += weight * outputs[int(np.argmax(equity(outputs)))]
    assert np.allclose(chances_on_roll(evaluator, position), expected)
    assert np.isclose(WEIGHTS.sum(), 1.0) and len(ROLLS) == 21


def test_lookahead_player_plays_legal_plays() -> None:
    player = LookaheadPlayer(Evaluator.fresh(hidden=8, seed=7))
    for dice in (Dice.of(6, 1), Dice.of(4, 4), Dice.of(2, 1)):
        play = player.choose_play(START, dice)
        assert play is not None and play in legal_plays(START, dice)


def test_training_is_repeatable() -> None:
    """The committed weights can be made again: same seeds, same weights."""

    def trained(seed: int) -> list[np.ndarray]:
        evaluator = Evaluator.fresh(hidden=8, seed=1)
        trainer = Trainer(evaluator, alpha=0.1, lam=0.7)
        for game in range(3):
            trainer.train_game(seed + game, max_turns=60)
        return evaluator.contact.params + evaluator.race.params

    first, again, other = trained(10), trained(10), trained(20)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True))
