"""Accounts: sign-up, token login/logout, guests, bot accounts; throttling of writes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import API, client_with, create, guest, signup

pytestmark = pytest.mark.django_db


def post(path: str, data: dict, client: APIClient | None = None):  # type: ignore[no-untyped-def]
    return (client or APIClient()).post(API + path, data, format="json")


def test_signup_login_logout() -> None:
    ana = signup("ana")
    me = ana.get("/me").json()
    assert me == {"id": ana.user_id, "username": "ana", "display_name": "ana", "kind": "registered"}
    r = post("/auth/login", {"username": "ana", "password": "correct horse battery"})
    # each login issues a new token (rotation); the sign-up's one still works until logout
    assert r.status_code == 200 and r.json()["token"] != ana.token
    laptop = client_with(r.json()["token"])
    r = post("/auth/login", {"username": "ana", "password": "wrong"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_credentials"
    assert ana.post("/auth/logout").status_code == 204
    r = ana.get("/me")
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed"
    assert laptop.get(f"{API}/me").status_code == 200  # logout ends this token only
    # a new login gives a new token
    r = post("/auth/login", {"username": "ana", "password": "correct horse battery"})
    assert client_with(r.json()["token"]).get(f"{API}/me").status_code == 200
    # Bearer works as well as Token
    bearer = APIClient(HTTP_AUTHORIZATION=f"Bearer {r.json()['token']}")
    assert bearer.get(f"{API}/me").json()["username"] == "ana"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"username": "ana", "password": "correct horse battery"}, "username"),  # taken
        ({"username": "guest-x", "password": "correct horse battery"}, "username"),
        ({"username": "computer-random", "password": "correct horse battery"}, "username"),
        ({"username": "a b", "password": "correct horse battery"}, "username"),
        ({"username": "zed", "password": "123"}, "password"),
        ({"username": "zed"}, "password"),
    ],
)
def test_signup_refusals(data: dict, field: str) -> None:
    signup("ana")
    r = post("/auth/signup", data)
    assert r.status_code == 400
    body = r.json()
    assert body["code"] == "invalid_request" and field in body["detail"]


def test_guests_and_bots_play_with_the_same_endpoints() -> None:
    marko = guest("Marko")
    assert marko.username.startswith("guest-")
    assert marko.get("/me").json()["kind"] == "guest"
    bot = signup("gnubot", bot=True)
    assert bot.get("/me").json()["kind"] == "bot"
    match_id = create(marko, mode="online", length=1)["id"]
    r = bot.post(f"/matches/{match_id}/join", {})
    assert r.status_code == 200
    players = r.json()["players"]
    assert [p["kind"] for p in players] == ["guest", "bot"]
    assert players[0]["display_name"] == "Marko"


def test_malformed_bodies_are_400_not_500() -> None:
    ana = signup("ana")
    c = ana.client
    r = c.post(f"{API}/matches", "{not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "parse_error"
    r = c.post(f"{API}/matches", "mode=online", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415 and r.json()["code"] == "unsupported_media_type"
    r = c.post(f"{API}/matches", [1, 2], format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid_request"
    for bad in (
        {"length": 26},
        {"length": -1},
        {"length": "x"},
        {"mode": "chess"},
        {"mode": "computer", "level": "grandmaster"},
        {"jacoby": True, "length": 5},
        {"backgammon_value": 4},
        {"clock": "blitz"},
        {"clock": {"delay": 1}},
        {"clock": {"delay": -1, "reserve": 1, "max_move": 1, "reconnect": 1}},
        {"mode": "hotseat", "clock": "site"},
        {"seat": 2},
    ):
        r = c.post(f"{API}/matches", bad, format="json")
        assert r.status_code == 400, (bad, r.content)
        assert r.json()["code"] == "invalid_request"
    r = c.get(f"{API}/matches/not-a-uuid")
    assert r.status_code == 404 and r.json()["code"] == "match_not_found"
    r = c.get(f"{API}/nowhere")
    assert r.status_code == 404
    r = c.put(f"{API}/matches", {}, format="json")
    assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"


def test_custom_clock_is_stored() -> None:
    ana = signup("ana")
    clock = {"delay": 5, "reserve": 30, "max_move": 20, "reconnect": 10}
    state = create(ana, mode="online", length=1, clock=clock)
    assert state["settings"]["clock"] == clock
    assert state["clock"]["deadline"] is None and state["clock"]["running"] is None  # waiting
    assert create(ana, mode="online", length=1, clock="none")["settings"]["clock"] is None
    assert create(ana, mode="computer", length=1)["settings"]["clock"] is None


def test_writes_are_throttled(settings) -> None:
    ana = signup("ana")
    rf = dict(settings.REST_FRAMEWORK)
    rf["DEFAULT_THROTTLE_RATES"] = {**rf["DEFAULT_THROTTLE_RATES"], "match_create": "3/min"}
    settings.REST_FRAMEWORK = rf
    codes = [ana.post("/matches", {"mode": "hotseat", "length": 1}).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    r = ana.post("/matches", {"mode": "hotseat", "length": 1})
    body = r.json()
    assert body["code"] == "throttled" and body["detail"]["retry_after"] > 0
    assert int(r["Retry-After"]) > 0
    assert ana.get("/matches").status_code == 200  # reads are not throttled
