"""The ratings in the admin: a player's page (ratings, history, opponents, early exits), the
pairs of players, rebuilding the ratings, and marking a match unrated (an event)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client, override_settings
from django.urls import reverse

from matches.store.models import EarlyExit, Match, MatchEvent, PlayerProfile, RatingChange
from tests.ratings.helpers import account, played, started

from .conftest import PASSWORD, login

pytestmark = pytest.mark.django_db


@pytest.fixture
def league() -> dict[str, Any]:
    """Three players and four rated matches; ana and ben met three times."""
    ana, ben, cem = account("ana"), account("ben"), account("cem")
    for user in (ana, ben, cem):
        user.set_password(PASSWORD)
        user.save()
    matches = [
        played(ana, ben, ana, length=5),
        played(ana, ben, ana, length=3),
        played(ben, ana, ana, length=1),
        played(ben, cem, cem, length=7),
    ]
    return {"ana": ana, "ben": ben, "cem": cem, "matches": matches}


@pytest.fixture
def reviewer_of_players(reviewer: Any) -> Client:
    reviewer.user_permissions.add(
        Permission.objects.get(content_type__app_label="matches", codename="view_playerprofile")
    )
    return login(reviewer)


@pytest.fixture
def moderator_of_players(moderator: Any) -> Client:
    moderator.user_permissions.add(
        Permission.objects.get(content_type__app_label="matches", codename="view_playerprofile")
    )
    return login(moderator)


def test_a_players_page_shows_ratings_history_opponents_and_exits(
    reviewer_of_players: Client, league: dict[str, Any]
) -> None:
    ana = league["ana"]
    listing = reviewer_of_players.get(reverse("admin:matches_playerprofile_changelist"))
    assert listing.status_code == 200
    html = listing.content.decode()
    rating = RatingChange.objects.filter(user=ana).order_by("-order").first()
    assert rating is not None and f"{rating.rating_after:.2f} (9)" in html
    assert "Rebuild ratings" not in html  # a reviewer may look, not rebuild
    profile = PlayerProfile.objects.get(user=ana)
    page = reviewer_of_players.get(reverse("admin:matches_playerprofile_change", args=[profile.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f"{rating.rating_after:.2f}" in html
    assert [h.match_id for h in page.context["history"]] == list(reversed(league["matches"][:3]))
    (pair,) = page.context["pairs"]
    assert (pair["opponent__username"], pair["matches"], pair["wins"], pair["losses"]) == (
        "ben",
        3,
        3,
        0,
    )
    assert pair["gained"] > 0
    ben_page = reviewer_of_players.get(
        reverse("admin:matches_playerprofile_change", args=[league["ben"].tavla_profile.pk])
    )
    exits = list(ben_page.context["exits"])  # ben lost all four by forfeit, never moving
    assert {e.kind for e in exits} == {"forfeit"} and len(exits) == 4
    assert "Forfeited before moving" in ben_page.content.decode()


def test_the_pairs_page_puts_the_busiest_pair_first(
    reviewer_of_players: Client, league: dict[str, Any]
) -> None:
    page = reviewer_of_players.get(reverse("admin:matches_playerprofile_pairs"))
    assert page.status_code == 200
    first, second = page.context["pairs"]
    assert (first["user__username"], first["opponent__username"], first["matches"]) == (
        "ana",
        "ben",
        3,
    )
    assert (second["matches"], {second["user__username"], second["opponent__username"]}) == (
        1,
        {"ben", "cem"},
    )
    nardy = reviewer_of_players.get(
        reverse("admin:matches_playerprofile_pairs") + "?game=long-nardy"
    )
    assert nardy.context["pairs"] == []


def test_a_pair_trading_rating_often_is_flagged_on_both_pages(
    reviewer_of_players: Client, league: dict[str, Any]
) -> None:
    """Issue 24, item 6: ana and ben met three times lately; with the flag at three they are
    flagged on the pairs page and on ana's page, ben and cem (once) are not."""
    url = reverse("admin:matches_playerprofile_pairs")
    with override_settings(TAVLA_RATING_PAIR_FLAG_MATCHES=3):
        page = reviewer_of_players.get(url)
        rows = page.content.decode().split("<tr>")
        (busy,) = [r for r in rows if ">ana<" in r and ">ben<" in r]
        (quiet,) = [r for r in rows if ">ben<" in r and ">cem<" in r]
        assert "flagged" in busy and "flagged" not in quiet
        profile = PlayerProfile.objects.get(user=league["ana"])
        mine = reviewer_of_players.get(
            reverse("admin:matches_playerprofile_change", args=[profile.pk])
        )
        assert "flagged: 3 lately" in mine.content.decode()
    with override_settings(TAVLA_RATING_PAIR_FLAG_MATCHES=4):
        assert "flagged:" not in reviewer_of_players.get(url).content.decode()


