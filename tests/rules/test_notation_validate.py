"""Step notation (games/rules/notation.py) and checking a submitted play (games/rules/validate.py).

Positions are written from the side of the player on roll (see helpers.pos).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.rules.dice import Dice
from games.rules.errors import IllegalPlay, InvalidNotation, RulesError
from games.rules.notation import Move, format_play, moves_from_pairs, parse_moves
from games.rules.plays import Step, legal_plays
from games.rules.position import Position
from games.rules.validate import resolve_play

from .helpers import after, pos

CORPUS = Path(__file__).resolve().parent.parent / "data" / "moves-public.jsonl"
START = Position.starting()


def resolve(position: Position, a: int, b: int, play: str | list[object]):
    return resolve_play(position, Dice.of(a, b), play)


def refused(position: Position, a: int, b: int, play: str | list[object]) -> str:
    """The IllegalPlay message for a refused play."""
    with pytest.raises(IllegalPlay) as info:
        resolve(position, a, b, play)
    assert info.value.code == "illegal_play"
    return str(info.value)


# -- parse_moves -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("24/18 13/10", [(24, 18, False), (13, 10, False)]),
        ("bar/22*", [(25, 22, True)]),
        ("bar/22", [(25, 22, False)]),
        ("BAR/22", [(25, 22, False)]),
        ("25/22", [(25, 22, False)]),
        ("6/off", [(6, 0, False)]),
        ("6/0", [(6, 0, False)]),
        ("8/5(2)", [(8, 5, False), (8, 5, False)]),
        ("13/7*/5", [(13, 7, True), (7, 5, False)]),
        ("24/13", [(24, 13, False)]),  # one checker, two dice: kept as one move
        ("24/18/13", [(24, 18, False), (18, 13, False)]),
        ("6/2*/off", [(6, 2, True), (2, 0, False)]),
        (
            "24/18(2) 13/7(2)",
            [(24, 18, False), (24, 18, False), (13, 7, False), (13, 7, False)],
        ),
        ("13/10*/7(2)", [(13, 10, True), (10, 7, False)] * 2),
        ("6/5(4)", [(6, 5, False)] * 4),
        ("24/18, 13/10", [(24, 18, False), (13, 10, False)]),
        ("  24/18   13/10  ", [(24, 18, False), (13, 10, False)]),
        ("", []),  # no move: a roll that cannot be played
    ],
)
def test_parse_moves(text, moves):
    assert parse_moves(text) == [Move(*m) for m in moves]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("24-18", "write each move as from/to"),
        ("abc", "write each move as from/to"),
        ("24/18 xyz", "cannot read 'xyz'"),
        ("24 18", "cannot read"),
        ("/18", "cannot read"),
        ("24/18/", "cannot read"),
        ("24/25", "cannot move to the bar"),
        ("5/bar", "cannot move to the bar"),
        ("18/24", "from higher points to lower ones"),
        ("6/6", "from higher points to lower ones"),
        ("off/5", "off cannot move"),
        ("0/5", "off cannot move"),
        ("26/20", "no point 26"),
        ("8/5(5)", "repeated 1 to 4 times"),
        ("8/5(0)", "repeated 1 to 4 times"),
        ("8/5(22)", "cannot read"),
        ("124/18", "cannot read"),
    ],
)
def test_parse_moves_refuses_garbage(text, words):
    with pytest.raises(InvalidNotation, match=words) as info:
        parse_moves(text)
    assert info.value.code == "invalid_notation"


def test_parse_moves_needs_text():
    with pytest.raises(InvalidNotation, match="as text"):
        parse_moves([[24, 18]])  # type: ignore[arg-type]


def test_moves_from_pairs():
    assert moves_from_pairs([[25, 22], [6, 0], (13, 7)]) == [Move(25, 22), Move(6, 0), Move(13, 7)]
    for bad in ([[24]], [[24, 18, 12]], [["24", "18"]], [[True, 0]], [24, 18]):
        with pytest.raises(InvalidNotation, match="pair"):
            moves_from_pairs(bad)
    for bad in ([[18, 24]], [[26, 20]], [[0, 0]], [[5, 25]], [[24, -1]]):
        with pytest.raises(InvalidNotation, match="not a step"):
            moves_from_pairs(bad)


# -- format_play --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("steps", "text"),
    [
        ([(24, 18), (13, 10)], "24/18 13/10"),
        ([(24, 18), (18, 13)], "24/13"),
        ([(13, 7, True), (7, 5)], "13/7*/5"),
        ([(25, 22, True)], "bar/22*"),
        ([(6, 0), (5, 0)], "6/off 5/off"),
        ([(8, 5), (8, 5), (6, 3), (6, 3)], "8/5(2) 6/3(2)"),
        ([(24, 18)] * 2 + [(13, 7)] * 2, "24/18(2) 13/7(2)"),
        ([(6, 5)] * 4, "6/5(4)"),
        ([], ""),
    ],
)
def test_format_play(steps, text):
    assert format_play([Step(*s) for s in steps]) == text


def _corpus() -> list[dict]:
    with CORPUS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_format_play_equals_gnubg_notation_for_the_whole_corpus():
    checked = 0
    wrong = []
    for case in _corpus():
        plays = legal_plays(Position.from_json(case["position"]), Dice.of(*case["dice"]))
        assert len(plays) == len(case["play_notation"]), case["id"]
        for play, expected in zip(plays, case["play_notation"], strict=True):
            checked += 1
            if format_play(play.steps) != expected:
                wrong.append((case["id"], format_play(play.steps), expected))
    assert checked > 15_000
    assert wrong == []


def test_gnubg_notation_reads_back_to_the_same_play():
    """Each of gnubg's written plays resolves to the position gnubg gives for it."""
    for case in _corpus()[::7]:
        position = Position.from_json(case["position"])
        dice = Dice.of(*case["dice"])
        for text, result in zip(case["play_notation"], case["plays"], strict=True):
            assert resolve_play(position, dice, text).result == Position.from_json(result), (
                case["id"],
                text,
            )


