"""The FIBS rating formula against published numbers (no database).

Sources (docs/ratings.md has the citations):
- FIBS `help formula` (rec.games.backgammon, bkgm.com/rgb/rgb.cgi?view+1093): the formula.
- Kevin Bastian, "The FIBS Rating System" (bkgm.com/articles/McCool/ratings.html): "A
  one-point match played between two experienced players with identical ratings is worth 2
  points".
- The table of rating changes for experienced players (experience 400 and more, K = 1) on
  GoldToken's "Ratings in Practice" page, which uses the FIBS system: by the opponent's
  rating relative to yours and the match length, what a win and a loss do (one decimal).
- "Batting average for favorite to maintain his rating" (rec.games.backgammon,
  bkgm.com/rgb/rgb.cgi?view+45): the favourite's winning chance FIBS assumes, three decimals.
"""

from __future__ import annotations

import math

import pytest

from matches.services.fibs import Standing, k_factor, rate, win_probability

EXPERIENCED = 400  # K = 1 from here on

# opponent's rating minus yours -> {length: (win, loss)}, as printed on GoldToken's page (one
# decimal, except the 5-point column at +-500, printed as whole numbers: compared as printed).
GOLDTOKEN = {
    +1000: {1: ("+3.0", "-1.0"), 3: ("+6.1", "-0.8"), 5: ("+8.3", "-0.6"), 7: ("+10.1", "-0.5"),
            9: ("+11.6", "-0.4")},
    +500: {1: ("+2.6", "-1.4"), 3: ("+5.1", "-1.9"), 5: ("+7", "-2"), 7: ("+8.7", "-1.9"),
           9: ("+10.2", "-1.8")},
    +250: {1: ("+2.3", "-1.7"), 3: ("+4.3", "-2.6"), 5: ("+5.9", "-3.1"), 7: ("+7.2", "-3.4"),
           9: ("+8.4", "-3.6")},
    0: {1: ("+2.0", "-2.0"), 3: ("+3.5", "-3.5"), 5: ("+4.5", "-4.5"), 7: ("+5.3", "-5.3"),
        9: ("+6.0", "-6.0")},
    -250: {1: ("+1.7", "-2.3"), 3: ("+2.6", "-4.3"), 5: ("+3.1", "-5.9"), 7: ("+3.4", "-7.2"),
           9: ("+3.6", "-8.4")},
    -500: {1: ("+1.4", "-2.6"), 3: ("+1.9", "-5.1"), 5: ("+2", "-7"), 7: ("+1.9", "-8.7"),
           9: ("+1.8", "-10.2")},
}  # fmt: skip


def printed(value: float, like: str) -> str:
    """`value` written the way the table writes `like` (its sign and number of decimals)."""
    decimals = len(like.split(".")[1]) if "." in like else 0
    return f"{value:+.{decimals}f}"


# rating difference -> {length: the favourite's winning chance} (rec.games.backgammon).
BATTING = {
    100: {1: 0.529, 3: 0.550, 5: 0.564, 7: 0.576, 9: 0.585, 11: 0.594},
    200: {1: 0.557, 3: 0.598, 5: 0.626, 7: 0.648, 9: 0.666, 11: 0.682},
    300: {1: 0.585, 3: 0.645, 5: 0.684, 7: 0.714, 9: 0.738, 11: 0.759},
    400: {1: 0.613, 3: 0.689, 5: 0.737, 7: 0.772, 9: 0.799, 11: 0.822},
    500: {1: 0.640, 3: 0.730, 5: 0.784, 7: 0.821, 9: 0.849, 11: 0.871},
    600: {1: 0.666, 3: 0.768, 5: 0.824, 7: 0.861, 9: 0.888, 11: 0.908},
    700: {1: 0.691, 3: 0.802, 5: 0.858, 7: 0.894, 9: 0.918, 11: 0.935},
}


@pytest.mark.parametrize("gap", sorted(GOLDTOKEN))
def test_the_published_table_for_experienced_players(gap: int) -> None:
    me, them = Standing(1500.0, EXPERIENCED), Standing(1500.0 + gap, EXPERIENCED)
    for length, (win, loss) in GOLDTOKEN[gap].items():
        won = rate(me, them, length).winner
        lost = rate(them, me, length).loser
        assert printed(won, win) == win, (gap, length, won)
        assert printed(lost, loss) == loss, (gap, length, lost)


@pytest.mark.parametrize("gap", sorted(BATTING))
def test_the_published_winning_chances_of_the_favourite(gap: int) -> None:
    for length, chance in BATTING[gap].items():
        assert round(win_probability(gap, length), 3) == chance, (gap, length)
        assert math.isclose(win_probability(-gap, length), 1 - win_probability(gap, length))


def test_bastian_a_one_point_match_between_equals_is_worth_two_points() -> None:
    change = rate(Standing(1620.0, 1000), Standing(1620.0, 2500), 1)
    assert change.winner == 2.0 and change.loser == -2.0


def test_by_hand_two_newcomers_play_five_points() -> None:
    """Both at 1500 with experience 0: K = 5, P = 1/2, so 4 * 5 * sqrt(5) * 1/2 each way."""
    change = rate(Standing(), Standing(), 5)
    assert change.winner == pytest.approx(10 * math.sqrt(5)) == pytest.approx(22.3607, abs=1e-4)
    assert change.loser == -change.winner


def test_by_hand_an_upset_in_a_seven_point_match() -> None:
    """1570 (experience 150: K = 3.5) beats 1700 (experience 1000: K = 1) over 7 points.
    D = 130, D * sqrt 7 / 2000 = 0.171974, 10^0.171974 = 1.485859, so P_upset = 1 / 2.485859
    = 0.402275; the underdog won: P = 0.597725, stake 4 * 2.645751 * P = 6.325700; he gains
    3.5 times that (22.139950), his opponent loses it once."""
    change = rate(Standing(1570.0, 150), Standing(1700.0, 1000), 7)
    assert change.winner == pytest.approx(22.139950, abs=1e-5)
    assert change.loser == pytest.approx(-6.325700, abs=1e-5)


def test_k_falls_from_five_to_one_over_the_first_400_points_of_experience() -> None:
    ks = [k_factor(e) for e in (0, 50, 100, 200, 300, 399, 400, 5000)]
    assert ks == pytest.approx([5.0, 4.5, 4.0, 3.0, 2.0, 1.01, 1.0, 1.0])


def test_each_player_uses_his_own_experience() -> None:
    change = rate(Standing(1500.0, 0), Standing(1500.0, 400), 1)
    assert (change.winner, change.loser) == (10.0, -2.0)


def test_money_play_is_never_rated() -> None:
    with pytest.raises(ValueError):
        rate(Standing(), Standing(), 0)
