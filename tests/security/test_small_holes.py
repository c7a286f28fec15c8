"""Small holes of issue 24 (items 7, reads, and 8), against the deployed-like site: each as
the attacker found it, and what the service does now (docs/security.md, "Small holes")."""

from __future__ import annotations

import json
import re
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from .site import LIMITS, ROOT, Site, address, client

API = "/api/v1"
GUEST_READ = int(LIMITS["API_THROTTLE_GUEST_READ"].split("/")[0])
HEADER_TIMEOUT = float(LIMITS["WEB_HEADER_TIMEOUT"])
MAT = (ROOT / "tests/data/matches-public/match_01_len1_cube.mat").read_text()
NAMES_LINE = " gnubgA : 0                     gnubgB : 0"


def guest_token(site: Site, name: str = "") -> str:
    with client(site.url) as http:  # each guest from an address of its own
        r = http.post(f"{API}/auth/guest", json={"display_name": name})
        assert r.status_code == 201, r.text
        return str(r.json()["token"])


# -- item 7: guests' tokens do not lift the read limit of an address --------------------------


def test_new_guests_do_not_lift_the_read_limit_of_an_address(site: Site, account: Any) -> None:
    tokens = [guest_token(site) for _ in range(4)]
    me = address()
    served = 0
    with client(site.urls[0], source=me) as a, client(site.urls[1], source=me) as b:
        for n in range(GUEST_READ + 20):  # a new guest's token each time, both processes
            r = (a, b)[n % 2].get(
                f"{API}/leaderboard", headers={"Authorization": f"Token {tokens[n % 4]}"}
            )
            if r.status_code == 429:
                break
            assert r.status_code == 200, r.text
            served += 1
        assert served == GUEST_READ, served
        assert r.json()["code"] == "throttled" and int(r.headers["Retry-After"]) > 0
        # a guest taken now from this address is refused too; reads without a token and a
        # registered player's have their own counts
        fresh = guest_token(site)
        refused = a.get(f"{API}/leaderboard", headers={"Authorization": f"Token {fresh}"})
        assert refused.status_code == 429
        assert a.get(f"{API}/leaderboard").status_code == 200
        assert a.get(f"{API}/leaderboard", headers=account("reader").auth).status_code == 200
    with client(site.url) as other:  # the same guests from another address are served
        r = other.get(f"{API}/leaderboard", headers={"Authorization": f"Token {tokens[0]}"})
        assert r.status_code == 200
    print(f"\nreads served to one address with 4 guests' tokens: {served} of {GUEST_READ + 20}")


# -- item 8 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["ana\u202edlrow", "ana\x1b[2J", "zero\u200bwidth", "a" * 41, "<script>alert(1)</script>"],
    ids=["rtl-override", "escape", "zero-width", "too-long", "script"],
)
def test_imported_player_names_follow_the_display_name_rules(
    site: Site, account: Any, name: str
) -> None:
    me = account(f"importer{abs(hash(name)) % 10**6}")
    text = MAT.replace(NAMES_LINE, f" {name} : 0                     Mira : 0")
    assert text != MAT
    with client(site.url, headers=me.auth) as http:
        as_guest = http.post(f"{API}/auth/guest", json={"display_name": name[:40]})
        imported = http.post(f"{API}/matches/import", json={"text": text})
    if as_guest.status_code == 400 or len(name) > 40:  # refused as a display name: refused here
        assert imported.status_code == 400, imported.text
        body = imported.json()
        assert body["code"] == "invalid_match_file" and "player 1" in body["message"], body
    else:  # plain text (escaped wherever it is shown): imported as the display name would be
        assert imported.status_code == 201, imported.text
        with client(site.url, headers=me.auth) as http:
            state = http.get(f"{API}/matches/{imported.json()['match']['id']}").json()
        assert state["players"][0]["display_name"] == name


def test_settings_rated_says_whether_the_match_will_be_rated(site: Site, account: Any) -> None:
    host, rival = account("rated_host"), account("rated_rival")
    visitor = {"Authorization": f"Token {guest_token(site)}"}
    with client(site.url) as http:
        states = {}
        for who, auth in (("guest", visitor), ("registered", rival.auth)):
            made = http.post(
                f"{API}/matches", json={"mode": "online", "length": 3}, headers=host.auth
            )
            assert made.status_code == 201 and made.json()["settings"]["rated"] is True
            joined = http.post(f"{API}/matches/{made.json()['id']}/join", json={}, headers=auth)
            assert joined.status_code == 200, joined.text
            states[who] = joined.json()["settings"]["rated"]
            listed = http.get(f"{API}/matches", headers=host.auth).json()
            row = next(m for m in listed["results"] if m["id"] == made.json()["id"])
            assert row["settings"]["rated"] is states[who]
    assert states == {"guest": False, "registered": True}


