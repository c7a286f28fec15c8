"""Long nardy's network: inputs, outputs, exact values of won games, save/load, one TD game
(repeatable from its seed), the committed weights' player and its answers in a match."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from games import bots
from games.bots.matchplay import decide
from games.bots.nardy_network import (
    FEATURES,
    SIDE_EXTRAS,
    SIDE_INPUTS,
    NardyEvaluator,
    NardyNetworkPlayer,
    encode_arrays,
    equity,
    flip,
    races,
    turned,
)
from games.bots.nardy_train import Trainer
from games.bots.random_player import RandomPlayer
from games.bots.selfplay import play_duplicate
from games.rules import (
    LONG_NARDY,
    AcceptResign,
    Dice,
    MatchSettings,
    MatchState,
    NardyPosition,
    OpeningRoll,
    RejectResign,
    Resign,
    Variant,
    apply,
    board_array,
    flipped_array,
    legal_plays,
)

START = NardyPosition.starting()


def arrays(positions: list[NardyPosition]) -> np.ndarray:
    return np.array([board_array(p) for p in positions], dtype=np.int64)


def sample_positions() -> list[NardyPosition]:
    """Positions of a seeded random game (every tenth)."""
    rng = np.random.default_rng(4)
    position, found = START, []
    for turn in range(400):
        plays = legal_plays(
            position, Dice.of(*(int(d) for d in rng.integers(1, 7, 2))), first_turn=turn < 2
        )
        if plays:
            position = plays[int(rng.integers(len(plays)))].result  # type: ignore[assignment]
            if position.off[0] == 15:
                break
        if turn % 10 == 0:
            found.append(position)
        position = position.flipped()
    return found


def test_flip_and_equity() -> None:
    v = np.array([0.6, 0.2, 0.1])
    assert np.allclose(flip(flip(v)), v)
    assert np.isclose(equity(v), 2 * 0.6 - 1 + 0.2 - 0.1)
    assert np.isclose(equity(flip(v)), -equity(v))


def test_inputs_are_the_same_for_either_side() -> None:
    positions = sample_positions()
    assert len(positions) > 5
    a = arrays(positions)
    # The array turned round is the rules' turned position.
    for p, row in zip(positions, turned(a), strict=True):
        assert list(row) == flipped_array(board_array(p), game=LONG_NARDY)
    assert np.array_equal(turned(turned(a)), a)
    x, y = encode_arrays(a), encode_arrays(turned(a))
    assert x.shape == (len(a), FEATURES)
    side = SIDE_INPUTS
    extras = 2 * side
    assert np.array_equal(x[:, :side], y[:, side : 2 * side])
    assert np.array_equal(
        x[:, extras : extras + SIDE_EXTRAS], y[:, extras + SIDE_EXTRAS : extras + 2 * SIDE_EXTRAS]
    )
    assert np.array_equal(races(a), races(turned(a)))


def test_starting_inputs() -> None:
    x = encode_arrays(arrays([START]))[0]
    head = 23 * 4
    assert list(x[head : head + 4]) == [1.0, 1.0, 1.0, 1.0]  # 15 on the head: (15 - 3) / 12
    assert x[:head].sum() == 0
    extras = x[2 * SIDE_INPUTS : 2 * SIDE_INPUTS + SIDE_EXTRAS]
    # The head is one held point in front of the opposing checkers (a "block" of one).
    assert np.allclose(extras, [0, 1, 1, 0, 0, 1, 1 / 6, 0, 0, 0])
    assert x[-1] == 0  # not a race


def test_won_games_get_their_exact_value() -> None:
    evaluator = NardyEvaluator.fresh(hidden=8, seed=1)
    oyn = [0] * 24
    oyn[14] = -3
    mars = [0] * 24
    mars[14] = -15
    values = evaluator.evaluate_many(
        [NardyPosition(tuple(oyn), (0, 0), (15, 12)), NardyPosition(tuple(mars), (0, 0), (15, 0))]
    )
    assert np.allclose(values, [[1, 0, 0], [1, 1, 0]])
    assert np.allclose(equity(values), [1, 2])


def test_save_and_load(tmp_path: Path) -> None:
    evaluator = NardyEvaluator.fresh(hidden=8, seed=2)
    evaluator.save(tmp_path / "w.npz")
    loaded = NardyEvaluator.load(tmp_path / "w.npz")
    positions = sample_positions()
    assert np.allclose(evaluator.evaluate_many(positions), loaded.evaluate_many(positions))


def test_training_is_repeatable_from_its_seed() -> None:
    def trained() -> NardyEvaluator:
        evaluator = NardyEvaluator.fresh(hidden=8, seed=5)
        trainer = Trainer(evaluator)
        for seed in range(3):
            assert trainer.train_game(seed) > 40
        return evaluator

    first, second, fresh = trained(), trained(), NardyEvaluator.fresh(hidden=8, seed=5)
    for a, b in zip(first.net.params, second.net.params, strict=True):
        assert np.array_equal(a, b)
    assert not np.array_equal(first.net.w1, fresh.net.w1)


def test_the_committed_network() -> None:
    player = bots.player_for("network", "long-nardy")
    assert isinstance(player, NardyNetworkPlayer)
    assert bots.default_level("long-nardy") == "network"
    assert bots.NARDY_WEIGHTS.exists()
    play = player.choose_play(START, Dice.of(6, 6), first_turn=True)
    assert play is not None and play in legal_plays(START, Dice.of(6, 6), first_turn=True)
    # It beats random play almost always (10 seeds, both seats).
    won = 0
    for seed in range(10):
        first, second = play_duplicate(player, RandomPlayer(seed=1), seed, LONG_NARDY)
        won += (first.winner == 0) + (second.winner == 1)
    assert won >= 18


def test_preload_loads_both_games_networks() -> None:
    bots.evaluator.cache_clear()
    bots.nardy_evaluator.cache_clear()
    bots.preload()
    assert bots.evaluator.cache_info().currsize == 1
    assert bots.nardy_evaluator.cache_info().currsize == 1


def test_resignations_in_a_match() -> None:
    state = MatchState.new(MatchSettings(length=3, game=Variant.LONG_NARDY))
    state = apply(state, OpeningRoll(6, 2))  # seat 0 starts
    player = bots.player_for("network", "long-nardy")
    assert player.resign_value(state, 0) == 0  # it never resigns
    # At the start a resignation of one point is worth more than playing on.
    one = apply(state, Resign(0, 1))
    assert decide(player, one, 1, lambda: Dice.of(1, 2)) == AcceptResign(1)
    # Seat 1 bears off next while seat 0 has all his checkers on his head: a mars is near
    # certain, so one point is refused and two are taken.
    board = [0] * 24
    board[23] = 15
    for i in range(12, 17):
        board[i] = -3
    lost = replace(state, board=NardyPosition(tuple(board), (0, 0), (0, 0)))
    assert decide(player, apply(lost, Resign(0, 1)), 1, lambda: Dice.of(1, 2)) == RejectResign(1)
    assert decide(player, apply(lost, Resign(0, 2)), 1, lambda: Dice.of(1, 2)) == AcceptResign(1)
