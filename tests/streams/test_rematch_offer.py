"""The one event after the end of a match, `rematch_offered`: a long-poll on the finished match
waits for it (a finished match is not answered at once, so a client polling again never spins),
and a WebSocket subscriber gets it after the `end` message, with the notification for the
player it is offered to."""

from __future__ import annotations

import concurrent.futures
import time

import httpx

from .harness import Api, Socket, online_match
from .test_live import CLOCKLESS, players


def finish(ana: Api, ben: Api, match_id: str) -> int:
    """Whoever may resign does (a single game of a 1-point match), the other accepts."""
    loser, winner = (ana, ben) if "resign" in ana.state(match_id)["actions"] else (ben, ana)
    assert loser.post(f"/matches/{match_id}/resign", {"value": 1}).status_code == 200
    r = winner.post(f"/matches/{match_id}/accept")
    assert r.status_code == 200 and r.json()["status"] == "finished"
    return int(r.json()["version"])


def test_a_finished_matchs_followers_hear_of_the_rematch(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    match_id = online_match(ana, ben, length=1, **CLOCKLESS)
    final = finish(ana, ben, match_id)

    sock = Socket(cluster.b.ws, ana.token)
    sock.send({"type": "subscribe", "match": match_id, "after": final})
    sock.next("subscribed")
    assert sock.next("end") == {"type": "end", "match": match_id, "version": final}

    url = f"{cluster.c.http}/api/v1/matches/{match_id}/events"  # C: its store watcher
    headers = {"Authorization": f"Token {ana.token}"}
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        started = time.monotonic()
        poll = pool.submit(
            httpx.get, url, params={"after": final, "wait": 10}, headers=headers, timeout=20
        )
        time.sleep(1.0)
        assert not poll.done(), "a finished match's long-poll waits"
        r = ben.on(cluster.a).post(f"/matches/{match_id}/rematch")
        assert r.status_code == 201
        rematch = r.json()["id"]
        answer = poll.result().json()
        took = time.monotonic() - started
    assert took < 4, took
    [event] = answer["events"]
    assert answer["version"] == final + 1
    assert event["type"] == "rematch_offered" and event["data"]["match_id"] == rematch

    # the socket: the event after the `end`, and the notification for ana (in either order)
    got = {m["type"]: m for m in (sock.next(timeout=3), sock.next(timeout=3))}
    assert got["events"]["events"] == [event] and got["events"]["version"] == final + 1
    note = got["notification"]
    assert (note["kind"], note["match"]) == ("rematch_offered", rematch)
    sock.close()

    # nothing more can come once the rematch is offered, but a poll still waits (no busy loop)
    started = time.monotonic()
    r = ana.on(cluster.c).get(f"/matches/{match_id}/events", after=final + 1, wait=1)
    assert r.json() == {"version": final + 1, "events": []} and time.monotonic() - started >= 1
