"""Helpers of the API tests: players with tokens, and a driver that plays matches over HTTP."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.rules.gnubgid import position_from_id

API = "/api/v1"

HIGH_RATES = {"auth": "100000/min", "match_create": "100000/min", "match_write": "100000/min"}


@pytest.fixture(autouse=True)
def _api_settings(settings: Any) -> Iterator[None]:
    """Throttles out of the way (one test checks them on purpose); a clean throttle cache."""
    rf = dict(settings.REST_FRAMEWORK)
    rf["DEFAULT_THROTTLE_RATES"] = dict(HIGH_RATES)
    settings.REST_FRAMEWORK = rf
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Celery tasks run in the process that schedules them (on commit), errors propagating.

    The computer's turns are then played by the real task, through the real services, as soon
    as the human's command commits: the same code path a worker runs, without a broker."""
    from tavla_project.celery import app

    old = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = old


@dataclass
class Player:
    username: str
    token: str
    user_id: int
    client: APIClient = field(repr=False)

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(API + path, **kw)

    def post(self, path: str, data: Any = None, **kw: Any) -> Any:
        return self.client.post(API + path, data, format=kw.pop("format", "json"), **kw)

    def state(self, match_id: str, **params: Any) -> dict[str, Any]:
        response = self.get(f"/matches/{match_id}", data=params)
        assert response.status_code == 200, response.content
        return response.json()


def client_with(token: str | None = None) -> APIClient:
    client = APIClient()
    if token:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def signup(username: str, *, bot: bool = False) -> Player:
    response = APIClient().post(
        f"{API}/auth/signup",
        {"username": username, "password": "correct horse battery", "bot": bot},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    return Player(username, body["token"], body["user"]["id"], client_with(body["token"]))


def guest(name: str = "") -> Player:
    response = APIClient().post(f"{API}/auth/guest", {"display_name": name}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    user = body["user"]
    return Player(user["username"], body["token"], user["id"], client_with(body["token"]))


@pytest.fixture
def make_player() -> Callable[..., Player]:
    counter = iter(range(10_000))

    def make(prefix: str = "player", *, bot: bool = False) -> Player:
        return signup(f"{prefix}{next(counter)}", bot=bot)

    return make


def create(player: Player, **settings: Any) -> dict[str, Any]:
    response = player.post("/matches", settings)
    assert response.status_code == 201, response.content
    return response.json()


# -- playing a match through the API ------------------------------------------------------------


@dataclass
class Policy:
    """How the driver answers: the choices a test wants exercised, decided by a seeded rng."""

    rng: random.Random
    double: float = 0.0  # chance to double when allowed
    take: float = 1.0  # chance to take an offered double
    resign: float = 0.0  # chance to resign on the own turn
    resign_value: int = 1
    accept: float = 1.0  # chance to accept a resignation
    greedy: bool = True  # play the play that races home fastest (short games), else random
    counts: dict[str, int] = field(default_factory=dict)

    def chance(self, p: float) -> bool:
        return p > 0 and self.rng.random() < p

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1


def act(player: Player, match_id: str, state: dict[str, Any], policy: Policy) -> dict[str, Any]:
    """Make one move for `player` from `state`; return the new state."""
    actions = state["actions"]
    version = state["version"]

    def send(path: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        body = {"expected_version": version, **(data or {})}
        response = player.post(f"/matches/{match_id}/{path}", body)
        assert response.status_code == 200, (path, response.content)
        policy.count(path)
        return response.json()

    if "take" in actions:
        return send("take" if policy.chance(policy.take) else "drop")
    if "accept" in actions:
        return send("accept" if policy.chance(policy.accept) else "reject")
    if "roll" in actions:
        if "double" in actions and policy.chance(policy.double):
            return send("double")
        if policy.chance(policy.resign):
            return send("resign", {"value": policy.resign_value})
        return send("roll")
    if "play" in actions:
        plays = state["legal_plays"]
        assert plays, "asked to play with no legal plays"
        chosen = max(plays, key=_race) if policy.greedy else policy.rng.choice(plays)
        if policy.rng.random() < 0.5:
            return send("play", {"play": chosen["notation"]})
        return send("play", {"play": [[s["from"], s["to"]] for s in chosen["steps"]]})
    raise AssertionError(f"nothing to do: {actions}")


def _race(play: dict[str, Any]) -> tuple[int, int]:
    """Checkers off, then fewest pips of my own left (never minding hits, which would make
    both sides hit back and forth): a fast, simple way to finish games."""
    after = position_from_id(play["position_id"]).flipped()  # back to the mover's side
    return after.off[0], -after.pips()[0]


def play_out(
    match_id: str,
    seats: dict[int, Player],
    policy: Policy,
    *,
    max_steps: int = 5000,
    watcher: Player | None = None,
) -> dict[str, Any]:
    """Drive a match to its end; `seats` maps each human seat to its player (hot-seat: the
    same player twice). Seats not in it belong to the computer, which must move by itself."""
    anyone = next(iter(seats.values()))
    state, seen_by = anyone.state(match_id), anyone
    for step in range(max_steps):
        if state["status"] != "active":
            return state
        to_act = state["to_act"]
        assert to_act is not None, state
        player = seats.get(to_act["seat"])
        assert player is not None, f"the computer did not move: {state['phase']} {state['actions']}"
        if seen_by is not player or state["side"]["seat"] != to_act["seat"]:
            state = player.state(match_id)
        if watcher is not None and step % 10 == 0:
            watched = watcher.state(match_id)
            assert watched["actions"] == []
            assert watched["version"] == state["version"]
        state, seen_by = act(player, match_id, state, policy), player
        if state["status"] == "active" and state["to_act"]["seat"] not in seats:
            state = anyone.state(match_id)  # the computer has moved by now (task on commit)
    raise AssertionError("the match did not end")
