"""The simple levels (random, heuristic): their plays, repeatable games, and the heuristic's
edge over random play on a small seeded sample (the network levels: test_neural.py)."""

from __future__ import annotations

from games.bots.heuristic import HeuristicPlayer, evaluate
from games.bots.random_player import RandomPlayer
from games.bots.selfplay import play_duplicate, play_game
from games.rules.dice import Dice
from games.rules.plays import legal_plays
from games.rules.position import Position
from games.rules.scoring import GameKind

START = Position.starting()


def test_heuristic_opening_plays() -> None:
    player = HeuristicPlayer()
    for dice, expected in (((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7")):
        play = player.choose_play(START, Dice.of(*dice))
        assert play is not None and play.notation == expected


def test_heuristic_prefers_safe_to_blots() -> None:
    plays = {p.notation: p for p in legal_plays(START, Dice.of(3, 1))}
    assert evaluate(plays["8/5 6/5"].result) > evaluate(plays["24/21 6/5"].result)


def test_games_are_repeatable() -> None:
    players = (HeuristicPlayer(), RandomPlayer(seed=3))
    a, b = play_game(players, 11), play_game((HeuristicPlayer(), RandomPlayer(seed=3)), 11)
    assert a == b and a.turns > 10 and isinstance(a.kind, GameKind)


def test_heuristic_beats_random_almost_always() -> None:
    heuristic, rand = HeuristicPlayer(), RandomPlayer(seed=5)
    won = points = 0
    for seed in range(20):  # 40 games, both seats on the same dice
        first, second = play_duplicate(heuristic, rand, seed)
        won += (first.winner == 0) + (second.winner == 1)
        points += first.points_for(0) + second.points_for(1)
    assert won >= 36
    assert points / 40 > 1.0
