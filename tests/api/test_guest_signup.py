"""A guest signs up later and keeps his matches: POST /auth/signup with the guest's token turns
that account into a registered one (same id, same token, same seats)."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import API, Policy, client_with, create, guest, play_out, signup

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"


def test_a_guest_signs_up_keeping_his_matches_and_token() -> None:
    marko = guest("Marko")
    finished = create(marko, mode="hotseat", length=1)["id"]
    play_out(finished, {0: marko, 1: marko}, Policy(random.Random(3)))
    running = create(marko, mode="hotseat", length=3)["id"]

    r = marko.post("/auth/signup", {"username": "marko", "password": PASSWORD})
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["token"] == marko.token
    assert body["user"] == {
        "id": marko.user_id,
        "username": "marko",
        "display_name": "Marko",
        "kind": "registered",
    }
    # the same token goes on working, and the matches are his
    assert marko.get("/me").json()["kind"] == "registered"
    mine = {m["id"] for m in marko.get("/matches").json()["results"]}
    assert mine == {finished, running}
    state = marko.state(running)
    assert state["players"][0]["kind"] == "registered"
    assert "roll" in state["actions"] or "play" in state["actions"]
    assert marko.state(finished)["side"]["seats"] == [0, 1]
    # and he can log in with the new password: the same account
    r = APIClient().post(
        f"{API}/auth/login", {"username": "marko", "password": PASSWORD}, format="json"
    )
    assert r.status_code == 200 and r.json()["user"]["id"] == marko.user_id


def test_a_display_name_given_at_sign_up_replaces_the_guests() -> None:
    g = guest()
    r = g.post("/auth/signup", {"username": "nina", "password": PASSWORD, "display_name": "Nina"})
    assert r.status_code == 200
    assert r.json()["user"]["display_name"] == "Nina"
    assert g.get("/me").json()["display_name"] == "Nina"


def test_a_guest_may_become_a_bot_account() -> None:
    g = guest()
    r = g.post("/auth/signup", {"username": "robo", "password": PASSWORD, "bot": True})
    assert r.status_code == 200 and r.json()["user"]["kind"] == "bot"


def test_a_registered_players_token_cannot_sign_up_again() -> None:
    ana = signup("ana")
    r = ana.post("/auth/signup", {"username": "ana2", "password": PASSWORD})
    assert r.status_code == 409
    assert r.json()["code"] == "already_registered"
    # and a registered guest is registered: a second sign-up with his token is refused too
    g = guest()
    assert g.post("/auth/signup", {"username": "gina", "password": PASSWORD}).status_code == 200
    r = g.post("/auth/signup", {"username": "gina2", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "already_registered"


def test_refusals_leave_the_guest_a_guest() -> None:
    signup("taken")
    g = guest()
    r = g.post("/auth/signup", {"username": "taken", "password": PASSWORD})
    assert r.status_code == 400 and "username" in r.json()["detail"]
    r = g.post("/auth/signup", {"username": "fresh", "password": "123"})
    assert r.status_code == 400 and "password" in r.json()["detail"]
    me = g.get("/me").json()
    assert me["kind"] == "guest" and me["username"] == g.username


def test_an_unknown_token_is_refused_not_ignored() -> None:
    r = client_with("0" * 40).post(
        f"{API}/auth/signup", {"username": "zed", "password": PASSWORD}, format="json"
    )
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed"


def test_without_a_token_sign_up_creates_a_new_account() -> None:
    r = APIClient().post(
        f"{API}/auth/signup", {"username": "newbie", "password": PASSWORD}, format="json"
    )
    assert r.status_code == 201 and r.json()["user"]["kind"] == "registered"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "This account is registered already: log out to sign up another."),
        ("sr-Latn", "Ovaj nalog je već registrovan: odjavite se da biste registrovali drugi."),
        ("tr", "Bu hesap zaten kayıtlı: başka bir hesap açmak için çıkış yapın."),  # noqa: RUF001
    ],
)
def test_the_refusal_is_worded_in_the_callers_language(language: str, message: str) -> None:
    ana = signup(f"ana-{language.lower()}")
    r = ana.post(
        "/auth/signup", {"username": "other", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert r.status_code == 409 and r.json() == {
        "code": "already_registered",
        "message": message,
        "detail": None,
    }


def test_a_blank_display_name_is_no_name() -> None:
    r = APIClient().post(f"{API}/auth/guest", {"display_name": ""}, format="json")
    assert r.status_code == 201 and r.json()["user"]["display_name"].startswith("guest-")
    g = client_with(r.json()["token"])
    r = g.post(
        f"{API}/auth/signup",
        {"username": "blanky", "password": PASSWORD, "display_name": ""},
        format="json",
    )
    assert r.status_code == 200 and r.json()["user"]["display_name"] == "blanky"


def test_the_cached_token_follows_the_sign_up(settings) -> None:  # type: ignore[no-untyped-def]
    settings.TAVLA_TOKEN_CACHE = "default"  # the token's account read from the cache
    g = guest("Gina")
    assert g.get("/me").json()["kind"] == "guest"  # cached now
    r = g.post("/auth/signup", {"username": "gina", "password": PASSWORD})
    assert r.status_code == 200
    me = g.get("/me").json()
    assert (me["username"], me["kind"]) == ("gina", "registered")
    r = g.post("/auth/signup", {"username": "gina3", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "already_registered"
