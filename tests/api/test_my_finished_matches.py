"""`GET /matches?status=finished`: the caller's finished matches, paged, newest first, each
with its result (winner, ended_by) and score, as "My matches" keeps them."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches import services
from matches.api.authentication import issue_token
from matches.store.dice import ScriptedDice
from matches.store.models import Match
from tests.api.conftest import Policy, create, play_out
from tests.clock.test_store_clock import at

CLOCK = {"delay": 2, "reserve": 3, "max_move": 4, "reconnect": 60}


@pytest.mark.django_db
def test_finished_matches_are_paged_newest_first_with_result_and_score(
    django_user_model: Any,
) -> None:
    ana = django_user_model.objects.create_user("ana")
    bob = django_user_model.objects.create_user("bob")
    ids = []
    for n, length in enumerate((1, 3, 5)):
        t0 = 100 * n
        view = services.match_create(
            user=ana, mode="online", length=length, clock=CLOCK, now=at(t0)
        )
        dice = ScriptedDice([(3, 1)])
        services.match_join(match_id=view.match_id, user=bob, now=at(t0), dice=dice)
        services.match_timeout(match_id=view.match_id, seat=0, now=at(t0 + 10))  # ana is late
        ids.append(str(view.match_id))
    services.match_create(user=ana, mode="online", length=7)  # waiting: not in the list
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(ana)}")
    first = client.get("/api/v1/matches", {"status": "finished", "limit": 2}).json()
    assert [m["id"] for m in first["results"]] == [ids[2], ids[1]]
    rest = client.get(first["next"]).json()
    assert [m["id"] for m in rest["results"]] == [ids[0]]
    for summary, length in zip([*first["results"], *rest["results"]], (5, 3, 1), strict=True):
        assert summary["status"] == "finished"
        assert (summary["winner"], summary["ended_by"]) == (1, "timeout")
        assert summary["score"] == [0, length]  # the match lost: the winner has its length


@pytest.mark.django_db
def test_a_match_played_out_says_bearoff_in_the_list_as_in_its_state(make_player: Any) -> None:
    """One word for how a match ended: the list's `ended_by` is the state's (the rules'
    `bearoff`, which the row called `points` before)."""
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    final = play_out(match_id, {0: ana, 1: ana}, Policy(random.Random(2)))
    assert final["result"]["ended_by"] == "bearoff"
    listed = ana.get("/matches", data={"status": "finished"}).json()["results"]
    assert [(m["id"], m["ended_by"]) for m in listed] == [(match_id, "bearoff")]
    assert Match.objects.get(pk=match_id).ended_by == "bearoff"
