"""The admin's tournaments: created by a form through the service, cancelled by an action, a
player removed (his match forfeited), the events read-only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.services import tournaments
from matches.store.models import Match
from matches.store.tournament_models import Tournament, TournamentEvent

from .driver import join_all

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def admin_client(django_user_model: Any) -> Client:
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-12345678")
    client = Client()
    client.force_login(root)
    return client


def test_staff_create_and_cancel_in_the_admin(admin_client: Client) -> None:
    add = reverse("admin:matches_tournament_add")
    starts = (timezone.now() + timedelta(hours=2)).strftime("%Y-%m-%d %H:%M:%S")
    bad = {"name": "Spring", "format": "swiss", "rounds": 9, "length": 1, "clock": "fast",
           "min_players": 4, "max_players": 16, "starts_at": starts}  # fmt: skip
    page = admin_client.post(add, bad)
    assert page.status_code == 200 and "needs at least 10 players" in page.content.decode()
    page = admin_client.post(add, {**bad, "rounds": 3})
    assert page.status_code == 302, page.content.decode()[:2000]
    row = Tournament.objects.get(name="Spring")
    assert row.status == "upcoming" and row.created_by is not None
    change = reverse("admin:matches_tournament_change", args=[row.pk])
    assert "tournament_created" in admin_client.get(change).content.decode()
    changelist = reverse("admin:matches_tournament_changelist")
    admin_client.post(changelist, {"action": "cancel", "_selected_action": [row.pk]})
    row.refresh_from_db()
    assert row.status == "cancelled"
    assert TournamentEvent.objects.filter(tournament=row).last().payload["reason"] == "staff"


def test_staff_remove_a_player_and_his_match_is_forfeited(
    admin_client: Client, staff: Any, make_player: Any
) -> None:
    from .conftest import create

    tid = create(staff, "knockout")["id"]
    players = [make_player("adm") for _ in range(4)]
    join_all(tid, players)
    row = Tournament.objects.get(pk=tid)
    tournaments.start(row.pk, now=row.starts_at)
    change = reverse("admin:matches_tournament_change", args=[row.pk])
    page = admin_client.post(change, {"remove_player": players[1].username})
    assert page.status_code == 302
    match = Match.objects.get(tournament_board__tournament_id=tid, player0_id=players[1].user_id)
    assert match.status == "finished" and match.winner == 1
    withdrawn = TournamentEvent.objects.get(tournament_id=tid, type="player_withdrawn")
    assert withdrawn.payload["reason"] == "removed" and withdrawn.actor_id is not None


def test_staff_enter_the_computer_in_the_admin(admin_client: Client, staff: Any) -> None:
    from .conftest import create

    tid = create(staff, "knockout")["id"]
    change = reverse("admin:matches_tournament_change", args=[tid])
    page = admin_client.post(change, {"enter_computer": "grandmaster"}, follow=True)
    assert "the levels of tavla are" in page.content.decode()
    assert not TournamentEvent.objects.filter(tournament_id=tid, type="player_joined").exists()
    page = admin_client.post(change, {"enter_computer": "heuristic"})
    assert page.status_code == 302
    joined = TournamentEvent.objects.get(tournament_id=tid, type="player_joined")
    assert joined.payload["kind"] == "computer" and joined.actor_id is not None
    again = admin_client.post(change, {"enter_computer": "heuristic"}, follow=True)
    assert "already in this tournament" in again.content.decode()
