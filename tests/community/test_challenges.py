"""Direct challenges: made, heard (the notices' outbox), accepted into a seated match,
declined, cancelled, expired; refused between blocked players and for a play ban."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from matches.api.contract import render
from matches.selectors import community
from matches.services import reports
from matches.store.community_models import Challenge
from matches.store.models import Match, OutboxNotice
from tests.api.conftest import API

pytestmark = pytest.mark.django_db


def challenge(frm: Any, to: Any, **settings: Any) -> Any:
    return frm.post("/challenges", {"to": to.username, "length": 3, **settings})


def test_a_challenge_heard_and_accepted_makes_a_seated_match(make_player) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    r = challenge(ana, ben, cube=True)
    assert r.status_code == 201, r.content
    made = r.json()
    assert made["status"] == "pending" and made["match"] is None
    assert made["from"]["name"] == ana.username and made["to"]["name"] == ben.username
    assert made["settings"]["length"] == 3 and made["settings"]["cube"] is True
    notice = OutboxNotice.objects.get(user_id=ben.user_id, kind="challenge")
    row = Challenge.objects.get(pk=made["id"])
    assert notice.data["challenge"] == render(community.challenge(row))  # the same shape
    assert ben.get("/challenges").json() == {"incoming": [made], "outgoing": []}
    assert ana.get("/challenges").json() == {"incoming": [], "outgoing": [made]}
    r = challenge(ana, ben)
    assert r.status_code == 409 and r.json()["code"] == "challenge_pending"
    r = ana.post(f"/challenges/{made['id']}/accept")  # not hers to accept
    assert r.status_code == 404
    r = ben.post(f"/challenges/{made['id']}/accept")
    assert r.status_code == 200, r.content
    accepted = r.json()
    assert accepted["status"] == "accepted" and accepted["match"]
    match = Match.objects.get(pk=accepted["match"])
    assert (match.player0_id, match.player1_id) == (ana.user_id, ben.user_id)
    assert match.status == "active" and match.length == 3 and match.cube
    told = OutboxNotice.objects.get(user_id=ana.user_id, kind="challenge_answered")
    assert told.data["challenge"]["status"] == "accepted"
    assert str(told.match_id) == accepted["match"]
    r = ben.post(f"/challenges/{made['id']}/decline")
    assert r.status_code == 409 and r.json()["code"] == "challenge_not_pending"
    assert r.json()["detail"] == {"status": "accepted"}
    assert ben.get("/challenges").json() == {"incoming": [], "outgoing": []}


def test_declined_cancelled_and_expired(make_player) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    first = challenge(ana, ben).json()
    assert ben.post(f"/challenges/{first['id']}/decline").json()["status"] == "declined"
    second = challenge(ana, ben).json()  # a new one once the first is answered
    r = ana.client.delete(f"{API}/challenges/{second['id']}")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert OutboxNotice.objects.filter(user_id=ben.user_id, kind="challenge_answered").count() == 1
    third = challenge(ana, ben).json()
    Challenge.objects.filter(pk=third["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert ben.get("/challenges").json()["incoming"] == []
    r = ben.post(f"/challenges/{third['id']}/accept")
    assert r.status_code == 409 and r.json()["detail"] == {"status": "expired"}
    assert challenge(ana, ben).status_code == 201  # the expired one is not in the way
    r = ben.post("/challenges/not-a-uuid/accept")
    assert r.status_code == 404 and r.json()["code"] == "not_found"


def test_refused_unknown_blocked_and_play_banned(make_player) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    r = ana.post("/challenges", {"to": "nobody-at-all", "length": 3})
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = ana.post("/challenges", {"to": ben.username, "length": 99})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    pending = challenge(ana, ben).json()
    ben.post(f"/players/{ana.username}/block")
    for frm, to in ((ana, ben), (ben, ana)):
        r = challenge(frm, to)
        assert r.status_code == 403 and r.json()["code"] == "blocked"
    r = ben.post(f"/challenges/{pending['id']}/accept")  # made before the block
    assert r.status_code == 403 and r.json()["code"] == "blocked"
    ben.client.delete(f"{API}/players/{ana.username}/block")
    staff = get_user_model().objects.create_user("mod", is_staff=True)
    user = get_user_model().objects.get(pk=ana.user_id)
    until = timezone.now() + timedelta(days=1)
    reports.sanction(user=user, kind="play_ban", by=staff, note="cheating", until=until)
    r = challenge(ana, ben)
    assert r.status_code == 403 and r.json()["code"] == "play_banned"
    assert r.json()["detail"]["until"].startswith(until.strftime("%Y-%m-%d"))
    r = ana.post("/seeks", {"length": 3})
    assert r.status_code == 403 and r.json()["code"] == "play_banned"
