"""The live lobby on the WebSocket (docs/realtime.md "Lobby"): a challenge made through one
web process reaches a lobby subscriber of another within 2 s (through Redis: A and B watch the
store only every 30 s), and a process without Redis (C) hears it from its store watcher."""

from __future__ import annotations

import time

from .harness import Api, Socket


def lobby_socket(url: str, token: str | None, **extra: object) -> Socket:
    sock = Socket(url, token)
    sock.next("hello")
    sock.send({"type": "subscribe_lobby", "ref": "l1", **extra})
    answer = sock.next(ref="l1")
    assert answer["type"] == "lobby_subscribed", answer
    return sock


def test_a_challenge_made_on_one_process_reaches_a_lobby_of_another(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = Api.guest(cluster.a), Api.guest(cluster.b)
    lobby = lobby_socket(cluster.b.ws, ben.token)
    began = time.monotonic()
    made = ana.post("/matches", {"mode": "online", "length": 3})
    assert made.status_code == 201, made.text
    match_id = made.json()["id"]
    hint = lobby.next("lobby", timeout=2, what="challenges")
    assert hint["match"] == match_id and time.monotonic() - began < 2
    listed = ben.get("/matches/challenges").json()["results"]
    assert match_id in [m["id"] for m in listed]

    # ben takes it: the challenge leaves the list, the match is live.
    assert ben.post(f"/matches/{match_id}/join").status_code == 200
    assert lobby.next("lobby", timeout=2, what="challenges")["match"] == match_id
    assert lobby.next("lobby", timeout=2, what="live")["match"] == match_id

    # One withdrawn (aborted while waiting) is a change too.
    other = ana.post("/matches", {"mode": "online", "length": 1}).json()["id"]
    lobby.next("lobby", timeout=2, what="challenges", match=other)
    assert ana.post(f"/matches/{other}/abort").status_code == 200
    lobby.next("lobby", timeout=2, what="challenges", match=other)
    lobby.close()


def test_private_matches_and_unsubscribed_lists_send_nothing(cluster) -> None:  # type: ignore[no-untyped-def]
    ana = Api.guest(cluster.a)
    live_only = lobby_socket(cluster.b.ws, None, what=["live"])  # anonymous is fine
    private = ana.post("/matches", {"mode": "online", "length": 3, "public": False})
    assert private.status_code == 201
    shown = ana.post("/matches", {"mode": "online", "length": 3}).json()["id"]
    time.sleep(1.0)
    assert [m for m in live_only.drain() if m["type"] == "lobby"] == []
    live_only.send({"type": "subscribe_lobby", "ref": 2})  # again: now both lists
    assert live_only.next(ref=2)["what"] == ["challenges", "live"]
    assert ana.post(f"/matches/{shown}/abort").status_code == 200
    assert live_only.next("lobby", timeout=2)["match"] == shown
    live_only.send({"type": "unsubscribe_lobby", "ref": 3})
    live_only.next("lobby_unsubscribed", ref=3)
    ana.post("/matches", {"mode": "online", "length": 3})
    time.sleep(1.0)
    assert [m for m in live_only.drain() if m["type"] == "lobby"] == []
    live_only.close()


def test_bad_lobby_subscriptions_are_refused_and_the_socket_stays(cluster) -> None:  # type: ignore[no-untyped-def]
    sock = Socket(cluster.b.ws)
    sock.next("hello")
    for bad in (
        {"what": "challenges"},
        {"what": []},
        {"what": ["challenges", "seeks"]},
        {"what": [1]},
        {"match": "x"},
    ):
        sock.send({"type": "subscribe_lobby", "ref": "b", **bad})
        error = sock.next(ref="b")
        assert (error["type"], error["code"], error["status"]) == (
            "error",
            "invalid_request",
            400,
        ), bad
    sock.send({"type": "ping", "ref": "p"})
    assert sock.next(ref="p")["type"] == "pong"
    sock.close()


def test_without_redis_the_store_watcher_brings_the_change(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, cem = Api.guest(cluster.a), Api.guest(cluster.c)
    lobby = lobby_socket(cluster.c.ws, cem.token)
    made = ana.post("/matches", {"mode": "online", "length": 5}).json()["id"]  # on A
    hint = lobby.next("lobby", timeout=2, what="challenges")
    assert hint["match"] is None  # the watcher knows a list changed, not which match
    listed = cem.get("/matches/challenges").json()["results"]
    assert made in [m["id"] for m in listed]
    lobby.close()
