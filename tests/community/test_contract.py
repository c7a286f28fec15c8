"""The community bodies are what the schema says (the fuzz reaches few of these states by
chance): a quick line, a friend playing, an accepted challenge and the one in its notice, a
player's page with and without a viewer, the errors with `detail.until`."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from matches.services import follows, reports
from matches.store.models import OutboxNotice
from tests.api.conftest import API, create
from tests.api.test_contract import components, conforms

pytestmark = pytest.mark.django_db

__all__ = ["components"]


def test_community_bodies_conform(make_player, components) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    match_id = create(ana, mode="online", length=3)["id"]
    ben.post(f"/matches/{match_id}/join", {})
    line = ana.post(f"/matches/{match_id}/chat", {"channel": "say", "quick": "good_luck"})
    conforms(line.json(), "ChatMessage", components)
    conforms(ben.get(f"/matches/{match_id}/chat").json(), "ChatMessages", components)
    ana.post(f"/players/{ben.username}/follow")
    follows.seen_online([ben.user_id])
    friends = ana.get("/me/following").json()
    assert friends["players"][0]["playing"] == match_id
    conforms(friends, "FriendList", components)
    ana.post(f"/players/{ben.username}/block")
    conforms(ana.get("/me/blocked").json(), "PersonList", components)
    ana.client.delete(f"{API}/players/{ben.username}/block")
    conforms(ana.get(f"/players/{ben.username}").json(), "PlayerCard", components)
    conforms(APIClient().get(f"{API}/players/{ben.username}").json(), "PlayerCard", components)
    cy = make_player("cy")
    made = cy.post("/challenges", {"to": ana.username, "length": 1}).json()
    conforms(made, "Challenge", components)
    conforms(ana.get("/challenges").json(), "Challenges", components)
    accepted = ana.post(f"/challenges/{made['id']}/accept").json()
    assert accepted["match"]
    conforms(accepted, "Challenge", components)
    for notice in OutboxNotice.objects.filter(kind__startswith="challenge"):
        conforms(notice.data["challenge"], "Challenge", components)
    r = ana.post("/reports", {"player": ben.username, "reason": "spam"})
    conforms(r.json(), "ReportReceipt", components)


def test_sanction_errors_conform(make_player, components) -> None:
    ana = make_player("ana")
    match_id = create(ana, mode="online", length=3)["id"]
    staff = get_user_model().objects.create_user("mod", is_staff=True)
    user = get_user_model().objects.get(pk=ana.user_id)
    until = timezone.now() + timedelta(minutes=5)
    reports.sanction(user=user, kind="mute", by=staff, note="x", until=until)
    r = ana.post(f"/matches/{match_id}/chat", {"channel": "say", "text": "hi"})
    assert r.status_code == 403
    conforms(r.json(), "Error", components)
