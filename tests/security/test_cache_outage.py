"""A cache outage is not an outage (issue 24, item 2), against the deployed-like site with a
cache Redis of its own (`CACHE_URL`), stopped under it.

The cache holds tokens' accounts and throttle counters. While it is down (refusing
connections) or hung (SIGSTOP: connections time out) every kind of request is served on both
web processes (guest, login, reads, rules, long-poll, a WebSocket upgrade) without waiting for
it, throttles count per process, `/healthz` says 200 `degraded` naming the cache, the outage
is logged once per process, a logout during it holds when Redis comes back with its old
entries, and everything is as before once it is back.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from websockets.sync.client import connect

from tests.servers import Redis, wait_for

from .site import LIMITS, Site, address, client

API = "/api/v1"
RULES = int(LIMITS["API_THROTTLE_RULES"].split("/")[0])
PLAYS = {"position_id": "4HPwATDgc/ABMA", "dice": "31"}
OUTAGE_LINE = "cache 'default' unreachable"


class CacheSite:
    def __init__(self, site: Site, cache: Redis) -> None:
        self.site, self.cache = site, cache

    def pause(self) -> None:
        os.kill(self.cache_pid(), signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.cache_pid(), signal.SIGCONT)

    def cache_pid(self) -> int:
        return int((self.cache.tmp / "redis.pid").read_text())

    def outage_lines(self, i: int) -> int:
        return (self.site.tmp / f"web{i}.log").read_text(errors="replace").count(OUTAGE_LINE)


@pytest.fixture(scope="module")
def cs(django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any) -> Iterator[CacheSite]:
    tmp: Path = tmp_path_factory.mktemp("cache-outage")
    (tmp / "cache").mkdir()
    cache = Redis(tmp / "cache")
    cache.start()
    site = Site(tmp, dict(connection.settings_dict), CACHE_URL=cache.url[:-1] + "2")
    try:
        site.start()
    except BaseException:
        print(site.logs())
        site.stop()
        cache.stop()
        raise
    yield CacheSite(site, cache)
    site.stop()
    if cache.up():
        cache.stop()


def health(url: str) -> tuple[int, dict[str, Any]]:
    with client(url, timeout=10) as http:
        r = http.get("/healthz")
        return r.status_code, r.json()


def serves_everything(url: str, who: Any) -> list[float]:
    """Every kind of request on one web process; the seconds each ordinary one took."""
    took: list[float] = []

    def timed(r: Any) -> Any:
        took.append(r.elapsed.total_seconds())
        return r

    with client(url) as http:
        guest = timed(http.post(f"{API}/auth/guest", json={}))
        assert guest.status_code == 201, guest.text
        guest_auth = {"Authorization": f"Token {guest.json()['token']}"}
        # not timed: the first login upgrades the password's hash (about half a second of CPU)
        login = http.post(
            f"{API}/auth/login", json={"username": who.user.username, "password": who.password}
        )
        assert login.status_code == 200, login.text
        auth = {"Authorization": f"Token {login.json()['token']}"}
        me = timed(http.get(f"{API}/me", headers=guest_auth))
        assert me.status_code == 200 and me.json()["kind"] == "guest", me.text
        assert timed(http.get(f"{API}/me", headers=auth)).json()["username"] == who.user.username
        assert timed(http.get(f"{API}/leaderboard")).status_code == 200  # anonymous read
        rules = timed(http.get(f"{API}/rules/legal-plays", params=PLAYS))
        assert rules.status_code == 200, rules.text
        created = timed(
            http.post(f"{API}/matches", json={"mode": "hotseat", "length": 1}, headers=auth)
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        assert timed(http.get(f"{API}/matches/{match_id}", headers=auth)).status_code == 200
        poll = http.get(
            f"{API}/matches/{match_id}/events", params={"after": 1000, "wait": 1}, headers=auth
        )
        assert poll.status_code == 200, poll.text
    ws_url = url.replace("http", "ws") + "/ws/v1/live"
    key = auth["Authorization"].split()[1]
    with connect(ws_url, subprotocols=["tavla.v1", f"token.{key}"], open_timeout=10) as ws:
        hello = json.loads(ws.recv(timeout=10))
        assert hello == {"type": "hello", "user": who.user.username}, hello
        ws.send(json.dumps({"type": "subscribe", "match": match_id, "after": 0}))
        first = json.loads(ws.recv(timeout=10))
        assert first.get("type") != "error", first
    return took


def rules_served(url: str, source: str, tries: int) -> int:
    """How many of `tries` rules requests from one address were served before a 429."""
    with client(url, source=source) as http:
        for n in range(tries):
            r = http.get(f"{API}/rules/legal-plays", params=PLAYS)
            if r.status_code == 429:
                return n
            assert r.status_code == 200, r.text
    return tries


def all_ok(cs: CacheSite) -> bool:
    return all(health(u) == (200, {"status": "ok"}) for u in cs.site.urls)


def test_a_hung_cache_is_skipped_and_a_logout_during_it_holds(cs: CacheSite, account: Any) -> None:
    site = cs.site
    ana = account("hung_ana")
    with client(site.url) as http:
        token = http.post(
            f"{API}/auth/login", json={"username": "hung_ana", "password": ana.password}
        ).json()["token"]
    auth = {"Authorization": f"Token {token}"}
    for url in site.urls:  # the token's account is now in the cache, for both processes
        with client(url) as http:
            assert http.get(f"{API}/me", headers=auth).status_code == 200
    assert all_ok(cs)
    cs.pause()
    try:
        for url in site.urls:
            took = serves_everything(url, ana)
            # a hung Redis costs one request its socket timeout (0.5 s), not each one (a loaded
            # machine may make another slow: at most half of them)
            slow = [t for t in took if t >= 0.5]
            assert len(slow) <= len(took) // 2, took
            status, body = health(url)
            assert status == 200 and body["status"] == "degraded" and "cache" in body, body
        # 20 reads in a row: none waits for the hung cache
        with client(site.url) as http:
            start = time.monotonic()
            for _ in range(20):
                assert http.get(f"{API}/me", headers=auth).status_code == 200
            twenty = time.monotonic() - start
        assert twenty < 20 * 0.5 * 0.75, twenty  # waiting for Redis each time: 10 s and more
        with client(site.urls[1]) as http:
            assert http.post(f"{API}/auth/logout", json={}, headers=auth).status_code == 204
        for url in site.urls:
            with client(url) as http:
                assert http.get(f"{API}/me", headers=auth).status_code == 401
    finally:
        cs.resume()
    # Redis is back with the entries it held before: the logged-out token stays out
    wait_for(lambda: all_ok(cs), 15, "both processes to see the cache again", 0.5)
    for url in site.urls:
        with client(url) as http:
            assert http.get(f"{API}/me", headers=auth).status_code == 401
    print(f"\n20 token reads with the cache hung: {twenty:.2f} s")


def test_a_stopped_cache_is_not_an_outage_and_things_return_to_normal(
    cs: CacheSite, account: Any
) -> None:
    site = cs.site
    ben = account("stopped_ben")
    before = [cs.outage_lines(i) for i in range(2)]
    cs.cache.stop()
    try:
        took: list[float] = []
        for url in site.urls:
            took += serves_everything(url, ben)
            status, body = health(url)
            assert status == 200 and body == {"status": "degraded", "cache": "ConnectionError"}
        # throttles count per process meanwhile: the limit holds on each
        me = address()
        assert rules_served(site.urls[0], me, RULES + 3) == RULES
        assert rules_served(site.urls[1], me, RULES + 3) == RULES
        # logged once per process per outage, not per request
        assert [cs.outage_lines(i) - before[i] for i in range(2)] == [1, 1], site.logs()
        assert site.server_errors() == []
    finally:
        cs.cache.start()
    wait_for(lambda: all_ok(cs), 15, "both processes to see the cache again", 0.5)
    for url in site.urls:
        serves_everything(url, ben)
    # one count shared by both processes again
    me = address()
    first = rules_served(site.urls[0], me, RULES // 2)
    assert first + rules_served(site.urls[1], me, RULES) == RULES
    assert site.server_errors() == []
    took.sort()
    print(f"\nrequests with the cache stopped: median {took[len(took) // 2] * 1000:.0f} ms")
