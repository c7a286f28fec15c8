"""What a committed command owes to the outside survives a crash (README "What survives a
crash"): the computer's turn is played even when its message was never sent or was lost.

Real processes on the test's PostgreSQL database: a web process (gunicorn with a uvicorn
worker, as deployed), a Celery worker and beat, and a Redis of the test's own as the broker
(tests/servers.py), which the first test stops under them. A guest plays against the computer
over HTTP, as a client would:

- the broker is down at the moment he moves: the move is accepted at once, and within 10 s of
  the broker's return the computer has played (the beat's computer sweeper sends the turn);
- the web process is SIGKILLed between the commit and the send (TAVLA_AFTER_COMMIT_TEST_PAUSE
  holds it there): the move is in the store and the computer plays it out all the same;
- the worker is SIGKILLed in the middle of the computer's turn (TAVLA_COMPUTER_TEST_PAUSE
  holds it after its roll): a new worker finishes the turn, once (one roll, one play).
"""

from __future__ import annotations

import os
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from django.db import connection

from matches.store.models import MatchEvent
from tests.servers import Process, Redis, free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SWEEP = 1.0  # seconds between the computer sweeper's runs
OWED = 2.0  # seconds a computer's action may wait before the sweeper sends it again

pytestmark = [pytest.mark.django_db(transaction=True)]


def Proc(argv: list[str], env: dict[str, str], log: Path, ready: str) -> Process:
    """A process of the stack (tests/servers.py `Process`)."""
    return Process(argv, env, log, ready, ROOT)


class Stack:
    """Web, worker and beat on one Redis broker and the test database."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.redis = Redis(tmp)
        self.port = free_port()
        db = connection.settings_dict
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tavla_project.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": self.redis.url,
            "CELERY_VISIBILITY_TIMEOUT": "3600",  # redelivery is the sweeper's job here
            "TAVLA_COMPUTER_SWEEP_SECONDS": str(SWEEP),
            "TAVLA_COMPUTER_OWED_SECONDS": str(OWED),
            "CELERY_HEARTBEAT_SECONDS": "3600",
            "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp / "beat-schedule"),
            "TAVLA_VAR_DIR": str(tmp / "var"),
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": "1",
            "LOG_LEVEL": "INFO",
        }
        if db.get("PASSWORD"):
            self.env["PGPASSWORD"] = db["PASSWORD"]
        self.web: Proc | None = None
        self.worker: Proc | None = None
        self.beat: Proc | None = None
        self.url = f"http://127.0.0.1:{self.port}/api/v1"

    def start_web(self, **env: str) -> Proc:
        self.web = Proc(
            [str(BIN / "gunicorn"), "tavla_project.asgi:application", "-c",
             "deploy/gunicorn.conf.py"],
            {**self.env, **env}, self.tmp / "web.log", "Started server process",
        )  # fmt: skip
        return self.web

    def start_worker(self, **env: str) -> Proc:
        name = f"crash-{uuid.uuid4().hex[:6]}@%h"
        self.worker = Proc(
            [str(BIN / "celery"), "-A", "tavla_project", "worker", "--pool=prefork",
             "--concurrency=1", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "-n", name, "-l", "INFO"],
            {**self.env, **env}, self.tmp / "worker.log", "ready.",
        )  # fmt: skip
        return self.worker

    def start_beat(self) -> Proc:
        self.beat = Proc(
            [str(BIN / "celery"), "-A", "tavla_project", "beat", "-l", "INFO",
             "--max-interval", "1"],
            self.env, self.tmp / "beat.log", "beat: Starting",
        )  # fmt: skip
        return self.beat

    def stop(self) -> None:
        for proc in (self.web, self.worker, self.beat):
            if proc is not None:
                proc.stop()


@pytest.fixture(scope="module")
def stack(django_db_setup: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    s = Stack(tmp_path_factory.mktemp("crash-stack"))
    s.redis.start()
    try:
        s.start_web()
        s.start_worker()
        s.start_beat()
        yield s
    finally:
        s.stop()
        s.redis.stop()


class Guest:
    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        token = self.http.post("/auth/guest", json={}).json()["token"]
        self.http.headers["Authorization"] = f"Token {token}"

    def state(self, match_id: str) -> dict[str, Any]:
        return self.http.get(f"/matches/{match_id}").json()  # type: ignore[no-any-return]

    def until_my_turn(self, match_id: str, seconds: float = 20) -> dict[str, Any]:
        def mine() -> dict[str, Any] | None:
            state = self.state(match_id)
            return state if state["to_act"] and state["to_act"]["who"] == "you" else None

        return wait_for(mine, seconds, "my turn", 0.2)  # type: ignore[no-any-return]

    def post(self, match_id: str, action: str, body: dict[str, Any]) -> httpx.Response:
        return self.http.post(f"/matches/{match_id}/{action}", json=body)

    def to_a_play(self, match_id: str) -> dict[str, Any]:
        """A computer match where it is my turn to play (rolled); its state."""
        state = self.until_my_turn(match_id)
        if "roll" in state["actions"]:
            r = self.post(match_id, "roll", {"expected_version": state["version"]})
            assert r.status_code == 200, r.text
            state = r.json()
        if not state["legal_plays"]:  # a roll that cannot be played passes by itself
            return self.to_a_play(match_id)
        return state


def new_match(guest: Guest) -> str:
    r = guest.http.post("/matches", json={"mode": "computer", "level": "random", "length": 5})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def events_after(match_id: str, version: int) -> list[MatchEvent]:
    return list(MatchEvent.objects.filter(match_id=match_id, seq__gt=version).order_by("seq"))


def computer_played(match_id: str, version: int) -> bool:
    """The computer's turn after `version` is in the store: it moved (or passed) after it."""
    return any(e.type in ("moved", "passed") for e in events_after(match_id, version))


