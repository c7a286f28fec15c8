"""Pubeval: the published encoding and weights, and sane choices on known positions."""

from __future__ import annotations

import pytest

from games.bots.pubeval import (
    CONTACT_WEIGHTS,
    INPUTS,
    RACE_WEIGHTS,
    WON,
    PubevalPlayer,
    evaluate,
    inputs,
)
from games.bots.random_player import RandomPlayer
from games.bots.selfplay import play_duplicate
from games.rules.dice import Dice
from games.rules.plays import legal_plays
from games.rules.position import Position

START = Position.starting()


def with_opponent_blots() -> Position:
    """The start, but the opponent has split his back checkers: blots on our 1 and 5 points."""
    board = list(START.board)
    board[0], board[4] = -1, -1
    return Position(tuple(board))


def test_published_weights() -> None:
    assert len(CONTACT_WEIGHTS) == len(RACE_WEIGHTS) == INPUTS == 122
    # Spot checks against the published tables (first, last, and the bar/off inputs).
    assert CONTACT_WEIGHTS[0] == 0.25696 and CONTACT_WEIGHTS[120:] == (5.62596, -2.75800)
    assert RACE_WEIGHTS[1] == -0.17160 and RACE_WEIGHTS[120:] == (0.0, 3.42040)
    assert RACE_WEIGHTS[119] == -12.32252


def test_inputs_encoding() -> None:
    position = with_opponent_blots()
    x = inputs(position)
    # Point 24 is the first block: two of ours (made, not 3, not 4+).
    assert x[0:5] == [0.0, 0.0, 1.0, 0.0, 0.0]
    # Point 13 (block 11): five of ours -> made, and (5 - 3) / 2 for 4+.
    assert x[55:60] == [0.0, 0.0, 1.0, 0.0, 1.0]
    # Point 8 (block 16): exactly three.
    assert x[80:85] == [0.0, 0.0, 1.0, 1.0, 0.0]
    # Point 5 (block 19) and point 1 (block 23): opponent blots.
    assert x[95] == 1.0 and x[115] == 1.0
    # Point 12 (block 12): five of the opponent's, which pubeval does not see.
    assert x[60:65] == [0.0] * 5
    hit = Position(position.board, (0, 2), (3, 0))
    assert inputs(hit)[120:] == [1.0, 0.2]


@pytest.mark.parametrize("race", [False, True])
def test_evaluate_is_the_weighted_sum(race: bool) -> None:
    weights = RACE_WEIGHTS if race else CONTACT_WEIGHTS
    for position in (START, with_opponent_blots(), START.flipped()):
        for play in legal_plays(position, Dice.of(5, 2)):
            x = inputs(play.result)
            expected = sum(w * v for w, v in zip(weights, x, strict=True))
            assert evaluate(play.result, race) == pytest.approx(expected, abs=1e-9)


def test_bearing_off_the_last_checkers_wins() -> None:
    board = [0] * 24
    board[0], board[23] = 2, -15
    position = Position(tuple(board), (0, 0), (13, 0))
    play = PubevalPlayer().choose_play(position, Dice.of(2, 1))
    assert play is not None and play.result.off[0] == 15
    assert evaluate(play.result, True) == WON


@pytest.mark.parametrize(
    ("dice", "expected"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"), ((6, 5), "24/13")],
)
def test_standard_opening_plays(dice: tuple[int, int], expected: str) -> None:
    play = PubevalPlayer().choose_play(START, Dice.of(*dice))
    assert play is not None and play.notation == expected


def test_it_hits_a_blot_when_it_can_make_a_point_on_it() -> None:
    play = PubevalPlayer().choose_play(with_opponent_blots(), Dice.of(3, 1))
    assert play is not None and play.notation == "8/5* 6/5"


def test_no_legal_play() -> None:
    # On the bar against a closed board: nothing to play.
    board = [0] * 24
    for i in range(18, 24):
        board[i] = -2
    board[0] = 14
    position = Position(tuple(board), (1, 3), (0, 0))
    assert PubevalPlayer().choose_play(position, Dice.of(6, 6)) is None


def test_beats_random_play() -> None:
    pubeval, rand = PubevalPlayer(), RandomPlayer(seed=7)
    won = 0
    for seed in range(10):
        first, second = play_duplicate(pubeval, rand, seed)
        won += (first.winner == 0) + (second.winner == 1)
    assert won >= 18
