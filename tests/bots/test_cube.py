"""Cube and resignation decisions: the match equity table and the dead-cube maths with the
corrections cube.py documents, on positions whose right answer is known."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.bots.cube import Chances, accept_resignation, cube_decision, resign_value
from games.bots.met import POST_CRAWFORD, PRE_CRAWFORD, match_winning_chance
from games.rules.match import MatchSettings, MatchState, Phase

NO_GAMMONS = dict(win_gammon=0.0, win_bg=0.0, lose_gammon=0.0, lose_bg=0.0)


def state(length: int = 0, score: tuple[int, int] = (0, 0), **kw: object) -> MatchState:
    settings = MatchSettings(length=length, cube=True, **kw)  # type: ignore[arg-type]
    return replace(MatchState.new(settings), phase=Phase.ROLL, turn=0, score=score)


def test_table_is_the_published_one() -> None:
    assert len(PRE_CRAWFORD) == 25 and all(len(row) == 25 for row in PRE_CRAWFORD)
    # Spot values of Kazaross-XG2 as GNU Backgammon ships it.
    assert PRE_CRAWFORD[0][1] == 0.67736  # the Crawford game, 1-away against 2-away
    assert PRE_CRAWFORD[2][4] == 0.64795  # 3-away against 5-away
    assert POST_CRAWFORD[1] == 0.48803  # 2-away against 1-away after the Crawford game
    for i in range(25):  # a zero-sum table
        for j in range(25):
            assert PRE_CRAWFORD[i][j] + PRE_CRAWFORD[j][i] == pytest.approx(1.0)


def test_match_winning_chance_edges() -> None:
    assert match_winning_chance(0, 3, post_crawford=False) == 1.0
    assert match_winning_chance(3, -1, post_crawford=False) == 0.0
    assert match_winning_chance(1, 1, post_crawford=True) == 0.5
    assert match_winning_chance(1, 2, post_crawford=False) == 0.67736
    assert match_winning_chance(1, 2, post_crawford=True) == pytest.approx(1 - 0.48803)
    with pytest.raises(ValueError):
        match_winning_chance(26, 3, post_crawford=False)


def test_money_gammonless_take_point_is_janowskis() -> None:
    decision = cube_decision(state(), 0, Chances(0.70, **NO_GAMMONS))
    # Dead cube 75 %, turned by the recube vig to 78.5 % (a 21.5 % take point).
    assert decision.take_point == pytest.approx(0.785)
    assert decision.double_pass == 1.0 and decision.double_take == pytest.approx(0.8)
    assert decision.no_double == pytest.approx(0.4)


@pytest.mark.parametrize(
    ("win", "double", "take"),
    [
        (0.50, False, True),  # even: no double
        (0.66, False, True),  # short of the window
        (0.72, True, True),  # a double and a take
        (0.80, True, False),  # a double and a pass
        (0.95, True, False),
    ],
)
def test_money_gammonless_window(win: float, double: bool, take: bool) -> None:
    decision = cube_decision(state(), 0, Chances(win, **NO_GAMMONS))
    assert decision.should_double is double
    assert decision.should_take is take


def test_too_good_to_double_when_gammons_are_likely() -> None:
    chances = Chances(0.90, win_gammon=0.60, win_bg=0.05, lose_gammon=0.01, lose_bg=0.0)
    decision = cube_decision(state(), 0, chances)
    assert not decision.should_take  # he would pass ...
    assert decision.no_double > decision.double_pass  # ... but playing on is worth more
    assert not decision.should_double


def test_jacoby_makes_gammons_count_only_after_a_double() -> None:
    chances = Chances(0.90, win_gammon=0.60, win_bg=0.05, lose_gammon=0.01, lose_bg=0.0)
    decision = cube_decision(state(jacoby=True), 0, chances)
    assert decision.no_double == pytest.approx(0.90 - 0.10)  # gammons count single
    assert decision.should_double  # cash it: playing on cannot win more than 1


def test_no_double_at_double_match_point() -> None:
    decision = cube_decision(state(5, (4, 4)), 0, Chances(0.75, **NO_GAMMONS))
    assert decision.no_double == pytest.approx(0.75)
    assert decision.double_take == pytest.approx(0.75)
    assert not decision.should_double  # the cube changes nothing at 1-away/1-away


def test_the_trailer_doubles_after_the_crawford_game() -> None:
    post = replace(state(5, (1, 4)), crawford_done=True)  # 4-away against 1-away
    decision = cube_decision(post, 0, Chances(0.35, **NO_GAMMONS))
    assert decision.recube_dead
    assert decision.should_double
    # The leader takes: he wins the match with any win, and a pass costs him a point.
    assert decision.should_take


def test_two_away_two_away() -> None:
    """At 2-away/2-away a take plays the match out, a pass leaves the taker trailing the
    Crawford game: the take point is the table's Crawford-game chance, and the favourite
    doubles at once (the opponent's redouble would be dead)."""
    decision = cube_decision(state(5, (3, 3)), 0, Chances(0.55, **NO_GAMMONS))
    assert decision.recube_dead
    assert decision.take_point == pytest.approx(PRE_CRAWFORD[0][1])
    assert decision.double_take == pytest.approx(0.55)
    assert decision.should_double and decision.should_take
    assert not cube_decision(state(5, (3, 3)), 0, Chances(0.70, **NO_GAMMONS)).should_take


def test_resignations() -> None:
    lost_race = Chances(0.00001, 0.0, 0.0, lose_gammon=0.00001, lose_bg=0.0)
    assert resign_value(lost_race, race=True) == 1
    assert resign_value(lost_race, race=False) == 0  # contact: anything can happen
    gammoned = Chances(0.0, 0.0, 0.0, lose_gammon=1.0, lose_bg=0.0)
    assert resign_value(gammoned, race=True) == 2
    assert resign_value(Chances(0.2, **NO_GAMMONS), race=True) == 0

    offer = replace(state(), phase=Phase.RESIGNING, resign_value=1, turn=1)
    sure_gammon = Chances(1.0, win_gammon=0.9, win_bg=0.0, lose_gammon=0.0, lose_bg=0.0)
    assert not accept_resignation(offer, 0, sure_gammon)  # 1 point < 1.9 expected
    assert accept_resignation(offer, 0, Chances(0.9, **NO_GAMMONS))  # 1 >= 0.8
    assert accept_resignation(replace(offer, resign_value=2), 0, sure_gammon)
