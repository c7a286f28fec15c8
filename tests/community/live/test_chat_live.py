"""Chat pushed on the match's WebSocket stream between two web processes (A and B share a
Redis; each watches the store only every 30 s, so what reaches B's sockets in time came
through pub/sub): a `say` reaches the opponent's socket on the other process, kibitz does
not reach a player who has not switched it on, and a page that reconnects reads exactly what
it missed with GET /matches/{id}/chat?after=."""

from __future__ import annotations

from typing import Any

from tests.streams.harness import Api, Socket, online_match, wait_for


def chat(api: Api, match_id: str, channel: str = "say", **body: Any) -> dict[str, Any]:
    r = api.post(f"/matches/{match_id}/chat", {"channel": channel, **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_say_reaches_the_opponent_on_the_other_process_and_resumes_without_gap(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = Api.guest(cluster.a), Api.guest(cluster.a)
    match_id = online_match(ana, ben, clock="none")
    version = ana.state(match_id)["version"]
    ben_socket = Socket(cluster.b.ws, ben.token)
    ben_socket.next("hello")
    ben_socket.send({"type": "subscribe", "match": match_id, "after": version})
    ben_socket.next("subscribed", match=match_id)

    said = chat(ana, match_id, text="good luck")
    pushed = ben_socket.next("chat", timeout=5, match=match_id)
    assert pushed["message"] == said  # the same body as the POST's

    # over ana's own socket on A: the same validation, the answer `said`
    ana_socket = Socket(cluster.a.ws, ana.token)
    ana_socket.next("hello")
    ana_socket.send({"type": "say", "ref": "s1", "match": match_id, "quick": "thanks"})
    answer = ana_socket.next("said", ref="s1")
    assert answer["status"] == 201 and answer["message"]["quick"] == "thanks"
    assert ben_socket.next("chat", match=match_id)["message"] == answer["message"]
    ana_socket.send({"type": "say", "ref": "s2", "match": match_id, "text": "x\u202ey"})
    refused = ana_socket.next("error", ref="s2")
    assert refused["status"] == 400 and refused["code"] == "invalid_message"
    seen = [said["id"], answer["message"]["id"]]

    # ben's page goes away; ana says two more lines; ben comes back and reads what he missed
    ben_socket.close()
    missed = [chat(ana, match_id, text=f"are you there? {i}")["id"] for i in range(2)]
    ben_socket = Socket(cluster.b.ws, ben.token)
    ben_socket.next("hello")
    ben_socket.send({"type": "subscribe", "match": match_id, "after": version})
    ben_socket.next("subscribed", match=match_id)
    r = ben.on(cluster.b).get(f"/matches/{match_id}/chat", after=seen[-1])
    assert [m["id"] for m in r.json()["messages"]] == missed
    everything = ben.on(cluster.b).get(f"/matches/{match_id}/chat").json()["messages"]
    assert [m["id"] for m in everything] == seen + missed  # in order, once each
    later = chat(ana, match_id, text="there you are")
    assert ben_socket.next("chat", match=match_id)["message"]["id"] == later["id"]
    assert later["id"] > missed[-1]
    for s in (ana_socket, ben_socket):
        s.close()


def test_kibitz_reaches_spectators_and_a_player_only_once_he_switches_it_on(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben, eve = Api.guest(cluster.a), Api.guest(cluster.a), Api.guest(cluster.a)
    match_id = online_match(ana, ben, clock="none", rated=False)  # rated: never, while live
    version = ana.state(match_id)["version"]
    sockets = {}
    for name, api in (("ben", ben), ("eve", eve)):
        sock = Socket(cluster.b.ws, api.token)
        sock.next("hello")
        sock.send({"type": "subscribe", "match": match_id, "after": version})
        sock.next("subscribed", match=match_id)
        sockets[name] = sock
    eve_socket = Socket(cluster.a.ws, eve.token)  # eve's own socket, on the other process
    eve_socket.next("hello")
    eve_socket.send({"type": "kibitz", "ref": "k1", "match": match_id, "text": "he should run"})
    kibitz = eve_socket.next("said", ref="k1")["message"]
    assert kibitz["channel"] == "kibitz"
    assert sockets["eve"].next("chat", match=match_id)["message"]["id"] == kibitz["id"]
    # ben (a player) hears the next say, and did not hear the kibitz before it
    say = chat(ana, match_id, text="your turn")
    assert sockets["ben"].next("chat", match=match_id)["message"]["id"] == say["id"]
    assert not [m for m in sockets["ben"].drain() if m.get("type") == "chat"]
    # a player may not kibitz, neither over the socket
    ben_a = Socket(cluster.a.ws, ben.token)
    ben_a.next("hello")
    ben_a.send({"type": "kibitz", "ref": "k2", "match": match_id, "text": "hi"})
    assert ben_a.next("error", ref="k2")["code"] == "permission_denied"
    # switched on, he hears it (in an unrated match)
    sockets["ben"].send({"type": "kibitz_switch", "ref": "o", "match": match_id, "on": True})
    assert sockets["ben"].next("kibitz_switched", ref="o")["on"] is True
    second = chat(eve, match_id, "kibitz", text="nice")
    assert sockets["ben"].next("chat", match=match_id)["message"]["id"] == second["id"]
    sockets["ben"].send({"type": "kibitz_switch", "ref": "f", "match": match_id, "on": False})
    sockets["ben"].next("kibitz_switched", ref="f")
    chat(eve, match_id, "kibitz", text="shh")
    last = chat(ana, match_id, text="done")
    assert sockets["ben"].next("chat", match=match_id)["message"]["id"] == last["id"]
    for s in (*sockets.values(), eve_socket, ben_a):
        s.close()


def test_a_challenge_is_heard_on_the_socket_of_the_other_process(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = Api.guest(cluster.a), Api.guest(cluster.a)
    ben_name = ben.get("/me").json()["username"]
    ana_socket = Socket(cluster.a.ws, ana.token)
    ana_socket.next("hello")
    ben_socket = Socket(cluster.b.ws, ben.token)
    ben_socket.next("hello")
    r = ana.post("/challenges", {"to": ben_name, "length": 1})
    assert r.status_code == 201, r.text
    heard = ben_socket.next("notification", kind="challenge")
    assert heard["challenge"] == r.json()
    accepted = ben.on(cluster.b).post(f"/challenges/{r.json()['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    told = ana_socket.next("notification", kind="challenge_answered")
    assert told["challenge"]["status"] == "accepted"
    assert told["match"] == accepted.json()["match"]
    for s in (ana_socket, ben_socket):
        s.close()


def test_kibitz_never_reaches_a_player_of_a_rated_match_being_played(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben, eve = Api.guest(cluster.a), Api.guest(cluster.a), Api.guest(cluster.a)
    match_id = online_match(ana, ben, clock="none")  # rated (the default for match play)
    version = ana.state(match_id)["version"]
    sock = Socket(cluster.b.ws, ben.token)
    sock.next("hello")
    sock.send({"type": "subscribe", "match": match_id, "after": version, "kibitz": True})
    sock.next("subscribed", match=match_id)
    chat(eve, match_id, "kibitz", text="he is lost")
    last = chat(ana, match_id, text="hm")
    assert sock.next("chat", match=match_id)["message"]["id"] == last["id"]
    assert not [m for m in sock.drain() if m.get("type") == "chat"]
    r = ben.get(f"/matches/{match_id}/chat", kibitz="true").json()["messages"]
    assert [m["channel"] for m in r] == ["say"]
    sock.close()


def test_a_friend_with_a_socket_open_on_the_other_process_is_online(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = Api.guest(cluster.a), Api.guest(cluster.a)
    ben_name = ben.get("/me").json()["username"]
    assert ana.post(f"/players/{ben_name}/follow").json() == {"following": True}

    def online() -> bool:
        return bool(ana.get("/me/following").json()["players"][0]["online"])

    assert not online()
    sock = Socket(cluster.b.ws, ben.token)
    sock.next("hello")
    wait_for(online, 8, "ben online")  # the hubs refresh every 5 s at most
    sock.close()
