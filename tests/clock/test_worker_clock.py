"""The clock enforced by a real Celery worker and beat (subprocesses) through a real Redis and
the test's PostgreSQL database, with a short clock (1 s delay, 1 s reserve, 2 s per move).

Redis is a server of our own (`redis-server` on a free port, nothing saved), so stopping it
for the broker-outage test disturbs nobody. The worker and beat run `tavla_project.settings`
with DATABASE_URL pointing at pytest-django's `test_<name>` database; the tests are
transactional so they see each other's committed rows. `redis-server` must be installed
(.ci/run installs it); without it these tests fail, they do not skip.

Test-only knob: TAVLA_CLOCK_TEST_PAUSE (seconds) makes the worker hold each timeout's
transaction open before it commits, so the kill test can SIGKILL it in the middle of one.
"""

from __future__ import annotations

import os
import re
import sys
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from matches import services
from matches.store.models import Match, MatchEvent
from tests.servers import Process, Redis, wait_for

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))
CLOCK = {"delay": 1, "reserve": 1, "max_move": 2, "reconnect": 60}
VISIBILITY = 5  # seconds: the broker redelivers an unacknowledged task after this
SWEEP = 1.0  # seconds between sweeps

pytestmark = [pytest.mark.django_db(transaction=True)]


def Proc(args: list[str], env: dict[str, str], log: Path, ready: str) -> Process:
    """A celery worker or beat (tests/servers.py `Process`)."""
    return Process([CELERY, "-A", "tavla_project", *args], env, log, ready, ROOT)


class Cluster:
    """Our Redis, a worker and beat, and the test process sending tasks to the same Redis."""

    def __init__(self, tmp: Path, database: str) -> None:
        self.tmp = tmp
        self.redis = Redis(tmp)
        db = connection.settings_dict
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tavla_project.settings",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{database}",
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": self.redis.url,
            "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY),
            "CELERY_UNACKED_RESTORE_INTERVAL": "1",
            "TAVLA_CLOCK_SWEEP_SECONDS": str(SWEEP),
            "CELERY_HEARTBEAT_SECONDS": "3600",
            "CELERY_BEAT_SCHEDULE_FILENAME": str(tmp / "beat-schedule"),
            "LOG_LEVEL": "INFO",
        }
        if db.get("PASSWORD"):
            self.env["PGPASSWORD"] = db["PASSWORD"]
        self.worker: Proc | None = None
        self.beat: Proc | None = None

    def start_worker(self, **env: str) -> Proc:
        name = f"clock-test-{uuid.uuid4().hex[:6]}@%h"
        self.worker = Proc(
            [
                "worker",
                "--pool=prefork",
                "--concurrency=1",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                name,
                "-l",
                "INFO",
            ],
            {**self.env, **env},
            self.tmp / "worker.log",
            "ready.",
        )
        return self.worker

    def start_beat(self) -> Proc:
        self.beat = Proc(
            ["beat", "-l", "INFO", "--max-interval", "1"],
            self.env,
            self.tmp / "beat.log",
            "beat: Starting",
        )
        return self.beat

    def stop(self) -> None:
        for proc in (self.worker, self.beat):
            if proc is not None:
                proc.stop()