def test_a_moderator_marks_a_match_unrated(
    moderator_of_players: Client, moderator: Any, league: dict[str, Any]
) -> None:
    first = league["matches"][0]
    match_page = reverse("admin:matches_match_change", args=[first])
    html = moderator_of_players.get(match_page).content.decode()
    assert "Mark unrated" in html and "Experience before" in html
    url = reverse("admin:matches_match_unrated", args=[first])
    form = moderator_of_players.get(url)
    assert form.status_code == 200 and len(form.context["changes"]) == 2
    assert moderator_of_players.post(url, {"reason": ""}).context["form"].errors
    done = moderator_of_players.post(url, {"reason": "ana and ben are one person"}, follow=True)
    assert "no longer counts" in done.content.decode()
    event = MatchEvent.objects.get(match_id=first, type="marked_unrated")
    assert (
        event.actor_id == moderator.pk and event.payload["reason"] == "ana and ben are one person"
    )
    assert not RatingChange.objects.filter(match_id=first).exists()
    assert Match.objects.get(pk=first).rated is False
    html = moderator_of_players.get(match_page).content.decode()
    assert "Mark unrated" not in html and "Marked unrated by staff" in html
    board = reverse("admin:matches_match_board", args=[first, event.seq])
    assert moderator_of_players.get(board).status_code == 200  # the board after that event
    export = reverse("admin:matches_match_export", args=[first])
    assert moderator_of_players.get(export).status_code == 200
    again = moderator_of_players.post(url, {"reason": "twice"}, follow=True)
    assert "does not count for the ratings" in again.content.decode()
    assert MatchEvent.objects.filter(match_id=first, type="marked_unrated").count() == 1


def test_a_reviewer_may_neither_mark_unrated_nor_rebuild(
    reviewer_of_players: Client, league: dict[str, Any]
) -> None:
    first = league["matches"][0]
    match_page = reverse("admin:matches_match_change", args=[first])
    assert "Mark unrated" not in reviewer_of_players.get(match_page).content.decode()
    url = reverse("admin:matches_match_unrated", args=[first])
    assert reviewer_of_players.post(url, {"reason": "no"}).status_code == 403
    rebuild = reverse("admin:matches_playerprofile_rebuild")
    assert reviewer_of_players.post(rebuild).status_code == 403
    assert not MatchEvent.objects.filter(type="marked_unrated").exists()


def test_a_moderator_rebuilds_the_ratings(
    moderator_of_players: Client, league: dict[str, Any]
) -> None:
    before = sorted(RatingChange.objects.values_list("match_id", "user_id", "rating_after"))
    RatingChange.objects.filter(match_id=league["matches"][3]).delete()  # damage the projection
    EarlyExit.objects.all().delete()
    url = reverse("admin:matches_playerprofile_rebuild")
    assert moderator_of_players.get(url).status_code == 200
    done = moderator_of_players.post(url, follow=True)
    assert "Ratings rebuilt from the events (tavla: 4 matches, 3 players" in done.content.decode()
    after = sorted(RatingChange.objects.values_list("match_id", "user_id", "rating_after"))
    assert after == before
    assert EarlyExit.objects.count() == 4


def test_an_unfinished_match_says_it_is_not_over(
    moderator_of_players: Client, league: dict[str, Any]
) -> None:
    going = started(league["ana"], league["cem"], length=3)
    html = moderator_of_players.get(reverse("admin:matches_match_change", args=[going])).content
    assert b"No rating changed yet: the match is not over." in html