# -- resolve_play: what a player may write -----------------------------------------------------


def test_separate_steps():
    play = resolve(START, 6, 3, "24/18 13/10")
    assert play.result == after(START, (24, 18), (13, 10))
    assert play.notation == "24/18 13/10"


@pytest.mark.parametrize("text", ["24/13", "24/18/13", "24/18 18/13"])
def test_combined_move_uses_both_dice(text):
    play = resolve(START, 6, 5, text)
    assert play.result == after(START, (24, 13))
    assert [(s.frm, s.to) for s in play.steps] == [(24, 18), (18, 13)]
    assert play.notation == "24/13"


def test_a_play_is_judged_by_the_position_it_reaches():
    # Written through the closed 19-point, 24/19/13 still reaches the legal 24/13 (via 18):
    # the resolver finds the legal play by its result, as its docstring says.
    assert resolve(START, 6, 5, "24/19/13").result == after(START, (24, 13))


def test_explicit_steps_as_pairs():
    play = resolve(START, 6, 3, [[24, 18], [13, 10]])
    assert play.result == after(START, (24, 18), (13, 10))
    assert resolve(START, 6, 5, [[24, 18], [18, 13]]).result == after(START, (24, 13))
    assert resolve(START, 6, 5, ((13, 7), (7, 2))).result == after(START, (13, 2))


def test_steps_in_any_order():
    assert resolve(START, 6, 3, "13/10 24/18").result == after(START, (24, 18), (13, 10))
    assert resolve(START, 6, 3, [[13, 10], [24, 18]]).result == after(START, (24, 18), (13, 10))


def test_hit_marks_may_be_left_out():
    # A blot on the mover's 7-point: 13/7 hits it whether or not it is written.
    position = pos({13: 5, 6: 5, 8: 3, 24: 2}, {7: 1, 1: 2, 12: 4, 17: 3, 19: 5})
    hit = after(position, (13, 7), (13, 11))
    assert hit.bar == (0, 1)
    for text in ("13/7 13/11", "13/7* 13/11", "13/11 13/7"):
        play = resolve(position, 6, 2, text)
        assert play.result == hit
        assert play.notation == "13/11 13/7*"
    assert resolve(position, 6, 2, [[13, 7], [13, 11]]).result == hit


