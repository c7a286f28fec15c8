"""A channel-layer outage (issue 24, item 3): the site's pub/sub Redis (a server of its own,
apart from the cache's) is stopped before any stream opens, then started again.

While it is down every way in works on the store watcher alone (WebSocket connect and
subscribe, SSE, a waiting long-poll: no `store_error`, no 500, no leaked slot), pushes still
arrive, and a revoked token's socket is still closed (by the periodic check, within its
bound). When it is back the processes return to pub/sub: with the watcher's normal period at
30 s, a push that arrives within a few seconds came through Redis.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from django.db import connection

from tests.servers import Redis, wait_for

from .site import LIMITS, Site, address, client
from .wsclient import API, act, closed_with, guest, hotseat, recv, until, ws

PER_CLIENT = int(LIMITS["TAVLA_STREAMS_PER_CLIENT"])
RECHECK = 2.0


@pytest.fixture(scope="module")
def outage(
    django_db_setup: Any, django_db_blocker: Any, tmp_path_factory: Any
) -> Iterator[tuple[Site, Redis]]:
    tmp = tmp_path_factory.mktemp("outage")
    layer = Redis(tmp_path_factory.mktemp("layer"))
    layer.start()
    s = Site(
        tmp,
        dict(connection.settings_dict),
        CHANNEL_LAYER_URL=layer.url,
        TAVLA_STREAM_WATCH_SECONDS="30",  # when the layer is up, pushes come by pub/sub
        TAVLA_WS_AUTH_RECHECK_SECONDS=str(RECHECK),
        LOG_LEVEL="INFO",
    )
    try:
        s.start()
    except BaseException:
        print(s.logs())
        s.stop()
        layer.stop()
        raise
    yield s, layer
    s.stop()
    if layer.up():
        layer.stop()


def sse_reader(base: str, match_id: str, after: int, out: list[dict]) -> threading.Thread:
    """An SSE client in a thread, its `events` messages appended to `out`."""

    def run() -> None:
        with (
            contextlib.suppress(httpx.HTTPError),  # the servers stop under it at the end
            client(base, timeout=httpx.Timeout(60, read=60)) as http,
            http.stream("GET", f"{API}/matches/{match_id}/stream", params={"after": after}) as r,
        ):
            out.append({"status": r.status_code})
            for line in r.iter_lines():
                if line.startswith("data: "):
                    out.append(json.loads(line[6:]))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_streams_work_on_the_watcher_while_the_layer_is_down_and_return_to_pubsub(
    outage: tuple[Site, Redis], account: Any
) -> None:
    site, layer = outage
    owner = account("outageowner")
    match_id = hotseat(site.url, owner.token)
    layer.stop()  # before any stream opened: every process's hub starts without a layer

    # WebSockets connect and subscribe on both processes
    me = address()
    viewer = guest(site.url)
    socks = []
    for url in site.urls:
        conn = ws(url, viewer, me)
        assert recv(conn)["type"] == "hello"
        conn.send(json.dumps({"type": "subscribe", "match": match_id, "after": 0, "ref": 1}))
        assert until(conn, "subscribed", ref=1)["match"] == match_id
        socks.append(conn)
    sse: list[dict] = []
    sse_reader(site.urls[1], match_id, 0, sse)
    wait_for(lambda: sse and sse[0].get("status") == 200, 10, "the SSE stream to open")

    # a waiting long-poll on B is answered by a move through A
    with client(site.urls[0], headers=owner.auth) as mover:
        version = mover.get(f"{API}/matches/{match_id}").json()["version"]
        answer: dict[str, Any] = {}

        def poll() -> None:
            with client(site.urls[1]) as http:
                r = http.get(
                    f"{API}/matches/{match_id}/events", params={"after": version, "wait": 20}
                )
                answer.update(status=r.status_code, body=r.json())

        waiting = threading.Thread(target=poll)
        waiting.start()
        time.sleep(0.5)
        started = time.monotonic()
        moved = act(mover, match_id)
        waiting.join(20)
        took = time.monotonic() - started
        assert answer["status"] == 200 and answer["body"]["version"] == moved
        for conn in socks:
            until(conn, "events", timeout=5, version=moved)
        wait_for(lambda: any(m.get("version") == moved for m in sse), 5, "the SSE push")
        print(f"\nlayer down: a move reached a long-poll of the other process in {took:.2f} s")
        assert took < 3, "the watcher runs at its outage period while the layer is down"

    # a revoked token's socket is closed even though its hint has no way through
    ana = account("outageana")
    doomed = ws(site.urls[1], ana.token)
    assert recv(doomed)["type"] == "hello"
    with client(site.urls[0], headers=ana.auth) as http:
        started = time.monotonic()
        assert http.post(f"{API}/auth/logout", json={}).status_code == 204
    code, _ = closed_with(doomed, RECHECK + 5)
    took = time.monotonic() - started
    print(f"layer down: logout closed the socket on the other process in {took:.1f} s")
    assert code == 4401 and took < RECHECK + 2

    # no slot leaked: the viewer's full cap on each process, after closing his sockets
    for conn in socks:
        conn.close()
    for url in site.urls:
        held = []
        deadline = time.monotonic() + 10
        while len(held) < PER_CLIENT:
            conn = ws(url, viewer, me)
            if recv(conn)["type"] == "hello":
                held.append(conn)
            else:
                conn.close()
                assert time.monotonic() < deadline, "a slot stayed taken"
                time.sleep(0.3)
        for conn in held:
            conn.close()

    # the layer comes back: pushes by pub/sub again (the watcher is at 30 s now)
    conn = ws(site.urls[1], viewer, me)
    assert recv(conn)["type"] == "hello"
    conn.send(json.dumps({"type": "subscribe", "match": match_id, "after": 0, "ref": 2}))
    until(conn, "subscribed", ref=2)
    layer.start()
    time.sleep(8)  # the hubs relink (every 1 s) and the publishers' 5 s pause ends
    with client(site.urls[0], headers=owner.auth) as mover:
        started = time.monotonic()
        moved = act(mover, match_id)
        until(conn, "events", timeout=5, version=moved)
        took = time.monotonic() - started
    print(f"layer back: a move reached a socket of the other process in {took * 1000:.0f} ms")
    assert took < 3, "faster than the 30 s watcher: it came through Redis"
    conn.close()
    assert site.server_errors() == []
    logs = site.logs()
    assert "Exception in ASGI application" not in logs and "websocket: " not in logs, logs
    assert "the channel layer is back" in logs
