"""The network levels with the committed weights: cube and resignation answers on positions
whose answer is clear, whole matches with the cube through the rules (every action checked),
and the strength ordering of the levels on a small seeded sample (the full measurement is
benchmarks/bots_bench.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games import bots
from games.bots.matchplay import play_match
from games.bots.neural import LookaheadPlayer, NetworkPlayer
from games.bots.random_player import RandomPlayer
from games.bots.selfplay import play_duplicate
from games.rules.match import Double, MatchSettings, MatchState, Phase, Resign, Take
from games.rules.position import Position

START = Position.starting()
# Seat 0 to roll: 9 checkers on his 1-3 points against 15 far away, none of them home yet.
RACE_WON = Position((3, 3, 3) + (0,) * 16 + (-3, -3, -3, -3, -3), off=(6, 0))
EVEN_RACE = Position((2, 2, 2, 2, 2, 2, 3) + (0,) * 10 + (-3, -2, -2, -2, -2, -2, -2))


@pytest.fixture(scope="module")
def player() -> NetworkPlayer:
    return NetworkPlayer(bots.evaluator())


def roll_state(board: Position, length: int = 0, **kw: object) -> MatchState:
    settings = MatchSettings(length=length, cube=True, **kw)  # type: ignore[arg-type]
    return replace(MatchState.new(settings), phase=Phase.ROLL, turn=0, board=board)


def test_levels_weakest_first_and_the_default() -> None:
    assert bots.levels() == ["random", "heuristic", "network-noisy", "network", "network-1ply"]
    assert bots.DEFAULT_LEVEL == "network"
    for name in bots.levels():
        assert bots.player_for(name).level == name
    # A small file, loaded once (the distilled contact network of 384 hidden units: 420 KB).
    assert bots.WEIGHTS.stat().st_size < 500_000
    assert bots.evaluator() is bots.evaluator()


def test_clear_cube_decisions(player: NetworkPlayer) -> None:
    start = roll_state(START)
    assert not player.should_double(start, 0)
    assert player.should_take(replace(start, phase=Phase.DOUBLED), 1)
    even = roll_state(EVEN_RACE)
    assert not player.should_double(even, 0)
    assert player.should_take(replace(even, phase=Phase.DOUBLED), 1)
    # Far ahead in a race without gammon chances (his opponent has borne off): double, pass.
    won = roll_state(replace(RACE_WON, off=(6, 1), board=(*RACE_WON.board[:-1], -2)))
    assert player.should_double(won, 0)
    assert not player.should_take(replace(won, phase=Phase.DOUBLED), 1)


def test_never_an_illegal_double(player: NetworkPlayer) -> None:
    won = roll_state(replace(RACE_WON, off=(6, 1), board=(*RACE_WON.board[:-1], -2)))
    assert not player.should_double(replace(won, cube=2, cube_owner=1), 0)  # his cube
    assert not player.should_double(replace(won, crawford_game=True), 0)
    assert not player.should_double(replace(won, phase=Phase.PLAY), 0)


def test_resigns_a_hopeless_race_and_accepts_fair_resignations(player: NetworkPlayer) -> None:
    # Seat 0 bears off his last two checkers next turn whatever he rolls; seat 1, on roll, has
    # all fifteen on seat 0's 7-11 points: he cannot win and loses a gammon.
    hopeless = Position((2,) + (0,) * 5 + (-3,) * 5 + (0,) * 13, off=(13, 0))
    assert player.resign_value(replace(roll_state(hopeless), turn=1), 1) >= 1
    assert player.resign_value(roll_state(EVEN_RACE), 0) == 0
    assert player.resign_value(roll_state(START), 0) == 0  # never with contact

    def offer(board: Position, value: int) -> MatchState:
        return replace(roll_state(board), phase=Phase.RESIGNING, turn=1, resign_value=value)

    assert player.accept_resignation(offer(START, 1), 0)  # a point for an even game
    assert not player.accept_resignation(offer(hopeless, 1), 0)  # a sure gammon is worth 2
    assert player.accept_resignation(offer(hopeless, 3), 0)  # the most he could win


@pytest.mark.parametrize("length", [0, 5])
def test_whole_matches_with_the_cube_are_legal(length: int) -> None:
    """Every action of network levels playing each other with the cube passes the rules
    (apply checks each), and the cube is used."""
    players = (NetworkPlayer(bots.evaluator()), NetworkPlayer(bots.evaluator(), noise=0.3))
    cube_actions = 0
    for seed in range(6 if length else 12):
        state, actions = play_match(players, MatchSettings(length=length, cube=True), seed)
        assert state.games
        cube_actions += sum(isinstance(a, (Double, Take)) for a in actions)
        assert all(not isinstance(a, Resign) or a.value in (1, 2, 3) for a in actions)
    assert cube_actions > 0


def points(first: bots.Player, second: bots.Player, pairs: int) -> tuple[int, int]:
    """(games won, points won) by `first` over duplicate pairs of seeds 0..pairs-1."""
    won = total = 0
    for seed in range(pairs):
        a, b = play_duplicate(first, second, seed)
        won += (a.winner == 0) + (b.winner == 1)
        total += a.points_for(0) + b.points_for(1)
    return won, total


def test_the_network_beats_random_play_almost_always() -> None:
    won, total = points(NetworkPlayer(bots.evaluator()), RandomPlayer(seed=1), 20)
    assert won >= 38 and total >= 60  # of 40 games


def test_the_strongest_beats_the_heuristic() -> None:
    won, total = points(LookaheadPlayer(bots.evaluator()), bots.HeuristicPlayer(), 15)
    assert won >= 18 and total > 0  # of 30 games; the benchmark measures by how much


def test_a_rejected_resignation_is_not_offered_again_that_turn(player: NetworkPlayer) -> None:
    from games.rules.match import RejectResign, apply

    hopeless = Position((2,) + (0,) * 5 + (-3,) * 5 + (0,) * 13, off=(13, 0))
    state = replace(roll_state(hopeless), turn=1)
    value = player.resign_value(state, 1)
    assert value
    offered = apply(state, Resign(1, value))
    rejected = apply(offered, RejectResign(0))
    assert rejected.phase == Phase.ROLL and rejected.resign_rejected
    assert player.resign_value(rejected, 1) == 0
