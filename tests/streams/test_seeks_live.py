"""Quick pairing on the push streams (docs/ratings.md): a seeker's socket hears that his seek
was paired, on another process, and an open socket keeps his waiting seek alive with no poll."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from matches.store.models import Seek

from .harness import Api, Server, Socket


def test_a_paired_seeker_hears_it_on_his_socket_of_another_process(cluster) -> None:  # type: ignore[no-untyped-def]
    ana, ben = Api.guest(cluster.a), Api.guest(cluster.a)
    inbox = Socket(cluster.b.ws, ana.token)
    inbox.next("hello")
    waiting = ana.post("/seeks", {"length": 1})
    assert waiting.status_code == 201 and waiting.json()["status"] == "waiting"
    paired = ben.post("/seeks", {"length": 1}).json()  # through A
    assert paired["status"] == "paired"
    note = inbox.next("notification", timeout=3, kind="seek_paired")
    assert note["match"] == paired["match"] and note["seek"] == waiting.json()["id"]
    assert note["version"] == ana.state(paired["match"])["version"]  # nobody moved yet
    inbox.close()


@pytest.fixture(scope="module")
def short_seeks(cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:  # type: ignore[no-untyped-def]
    """A server whose seeks expire after 3 s without their owner."""
    env = {**cluster.env, "TAVLA_SEEK_TIMEOUT": "3"}
    server = Server(env, tmp_path_factory.mktemp("seeks") / "d.log")
    try:
        yield server
    finally:
        server.stop()


def test_an_open_socket_keeps_a_seek_alive_a_closed_one_does_not(short_seeks: Server) -> None:
    ana, ben, cem, dan = (Api.guest(short_seeks) for _ in range(4))
    sock = Socket(short_seeks.ws, ana.token)
    sock.next("hello")
    kept = ana.post("/seeks", {"length": 3}).json()
    time.sleep(4.5)  # no poll for longer than the 3 s timeout: the socket kept it
    paired = ben.post("/seeks", {"length": 3}).json()
    assert paired["status"] == "paired" and paired["opponent"]["username"] == username(ana)
    assert Seek.objects.get(pk=kept["id"]).status == "paired"
    sock.close()

    forgotten = cem.post("/seeks", {"length": 5}).json()
    time.sleep(4.5)  # no socket, no poll
    alone = dan.post("/seeks", {"length": 5}).json()
    assert alone["status"] == "waiting"  # cem's seek is gone: never paired
    assert Seek.objects.get(pk=forgotten["id"]).match_id is None


def username(player: Api) -> Any:
    return player.get("/me").json()["username"]
