"""The post-game analysis in the admin: on the match page (made by the real engine through
the service), and the list of registered players whose error rate is far below what their
rating predicts (a fit over every analysed player; a signal, not a verdict)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.selectors.analysis import error_rate_outliers
from matches.services import analysis
from matches.store.analysis_models import MatchAnalysis
from matches.store.models import Match, PlayerRating
from tests.ratings.helpers import account, played

pytestmark = pytest.mark.django_db


def test_the_match_page_shows_the_analysis(as_reviewer: Client, imported: Match) -> None:
    page = reverse("admin:matches_match_change", args=[imported.pk])
    assert "Not analysed" in as_reviewer.get(page).content.decode()
    analysis.request(imported)
    assert analysis.analyse(imported.pk) == "done"
    html = as_reviewer.get(page).content.decode()
    row = MatchAnalysis.objects.get(pk=imported.pk)
    players = row.result["players"]
    assert f"{players[0]['error_rate']:.1f}" in html and f"{players[1]['pr']:.1f}" in html
    marked = [d for g in row.result["games"] for d in g["decisions"] if d["mark"]]
    assert marked and marked[0]["position_id"] in html


@pytest.fixture
def league(settings: Any) -> dict[str, Any]:
    """Nine registered players, each in four rated matches with analyses whose PR follows
    his rating closely (the stronger, the fewer errors); one of them, rated 1600, plays with
    the error rate of a far stronger player."""
    settings.TAVLA_AUTO_ANALYSIS = False  # the analyses are set below, by rating
    ratings = [1400, 1450, 1500, 1550, 1600, 1650, 1700, 1750, 1800]
    users = [account(f"p{r}") for r in ratings]
    expected = {u.pk: 30.0 - (r - 1500) / 20 for u, r in zip(users, ratings, strict=True)}
    suspect = users[4]
    expected[suspect.pk] = 3.0
    jitter = iter([0.3, -0.2, 0.1, -0.3, 0.2, 0.0, -0.1, 0.15, -0.15] * 4)
    for i, a in enumerate(users):
        b = users[(i + 1) % len(users)]
        for _ in range(2):
            match_id = played(a, b, a, length=3)
            MatchAnalysis.objects.create(
                match_id=match_id,
                status=MatchAnalysis.Status.DONE,
                result={},
                pr0=expected[a.pk] + next(jitter),
                pr1=expected[b.pk] + next(jitter),
                unforced0=100,
                unforced1=100,
            )
    for user, rating in zip(users, ratings, strict=True):
        PlayerRating.objects.filter(user=user, game="tavla").update(rating=rating)
    return {"users": users, "suspect": suspect}


def test_a_player_far_better_than_his_rating_is_listed(league, as_superuser: Client) -> None:
    fit = error_rate_outliers("tavla", k=2.0)
    assert fit.players == 9 and fit.slope < 0  # the stronger err less
    assert [o.user for o in fit.outliers] == [league["suspect"]]
    (o,) = fit.outliers
    assert o.error_rate == pytest.approx(6.0, abs=0.5) and o.deviations > 2.0
    assert o.expected == pytest.approx(2 * 25.0, abs=8.0)  # what a 1600 player errs
    html = as_superuser.get(
        reverse("admin:matches_match_analysis_outliers"), {"game": "tavla", "k": "2"}
    ).content.decode()
    assert "a signal to look at, not a verdict" in html
    assert league["suspect"].get_username() in html
    assert "p1800" not in html
    assert not error_rate_outliers("tavla", k=4.0).outliers
    assert error_rate_outliers("long-nardy").players == 0
