"""Tournaments by clicks (issue 29): a guest finds a tournament from the header, opens its page,
joins it; at its start time (the site's worker) the page shows the bracket without a reload,
"your match is ready" appears, and it takes him to the board."""

from __future__ import annotations

import json
import urllib.request
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from .play import become_guest

pytestmark = pytest.mark.django_db(transaction=True)


def call(site: Any, method: str, path: str, body: Any = None, token: str = "") -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{site.url}api/v1{path}", data, headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def signup(site: Any, name: str) -> str:
    body = {"username": name, "password": "correct horse battery"}
    return str(call(site, "POST", "/auth/signup", body)["token"])


def test_a_guest_joins_a_tournament_and_is_taken_to_his_match(site: Any, open_page: Any) -> None:
    director = signup(site, "director")
    get_user_model().objects.filter(username="director").update(is_staff=True)
    starts = timezone.now() + timedelta(seconds=20)
    tournament = call(site, "POST", "/tournaments", {
        "name": "Friday cup", "format": "knockout", "length": 1, "clock": "site", "rated": False,
        "guests": True, "min_players": 2, "max_players": 8, "starts_at": starts.isoformat(),
    }, director)  # fmt: skip
    other = signup(site, "rival")
    call(site, "POST", f"/tournaments/{tournament['id']}/join", {}, other)

    page = open_page()
    become_guest(page, "Gus")
    page.click("nav a[href='#/tournaments']")
    page.click(f"[data-tournament='{tournament['id']}'] a")
    page.wait_for_selector("#tournament h1:has-text('Friday cup')")
    assert page.locator("#entrants li").count() == 1
    page.click("[data-action=join]")
    page.wait_for_selector("#entrants li >> nth=1")
    page.wait_for_selector("[data-action=leave]")

    # at the start time: the bracket is pushed, the notice links the board
    page.wait_for_selector("#bracket [data-round='1'] [data-action=watch]", timeout=40_000)
    page.wait_for_selector("#toast:not([hidden]) [data-action=open-notification]")
    page.click("[data-action=open-notification]")
    page.wait_for_selector("section.match")
    assert "#/match/" in page.url
    assert page.errors == []
