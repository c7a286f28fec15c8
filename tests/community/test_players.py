"""Follow, block, the lists, the viewer on a player's page, presence, and reports."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from matches.services import follows
from matches.store.community_models import Report
from tests.api.conftest import API, create

pytestmark = pytest.mark.django_db


def delete(player: Any, path: str) -> Any:
    return player.client.delete(API + path)


def test_follow_unfollow_and_the_viewer(make_player) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    assert ana.get(f"/players/{ben.username}").json()["viewer"] == {
        "following": False,
        "blocked": False,
    }
    assert ana.post(f"/players/{ben.username.upper()}/follow").json() == {"following": True}
    assert ana.post(f"/players/{ben.username}/follow").json() == {"following": True}  # again
    assert ana.get(f"/players/{ben.username}").json()["viewer"]["following"] is True
    assert ana.get(f"/players/{ana.username}").json()["viewer"] is None  # yourself
    assert APIClient().get(f"{API}/players/{ben.username}").json()["viewer"] is None
    friends = ana.get("/me/following").json()["players"]
    assert friends == [
        {"name": ben.username, "display_name": ben.username, "online": False, "playing": None}
    ]
    assert delete(ana, f"/players/{ben.username}/follow").json() == {"following": False}
    assert ana.get("/me/following").json() == {"players": []}
    r = ana.post("/players/nobody-here/follow")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
    r = ana.post(f"/players/{ana.username}/follow")
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    assert APIClient().post(f"{API}/players/{ben.username}/follow").status_code == 401


def test_online_and_playing_and_a_blocker_is_hidden(make_player) -> None:
    ana, ben, cy = make_player("ana"), make_player("ben"), make_player("cy")
    for other in (ben, cy):
        assert ana.post(f"/players/{other.username}/follow").status_code == 200
    match_id = create(ben, mode="online", length=3)["id"]
    assert cy.post(f"/matches/{match_id}/join", {}).status_code == 200
    follows.seen_online([ben.user_id, cy.user_id])
    friends = {f["name"]: f for f in ana.get("/me/following").json()["players"]}
    assert friends[ben.username]["online"] and friends[ben.username]["playing"] == match_id
    assert friends[cy.username]["online"] and friends[cy.username]["playing"] == match_id
    follows.seen_online([ben.user_id], now=timezone.now() - timedelta(seconds=20))
    # cy blocks ana: he is unfollowed (blocking unfollows both ways)
    assert cy.post(f"/players/{ana.username}/block").json() == {"blocked": True}
    friends = {f["name"]: f for f in ana.get("/me/following").json()["players"]}
    assert set(friends) == {ben.username} and friends[ben.username]["online"] is False
    r = ana.post(f"/players/{cy.username}/follow")  # refused while blocked
    assert r.status_code == 403 and r.json()["code"] == "blocked"
    assert cy.get("/me/blocked").json() == {
        "players": [{"name": ana.username, "display_name": ana.username}]
    }
    assert cy.get(f"/players/{ana.username}").json()["viewer"] == {
        "following": False,
        "blocked": True,
    }
    assert delete(cy, f"/players/{ana.username}/block").json() == {"blocked": False}
    assert cy.get("/me/blocked").json() == {"players": []}


def test_reports_of_a_player_a_message_and_a_match(make_player) -> None:
    ana, ben, eve = make_player("ana"), make_player("ben"), make_player("eve")
    match_id = create(ana, mode="online", length=3, rated=False)["id"]
    ben.post(f"/matches/{match_id}/join", {})
    line = ben.post(f"/matches/{match_id}/chat", {"channel": "say", "text": "you idiot"}).json()
    r = ana.post("/reports", {"player": ben.username, "message": line["id"], "reason": "abuse"})
    assert r.status_code == 201, r.content
    assert r.json() == {"id": r.json()["id"], "status": "open"}
    report = Report.objects.get(pk=r.json()["id"])
    assert report.message_id == line["id"] and str(report.match_id) == match_id
    r = eve.post(
        "/reports",
        {
            "player": ben.username,
            "match": match_id,
            "reason": "cheating",
            "text": "plays like a bot",
        },
    )
    assert r.status_code == 201
    r = eve.post("/reports", {"player": ana.username, "message": line["id"], "reason": "spam"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"  # not her line
    r = eve.post("/reports", {"player": eve.username, "reason": "spam"})
    assert r.status_code == 400
    r = eve.post("/reports", {"player": ben.username, "reason": "rude"})
    assert r.status_code == 400 and "reason" in r.json()["detail"]
    r = eve.post("/reports", {"player": ben.username, "reason": "other", "text": "x" * 501})
    assert r.status_code == 400
    assert Report.objects.count() == 2