def test_bar_and_off_spellings():
    position = pos({6: 13}, {12: 13, 3: 1}, bar=(2, 1))
    for text in ("bar/22 bar/20", "25/22 25/20", "bar/22(1) 25/20"):
        assert resolve(position, 5, 3, text).result == after(position, (25, 22), (25, 20))
    home = pos({6: 2, 5: 1}, {20: 15})
    for text in ("6/off 5/off", "6/0 5/0"):
        assert resolve(home, 6, 5, text).result == after(home, (6, 0), (5, 0))


def test_doubles_with_repeats():
    play = resolve(START, 6, 6, "24/18(2) 13/7(2)")
    assert play.result == after(START, (24, 18), (24, 18), (13, 7), (13, 7))
    assert resolve(START, 6, 6, "24/18 24/18 13/7 13/7").result == play.result
    assert resolve(START, 3, 3, "8/5(2) 6/3(2)").notation == "8/5(2) 6/3(2)"
    assert resolve(START, 2, 2, "13/11/9/7/5").result == after(START, (13, 5))


def test_an_ambiguous_move_asks_which_blots_were_hit():
    # Blots on 9 and 7: 13/3 with 6-4 may pass through either and hit it.
    position = pos({13: 2, 6: 13}, {7: 1, 9: 1, 20: 13})
    message = refused(position, 6, 4, "13/3")
    assert "which blots" in message
    assert "13/9*/3" in message and "13/7*/3" in message
    assert resolve(position, 6, 4, "13/7*/3").result.bar == (0, 1)
    assert resolve(position, 6, 4, "13/7/3").notation == "13/7*/3"
    assert resolve(position, 6, 4, "13/9/3").notation == "13/9*/3"


