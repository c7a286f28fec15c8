"""The staff actions: aborting a match (a command, recorded as an event) and suspending a
player (the account deactivated, who/why/when recorded), and lifting a suspension."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches import services
from matches.store.models import Match, MatchEvent, PlayerSuspension
from matches.store.replay import MatchView
from matches.store.streams import load_view

from .conftest import PASSWORD, login

pytestmark = pytest.mark.django_db


def test_abort_form_and_abort(as_moderator: Client, moderator: Any, live: MatchView) -> None:
    url = reverse("admin:matches_match_abort", args=[live.match_id])
    match_page = reverse("admin:matches_match_change", args=[live.match_id])
    assert "Abort match" in as_moderator.get(match_page).content.decode()
    form = as_moderator.get(url)
    assert form.status_code == 200 and "reason" in form.content.decode()
    version = live.version
    # A reason is required.
    page = as_moderator.post(url, {"reason": ""})
    assert page.status_code == 200 and page.context["form"].errors
    assert MatchEvent.objects.filter(match_id=live.match_id).count() == version
    page = as_moderator.post(url, {"reason": "both players reported a disconnect"}, follow=True)
    assert page.status_code == 200
    assert "The match was aborted" in page.content.decode()
    last = MatchEvent.objects.get(match_id=live.match_id, seq=version + 1)
    assert last.type == "aborted"
    assert last.payload["reason"] == "both players reported a disconnect"
    assert last.actor_id == moderator.pk
    match = Match.objects.get(pk=live.match_id)
    assert match.status == Match.Status.ABORTED
    assert match.ended_by == Match.EndedBy.ABORT
    assert match.winner is None
    view = load_view(match.pk, cached=False)
    assert view.state is not None and view.state.is_over
    # The timeline and the games table say so; the abort link is gone.
    html = as_moderator.get(match_page).content.decode()
    assert "Match aborted: both players reported a disconnect" in html
    assert "aborted" in [g.unfinished for g in as_moderator.get(match_page).context["replay"].games]
    assert "Abort match" not in html
    # Aborting again is refused without writing anything.
    page = as_moderator.post(url, {"reason": "again"}, follow=True)
    assert "This match is aborted" in page.content.decode()
    assert MatchEvent.objects.filter(match_id=live.match_id).count() == version + 1


def test_a_finished_match_cannot_be_aborted(as_moderator: Client, imported: Match) -> None:
    url = reverse("admin:matches_match_abort", args=[imported.pk])
    page = as_moderator.post(url, {"reason": "void it"}, follow=True)
    assert "This match is finished" in page.content.decode()
    imported.refresh_from_db()
    assert imported.status == Match.Status.FINISHED and imported.winner == 0


def test_a_refused_abort_is_reported(as_moderator: Client, ana: Any) -> None:
    """A match still waiting for an opponent: the service refuses, the page says why."""
    view = services.match_create(user=ana, length=1)
    url = reverse("admin:matches_match_abort", args=[view.match_id])
    page = as_moderator.post(url, {"reason": "stale challenge"}, follow=True)
    html = page.content.decode()
    match = Match.objects.get(pk=view.match_id)
    if match.status == Match.Status.ABORTED:  # once services allow aborting a waiting match
        assert "The match was aborted" in html
    else:
        assert "The match was not aborted" in html
        assert MatchEvent.objects.filter(match=match).count() == view.version


def test_suspend_a_player(as_moderator: Client, moderator: Any, ana: Any, live: MatchView) -> None:
    url = reverse("admin:matches_playersuspension_suspend")
    form = as_moderator.get(url + f"?user={ana.pk}&match={live.match_id}")
    assert form.status_code == 200
    assert form.context["form"].initial["username"] == "ana"
    page = as_moderator.post(
        url,
        {"username": "ana", "reason": "rude chat, third warning", "match": str(live.match_id)},
        follow=True,
    )
    assert page.status_code == 200
    assert "Suspended ana: the account is inactive." in page.content.decode()
    ana.refresh_from_db()
    assert not ana.is_active
    record = PlayerSuspension.objects.get(user=ana)
    assert record.suspended_by == moderator
    assert record.reason == "rude chat, third warning"
    assert record.match_id == live.match_id
    assert record.suspended_at is not None and record.active
    # She can no longer log in.
    assert not Client().login(username="ana", password=PASSWORD)
    # The match page shows her as inactive and offers no second suspension.
    html = as_moderator.get(reverse("admin:matches_match_change", args=[live.match_id]))
    assert "(inactive)" in html.content.decode()
    page = as_moderator.post(url, {"username": "ana", "reason": "again"})
    assert "already inactive" in page.content.decode()
    assert PlayerSuspension.objects.filter(user=ana).count() == 1


def test_lift_a_suspension(as_moderator: Client, moderator: Any, ana: Any) -> None:
    as_moderator.post(
        reverse("admin:matches_playersuspension_suspend"),
        {"username": "ana", "reason": "spam"},
    )
    record = PlayerSuspension.objects.get(user=ana)
    change = reverse("admin:matches_playersuspension_change", args=[record.pk])
    assert "Lift suspension" in as_moderator.get(change).content.decode()
    lift = reverse("admin:matches_playersuspension_lift", args=[record.pk])
    page = as_moderator.post(lift, {"reason": "appeal accepted"}, follow=True)
    assert "active again" in page.content.decode()
    record.refresh_from_db()
    ana.refresh_from_db()
    assert ana.is_active
    assert record.lifted_by == moderator and record.lift_reason == "appeal accepted"
    assert not record.active
    assert login(ana)


@pytest.mark.parametrize(
    ("who", "error"),
    [
        ("moderator", "You cannot suspend yourself."),
        ("root", "Only a superuser can suspend a superuser."),
        ("nobody", "No user is called 'nobody'."),
    ],
)
def test_suspensions_that_are_refused(
    as_moderator: Client, superuser: Any, who: str, error: str
) -> None:
    url = reverse("admin:matches_playersuspension_suspend")
    page = as_moderator.post(url, {"username": who, "reason": "test"})
    assert page.status_code == 200
    assert error in page.context["form"].errors["username"]
    assert not PlayerSuspension.objects.exists()


def test_suspension_records_are_read_only(as_superuser: Client, superuser: Any, ana: Any) -> None:
    as_superuser.post(
        reverse("admin:matches_playersuspension_suspend"), {"username": "ana", "reason": "x"}
    )
    record = PlayerSuspension.objects.get(user=ana)
    delete = reverse("admin:matches_playersuspension_delete", args=[record.pk])
    assert as_superuser.post(delete, {"post": "yes"}).status_code == 403
    assert as_superuser.get(reverse("admin:matches_playersuspension_add")).status_code == 403
    assert PlayerSuspension.objects.filter(pk=record.pk).exists()
