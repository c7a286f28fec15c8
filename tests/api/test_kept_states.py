"""Kept state bodies (matches/api/states.py): a read that finds its state kept answers what a
fresh build answers, for every caller, seat and version; an input that changed, and a clock
that runs, are never answered from the kept body."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from matches import selectors
from matches.api import states
from matches.api.contract import render
from matches.api.renderers import JSONRenderer
from matches.store import load_view
from matches.store.models import Match

from .conftest import API, Player, Policy, act, create, guest, play_out

# transaction=True: views are kept only once committed (store.load_view), as in production
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many states were built for a response (the kept ones are not): one entry each."""
    states.forget()
    built: list[int] = []
    real = selectors.state_of

    def counting(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "state_of", counting)
    return built


def fresh(match_id: str, user: Any, seat: int | None = None) -> bytes:
    """The state built from nothing kept, encoded as the API encodes it."""
    match = Match.objects.get(pk=match_id)
    view = load_view(match.pk, cached=False)
    return JSONRenderer().render(render(selectors.match_state(match, view, user, seat=seat)))


def read(client: APIClient, match_id: str, **params: Any) -> bytes:
    """The state's body (the row read once for it)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"{API}/matches/{match_id}", data=params)
    rows = [q["sql"] for q in queries.captured_queries if 'FROM "matches_match"' in q["sql"]]
    assert len(rows) == 1, rows
    assert response.status_code == 200, response.content
    assert response["ETag"] == f'"{response.json()["version"]}"'
    return bytes(response.content)


def test_a_kept_state_is_the_state_every_caller_would_be_built(
    make_player: Callable[..., Player], builds: list[int]
) -> None:
    """A hot-seat match played on: at every version its player (from either seat), another
    player and an anonymous reader each read twice; both reads are the fresh state, and the
    second is the kept one (no build)."""
    owner, spectator = make_player(), make_player()
    users = get_user_model().objects
    callers: list[tuple[APIClient, Any, dict[str, Any]]] = [
        (owner.client, users.get(pk=owner.user_id), {}),
        (owner.client, users.get(pk=owner.user_id), {"seat": 1}),
        (spectator.client, users.get(pk=spectator.user_id), {}),
        (APIClient(), AnonymousUser(), {"seat": 1}),
    ]
    match_id = create(owner, mode="hotseat", length=3)["id"]
    policy = Policy(random.Random(7), greedy=False)
    state = owner.state(match_id)
    versions = 0
    while state["status"] == "active" and versions < 40:
        built = len(builds)
        for client, user, params in callers:
            first = read(client, match_id, **params)
            once = len(builds)
            second = read(client, match_id, **params)
            assert len(builds) == once  # the second read is the kept body
            assert first == second == fresh(match_id, user, params.get("seat"))
        assert len(builds) > built  # the version's states were built, not found
        state = act(owner, match_id, owner.state(match_id), policy)
        versions += 1
    assert versions == 40 or state["status"] == "finished"


def test_a_player_who_changed_is_shown_as_he_is_now(builds: list[int]) -> None:
    """A guest registers between two reads of his match at one version: the second read
    shows his new kind and name (his inputs changed), not the kept body."""
    player = guest("Marko")
    match_id = create(player, mode="hotseat", length=1)["id"]
    before = player.state(match_id)
    assert player.state(match_id) == before
    assert len(builds) == 1
    assert [p["kind"] for p in before["players"]] == ["guest", "guest"]

    response = player.post(
        "/auth/signup",
        {"username": "marko", "password": "correct horse battery", "display_name": "Marko P"},
    )
    assert response.status_code in (200, 201), response.content

    after = player.state(match_id)
    assert after["version"] == before["version"]
    assert [p["kind"] for p in after["players"]] == ["registered", "registered"]
    assert [p["display_name"] for p in after["players"]] == ["Marko P", "Marko P"]
    assert len(builds) == 2


def test_the_clock_of_a_kept_state_runs(
    make_player: Callable[..., Player], builds: list[int]
) -> None:
    """A clocked online match read twice at one version: the second read is the kept body
    with the clock as it is now (its `now` moved on), everything else the same."""
    white, black = make_player(), make_player()
    match_id = create(
        white,
        mode="online",
        length=1,
        clock={"delay": 30, "reserve": 300, "max_move": 600, "reconnect": 120},
    )["id"]
    joined = black.post(f"/matches/{match_id}/join", {})
    assert joined.status_code == 200, joined.content

    first = json.loads(read(white.client, match_id))
    time.sleep(0.05)
    second = json.loads(read(white.client, match_id))
    assert len(builds) == 1
    assert first["version"] == second["version"]
    assert first["clock"] is not None
    assert second["clock"]["now"] > first["clock"]["now"]
    assert {k: v for k, v in second.items() if k != "clock"} == {
        k: v for k, v in first.items() if k != "clock"
    }
    assert list(second) == list(first)  # the same keys in the same order


def test_a_finished_match_is_kept_too(
    make_player: Callable[..., Player], builds: list[int]
) -> None:
    """A match played out (its result, its games, the rematch it may offer): read twice, the
    fresh state both times, built once."""
    owner = make_player()
    match_id = create(owner, mode="hotseat", length=1)["id"]
    done = play_out(match_id, {0: owner, 1: owner}, Policy(random.Random(3)))
    assert done["status"] == "finished"
    user = get_user_model().objects.get(pk=owner.user_id)
    before = len(builds)
    first = read(owner.client, match_id)
    second = read(owner.client, match_id)
    assert first == second == fresh(match_id, user)
    assert len(builds) == before + 1
    assert json.loads(first)["result"] is not None