def _raw(site: Site, data: bytes, wait: float = 5.0) -> bytes:
    host, port = site.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), source_address=(address(), 0)) as s:
        s.sendall(data)
        s.settimeout(wait)
        out = b""
        while chunk := s.recv(65536):
            out += chunk
        return out


def test_a_nul_byte_in_a_header_gets_the_json_error(site: Site) -> None:
    answer = _raw(site, b"GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\x00b\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and b"content-type: application/json" in head
    error = json.loads(body)
    assert error["code"] == "invalid_request" and set(error) == {"code", "message", "detail"}


def test_incomplete_requests_are_timed_out(site: Site) -> None:
    """300 requests whose headers never end and 100 connections that send nothing: all closed
    by the server after WEB_HEADER_TIMEOUT, while an ordinary client is served."""
    host, port = site.url.removeprefix("http://").split(":")
    source = address()
    held = []
    for n in range(400):
        s = socket.create_connection((host, int(port)), source_address=(source, 0))
        if n < 300:
            s.sendall(b"GET /api/v1/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        held.append(s)
    start = time.monotonic()
    with client(site.url) as http:
        assert http.get("/healthz").status_code == 200
    closed_after = []
    for s in held:
        s.settimeout(HEADER_TIMEOUT + 10)
        try:
            assert s.recv(1024) == b""  # closed, without an answer
        except (ConnectionResetError, TimeoutError) as exc:
            assert isinstance(exc, ConnectionResetError), "a connection was kept open"
        closed_after.append(time.monotonic() - start)
        s.close()
    assert max(closed_after) < HEADER_TIMEOUT + 8, max(closed_after)
    # a slow but finished request is served
    assert (
        _raw(site, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")[:12]
        == b"HTTP/1.1 200"
    )
    print(f"\n400 incomplete requests all closed {max(closed_after):.1f} s after they opened")


def test_a_registered_players_names_are_his(site: Site, account: Any) -> None:
    from matches.store.models import PlayerProfile

    leader = account("champion7")
    PlayerProfile.objects.filter(user=leader.user).update(display_name="Grand Vezir")
    PlayerProfile.objects.get(user=leader.user).save()  # as the service saves profiles
    with client(site.url) as http:
        for name in ("Grand Vezir", "grand  vezir", "GRAND VEZ1R", "champion7", "Champion7"):
            r = http.post(f"{API}/auth/guest", json={"display_name": name})
            assert r.status_code == 400, (name, r.text)
            assert "registered player" in r.json()["detail"]["display_name"][0]
        for username in ("grandvezir", "grand_vez1r"):
            r = http.post(
                f"{API}/auth/signup",
                json={"username": username, "password": "a long secret 9"},
            )
            assert r.status_code == 400 and "username" in r.json()["detail"], r.text
        r = http.post(f"{API}/auth/guest", json={"display_name": "Grand Vezir II"})
        assert r.status_code == 201, r.text
        # the owner himself keeps his names
        me = http.get(f"{API}/me", headers=leader.auth).json()
        assert me["display_name"] == "Grand Vezir"


def test_admin_pages_answer_bad_queries_with_400(site: Site, account: Any) -> None:
    boss = account("boss24", staff=True)
    with client(site.url, follow_redirects=True) as http:
        form = http.get("/admin/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
        assert token is not None
        logged = http.post(
            "/admin/login/",
            data={
                "csrfmiddlewaretoken": token.group(1),
                "username": "boss24",
                "password": boss.password,
                "next": "/admin/",
            },
        )
        assert logged.status_code == 200 and "/admin/login/" not in str(logged.url)
        dice = http.get("/admin/matches/match/dice/", params={"player": "\x00"})
        assert dice.status_code == 400 and "no NUL character" in dice.text
        suspend = http.get("/admin/matches/playersuspension/suspend/", params={"user": "abc"})
        assert suspend.status_code == 400 and "takes a user&#x27;s id" in suspend.text
        ok = http.get("/admin/matches/playersuspension/suspend/", params={"user": boss.user.pk})
        assert ok.status_code == 200
    assert [line for line in site.server_errors() if "/admin/" in line] == []


def test_the_web_client_gets_its_files_without_collectstatic(site: Site) -> None:
    with client(site.url) as http:
        page = http.get("/", headers={"Accept": "text/html"})
        assert page.status_code == 200
        files = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
        assert any(f.endswith(".js") for f in files), page.text[:500]
        for path in files:
            r = http.get(path)
            assert r.status_code == 200 and r.content, path
    if not Path(ROOT / "staticfiles").is_dir():
        logs = "".join(p.text() for p in site.procs)
        assert "collectstatic not run" in logs