def test_the_broker_down_when_he_moves_the_computer_plays_once_it_is_back(stack: Stack) -> None:
    guest = Guest(stack.url)
    match_id = new_match(guest)
    state = guest.to_a_play(match_id)
    stack.redis.stop()
    try:
        started = time.monotonic()
        r = guest.post(
            match_id,
            "play",
            {"play": state["legal_plays"][0]["notation"], "expected_version": state["version"]},
        )
        took = time.monotonic() - started
        assert r.status_code == 200, r.text
        assert took < 5, f"the move waited {took:.1f} s for the broker"
        moved = r.json()["version"]
        time.sleep(3)  # the computer cannot have played: nothing reaches the worker
        assert not computer_played(match_id, moved)
    finally:
        stack.redis.start()
    back = time.monotonic()
    wait_for(lambda: computer_played(match_id, moved), 10, "the computer to play after the return")
    print(f"the computer played {time.monotonic() - back:.1f} s after the broker came back")


def test_the_web_process_killed_after_the_commit_the_computer_plays(stack: Stack) -> None:
    assert stack.web is not None
    stack.web.stop()
    paused = stack.start_web(TAVLA_AFTER_COMMIT_TEST_PAUSE="60")
    try:
        guest = Guest(stack.url)
        match_id = new_match(guest)
        state = guest.to_a_play(match_id)
        version = state["version"]
        sent = httpx.Client(base_url=stack.url, headers=guest.http.headers, timeout=5)
        body = {"play": state["legal_plays"][0]["notation"], "expected_version": version}
        with pytest.raises(httpx.HTTPError):  # the process dies before it answers
            waiting = sent.post(f"/matches/{match_id}/play", json=body, timeout=2)
            pytest.fail(f"answered before the kill: {waiting.status_code}")
        wait_for(
            lambda: "hooks wait" in paused.text(), 10, "the web process to stop after the commit"
        )
        assert events_after(match_id, version), "the move is committed"
        paused.kill()
    finally:
        paused.kill()  # also when the test failed before its kill
        stack.start_web()
    wait_for(lambda: computer_played(match_id, version + 1), 10, "the sweeper's computer turn")


def test_a_worker_killed_mid_turn_the_turn_is_finished_once(stack: Stack) -> None:
    assert stack.worker is not None
    guest = Guest(stack.url)
    match_id = new_match(guest)
    # My turn first, with the ordinary worker (if the computer won the opening roll, its first
    # play is made before the slow worker starts: the pause heard below is the turn after mine)
    state = guest.to_a_play(match_id)
    stack.worker.stop()
    slow = stack.start_worker(TAVLA_COMPUTER_TEST_PAUSE="60")
    try:
        r = guest.post(
            match_id,
            "play",
            {"play": state["legal_plays"][0]["notation"], "expected_version": state["version"]},
        )
        assert r.status_code == 200, r.text
        moved = r.json()["version"]
        wait_for(lambda: "the computer's turn waits" in slow.text(), 15, "the computer's roll")
        assert events_after(match_id, moved)[0].type == "rolled"
        slow.kill()
    finally:
        slow.kill()  # also when the test failed before its kill: no worker outlives the test
        stack.start_worker()
    wait_for(lambda: computer_played(match_id, moved), 15, "the new worker to finish the turn")
    time.sleep(OWED + 2 * SWEEP)  # a second delivery of the turn, if any, would act by now
    turn = []
    for event in events_after(match_id, moved):
        turn.append(event.type)
        if event.type in ("moved", "passed"):
            break
    assert turn[0] == "rolled" and turn.count("rolled") == 1, turn
    assert MatchEvent.objects.filter(match_id=match_id, seq=moved + 1, type="rolled").count() == 1
