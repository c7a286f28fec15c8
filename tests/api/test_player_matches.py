"""A player's finished matches (GET /players/{name}/matches): rated or not, newest first,
hot-seat left out, a private match only to its players."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import API, create

pytestmark = pytest.mark.django_db


def _finished_online(ana, ben, **settings) -> str:
    match_id = create(ana, mode="online", length=1, **settings)["id"]
    code = ana.state(match_id)["lobby"]["invite_code"]
    assert ben.post(f"/invites/{code}/join", {}).status_code == 200
    assert ben.post(f"/matches/{match_id}/resign-match", {}).status_code == 200
    return match_id


def _listed(client, name: str, **params) -> list[str]:
    r = client.get(f"{API}/players/{name}/matches", params)
    assert r.status_code == 200, r.content
    return [m["id"] for m in r.json()["results"]]


def test_his_finished_matches_rated_or_not_newest_first(make_player) -> None:
    ana, ben, eve = make_player("ana"), make_player("ben"), make_player("eve")
    public = _finished_online(ana, ben, open_challenge=False)
    private = _finished_online(ana, ben, public=False, open_challenge=False)
    computer = create(ana, mode="computer", length=1, level="random")["id"]
    assert ana.post(f"/matches/{computer}/resign-match", {}).status_code == 200
    hotseat = create(ana, mode="hotseat", length=1)["id"]
    assert ana.post(f"/matches/{hotseat}/resign-match", {}).status_code == 200
    create(ana, mode="online", length=1)  # waiting: not finished, not listed

    assert _listed(ana.client, ana.username) == [computer, private, public]
    assert _listed(ben.client, ben.username) == [private, public]
    assert _listed(eve.client, ana.username) == [computer, public]
    assert _listed(APIClient(), ana.username) == [computer, public]
    assert _listed(eve.client, ana.username, game="long-nardy") == []
    page = ana.get(f"/players/{ana.username}/matches", data={"limit": 1}).json()
    assert [m["id"] for m in page["results"]] == [computer] and page["next"]
    first = ana.get(f"/players/{ana.username}/matches").json()["results"][-1]
    assert first["status"] == "finished" and first["ended_by"] == "resign"
    assert first["winner"] == 0 and first["score"] == [1, 0]
    assert first["players"][0]["username"] == ana.username


def test_an_unknown_player_is_not_found(make_player) -> None:
    r = make_player().get("/players/nobody-at-all/matches")
    assert r.status_code == 404 and r.json()["code"] == "not_found"