@pytest.fixture(scope="module")
def cluster(django_db_setup: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    from tavla_project.celery import app

    tmp = tmp_path_factory.mktemp("clock-cluster")
    c = Cluster(tmp, connection.settings_dict["NAME"])
    c.redis.start()
    saved = {k: app.conf[k] for k in ("broker_url", "broker_transport_options")}
    app.conf.update(
        broker_url=c.redis.url, broker_transport_options={"visibility_timeout": VISIBILITY}
    )
    _drop_connections(app)
    try:
        c.start_beat()
        c.start_worker()
        yield c
    finally:
        c.stop()
        c.redis.stop()
        app.conf.update(saved)
        _drop_connections(app)


def _drop_connections(app: Any) -> None:
    """Forget the pools made for one broker, so later senders connect to the right one."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def players(django_user_model: Any) -> tuple[Any, Any]:
    return (
        django_user_model.objects.create_user("ana"),
        django_user_model.objects.create_user("bob"),
    )


def start_match(players: tuple[Any, Any], clock: dict[str, float] = CLOCK) -> Any:
    ana, bob = players
    view = services.match_create(user=ana, mode="online", length=1, clock=clock)
    return services.match_join(match_id=view.match_id, user=bob)


def ended(match_id: Any) -> str:
    match = Match.objects.get(pk=match_id)
    return match.ended_by if match.status == Match.Status.FINISHED else ""


def count(match_id: Any, kind: str) -> int:
    return MatchEvent.objects.filter(match_id=match_id, type=kind).count()


def play_any(view: Any, user: Any) -> Any:
    from games.rules.plays import legal_plays

    state = view.state
    plays = legal_plays(state.position_for(state.to_act), state.dice)
    steps = [[s.frm, s.to] for s in plays[0].steps] if plays else []
    return services.match_play(match_id=view.match_id, user=user, play=steps)


def test_a_player_who_stops_moving_loses_on_time(cluster: Cluster, players: Any) -> None:
    view = start_match(players)
    deadline = view.clock.deadline()
    loser = view.clock.running
    wait_for(lambda: ended(view.match_id), 6, "the worker to time the match out")
    event = MatchEvent.objects.get(match_id=view.match_id, type="timed_out")
    assert event.payload["seat"] == loser and event.actor_id is None
    assert event.created_at >= deadline
    assert Match.objects.get(pk=view.match_id).winner == 1 - loser
    # Written by the worker, not by us, just after its commit: the line may trail the row.
    wait_for(lambda: "lost on time" in cluster.worker.text(), 5, "the worker's log line")


def test_a_player_who_moves_in_time_never_loses_on_time(cluster: Cluster, players: Any) -> None:
    from games.rules import match as rules

    by_seat = dict(zip((0, 1), players, strict=True))
    view = start_match(players)
    started = time.monotonic()
    while time.monotonic() - started < 3.5:  # longer than a move may take: tasks fire
        state = view.state
        user = by_seat[state.to_act]
        time.sleep(0.25)
        if state.phase == rules.Phase.ROLL:
            view = services.match_roll(match_id=view.match_id, user=user)
        else:
            view = play_any(view, user)
    while view.state.phase != rules.Phase.ROLL:  # finish the move in hand
        view = play_any(view, by_seat[view.state.to_act])
    view = services.match_resign(match_id=view.match_id, user=by_seat[view.state.to_act])
    view = services.match_accept_resign(match_id=view.match_id, user=by_seat[view.state.to_act])
    assert ended(view.match_id) == "resign"
    # The tasks of the last moves still come (and do nothing).
    last = timezone.now()
    time.sleep(max(0.0, (last + timedelta(seconds=2.3) - timezone.now()).total_seconds()))
    assert count(view.match_id, "timed_out") == 0
    assert "enforce_clock" in cluster.worker.text()


def test_a_worker_killed_during_a_timeout_still_times_out_exactly_once(
    cluster: Cluster, players: Any
) -> None:
    assert cluster.worker is not None
    cluster.worker.stop()
    slow = cluster.start_worker(TAVLA_CLOCK_TEST_PAUSE="30")
    view = start_match(players)
    held = wait_for(
        lambda: re.search(r"task (\S+) holds the timeout open", slow.text()),
        8,
        "the timeout to start",
    )
    task_id = held.group(1)
    assert count(view.match_id, "timed_out") == 0  # written, not committed
    slow.kill()
    fresh = cluster.start_worker()
    wait_for(lambda: ended(view.match_id), 10, "the restarted worker to time the match out")
    # The broker delivers the killed task again (after the visibility timeout): it runs to the
    # end and changes nothing.
    wait_for(
        lambda: re.search(rf"\[{task_id}\] (succeeded|expired)", fresh.text()),
        VISIBILITY + 6,
        "the killed task to be delivered again",
        0.2,
    )
    assert count(view.match_id, "timed_out") == 1
    assert ended(view.match_id) == "timeout"


def test_the_sweeper_catches_up_after_a_broker_outage(cluster: Cluster, players: Any) -> None:
    cluster.redis.stop()
    try:
        view = start_match(players)  # its deadline task cannot be sent
        time.sleep(max(0.0, (view.clock.deadline() - timezone.now()).total_seconds() + 1))
        assert ended(view.match_id) == ""  # overdue, and nobody can act on it
    finally:
        cluster.redis.start()
    wait_for(lambda: ended(view.match_id), 20, "the sweeper after the broker returned", 0.2)
    assert count(view.match_id, "timed_out") == 1


def test_a_player_who_leaves_forfeits(cluster: Cluster, players: Any) -> None:
    from matches.services import presence

    view = start_match(players, {"delay": 30, "reserve": 30, "max_move": 30, "reconnect": 2})
    here = view.clock.running  # keeps coming back; the other one is gone
    match = Match.objects.get(pk=view.match_id)
    by_seat = dict(zip((0, 1), players, strict=True))
    end = time.monotonic() + 8
    while time.monotonic() < end and not ended(view.match_id):
        presence.touch(match, by_seat[here])
        time.sleep(0.3)
    assert ended(view.match_id) == "forfeit"
    assert Match.objects.get(pk=view.match_id).winner == here
    assert count(view.match_id, "forfeited") == 1
