"""Commands and bad input on a WebSocket: the HTTP API's rules and codes, and a client's
mistakes never close its socket, another user's stream, or lose an event."""

from __future__ import annotations

import contextlib
import json

from matches.store.models import MatchEvent

from .harness import Api, Socket, online_match, take_turn


def players(cluster) -> tuple[Api, Api]:  # type: ignore[no-untyped-def]
    return Api.guest(cluster.a), Api.guest(cluster.a)


def to_act(ana: Api, ben: Api, match_id: str) -> tuple[Api, Api]:
    state = ana.state(match_id)
    return (ana, ben) if state["to_act"]["who"] == "you" else (ben, ana)


def test_bad_input_gets_stable_codes_and_breaks_nothing(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    eve = Api.guest(cluster.a)
    match_id = online_match(ana, ben, clock="none")
    private = ana.post("/matches", {"mode": "hotseat", "length": 1, "public": False}).json()["id"]
    watcher = Socket(cluster.b.ws)  # an anonymous spectator, on the same process as eve
    watcher.send({"type": "subscribe", "match": match_id, "after": 0})
    before = watcher.events_until(match_id, ana.state(match_id)["version"])

    sock = Socket(cluster.b.ws, eve.token)
    sock.next("hello")
    cases = [
        ("{not json", "parse_error", 400),
        ("[1, 2]", "invalid_request", 400),
        (json.dumps({"type": "shout"}), "invalid_request", 400),
        (json.dumps({"type": "ping", "pad": "x" * 20000}), "invalid_request", 400),
        (b"\x00\x01binary", "invalid_request", 400),
        (json.dumps({"type": "subscribe", "match": "no-such-match"}), "match_not_found", 404),
        (json.dumps({"type": "subscribe", "match": private}), "match_not_found", 404),
        (json.dumps({"type": "subscribe", "match": match_id, "after": -1}), "invalid_request", 400),
        (json.dumps({"type": "unsubscribe", "match": match_id}), "invalid_request", 400),
        (
            json.dumps({"type": "command", "ref": "r", "match": match_id, "action": "roll"}),
            "not_a_player",
            403,
        ),
        (
            json.dumps({"type": "command", "match": match_id, "action": "explode"}),
            "invalid_request",
            400,
        ),
        (
            json.dumps({"type": "command", "match": match_id, "action": "play", "body": [1]}),
            "invalid_request",
            400,
        ),
    ]
    for raw, code, status in cases:
        sock.send(raw)
        error = sock.next(timeout=5)
        assert error["type"] == "error", (raw, error)
        assert (error["code"], error["status"]) == (code, status), (str(raw)[:60], error)
        assert error["message"]
    sock.send({"type": "ping", "ref": 7})
    assert sock.next("pong")["ref"] == 7  # still open

    # nothing was written, and the other streams go on: the next move reaches the watcher
    version = ana.state(match_id)["version"]
    assert MatchEvent.objects.filter(match_id=match_id).count() == version
    state = take_turn({"ana": ana, "ben": ben}, match_id)
    after = watcher.events_until(match_id, state["version"])
    assert before + after == ana.events(match_id)
    sock.close()
    watcher.close()


def test_a_bad_token_is_refused_with_its_code(cluster) -> None:  # type: ignore[no-untyped-def]
    sock = Socket(cluster.b.ws, "0" * 40)
    error = sock.next("error")
    assert (error["code"], error["status"]) == ("authentication_failed", 401)
    assert sock.closed.wait(5)


def test_commands_follow_the_http_rules_of_versions_and_idempotency(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    match_id = online_match(ana, ben, clock="none")
    mover, _ = to_act(ana, ben, match_id)
    state = mover.state(match_id)
    sock = Socket(cluster.b.ws, mover.token)
    command = {"type": "command", "match": match_id, "ref": "c1"}

    if "roll" in state["actions"]:  # the opening roll may have rolled for him
        sock.send({**command, "action": "roll", "expected_version": state["version"]})
        rolled = sock.next("result", ref="c1")
        assert rolled["status"] == 200 and rolled["version"] > state["version"]
        state = rolled["body"]
    play = state["legal_plays"][0]["notation"]

    stale = {**command, "ref": "c2", "action": "play", "body": {"play": play}}
    sock.send({**stale, "expected_version": state["version"] - 1})
    conflict = sock.next("error", ref="c2")
    assert conflict["code"] == "version_conflict" and conflict["status"] == 409
    assert conflict["detail"]["current_version"] == state["version"]

    played = {**stale, "ref": "c3", "expected_version": state["version"], "idempotency_key": "k-1"}
    sock.send(played)
    first = sock.next("result", ref="c3")
    assert first["status"] == 200 and first["version"] > state["version"]
    events = MatchEvent.objects.filter(match_id=match_id).count()
    sock.send({**played, "ref": "c4"})  # the same request again: the first answer, no write
    again = sock.next("result", ref="c4")
    assert again["replayed"] is True and again["body"] == first["body"]
    assert MatchEvent.objects.filter(match_id=match_id).count() == events

    # the same key over HTTP with the same request: the same stored answer
    r = mover.on(cluster.a).client.post(
        f"/matches/{match_id}/play",
        content=json.dumps({"play": play}).encode(),
        headers={
            "Idempotency-Key": "k-1",
            "If-Match": f'"{state["version"]}"',
            "Content-Type": "application/json",
        },
    )
    assert r.status_code == 200 and r.headers["Idempotent-Replayed"] == "true"
    assert r.json() == first["body"]
    sock.send({**played, "ref": "c5", "body": {"play": "24/1"}})  # same key, other request
    assert sock.next("error", ref="c5")["code"] == "idempotency_key_reused"

    late = {**command, "ref": "c6", "action": "play", "body": {"play": play}}
    sock.send(late)  # he has played: the opponent is to roll
    refused = sock.next("error", ref="c6")
    assert (refused["code"], refused["status"]) == ("not_your_turn", 409)
    sock.close()


def test_logout_takes_effect_at_once_on_every_process(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = players(cluster)
    match_id = online_match(ana, ben, clock="none")
    on_b = ana.on(cluster.b)
    assert on_b.get("/me").status_code == 200  # B has the token cached now
    sock = Socket(cluster.b.ws, ana.token)
    sock.next("hello")
    assert ana.post("/auth/logout").status_code == 204  # through A
    assert on_b.get("/me").status_code == 401
    with contextlib.suppress(Exception):  # the socket may already be closing
        sock.send({"type": "command", "ref": 1, "match": match_id, "action": "heartbeat"})
    # the revocation reached B's socket (or the command found the token gone): told, closed
    refused = sock.next("error")
    assert (refused["code"], refused["status"]) == ("authentication_failed", 401)
    assert sock.closed.wait(5) and sock.conn.close_code == 4401
    sock.close()
