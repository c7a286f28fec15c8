"""Resigning the whole match (POST /matches/{id}/resign-match): at any moment, either player,
recorded as a `match_resigned` event that replays to the same end."""

from __future__ import annotations

import random
from uuid import UUID

import pytest

from matches.store.models import Match, MatchEvent
from tests.api.conftest import Policy, act, create
from tests.store.helpers import check_contract

pytestmark = pytest.mark.django_db


def _online(make_player, length: int = 3) -> tuple:
    ana, ben = make_player("ana"), make_player("ben")
    match_id = create(ana, mode="online", length=length, open_challenge=True)["id"]
    assert ben.post(f"/matches/{match_id}/join", {}).status_code == 200
    return ana, ben, match_id


def test_the_player_not_on_turn_resigns_the_match(make_player) -> None:
    ana, ben, match_id = _online(make_player, length=5)
    state = ana.state(match_id)
    waiting, on_turn = (ben, ana) if state["turn"]["who"] == "you" else (ana, ben)
    assert "resign-match" in waiting.state(match_id)["actions"]
    version = state["version"]
    r = waiting.post(f"/matches/{match_id}/resign-match", {"expected_version": version})
    assert r.status_code == 200, r.content
    over = r.json()
    assert over["status"] == "finished" and over["phase"] == "over"
    assert over["result"]["ended_by"] == "resign"
    assert over["result"]["winner"]["who"] == "opponent"
    assert over["score"] == {**over["score"], "you": 0, "opponent": 5}
    assert over["games"][-1]["points"] == 5
    assert over["version"] == version + 1
    assert "resign-match" not in over["actions"]
    assert on_turn.state(match_id)["result"]["winner"]["who"] == "you"
    last = MatchEvent.objects.filter(match_id=match_id).order_by("-seq").first()
    assert last is not None and last.type == "match_resigned"
    assert last.payload["seat"] == over["side"]["seat"]
    events = waiting.get(f"/matches/{match_id}/events?after={version}").json()["events"]
    assert [e["type"] for e in events] == ["match_resigned"]
    # the stored stream replays to the same end as the projection shows
    cold = check_contract(UUID(match_id))
    assert cold.state is not None and cold.state.is_over
    row = Match.objects.get(pk=match_id)
    assert (row.status, row.ended_by) == ("finished", "resign")


def test_resigning_a_finished_match_is_refused_and_writes_nothing(make_player) -> None:
    ana, ben, match_id = _online(make_player)
    assert ana.post(f"/matches/{match_id}/resign-match", {}).status_code == 200
    count = MatchEvent.objects.filter(match_id=match_id).count()
    for player in (ana, ben):
        r = player.post(f"/matches/{match_id}/resign-match", {})
        assert r.status_code == 422 and r.json()["code"] == "illegal_action", r.content
        assert r.json()["message"] == "The match is over."
    assert MatchEvent.objects.filter(match_id=match_id).count() == count


def test_resigning_before_an_opponent_joined_is_refused(make_player) -> None:
    ana = make_player("ana")
    match_id = create(ana, mode="online", length=1, open_challenge=True)["id"]
    assert "resign-match" not in ana.state(match_id)["actions"]
    r = ana.post(f"/matches/{match_id}/resign-match", {})
    assert r.status_code == 422 and r.json()["code"] == "illegal_action", r.content
    assert Match.objects.get(pk=match_id).status == "waiting"


@pytest.mark.django_db(transaction=True)
def test_resigning_in_the_middle_gives_the_points_still_needed(make_player) -> None:
    """After some games of a match to 7 the winner's score becomes 7, whatever it was."""
    ana, ben, match_id = _online(make_player, length=7)
    players = {0: ana, 1: ben}
    policy = Policy(random.Random(5))
    # play until one game has been decided (the score moved), then resign in the next
    state = ana.state(match_id)
    for _ in range(3000):
        if sum(state["score"]["seats"]) > 0:
            break
        player = players[state["to_act"]["seat"]]
        state = act(player, match_id, player.state(match_id), policy)
    assert state["status"] == "active" and max(state["score"]["seats"]) < 7, state["score"]
    before = state["score"]["seats"]
    r = ben.post(f"/matches/{match_id}/resign-match", {})
    assert r.status_code == 200, r.content
    over = r.json()
    assert over["score"]["seats"][0] == 7 and over["score"]["seats"][1] == before[1]
    assert over["games"][-1]["points"] == 7 - before[0]
    assert sum(g["points"] for g in over["games"]) == sum(over["score"]["seats"])


def test_in_hot_seat_the_seat_on_turn_resigns(make_player) -> None:
    ana = make_player("ana")
    match_id = create(ana, mode="hotseat", length=3)["id"]
    state = ana.state(match_id)
    seat = state["turn"]["seat"]
    r = ana.post(f"/matches/{match_id}/resign-match", {})
    assert r.status_code == 200, r.content
    assert r.json()["result"]["winner"]["seat"] == 1 - seat


def test_the_refusal_is_said_in_the_callers_language(make_player) -> None:
    ana, ben, match_id = _online(make_player)
    assert ana.post(f"/matches/{match_id}/resign-match", {}).status_code == 200
    r = ben.post(f"/matches/{match_id}/resign-match", {}, HTTP_ACCEPT_LANGUAGE="tr")
    assert r.status_code == 422 and r.json()["code"] == "illegal_action"
    assert r.json()["detail"]["rule"] == "match_over"
    assert r.json()["message"] != "The match is over."
