"""Pushes across processes: what happens through server A reaches clients of server B (Redis
pub/sub) and of server C (no Redis: its store watcher), in order, each event once, resumable
from any version; a timeout written by a Celery worker reaches both players."""

from __future__ import annotations

import time

from matches.api.authentication import digest
from matches.store.models import Match, MatchPresence

from .harness import Api, Socket, SseClient, online_match, take_turn

CLOCKLESS = {"clock": "none"}


def players(cluster) -> tuple[Api, Api]:  # type: ignore[no-untyped-def]
    return Api.guest(cluster.a), Api.guest(cluster.a)


def test_a_move_through_a_reaches_a_websocket_and_an_sse_client_of_b(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    match_id = online_match(ana, ben, **CLOCKLESS)
    version = ana.state(match_id)["version"]

    sock = Socket(cluster.b.ws, ana.token)
    sock.next("hello")
    sock.send({"type": "subscribe", "match": match_id, "after": version, "ref": 1})
    assert sock.next("subscribed")["role"] == "player"
    watcher = SseClient(cluster.b, f"/matches/{match_id}/stream?after={version}")
    assert watcher.status == 200 and watcher.content_type.startswith("text/event-stream")

    started = time.monotonic()
    state = take_turn({"ana": ana, "ben": ben}, match_id)  # through A
    pushed = sock.events_until(match_id, state["version"], timeout=3)
    seen = watcher.events_until(state["version"], timeout=3)
    took = time.monotonic() - started
    assert took < 3, "faster than B's 30 s store watcher: it came through Redis"

    stored = ana.events(match_id, after=version)
    assert pushed == stored
    assert [e for _, m in seen for e in m["events"]] == stored
    assert [int(i) for i, _ in seen] == [m["version"] for _, m in seen]
    assert all(m["type"] == "events" and m["match"] == match_id for _, m in seen)
    sock.close()
    watcher.close()


def test_the_embedded_layer_server_gets_other_processes_moves_from_the_store(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    match_id = online_match(ana, ben, **CLOCKLESS)
    version = ana.state(match_id)["version"]
    sock = Socket(cluster.c.ws, ben.token)  # C: in-memory layer, no Redis
    sock.send({"type": "subscribe", "match": match_id, "after": 0})
    assert [e["seq"] for e in sock.events_until(match_id, version)] == list(range(1, version + 1))
    state = take_turn({"ana": ana, "ben": ben}, match_id)
    state = take_turn({"ana": ana, "ben": ben}, match_id)
    pushed = sock.events_until(match_id, state["version"], timeout=3)
    assert pushed == ana.events(match_id, after=version)
    sock.close()


def test_a_client_that_reconnects_gets_exactly_the_events_it_missed(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    both = {"ana": ana, "ben": ben}
    match_id = online_match(ana, ben, **CLOCKLESS)
    sock = Socket(cluster.b.ws, ana.token)
    sock.send({"type": "subscribe", "match": match_id, "after": 0})
    first = ana.state(match_id)["version"]
    got = sock.events_until(match_id, first)
    sock.close()
    last_seen = got[-1]["seq"]

    for _ in range(4):  # the client is away
        missed_to = take_turn(both, match_id)["version"]

    sock = Socket(cluster.b.ws, ana.token, how="header")
    sock.send({"type": "subscribe", "match": match_id, "after": last_seen})
    resumed = sock.events_until(match_id, missed_to)
    assert resumed == ana.events(match_id, after=last_seen)  # no gap, no duplicate
    latest = take_turn(both, match_id)["version"]
    live = sock.events_until(match_id, latest)
    assert [e["seq"] for e in live] == list(range(missed_to + 1, latest + 1))
    time.sleep(0.3)
    assert not [m for m in sock.drain() if m.get("type") == "events"], "nothing twice"
    sock.close()

    # the same with Server-Sent Events: Last-Event-ID is the version after the last message
    sse = SseClient(cluster.b, f"/matches/{match_id}/stream")
    messages = sse.events_until(latest)
    sse.close()
    resume_at = messages[-1][0]
    assert resume_at == str(latest)
    for _ in range(3):
        newest = take_turn(both, match_id)["version"]
    sse = SseClient(cluster.b, f"/matches/{match_id}/stream", {"Last-Event-ID": resume_at})
    again = [e for _, m in sse.events_until(newest) for e in m["events"]]
    assert again == ana.events(match_id, after=latest)
    sse.close()


def test_a_timeout_written_by_the_celery_worker_reaches_both_players_sockets(cluster) -> None:  # type: ignore[no-untyped-def]
    cluster.start_worker()
    ana, ben = players(cluster)
    clock = {"clock": {"delay": 1, "reserve": 1, "max_move": 2, "reconnect": 60}}
    match_id = online_match(ana, ben, **clock)
    sockets = [Socket(cluster.b.ws, ana.token), Socket(cluster.a.ws, ben.token)]
    for sock in sockets:
        sock.send({"type": "subscribe", "match": match_id, "after": 0})
    # nobody moves: the worker writes the timeout after about 2 s
    for sock in sockets:
        timed_out = None
        while timed_out is None:
            message = sock.next("events", timeout=8, match=match_id)
            timed_out = next((e for e in message["events"] if e["type"] == "timed_out"), None)
        end = sock.next("end", timeout=3, match=match_id)
        assert end["version"] == timed_out["seq"]
        sock.close()
    assert Match.objects.get(pk=match_id).ended_by == Match.EndedBy.TIMEOUT


def test_notifications_reach_the_users_socket_on_another_process(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    inbox = Socket(cluster.b.ws, ana.token, how="query")
    assert inbox.next("hello")["user"].startswith("guest-")
    r = ana.post("/matches", {"mode": "online", "length": 1, "clock": "none"})
    match_id = r.json()["id"]
    ben.post(f"/matches/{match_id}/join")  # through A
    note = inbox.next("notification", timeout=3, kind="challenge_accepted")
    assert note["match"] == match_id and note["version"] >= 3
    state = ana.state(match_id)
    mover = ana if state["to_act"]["who"] == "you" else ben
    other = ben if mover is ana else ana
    waiting = Socket(cluster.b.ws, other.token)
    waiting.next("hello")
    while mover.state(match_id)["to_act"]["who"] == "you":
        take_turn({"mover": mover}, match_id)
    note = waiting.next("notification", timeout=3, kind="your_turn", match=match_id)
    assert note["version"] == mover.state(match_id)["version"]
    inbox.close()
    waiting.close()


def test_an_open_socket_keeps_a_player_connected_and_closing_it_starts_the_grace(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    clock = {"clock": {"delay": 600, "reserve": 600, "max_move": 900, "reconnect": 3}}
    match_id = online_match(ana, ben, **clock)

    def seen(user: Api) -> float:
        row = MatchPresence.objects.get(
            match_id=match_id, user__tavla_tokens__digest=digest(user.token)
        )
        return time.time() - row.last_seen.timestamp()

    sock = Socket(cluster.b.ws, ana.token)
    sock.send({"type": "subscribe", "match": match_id, "after": 0})
    sock.next("subscribed")
    sse = SseClient(
        cluster.a, f"/matches/{match_id}/stream", {"Authorization": f"Token {ben.token}"}
    )
    # no request for 4 s, longer than the 3 s grace: the open streams keep both connected
    time.sleep(4)
    assert seen(ana) < 2.0 and seen(ben) < 2.0
    sock.close()
    sse.close()
    time.sleep(3.5)
    assert seen(ana) > 3.0 and seen(ben) > 3.0, "closed: the grace period runs"


def test_a_waiting_long_poll_holds_no_thread_and_a_finished_match_answers_at_once(cluster) -> None:  # type: ignore[no-untyped-def]
    import concurrent.futures

    import httpx

    ana, ben = players(cluster)
    match_id = online_match(ana, ben, **CLOCKLESS)
    version = ana.state(match_id)["version"]
    url = f"{cluster.b.http}/api/v1/matches/{match_id}/events"
    with concurrent.futures.ThreadPoolExecutor(60) as pool:
        polls = [
            pool.submit(httpx.get, url, params={"after": version, "wait": 10}, timeout=20)
            for _ in range(50)
        ]
        time.sleep(1.0)
        started = time.monotonic()
        r = httpx.get(f"{cluster.b.http}/api/v1/rules/levels", timeout=10)
        assert r.status_code == 200 and time.monotonic() - started < 1.0
        state = take_turn({"ana": ana, "ben": ben}, match_id)
        answers = [p.result().json() for p in polls]
    assert all(a["version"] == state["version"] and a["events"] for a in answers)

    # a match that is over: nothing more can come, so no waiting (long-poll) and 204 (SSE)
    # (aborted while it waited for an opponent: after the opening roll nobody may abort)
    over = ana.post("/matches", {"mode": "online", "length": 3, **CLOCKLESS}).json()["id"]
    assert ana.post(f"/matches/{over}/abort").status_code == 200
    final = ana.state(over)["version"]
    started = time.monotonic()
    r = httpx.get(
        f"{cluster.b.http}/api/v1/matches/{over}/events", params={"after": final, "wait": 10}
    )
    assert time.monotonic() - started < 1.0
    assert r.json() == {"version": final, "events": []}
    sse = SseClient(cluster.b, f"/matches/{over}/stream", {"Last-Event-ID": str(final)})
    assert sse.status == 204
    sse = SseClient(cluster.b, f"/matches/{over}/stream?after={final - 1}")
    last_id, message = sse.next()
    assert last_id == str(final) and message["events"][0]["type"] == "aborted"
    assert sse.next()[1] == {"type": "end", "match": over, "version": final}
    assert sse.done.wait(3), "the stream closes after the end"
