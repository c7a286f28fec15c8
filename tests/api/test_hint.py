"""GET /matches/{id}/hint: the player on turn gets his legal plays ranked by the analysis's
network (top 5, equities and errors), only where hints are allowed: against the computer, in
hot-seat, in unrated matches created with hints; never in a rated match, never to a
spectator (docs/analysis.md)."""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from games.bots.analysis import hints
from matches.store.streams import load_view
from tests.api.conftest import API, create

pytestmark = pytest.mark.django_db


def rolled(player, match_id: str) -> dict:
    """The state once `player` has his dice out (he rolls if he must)."""
    state = player.state(match_id)
    if "roll" in state["actions"]:
        r = player.post(f"/matches/{match_id}/roll", {"expected_version": state["version"]})
        assert r.status_code == 200, r.content
        state = r.json()
    return state


def until_a_choice(ana, match_id: str) -> dict:
    """Play ana's forced moves until he holds dice with at least two legal plays. The computer
    moves on commit (eager Celery), so the test must commit: `transaction=True`."""
    for _ in range(200):
        state = ana.state(match_id)
        assert state["to_act"]["who"] == "you", f"the computer did not move: {state['actions']}"
        if "roll" in state["actions"]:
            r = ana.post(f"/matches/{match_id}/roll", {"expected_version": state["version"]})
        elif len(state["legal_plays"]) >= 2:
            return state
        else:  # one legal play (or none: the empty play passes)
            plays = state["legal_plays"]
            play = plays[0]["notation"] if plays else []
            r = ana.post(
                f"/matches/{match_id}/play", {"play": play, "expected_version": state["version"]}
            )
        assert r.status_code == 200, r.content
    raise AssertionError("no roll with a choice in 200 commands")


@pytest.mark.django_db(transaction=True)
def test_the_player_on_turn_gets_the_best_plays_ranked(make_player, eager_celery) -> None:
    ana = make_player()
    match_id = create(ana, mode="computer", level="random", length=3)["id"]
    assert ana.state(match_id)["settings"]["hints"] is True
    state = until_a_choice(ana, match_id)
    started = time.perf_counter()
    r = ana.get(f"/matches/{match_id}/hint")
    took = time.perf_counter() - started
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["version"] == state["version"] and body["dice"] == sorted(
        state["dice"][:2], reverse=True
    )
    plays = body["plays"]
    legal = {p["notation"] for p in state["legal_plays"]}
    assert 2 <= len(plays) <= 5 and {p["play"] for p in plays} <= legal
    assert plays[0]["error"] == 0.0
    equities = [p["equity"] for p in plays]
    assert equities == sorted(equities, reverse=True)
    for p in plays:
        assert p["error"] == pytest.approx(equities[0] - p["equity"], abs=1e-5)
    # the engine's own ranking of the stored position (the same network, the same numbers)
    stored = load_view(match_id).state
    took_engine = []
    for _ in range(3):  # the best of three: the machine is shared
        started = time.perf_counter()
        engine = hints(stored)
        took_engine.append(time.perf_counter() - started)
    assert min(took_engine) < 0.1  # the limit for a hint
    assert [(h.play, round(h.equity, 6)) for h in engine] == [
        (p["play"], p["equity"]) for p in plays
    ]
    assert took < 2.0, f"the hint took {took * 1000:.0f} ms"  # over HTTP, the network loaded


def test_in_hotseat_and_before_the_roll(make_player) -> None:
    ana = make_player()
    match_id = create(ana, mode="hotseat", length=1)["id"]
    state = ana.state(match_id)
    body = ana.get(f"/matches/{match_id}/hint").json()
    if "roll" in state["actions"]:
        assert body["plays"] == [] and body["dice"] is None
    state = rolled(ana, match_id)
    assert ana.get(f"/matches/{match_id}/hint").json()["plays"]


def test_never_in_a_rated_match_nor_to_a_spectator(make_player) -> None:
    ana, ben, eve = make_player(), make_player(), make_player()
    rated = create(ana, mode="online", length=3)["id"]
    assert ben.post(f"/matches/{rated}/join", {}).status_code == 200
    assert ana.state(rated)["settings"]["hints"] is False
    for who in (ana, ben, eve):
        r = who.get(f"/matches/{rated}/hint")
        assert r.status_code == 403 and r.json()["code"] == "hints_not_allowed", r.content
    hotseat = create(ana, mode="hotseat", length=1)["id"]
    for r in (
        eve.get(f"/matches/{hotseat}/hint"),
        APIClient().get(f"{API}/matches/{hotseat}/hint"),
    ):
        assert r.status_code == 403 and r.json()["code"] == "hints_not_allowed"
    private = create(ana, mode="hotseat", length=1, public=False)["id"]
    r = eve.get(f"/matches/{private}/hint")
    assert r.status_code == 404 and r.json()["code"] == "match_not_found"
    r = ana.get(f"/matches/{rated}/hint", HTTP_ACCEPT_LANGUAGE="sr-Latn")
    assert r.json()["message"] == "U ovom meču nema saveta."


def test_an_unrated_match_created_with_hints(make_player) -> None:
    ana, ben = make_player(), make_player()
    r = ana.post("/matches", {"mode": "online", "length": 3, "rated": True, "hints": True})
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    assert "hints" in r.json()["detail"]
    created = create(ana, mode="online", length=3, hints=True)  # unrated by itself
    assert created["settings"]["hints"] is True and created["settings"]["rated"] is False
    match_id = created["id"]
    assert ben.post(f"/matches/{match_id}/join", {}).status_code == 200
    state = ana.state(match_id)
    on_turn, waiting = (ana, ben) if state["to_act"]["who"] == "you" else (ben, ana)
    rolled(on_turn, match_id)
    assert on_turn.get(f"/matches/{match_id}/hint").json()["plays"]
    r = waiting.get(f"/matches/{match_id}/hint")
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
