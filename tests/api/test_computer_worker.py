"""The computer's turns played by a real Celery worker (in a thread) through Redis: the API
schedules the task on commit, the worker plays through the same services, the client sees
the moves arrive with the events long-poll. Skipped when Redis is not on 127.0.0.1:6379."""

from __future__ import annotations

import random
import socket
import uuid

import pytest

from tests.api.conftest import Policy, act, create

REDIS = ("127.0.0.1", 6379)


def _redis_up() -> bool:
    try:
        socket.create_connection(REDIS, timeout=1).close()
        return True
    except OSError:
        return False


@pytest.fixture
def redis_worker():  # type: ignore[no-untyped-def]
    if not _redis_up():
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    from celery.contrib.testing.worker import start_worker

    from tavla_project.celery import app

    saved = {
        k: app.conf[k]
        for k in (
            "broker_url",
            "task_default_queue",
            "task_always_eager",
            "broker_transport_options",
        )
    }
    # A database and a queue of our own: no other worker on this machine takes these tasks.
    app.conf.update(
        broker_url="redis://127.0.0.1:6379/13",
        task_default_queue=f"tavla-api-test-{uuid.uuid4().hex[:8]}",
        task_always_eager=False,
        broker_transport_options={"visibility_timeout": 60},
    )
    _drop_connections(app)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
            yield app
    finally:
        app.conf.update(saved)
        _drop_connections(app)


def _drop_connections(app) -> None:  # type: ignore[no-untyped-def]
    """Forget the pools made for our broker, so later senders connect to theirs."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_plays_the_computers_turns(make_player, redis_worker) -> None:
    ana = make_player()
    match_id = create(ana, mode="computer", level="random", length=1)["id"]
    policy = Policy(random.Random(9))
    computer_moves = 0
    state = ana.state(match_id)
    for _ in range(2000):
        if state["status"] != "active":
            break
        if state["to_act"]["who"] == "opponent":
            # wait for the worker: long-poll the events until something new arrives
            r = ana.get(f"/matches/{match_id}/events", data={"after": state["version"], "wait": 10})
            assert r.json()["events"], "the worker did not play the computer's turn"
            computer_moves += sum(1 for e in r.json()["events"] if e["data"].get("seat") == 1)
            state = ana.state(match_id)
            continue
        state = act(ana, match_id, state, policy)
    assert state["status"] == "finished"
    assert computer_moves > 0
