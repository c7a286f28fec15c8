"""Long nardy's computer players: the per-game levels API, legal plays on the public corpus,
`decide` on long nardy match states (first turn with 6-6 included), whole matches, and the
heuristic's edge over random play on a small seeded sample."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from games import bots
from games.bots import nardy_heuristic as h
from games.bots.matchplay import decide, play_match
from games.bots.nardy_heuristic import NardyHeuristicPlayer, evaluate, evaluate_arrays
from games.bots.random_player import RandomPlayer
from games.bots.selfplay import play_duplicate, play_game
from games.rules import (
    LONG_NARDY,
    Dice,
    MatchSettings,
    MatchState,
    Move,
    NardyPosition,
    OpeningRoll,
    Phase,
    Position,
    Roll,
    Variant,
    apply,
    board_array,
    legal_plays,
)

CORPUS = Path(__file__).resolve().parent.parent / "data" / "nardy-public.jsonl"
NARDY = "long-nardy"


def corpus(every: int = 7) -> list[dict[str, object]]:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()[::every]
    return [json.loads(line) for line in lines]


def test_levels_per_game() -> None:
    assert bots.levels(NARDY)[:2] == ["random", "heuristic"]
    assert bots.default_level(NARDY) in bots.levels(NARDY)
    assert bots.levels(Variant.LONG_NARDY) == bots.levels(NARDY)
    # Tavla as before: the old call, the old default, the old list.
    assert bots.levels() == bots.levels("tavla") == list(bots.LEVELS)
    assert bots.default_level() == bots.DEFAULT_LEVEL
    assert isinstance(bots.player_for("heuristic"), bots.HeuristicPlayer)
    assert isinstance(bots.player_for("heuristic", NARDY), NardyHeuristicPlayer)


def test_unknown_levels_and_games_are_named() -> None:
    with pytest.raises(KeyError, match="levels: random, heuristic"):
        bots.player_for("network-1ply-x", NARDY)
    with pytest.raises(ValueError, match="games: tavla, long-nardy"):
        bots.levels("chess")
    with pytest.raises(ValueError, match="games: tavla, long-nardy"):
        bots.player_for("random", "chess")
    with pytest.raises(ValueError, match="games: tavla, long-nardy"):
        bots.default_level("chess")


@pytest.mark.parametrize("level", bots.levels(NARDY))
def test_every_level_plays_a_legal_play_of_the_corpus(level: str) -> None:
    player = bots.player_for(level, NARDY)
    for case in corpus():
        position = LONG_NARDY.position_from_json(case["position"])
        dice = Dice.parse(case["dice"])
        play = player.choose_play(position, dice, first_turn=bool(case["first_turn"]))
        if not case["plays"]:
            assert play is None
            continue
        assert play is not None
        assert play.result.to_json() in case["plays"]


def test_the_heuristic_takes_two_off_the_head_on_a_first_6_6() -> None:
    start = NardyPosition.starting()
    first = NardyHeuristicPlayer().choose_play(start, Dice.of(6, 6), first_turn=True)
    later = NardyHeuristicPlayer().choose_play(start, Dice.of(6, 6), first_turn=False)
    assert first is not None and later is not None
    assert first.result.board[23] == 13  # two checkers left the head
    assert later.result.board[23] == 14  # one only (18/12 is closed: the opposing head)
    assert evaluate(first.result) > evaluate(later.result)


def test_the_heuristic_prefers_leaving_the_head_and_bearing_off() -> None:
    start = NardyPosition.starting()
    play = NardyHeuristicPlayer().choose_play(start, Dice.of(5, 3))
    assert play is not None and play.result.board[23] == 14
    # All home: bearing off beats moving inside the home.
    board = [3, 3, 3, 3, 2, 1, *([0] * 6), *([0] * 6), -15, *([0] * 5)]
    home = NardyPosition(tuple(board), (0, 0), (0, 0))
    best = NardyHeuristicPlayer().choose_play(home, Dice.of(6, 5))
    assert best is not None and best.result.off[0] == 2


def _match(first_roll: tuple[int, int], dice: tuple[int, int]) -> MatchState:
    """A long nardy match after its opening roll, the starter (seat 0) rolled `dice`."""
    state = MatchState.new(MatchSettings(length=3, game=Variant.LONG_NARDY))
    state = apply(state, OpeningRoll(*first_roll))
    assert state.phase == Phase.ROLL and state.turn == 0
    return apply(state, Roll(0, Dice.of(*dice)))


@pytest.mark.parametrize("level", bots.levels(NARDY))
def test_decide_on_a_first_turn_6_6(level: str) -> None:
    state = _match((5, 2), (6, 6))
    assert state.first_turn == (True, True)
    action = decide(bots.player_for(level, NARDY), state, 0, lambda: Dice.of(1, 2))
    assert isinstance(action, Move)
    after = apply(state, action)  # the rules accept it
    assert after.position_for(0).board[23] in (13, 14)
    firsts = legal_plays(state.position_for(0), Dice.of(6, 6), first_turn=True)
    assert any(p.result.board[23] == 13 for p in firsts)
    if level == "heuristic":
        assert after.position_for(0).board[23] == 13


def test_decide_rolls_and_never_doubles_in_long_nardy() -> None:
    state = apply(
        MatchState.new(MatchSettings(length=3, game=Variant.LONG_NARDY)), OpeningRoll(2, 6)
    )
    assert state.turn == 1 and not state.may_double(1)
    action = decide(bots.player_for("heuristic", NARDY), state, 1, lambda: Dice.of(4, 4))
    assert action == Roll(1, Dice.of(4, 4))


@pytest.mark.parametrize("level", bots.levels(NARDY))
def test_whole_matches_between_levels(level: str) -> None:
    players = (bots.player_for(level, NARDY), bots.player_for("heuristic", NARDY))
    settings = MatchSettings(length=3, game=Variant.LONG_NARDY)
    state, actions = play_match(players, settings, seed=4)
    assert state.is_over and max(state.score) >= 3
    assert any(isinstance(a, Move) for a in actions)


def test_games_are_repeatable() -> None:
    players = (NardyHeuristicPlayer(), RandomPlayer(seed=3))
    a = play_game(players, 11, LONG_NARDY)
    b = play_game((NardyHeuristicPlayer(), RandomPlayer(seed=3)), 11, LONG_NARDY)
    assert a == b and a.turns > 40 and int(a.kind) in (1, 2)


def test_heuristic_beats_random_almost_always() -> None:
    heuristic, rand = NardyHeuristicPlayer(), RandomPlayer(seed=5)
    won = points = 0
    for seed in range(10):  # 20 games, both seats on the same dice
        first, second = play_duplicate(heuristic, rand, seed, LONG_NARDY)
        won += (first.winner == 0) + (second.winner == 1)
        points += first.points_for(0) + second.points_for(1)
    assert won >= 17
    assert points / 20 > 0.8


def test_random_play_is_seeded() -> None:
    rng = random.Random(2)
    position, dice = NardyPosition.starting(), Dice.of(rng.randint(1, 6), 3)
    a = RandomPlayer(seed=9).choose_play(position, dice)
    b = RandomPlayer(seed=9).choose_play(position, dice)
    assert a is not None and a == b


def plain_evaluate(position: Position) -> float:
    """The heuristic's evaluation written with plain loops, the reference for the numpy one."""
    path = (*range(12, 0, -1), *range(24, 12, -1))

    def side(p: Position, race: bool) -> float:
        board = p.board
        score = -h.OUTSIDE_HOME * sum(n for n in board[6:] if n > 0)
        if p.off[0] == 0 and all(n >= 0 for i, n in enumerate(board) if not 12 <= i < 18):
            score -= h.MARS_RISK
        if race:
            return score - h.ON_BOARD * (15 - p.off[0])
        score -= h.HEAD_CHECKER * max(board[23], 0)
        for n in board[:23]:
            if n > 0:
                score += h.POINT_HELD - h.STACK * max(n - 3, 0)
        behind = run = run_behind = 0
        for point in (*path, None):
            n = board[point - 1] if point else 0
            if n > 0:
                run_behind = run_behind if run else behind
                run += 1
                continue
            score += h.BLOCK * max(run - 1, 0) ** 2 * run_behind / 15
            run = 0
            behind -= min(n, 0)
        return score

    mine, theirs = position.pips()
    race = position.is_race()
    return theirs - mine + side(position, race) - side(position.flipped(), race)


def test_the_numpy_evaluation_matches_plain_loops() -> None:
    rng = random.Random(3)
    results = []
    for _ in range(6):
        position = NardyPosition.starting()
        for turn in range(300):
            dice = Dice.of(rng.randint(1, 6), rng.randint(1, 6))
            plays = legal_plays(position, dice, first_turn=turn < 2)
            results += [p.result for p in plays]
            if plays:
                position = rng.choice(plays).result  # type: ignore[assignment]
                if position.off[0] == 15:
                    break
            position = position.flipped()
    assert len(results) > 1000
    scores = evaluate_arrays(np.array([board_array(p) for p in results]))
    for position, score in zip(results, scores, strict=True):
        assert abs(score - plain_evaluate(position)) < 1e-9
        assert abs(evaluate(position) - score) < 1e-9
