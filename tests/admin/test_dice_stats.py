"""Dice statistics: the arithmetic (chi-square p-values without scipy) and the counts read
from the store, for the site and for one player (his dice, or his opponents')."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from matches.review import dice_stats
from matches.review.dice_stats import ROLLS, chi2_critical, chi2_sf, gamma_q
from matches.store.models import MatchEvent

from .helpers import RandomDice, online_match

# Reference values of the chi-square survival function (standard tables: the 5% critical
# values of 1, 5, 20 and 35 degrees of freedom, and a few more points).
SF = [
    (31.410432844230925, 20, 0.05),
    (11.070497693516351, 5, 0.05),
    (49.80184956820188, 35, 0.05),
    (3.841458820694124, 1, 0.05),
    (10.0, 20, 0.9681719426937953),
    (0.5, 2, 0.7788007830714049),  # exp(-x/2) for 2 degrees of freedom
    (100.0, 20, 1.2596084591660857e-12),
    (20.0, 20, 0.4579297144718523),
]


@pytest.mark.parametrize(("x", "df", "p"), SF)
def test_chi_square_p_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("x", [0.01, 0.3, 1.0, 2.5, 7.0, 15.0, 40.0, 90.0])
def test_chi_square_p_values_against_closed_forms(x: float) -> None:
    """For 1, 2 and 4 degrees of freedom the survival function has a closed form."""
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-10, abs=1e-300)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-10)
    assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-10)


@pytest.mark.parametrize(("df", "critical"), [(20, 31.4104), (5, 11.0705), (35, 49.8018)])
def test_critical_values_at_five_percent(df: int, critical: float) -> None:
    assert chi2_critical(df) == pytest.approx(critical, abs=1e-3)


def test_gamma_q_edges() -> None:
    assert gamma_q(1.0, 0.0) == 1.0
    assert gamma_q(1.0, 2.0) == pytest.approx(math.exp(-2.0))
    with pytest.raises(ValueError):
        gamma_q(0.0, 1.0)


def test_the_21_rolls_and_their_probabilities() -> None:
    assert len(ROLLS) == 21 and len(set(ROLLS)) == 21
    assert sum(dice_stats.roll_probability(h, lo) for h, lo in ROLLS) == 1
    assert dice_stats.roll_probability(3, 3) == Fraction(1, 36)
    assert dice_stats.roll_probability(3, 1) == Fraction(2, 36)


def test_perfectly_fair_counts_give_statistic_zero() -> None:
    counts = {(h, lo): 1 if h == lo else 2 for h, lo in ROLLS}
    counts = {k: v * 100 for k, v in counts.items()}  # 3600 rolls, exactly as expected
    table = dice_stats.rolls_table(counts)
    assert table.total == 3600 and table.chi.df == 20
    assert table.chi.statistic == pytest.approx(0.0)
    assert table.chi.p_value == pytest.approx(1.0)
    assert table.chi.reliable and table.chi.verdict == "consistent with fair dice"
    assert {c.label: c.probability_label for c in table.cells}["6-5"] == "2/36"


def test_loaded_dice_are_flagged() -> None:
    counts = {(h, lo): (1 if h == lo else 2) * 20 for h, lo in ROLLS}
    counts[(6, 6)] += 60  # far too many double sixes
    table = dice_stats.rolls_table(counts)
    assert table.chi.rejects_fair_dice and table.chi.p_value < 1e-6
    assert table.chi.verdict.startswith("unusual")


def test_small_samples_are_not_judged() -> None:
    table = dice_stats.rolls_table({(6, 6): 3, (2, 1): 4})
    assert not table.chi.reliable
    assert "too few" in table.chi.verdict


def test_a_seeded_fair_source_passes() -> None:
    dice = RandomDice(2026)
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(36_000):
        roll = dice.roll()
        counts[(roll.high, roll.low)] += 1
    report = dice_stats.report("test", dict(counts), dice_stats.opening_table({}))
    assert report.rolls.chi.p_value > 0.01
    assert report.faces.total == 72_000
    assert abs(report.doubles.z) < 3
    assert sum(c.observed for row in report.grid for c in row if c) == 36_000


@pytest.mark.django_db
def test_site_and_player_reports_count_the_stored_rolls(ana: Any, bob: Any) -> None:
    online_match(ana, bob, seed=21, turns=15)
    online_match(bob, ana, seed=22, turns=9)
    rolled = list(MatchEvent.objects.filter(type="rolled").select_related("match"))
    by_user: Counter[str] = Counter()
    faces: Counter[tuple[str, int]] = Counter()
    for e in rolled:
        user = e.match.player0 if e.payload["seat"] == 0 else e.match.player1
        by_user[user.username] += 1
        for die in e.payload["dice"]:
            faces[(user.username, die)] += 1
    site = dice_stats.site_report()
    assert site.roll_count == len(rolled) > 0
    assert site.opening.total == MatchEvent.objects.filter(type="opening_roll").count()
    own = dice_stats.player_report(ana)
    theirs = dice_stats.player_report(ana, opponents=True)
    assert own.roll_count == by_user["ana"]
    assert theirs.roll_count == by_user["bob"]
    assert [c.observed for c in own.faces.cells] == [faces[("ana", f)] for f in range(1, 7)]
    # Her opening dice: one per opening roll of each of her matches.
    assert own.opening.total == MatchEvent.objects.filter(type="opening_roll").count()
    assert dice_stats.player_report(bob).roll_count == by_user["bob"]


@pytest.mark.django_db
def test_hot_seat_rolls_are_all_the_users_own(ana: Any) -> None:
    from matches import services

    from .helpers import play_turns

    dice = RandomDice(5)
    view = services.match_create(user=ana, mode="hotseat", length=1, dice=dice)
    assert view.match_id is not None
    play_turns(view.match_id, (ana, ana), turns=6, dice=dice)
    rolled = MatchEvent.objects.filter(type="rolled").count()
    assert dice_stats.player_report(ana).roll_count == rolled > 0
    assert dice_stats.player_report(ana, opponents=True).roll_count == 0
