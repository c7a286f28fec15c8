"""Long nardy against the computer through the same Celery path as tavla: the levels of the
game (GET /rules/levels?game=), a level checked against the game, whole matches to their
end with the task run on commit, and with a real worker taking the tasks from Redis."""

from __future__ import annotations

import random

import pytest

from games import bots
from tests.api.test_computer_worker import redis_worker  # noqa: F401

from .helpers import act, check_nardy_state, conforms

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_levels_are_the_games(make_player, components) -> None:
    ana = make_player()
    for game in ("tavla", "long-nardy"):
        r = ana.get("/rules/levels", data={"game": game})
        assert r.status_code == 200, r.content
        conforms(r.json(), "Levels", components)
        assert r.json() == {
            "game": game,
            "levels": bots.levels(game),
            "default": bots.default_level(game),
        }
    assert ana.get("/rules/levels").json()["game"] == "tavla"
    r = ana.get("/rules/levels", data={"game": "chess"})
    assert r.status_code == 400 and "game" in r.json()["detail"]
    # a tavla-only level is refused for long nardy, naming the field and the game's levels
    tavla_only = next(lv for lv in bots.levels("tavla") if lv not in bots.levels("long-nardy"))
    r = ana.post("/matches", {"game": "long-nardy", "mode": "computer", "level": tavla_only})
    assert r.status_code == 400 and "level" in r.json()["detail"]
    created = ana.post("/matches", {"game": "long-nardy", "mode": "computer", "length": 1})
    assert created.status_code == 201
    level = created.json()["settings"]["computer_level"]
    assert level == bots.default_level("long-nardy")


def _play_against_the_computer(ana, match_id: str, rng: random.Random, wait: int = 0) -> dict:
    """Ana plays her turns; the computer's come by themselves (waited for with the events'
    long-poll when `wait`)."""
    state = ana.state(match_id)
    computer_actions = 0
    for _ in range(4000):
        check_nardy_state(state)
        if state["status"] != "active":
            return {"state": state, "computer_actions": computer_actions}
        if state["to_act"]["who"] == "opponent":
            assert wait, f"the computer did not act: {state['phase']}"
            r = ana.get(
                f"/matches/{match_id}/events", data={"after": state["version"], "wait": wait}
            )
            events = r.json()["events"]
            assert events, "the worker did not play the computer's turn"
            computer_actions += sum(1 for e in events if e["data"].get("seat") == 1)
            state = ana.state(match_id)
            continue
        r = act(ana, match_id, state, rng)
        assert r.status_code == 200, r.content
        state = r.json()
        if not wait and state["status"] == "active" and state["to_act"]["who"] == "opponent":
            mine = state["version"]
            state = ana.state(match_id)  # the task ran on commit: the computer has moved
            computer_actions += state["version"] - mine
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("level", bots.levels("long-nardy"))
def test_a_whole_match_against_each_level(make_player, eager_celery, components, level) -> None:
    ana = make_player()
    body = {"game": "long-nardy", "mode": "computer", "level": level, "length": 1}
    created = ana.post("/matches", body)
    assert created.status_code == 201, created.content
    match_id = created.json()["id"]
    out = _play_against_the_computer(ana, match_id, random.Random(4))
    final = out["state"]
    conforms(final, "MatchState", components)
    assert final["status"] == "finished" and max(final["result"]["score"]) >= 1
    assert final["players"][1]["kind"] == "computer"
    assert final["settings"]["computer_level"] == level
    assert out["computer_actions"] > 0


def test_a_real_worker_plays_the_computers_turns_to_the_end(make_player, redis_worker) -> None:  # noqa: F811
    ana = make_player()
    body = {"game": "long-nardy", "mode": "computer", "length": 1}
    match_id = ana.post("/matches", body).json()["id"]
    out = _play_against_the_computer(ana, match_id, random.Random(12), wait=10)
    assert out["state"]["status"] == "finished"
    assert out["computer_actions"] > 0