def test_no_move_when_nothing_can_be_played():
    closed = pos({13: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, bar=(1, 0))
    play = resolve(closed, 6, 5, "")
    assert play.steps == () and play.result == closed
    assert resolve(closed, 6, 5, []).steps == ()
    message = refused(closed, 6, 5, "bar/19")
    assert "no move is possible" in message and "turn passes" in message


# -- IllegalPlay messages ----------------------------------------------------------------------


def test_closed_point():
    position = pos({10: 2, 6: 13}, {5: 2, 20: 13})
    message = refused(position, 5, 1, "10/5 6/5")
    assert "point 5 is closed by 2 of your opponent's checkers" in message
    assert "point 19 is closed by 5" in refused(START, 5, 2, "24/19 13/11")


def test_closed_landing_point_of_a_combined_move():
    # 6-5 from 13: through 7 or 8, both open, but the landing point 2 is closed.
    position = pos({13: 2, 6: 13}, {2: 2, 20: 13})
    message = refused(position, 6, 5, "13/2")
    assert "point 2 is closed by 2" in message


def test_moving_while_a_checker_is_on_the_bar():
    position = pos({13: 2, 6: 12}, {12: 15}, bar=(1, 0))
    message = refused(position, 5, 3, "13/8 13/10")
    assert "checker on the bar" in message and "must enter" in message
    # Written in either order, entering first and then moving is the legal play it is.
    entered = after(position, (25, 22), (13, 8))
    assert resolve(position, 5, 3, "bar/22 13/8").result == entered
    assert resolve(position, 5, 3, "13/8 bar/22").result == entered


def test_two_on_the_bar_both_must_enter():
    position = pos({13: 2, 6: 11}, {12: 15}, bar=(2, 0))
    assert "checker on the bar" in refused(position, 5, 3, "bar/20 20/17")
    assert resolve(position, 5, 3, "bar/20 bar/22").result.bar == (0, 0)


def test_no_checker_on_that_point():
    message = refused(START, 6, 5, "20/14 13/8")
    assert "no checker on point 20" in message
    assert "no checker on the bar" in refused(START, 6, 5, "bar/20 13/7")
    # Two checkers from a point that has only... the 24-point has two: a third is refused.
    assert "no checker on point 24" in refused(START, 1, 1, "24/23(3) 6/5")


def test_bearing_off_with_checkers_outside_home():
    position = pos({6: 13, 20: 2}, {12: 15})
    message = refused(position, 6, 5, "6/off 20/15")
    assert "bear off only when all your checkers are in your home board" in message


def test_bearing_off_with_a_higher_die_while_a_higher_point_is_occupied():
    position = pos({5: 1, 3: 14}, {20: 15})
    message = refused(position, 6, 1, "3/off 5/4")
    assert "a 6 bears off from point 3 only when no checker of yours is on a higher point" in (
        message
    )
    assert "you have one on 5" in message
    # With the 5-point cleared first the 6 may take a checker from the 3-point.
    assert resolve(position, 6, 1, "5/4 4/off").result == after(position, (5, 0))


def test_both_dice_must_be_played_when_possible():
    message = refused(START, 6, 5, "24/18")
    assert "must play both dice" in message
    assert "24/13" in message  # an example of a full play
    assert "must play both dice" in refused(START, 3, 1, [[8, 5]])


def test_the_larger_die_when_only_one_can_be_played():
    # One checker can move (the 1-point checkers cannot bear off while 20 is outside); 6 or 5
    # alone, never both (9 is closed): the 6 must be played.
    position = pos({1: 14, 20: 1}, {9: 2, 23: 13})
    assert [p.notation for p in legal_plays(position, Dice.of(6, 5))] == ["20/14"]
    message = refused(position, 6, 5, "20/15")
    assert "only one die can be played" in message
    assert "the larger one (6)" in message and "20/14" in message
    assert resolve(position, 6, 5, "20/14").notation == "20/14"


def test_doubles_as_many_as_possible():
    message = refused(START, 6, 6, "24/18(2)")
    assert "as many 6s as possible (4)" in message
    # Only three 2s can be played here (gnubg corpus case 5585): playing two is refused.
    position = Position(
        (-2, -2, -2, -2, 8, 6, 0, 0, 0, 0, 1, 0, 0, 0, -7) + (0,) * 9, (0, 0), (0, 0)
    )
    message = refused(position, 2, 2, "11/7")
    assert "as many 2s as possible (3)" in message and "11/5" in message
    assert resolve(position, 2, 2, "11/5").notation == "11/5"


def test_a_move_no_die_can_make():
    assert "no die you have left (6-5) moves a checker from 13 to 10" in refused(
        START, 6, 5, "13/10 24/18"
    )
    # five 6s with four: the fifth move has no die left at all (not "no die (nothing)")
    with pytest.raises(IllegalPlay) as info:
        resolve(START, 6, 6, "24/18 24/18 13/7 13/7 13/7")
    assert info.value.reason == "no_dice_left"
    assert str(info.value) == "you have no dice left to move a checker from 13 to 7"


# Regression (found by these tests, fixed): 24/10 with 6-5 (14 pips, the roll gives 11)
# is refused with "point 19 is closed by 5 of your opponent's checkers": the 5-6 route is tried
# and its closed waypoint is reported although neither route reaches 10. The player should be
# told no die/combination takes a checker from 24 to 10.
def test_a_distance_the_dice_cannot_cover_is_not_blamed_on_a_closed_point():
    message = refused(START, 6, 5, "24/10")
    assert "closed" not in message
    assert "24" in message and "10" in message


def test_unreadable_input_is_invalid_notation_not_an_illegal_play():
    with pytest.raises(InvalidNotation):
        resolve(START, 6, 5, "24-13")
    with pytest.raises(InvalidNotation):
        resolve(START, 6, 5, [[24, 13, 2]])
    assert issubclass(InvalidNotation, RulesError) and issubclass(IllegalPlay, RulesError)
