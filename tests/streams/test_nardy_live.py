"""Long nardy online on the deployed servers (issue 14): moves pushed to a WebSocket and an SSE
client of another process, a whole match with the site's clock, and a loss on time written by
the real Celery worker's clock task, seen on both players' sockets."""

from __future__ import annotations

from typing import Any

from matches.store.models import Match
from tests.nardy.helpers import check_nardy_state, race_key

from .harness import Api, Socket, SseClient, online_match, take_turn

NARDY = {"game": "long-nardy"}


def players(cluster) -> tuple[Api, Api]:  # type: ignore[no-untyped-def]
    return Api.guest(cluster.a), Api.guest(cluster.a)


def test_a_long_nardy_move_is_pushed_to_a_websocket_and_an_sse_client_of_b(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    match_id = online_match(ana, ben, clock="none", **NARDY)
    version = ana.state(match_id)["version"]
    sock = Socket(cluster.b.ws, ben.token)
    sock.next("hello")
    sock.send({"type": "subscribe", "match": match_id, "after": version, "ref": 1})
    assert sock.next("subscribed")["role"] == "player"
    watcher = SseClient(cluster.b, f"/matches/{match_id}/stream?after={version}")
    state = take_turn({"ana": ana, "ben": ben}, match_id)  # a roll (through A)
    state = take_turn({"ana": ana, "ben": ben}, match_id)  # the play
    pushed = sock.events_until(match_id, state["version"], timeout=5)
    seen = watcher.events_until(state["version"], timeout=5)
    assert pushed == ana.events(match_id, after=version)
    assert [e for _, m in seen for e in m["events"]] == pushed
    moved = [e for e in pushed if e["type"] == "moved"]
    assert moved and moved[0]["data"]["steps"][0][0] == 24  # from the head
    on_b = Api(cluster.b, ben.token).state(match_id)  # the other process shows long nardy
    check_nardy_state(on_b)
    assert on_b["version"] == state["version"]
    sock.close()
    watcher.close()


def _act(api: Api, match_id: str, state: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"expected_version": state["version"]}
    if "roll" in state["actions"]:
        r = api.post(f"/matches/{match_id}/roll", body)
    else:
        body["play"] = max(state["legal_plays"], key=race_key)["notation"]
        r = api.post(f"/matches/{match_id}/play", body)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_whole_online_match_with_the_site_clock(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    match_id = online_match(ana, ben, length=1, **NARDY)
    sock = Socket(cluster.b.ws, ana.token)
    sock.send({"type": "subscribe", "match": match_id, "after": 0})
    by_seat: dict[int, Api] = {}
    for api in (ana, ben):
        by_seat[api.state(match_id)["side"]["seat"]] = api
    state = ana.state(match_id)
    assert state["clock"] is not None and state["settings"]["clock"] is not None
    for _ in range(3000):
        check_nardy_state(state)
        if state["status"] != "active":
            break
        api = by_seat[state["to_act"]["seat"]]
        if state["side"]["seat"] != state["to_act"]["seat"]:
            state = api.state(match_id)
        state = _act(api, match_id, state)
    assert state["status"] == "finished" and state["result"]["ended_by"] == "bearoff"
    end = None
    while end is None:
        message = sock.next(timeout=10, match=match_id)
        end = message if message["type"] == "end" else None
    assert end["version"] == state["version"]
    sock.close()


def test_a_loss_on_time_written_by_the_worker_reaches_both_sockets(cluster) -> None:  # type: ignore[no-untyped-def]
    cluster.start_worker()
    ana, ben = players(cluster)
    clock = {"delay": 3, "reserve": 2, "max_move": 5, "reconnect": 60}
    match_id = online_match(ana, ben, clock=clock, length=3, **NARDY)
    # the first player rolls and plays in time, then his opponent lets his time run out
    first = take_turn({"ana": ana, "ben": ben}, match_id)
    first = take_turn({"ana": ana, "ben": ben}, match_id)
    late = 1 - first["side"]["seat"]
    assert first["to_act"]["seat"] == late
    sockets = [Socket(cluster.b.ws, ana.token), Socket(cluster.a.ws, ben.token)]
    for sock in sockets:
        sock.send({"type": "subscribe", "match": match_id, "after": 0})
    for sock in sockets:
        timed_out = None
        while timed_out is None:
            message = sock.next("events", timeout=20, match=match_id)
            timed_out = next((e for e in message["events"] if e["type"] == "timed_out"), None)
        assert timed_out["data"]["seat"] == late
        sock.next("end", timeout=3, match=match_id)
        sock.close()
    match = Match.objects.get(pk=match_id)
    assert match.ended_by == Match.EndedBy.TIMEOUT and match.winner == 1 - late
    final = ana.state(match_id)
    check_nardy_state(final)
    assert final["result"]["winner"]["seat"] == 1 - late
    assert final["result"]["ended_by"] == "timeout"
