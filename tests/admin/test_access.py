"""Nobody but active staff reaches these pages; staff need the permission of each action."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.store.models import Match, MatchEvent, PlayerSuspension
from matches.store.replay import MatchView

from .conftest import login

pytestmark = pytest.mark.django_db


def _urls(match: Match, suspension: PlayerSuspension) -> list[str]:
    event = MatchEvent.objects.filter(match=match).first()
    assert event is not None
    return [
        reverse("admin:index"),
        reverse("admin:matches_match_changelist"),
        reverse("admin:matches_match_change", args=[match.pk]),
        reverse("admin:matches_match_board", args=[match.pk, 1]),
        reverse("admin:matches_match_board_svg", args=[match.pk, 1]),
        reverse("admin:matches_match_export", args=[match.pk]),
        reverse("admin:matches_match_abort", args=[match.pk]),
        reverse("admin:matches_match_dice") + "?player=ana",
        reverse("admin:matches_matchevent_changelist"),
        reverse("admin:matches_matchevent_change", args=[event.pk]),
        reverse("admin:matches_playersuspension_changelist"),
        reverse("admin:matches_playersuspension_change", args=[suspension.pk]),
        reverse("admin:matches_playersuspension_suspend"),
        reverse("admin:matches_playersuspension_lift", args=[suspension.pk]),
    ]


@pytest.fixture
def suspension(superuser: Any, django_user_model: Any, live: MatchView) -> PlayerSuspension:
    cheat = django_user_model.objects.create_user("cheat", is_active=False)
    return PlayerSuspension.objects.create(user=cheat, reason="bot", suspended_by=superuser)


def _refused(client: Client, url: str) -> bool:
    page = client.get(url)
    if page.status_code == 302:
        return page["Location"].startswith(reverse("admin:login"))
    return False


def test_anonymous_visitors_are_sent_to_the_login_page(
    client: Client, live: MatchView, suspension: PlayerSuspension
) -> None:
    match = Match.objects.get(pk=live.match_id)
    for url in _urls(match, suspension):
        assert _refused(client, url), url


def test_a_player_who_is_not_staff_cannot_reach_any_page(
    ana: Any, live: MatchView, suspension: PlayerSuspension
) -> None:
    client = login(ana)  # she even plays in the match
    match = Match.objects.get(pk=live.match_id)
    for url in _urls(match, suspension):
        assert _refused(client, url), url
    # Nor can she act by POSTing.
    page = client.post(reverse("admin:matches_match_abort", args=[match.pk]), {"reason": "x"})
    assert _refused_post(page)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def _refused_post(page: Any) -> bool:
    return page.status_code == 302 and page["Location"].startswith(reverse("admin:login"))


def test_staff_without_permissions_see_nothing(
    django_user_model: Any, live: MatchView, suspension: PlayerSuspension
) -> None:
    from .conftest import PASSWORD

    bare = django_user_model.objects.create_user("bare", password=PASSWORD, is_staff=True)
    client = login(bare)
    match = Match.objects.get(pk=live.match_id)
    for url in _urls(match, suspension)[1:]:
        assert client.get(url).status_code == 403, url


def test_a_reviewer_may_look_but_not_abort_or_suspend(
    as_reviewer: Client, live: MatchView, suspension: PlayerSuspension
) -> None:
    match = Match.objects.get(pk=live.match_id)
    abort = reverse("admin:matches_match_abort", args=[match.pk])
    assert as_reviewer.get(abort).status_code == 403
    assert as_reviewer.post(abort, {"reason": "no"}).status_code == 403
    suspend = reverse("admin:matches_playersuspension_suspend")
    assert as_reviewer.get(suspend).status_code == 403
    assert as_reviewer.post(suspend, {"username": "ana", "reason": "x"}).status_code == 403
    lift = reverse("admin:matches_playersuspension_lift", args=[suspension.pk])
    assert as_reviewer.post(lift, {"reason": "x"}).status_code == 403
    page = as_reviewer.get(reverse("admin:matches_match_change", args=[match.pk]))
    assert "Abort match" not in page.content.decode()
    assert "suspend…" not in page.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    suspension.refresh_from_db()
    assert suspension.active


def test_an_inactive_staff_member_is_refused(
    reviewer: Any, live: MatchView, suspension: PlayerSuspension
) -> None:
    client = login(reviewer)
    reviewer.is_active = False
    reviewer.save()
    match = Match.objects.get(pk=live.match_id)
    for url in _urls(match, suspension):
        assert _refused(client, url), url
